// One survey row from one record: every crawler's verdicts come from agentSetVerdicts (the
// engine's decisions, one seam), the outcome of the status from the fetch's own statusOutcome,
// and the lint counts from the same checks `robotstxt lint` runs. Never throws on content: a
// record that could not be read becomes a row with outcome `error`.

import { agentSetVerdicts } from '../engine/agents.js'
import { lint } from '../engine/lint.js'
import { DEFAULT_MAX_BYTES, parseRobots } from '../engine/robots.js'
import { statusOutcome } from '../http/fetch.js'
import type { SurveyPlan } from './plan.js'
import type { SurveyCrawler, SurveyOutcome, SurveyRow } from './types.js'

/** One robots.txt response as an input yields it, before any decision. */
export interface SurveyRecord {
  origin: string
  source: string
  offset: number
  /** HTTP status; null when there was no response (then `error` says why, or the fetch failed). */
  status: number | null
  /** The first DEFAULT_MAX_BYTES of the decoded body; null without a body. */
  body: Uint8Array | null
  /** Decoded body size, also what was not kept. */
  bytes: number
  /** Set when the record could not be read: the row has outcome `error`. */
  error: string | null
}

/** The outcome of a record's status. */
function outcomeOf(rec: SurveyRecord): SurveyOutcome {
  if (rec.error !== null) return 'error'
  if (rec.status === null) return 'disallow-all'
  const decision = statusOutcome(rec.status)
  // An archive holds one response: a redirect whose target it does not hold is taken as a chain
  // that cannot be followed, which RFC 9309 2.3.1.2 handles as a 404.
  return decision === 'redirect' ? 'allow-all' : decision
}

/** The row of one record under `plan`. */
export function surveyRow(rec: SurveyRecord, plan: SurveyPlan): SurveyRow {
  const outcome = outcomeOf(rec)
  const row: SurveyRow = {
    origin: rec.origin, source: rec.source, offset: rec.offset, outcome, status: rec.status, bytes: rec.bytes,
    error: rec.error, sitemaps: 0, lintErrors: 0, lintCodes: [], crawlers: [],
  }
  if (outcome === 'error') return row
  if (outcome !== 'ok') {
    const allowed = outcome === 'allow-all'
    row.crawlers = plan.crawlers.map((c) => ({
      name: c.name, class: allowed ? 'allowed' : 'blocked', named: false,
      paths: plan.paths.map((path) => ({ path, allowed, line: 0 })), preferences: {}, crawlDelay: null,
    }))
    return row
  }
  const body = rec.body ?? new Uint8Array(0)
  const robots = parseRobots(body)
  const results = agentSetVerdicts(robots, plan.crawlers.map((c) => c.tokens), plan.paths)
  row.crawlers = plan.crawlers.map((c, i): SurveyCrawler => {
    const r = results[i]!
    let disallowed = 0
    const paths = plan.paths.map((path, k) => {
      const v = r.verdicts[k]!
      if (v < 0) disallowed++
      return { path, allowed: v >= 0, line: Math.abs(v) }
    })
    const cls = r.disallows === 0 ? 'allowed' : disallowed === paths.length && r.allows === 0 ? 'blocked' : 'partial'
    return { name: c.name, class: cls, named: r.named, paths, preferences: preferencesOf(robots.usagePreferences(c.tokens)), crawlDelay: robots.crawlDelay(c.tokens) ?? null }
  })
  row.sitemaps = robots.sitemaps.length
  const findings = lint({ robots, body, size: rec.bytes, truncated: rec.bytes > body.length || body.length > DEFAULT_MAX_BYTES }).findings
  const codes = new Set<string>()
  for (const f of findings) {
    if (f.severity === 'error') row.lintErrors++
    if (f.severity !== 'info') codes.add(f.code)
  }
  row.lintCodes = [...codes].sort()
  return row
}

/** Categories to booleans, on an object with no prototype: a category is text from the file. */
function preferencesOf(prefs: Record<string, { allowed: boolean | null }>): Record<string, boolean | null> {
  const out = Object.create(null) as Record<string, boolean | null>
  for (const [category, p] of Object.entries(prefs)) out[category] = p.allowed
  return out
}
