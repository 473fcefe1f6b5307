// The survey chunk (dist/survey.js): `surveyRobots` and what the `survey` command needs, bundled
// with warcio. The package's main Node entry and the CLI load it only when a survey runs, so they
// keep no runtime dependency; loaded as a survey worker thread, it serves batches (pool.ts).
// Order: rows come in input order (inputs.ts), whatever the thread count.

import { DEFAULT_MAX_BYTES } from '../engine/robots.js'
import { fetchConfig, fetchRaw, type RawFetch } from '../http/fetch.js'
import { locateRobots } from '../http/origin.js'
import { PACKAGE_USER_AGENT } from '../http/user-agent.js'
import { SurveyAggregate } from './aggregate.js'
import { inputUnits, unitRecords, type InputUnits } from './inputs.js'
import { sourcesOf, surveyPlan, type SurveyPlan, type SurveySources } from './plan.js'
import { pooledRows, serveIfWorker, type PoolStats } from './pool.js'
import { surveyRow, type SurveyRecord } from './row.js'
import type { SurveyInput, SurveyOptions, SurveyRow, SurveyRun, SurveySummary } from './types.js'

export { surveyPlan, SETS, type SurveyPlan } from './plan.js'
export { csvHeader, csvLine, jsonLine } from './columns.js'
export { inputUnits, isListing, isUrl, type InputUnits } from './inputs.js'
export type { PoolStats } from './pool.js'
export { SurveyAggregate } from './aggregate.js'
export { surveyReport } from './report.js'
export { parquetSink, type RowSink } from './parquet.js'

/** The User-Agent of the survey's requests (live robots.txt, WARC files and listings): the package's own, as every fetch made for no agent sends. */
export const SURVEY_USER_AGENT = PACKAGE_USER_AGENT
/** A live robots.txt body is counted up to this size (`bytes`); only the first 500 KiB are kept. */
export const LIVE_COUNT_LIMIT = 16 << 20

/**
 * One row per robots.txt of the input, in input order, for every crawler and path of `options`,
 * and their summary. Bad arguments throw a TypeError at once; bad content never throws (it gives
 * rows with outcome `error`). Node only: it reads files and runs worker threads.
 */
export function surveyRobots(input: SurveyInput, options?: SurveyOptions): SurveyRun {
  return surveyChecked(sourcesOf(input), surveyPlan(options))
}

/** What a caller of surveyChecked may learn as the survey runs (the CLI: its progress line and messages). */
export interface SurveyHooks {
  /** The input units, once known (before the first row). */
  units?: (units: InputUnits) => void
  /** The pool's counters (the tests of its bound). */
  stats?: PoolStats
}

/**
 * @internal surveyRobots on arguments the main entry has checked (lazy.ts): the survey runs on
 * what was checked at the call, never on a second read of the caller's input and options.
 */
export function surveyChecked(sources: SurveySources, plan: SurveyPlan, hooks: SurveyHooks = {}): SurveyRun {
  let settle: { resolve: (s: SurveySummary) => void; reject: (e: unknown) => void } | undefined
  const summary = new Promise<SurveySummary>((resolve, reject) => (settle = { resolve, reject }))
  // Handled here: a caller that never reads the summary must not see an unhandled rejection.
  summary.catch(() => undefined)
  return { summary, [Symbol.asyncIterator]: () => summarized(sources, plan, hooks, settle!) }
}

/** @internal surveyRobots with the pool's counters exposed (the tests of its bound). */
export function surveyWithStats(input: SurveyInput, options: SurveyOptions | undefined, stats: PoolStats): AsyncIterable<SurveyRow> {
  return surveyChecked(sourcesOf(input), surveyPlan(options), { stats })
}

/** The rows, each added to the summary, which settles when they end (the first iteration to end settles it). */
async function* summarized(sources: SurveySources, plan: SurveyPlan, hooks: SurveyHooks, settle: { resolve: (s: SurveySummary) => void; reject: (e: unknown) => void }): AsyncGenerator<SurveyRow> {
  const aggregate = new SurveyAggregate(plan)
  let skipped = 0
  const units = (u: InputUnits): void => {
    skipped = u.skipped.reduce((n, f) => n + f.files, 0)
    hooks.units?.(u)
  }
  let done = false
  try {
    const records = allRecords(sources, plan, units)
    if (plan.threads === 1) {
      // Rows computed here, as each record comes: no generator between the records and the caller.
      for await (const record of records) {
        const row = surveyRow(record, plan)
        aggregate.add(row)
        yield row
      }
    } else {
      for await (const row of pooledRows(records, plan, hooks.stats)) {
        aggregate.add(row)
        yield row
      }
    }
    done = true
    settle.resolve(aggregate.summary(skipped))
  } catch (e) {
    settle.reject(e)
    throw e
  } finally {
    if (!done) settle.reject(new Error('surveyRobots: the rows were not all read, so there is no summary of them'))
  }
}

async function* allRecords(sources: SurveySources, plan: SurveyPlan, onUnits: (u: InputUnits) => void): AsyncGenerator<SurveyRecord> {
  const found = await inputUnits(sources.paths, plan.shard, { prefix: plan.prefix, userAgent: SURVEY_USER_AGENT })
  onUnits(found)
  for (const unit of found.units) yield* unitRecords(unit, { maxPipeBytes: plan.maxPipeBytes, userAgent: SURVEY_USER_AGENT })
  const [index, count] = plan.shard
  yield* liveRecords(sources.origins.filter((_, i) => i % count === index), plan)
}

/** ISO 8601 to the second, in UTC: the form of every row's `captured`. */
const isoSecond = (t: number): string => new Date(t).toISOString().replace(/\.[0-9]{3}Z$/, 'Z')

/** A failed fetch's code, for the row's error column (a failure with no response always has one). */
function failureCode(raw: RawFetch): string {
  return raw.error?.code ?? 'other'
}

/** Fetches `origins` (at most plan.concurrency at a time) through the package's fetch; records in list order. */
async function* liveRecords(origins: readonly string[], plan: SurveyPlan): AsyncGenerator<SurveyRecord> {
  const config = { ...fetchConfig({ timeoutMs: plan.timeoutMs, userAgent: SURVEY_USER_AGENT }), countTo: LIVE_COUNT_LIMIT }
  const fetchOne = async (given: string, offset: number): Promise<SurveyRecord> => {
    let located
    try {
      located = locateRobots(given.includes('://') ? given : `https://${given}`)
    } catch {
      return { origin: '', source: 'live', offset, captured: null, status: null, body: null, bytes: 0, error: `not an http(s) origin: ${JSON.stringify(given.slice(0, 200))}` }
    }
    const raw = await fetchRaw(located.robotsUrl, config, undefined)
    const captured = isoSecond(Date.now())
    const body = raw.body ?? null
    const record: SurveyRecord = { origin: located.origin, source: 'live', offset, captured, status: raw.status, body: body?.subarray(0, DEFAULT_MAX_BYTES) ?? null, bytes: raw.size ?? body?.length ?? 0, error: null }
    if (raw.status === null) record.failure = failureCode(raw)
    return record
  }
  const window: Promise<SurveyRecord>[] = []
  let i = 0
  while (i < origins.length || window.length > 0) {
    while (i < origins.length && window.length < plan.concurrency) {
      window.push(fetchOne(origins[i]!, i))
      i++
    }
    yield await window.shift()!
  }
}

serveIfWorker()
