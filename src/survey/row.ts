// One survey row from one record: every crawler's verdicts come from agentSetVerdicts (the
// engine's decisions, one seam), the outcome of the status from the fetch's own statusOutcome,
// and the lint counts from the same checks `robotstxt lint` runs. Never throws on content: a
// record that could not be read becomes a row with outcome `error`. A row is computed packed
// (packRow, what worker threads send) and handed out expanded and frozen (expandRow).

import { agentSetVerdicts } from '../engine/agents.js'
import { lint } from '../engine/lint.js'
import { DEFAULT_MAX_BYTES, robotsOver } from '../engine/robots.js'
import { statusOutcome } from '../http/fetch.js'
import type { SurveyPlan } from './plan.js'
import type { SurveyCrawler, SurveyOutcome, SurveyPathVerdict, SurveyRow } from './types.js'

/** One robots.txt response as an input yields it, before any decision. */
export interface SurveyRecord {
  origin: string
  source: string
  offset: number
  /** When it was captured, ISO 8601 to the second in UTC; null when unknown. */
  captured: string | null
  /** HTTP status; null when there was no response (then `error` says why, or the fetch failed). */
  status: number | null
  /** The first DEFAULT_MAX_BYTES of the decoded body; null without a body. */
  body: Uint8Array | null
  /** Decoded body size, also what was not kept. */
  bytes: number
  /** Set when the record could not be read: the row has outcome `error`. */
  error: string | null
  /** No response (status null): the failure's code, when the input knows it (a live fetch). */
  failure?: string
}

/** The outcome of a record's status. */
function outcomeOf(rec: SurveyRecord): SurveyOutcome {
  if (rec.error !== null) return 'error'
  if (rec.status === null) return 'disallow-all'
  // An archive holds one response: a redirect whose target it does not hold is a chain that cannot
  // be followed, which statusOutcome (RFC 9309 2.3.1.2) answers as a 404.
  return statusOutcome(rec.status)
}

/**
 * A row as it crosses threads: plain arrays, each crawler's values given once per distinct
 * selection of groups (most crawlers of a file fall to the same `*` groups), and crawlers by
 * index into those. `expandRow` makes the SurveyRow of it, so threads 1 and N build rows alike.
 */
export type PackedRow = [
  origin: string, source: string, offset: number, captured: string | null, outcome: SurveyOutcome, status: number | null, bytes: number,
  error: string | null, sitemaps: number, lintErrors: number, lintCodes: string[],
  selections: PackedSelection[], crawlerSelections: number[],
]
/**
 * One selection's values: its class (null when the outcome is not `ok`), named, [allowed, line]
 * per path, Crawl-delay, [category, allowed] pairs. `by` follows from class and named.
 */
type PackedSelection = [cls: SurveyCrawler['class'], named: boolean, paths: (boolean | number)[], crawlDelay: number | null, preferences: (string | boolean | null)[]]

// Indices of a packed row's fields that packRow fills in after the start.
const SITEMAPS = 8
const LINT_ERRORS = 9
const LINT_CODES = 10
const SELECTIONS = 11
const CRAWLER_SELECTIONS = 12

/** The row's error column: why an `error` record could not be read, or a failure's code when no response came. */
function errorColumn(rec: SurveyRecord, outcome: SurveyOutcome): string | null {
  if (outcome === 'error') return rec.error
  return outcome === 'disallow-all' && rec.status === null ? (rec.failure ?? null) : null
}

/** The row of one record under `plan`. */
export function surveyRow(rec: SurveyRecord, plan: SurveyPlan): SurveyRow {
  return expandRow(packRow(rec, plan), plan)
}

