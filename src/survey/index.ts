// The survey chunk (dist/survey.js): `surveyRobots` and what the `survey` command needs, bundled
// with warcio. The package's main Node entry and the CLI load it only when a survey runs, so they
// keep no runtime dependency; loaded as a survey worker thread, it serves batches (pool.ts).
// Order: rows come in input order (inputs.ts), whatever the thread count.

import { DEFAULT_MAX_BYTES } from '../engine/robots.js'
import { fetchConfig, fetchRaw } from '../http/fetch.js'
import { locateRobots } from '../http/origin.js'
import { inputUnits, unitRecords } from './inputs.js'
import { sourcesOf, surveyPlan, type SurveyPlan, type SurveySources } from './plan.js'
import { pooledRows, serveIfWorker, type PoolStats } from './pool.js'
import { surveyRow, type SurveyRecord } from './row.js'
import type { SurveyInput, SurveyOptions, SurveyRow } from './types.js'

export { surveyPlan, SETS, type SurveyPlan } from './plan.js'
export { csvHeader, csvLine, jsonLine } from './columns.js'
export { inputUnits } from './inputs.js'
export type { PoolStats } from './pool.js'
export { SurveyAggregate, type SurveyTotals } from './aggregate.js'
export { surveyReport } from './report.js'

/**
 * One row per robots.txt of the input, in input order, for every crawler and path of `options`.
 * Bad arguments throw a TypeError at once; bad content never throws (it gives rows with outcome
 * `error`). Node only: it reads files and runs worker threads.
 */
export function surveyRobots(input: SurveyInput, options?: SurveyOptions): AsyncIterable<SurveyRow> {
  return surveyChecked(sourcesOf(input), surveyPlan(options))
}

/**
 * @internal surveyRobots on arguments the main entry has checked (lazy.ts): the survey runs on
 * what was checked at the call, never on a second read of the caller's input and options.
 */
export function surveyChecked(sources: SurveySources, plan: SurveyPlan): AsyncIterable<SurveyRow> {
  return { [Symbol.asyncIterator]: () => surveyRows(sources, plan) }
}

/** @internal surveyRobots with the pool's counters exposed (the tests of its bound). */
export function surveyWithStats(input: SurveyInput, options: SurveyOptions | undefined, stats: PoolStats): AsyncIterable<SurveyRow> {
  const sources = sourcesOf(input)
  const plan = surveyPlan(options)
  return { [Symbol.asyncIterator]: () => surveyRows(sources, plan, stats) }
}

async function* surveyRows(sources: SurveySources, plan: SurveyPlan, stats?: PoolStats): AsyncGenerator<SurveyRow> {
  const records = allRecords(sources, plan)
  if (plan.threads === 1) {
    for await (const r of records) yield surveyRow(r, plan)
    return
  }
  yield* pooledRows(records, plan, stats)
}

async function* allRecords(sources: SurveySources, plan: SurveyPlan): AsyncGenerator<SurveyRecord> {
  for (const unit of await inputUnits(sources.paths, plan.shard)) yield* unitRecords(unit, plan.maxPipeBytes)
  const [index, count] = plan.shard
  yield* liveRecords(sources.origins.filter((_, i) => i % count === index), plan)
}

/** Fetches `origins` (at most plan.concurrency at a time) through the package's fetch; records in list order. */
async function* liveRecords(origins: readonly string[], plan: SurveyPlan): AsyncGenerator<SurveyRecord> {
  const config = fetchConfig({ timeoutMs: plan.timeoutMs })
  const fetchOne = async (given: string, offset: number): Promise<SurveyRecord> => {
    let located
    try {
      located = locateRobots(given.includes('://') ? given : `https://${given}`)
    } catch {
      return { origin: '', source: 'live', offset, status: null, body: null, bytes: 0, error: `not an http(s) origin: ${JSON.stringify(given.slice(0, 200))}` }
    }
    const raw = await fetchRaw(located.robotsUrl, config, undefined)
    const body = raw.body ?? null
    return { origin: located.origin, source: 'live', offset, status: raw.status, body: body?.subarray(0, DEFAULT_MAX_BYTES) ?? null, bytes: body?.length ?? 0, error: null }
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