/** The row of one record under `plan`, packed. */
export function packRow(rec: SurveyRecord, plan: SurveyPlan): PackedRow {
  const outcome = outcomeOf(rec)
  const row: PackedRow = [rec.origin, rec.source, rec.offset, rec.captured, outcome, rec.status, rec.bytes, errorColumn(rec, outcome), 0, 0, [], [], []]
  if (outcome === 'error') return row
  const sel = row[CRAWLER_SELECTIONS]
  if (outcome !== 'ok') {
    // No rules were read: no class and no `by` (a failure is not a site's choice to block), and the
    // verdicts are the outcome's, as a crawler acts on it.
    const allowed = outcome === 'allow-all'
    row[SELECTIONS].push([null, false, plan.paths.flatMap(() => [allowed, 0]), null, []])
    for (let i = 0; i < plan.crawlers.length; i++) sel.push(0)
    return row
  }
  const body = rec.body ?? new Uint8Array(0)
  // Not parseRobots, which copies the bytes: a record's body is the row's own while the row is
  // computed (the Robots does not outlive it), and the readers cut it to size already.
  const robots = robotsOver(body.length > DEFAULT_MAX_BYTES ? body.subarray(0, DEFAULT_MAX_BYTES) : body)
  // Lint first: its scan of every line also parses the body for what follows.
  const findings = lint({ robots, body, size: rec.bytes, truncated: rec.bytes > body.length || body.length > DEFAULT_MAX_BYTES }).findings
  const codes = new Set<string>()
  for (const f of findings) {
    if (f.severity === 'error') row[LINT_ERRORS]++
    if (f.severity !== 'info') codes.add(f.code)
  }
  row[LINT_CODES] = [...codes].sort()
  const results = agentSetVerdicts(robots, tokenSets(plan), plan.paths)
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!
    sel.push(r.selection)
    if (r.selection < row[SELECTIONS].length) continue
    // The first crawler of a selection answers for all of them: Crawl-delay and preferences come
    // from the groups naming the tokens, else the global ones, the very groups the selection is.
    const tokens = plan.crawlers[i]!.tokens
    const paths: (boolean | number)[] = []
    let disallowed = 0
    for (const v of r.verdicts) {
      if (v < 0) disallowed++
      paths.push(v >= 0, Math.abs(v))
    }
    const cls = r.disallows === 0 ? 'allowed' : disallowed === r.verdicts.length && r.allows === 0 ? 'blocked' : 'partial'
    const prefs: (string | boolean | null)[] = []
    for (const [category, p] of Object.entries(robots.usagePreferences(tokens))) prefs.push(category, p.allowed)
    row[SELECTIONS].push([cls, r.named, paths, robots.crawlDelay(tokens) ?? null, prefs])
  }
  row[SITEMAPS] = robots.sitemaps.length
  return row
}

/**
 * The crawlers' token sets of a plan, frozen (a plan cloned into a worker thread is not), so that
 * agentSetVerdicts checks them once per plan instead of once per row.
 */
const planSets = new WeakMap<SurveyPlan, readonly (readonly string[])[]>()

function tokenSets(plan: SurveyPlan): readonly (readonly string[])[] {
  let sets = planSets.get(plan)
  if (sets === undefined) {
    sets = Object.freeze(plan.crawlers.map((c) => (Object.isFrozen(c.tokens) ? c.tokens : Object.freeze([...c.tokens]))))
    planSets.set(plan, sets)
  }
  return sets
}

/**
 * The SurveyRow of a packed row, frozen: the crawlers of one selection share its paths and
 * preferences, which freezing makes safe to hand out.
 */
export function expandRow(p: PackedRow, plan: SurveyPlan): SurveyRow {
  const shared = p[SELECTIONS].map(([cls, named, flat, crawlDelay, prefs]) => {
    const paths: SurveyPathVerdict[] = []
    for (let k = 0; k < plan.paths.length; k++) paths.push(Object.freeze({ path: plan.paths[k]!, allowed: flat[2 * k] as boolean, line: flat[2 * k + 1] as number }))
    // Categories are text from the file: an object with no prototype.
    const preferences = Object.create(null) as Record<string, boolean | null>
    for (let j = 0; j < prefs.length; j += 2) preferences[prefs[j] as string] = prefs[j + 1] as boolean | null
    const by: SurveyCrawler['by'] = cls === null ? null : named ? 'name' : '*'
    return { class: cls, by, named, paths: Object.freeze(paths) as SurveyPathVerdict[], preferences: Object.freeze(preferences), crawlDelay }
  })
  const crawlers = p[CRAWLER_SELECTIONS].map((s, i): SurveyCrawler => {
    const v = shared[s]!
    return Object.freeze({ name: plan.crawlers[i]!.name, class: v.class, by: v.by, named: v.named, paths: v.paths, preferences: v.preferences, crawlDelay: v.crawlDelay })
  })
  return Object.freeze({
    origin: p[0], source: p[1], offset: p[2], captured: p[3], outcome: p[4], status: p[5], bytes: p[6], error: p[7], sitemaps: p[SITEMAPS], lintErrors: p[LINT_ERRORS],
    lintCodes: Object.freeze(p[LINT_CODES]) as string[], crawlers: Object.freeze(crawlers) as SurveyCrawler[],
  })
}
