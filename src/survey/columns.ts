// The survey's text formats, one line per row, with stable column names (src/survey/README.md
// documents them). JSONL nests each crawler in `crawlers`; CSV has one column per crawler x field,
// named from a slug of the crawler's name. Both read into DuckDB with no options (Parquet, the
// JSONL's schema nested, is parquet.ts).

import type { SurveyPlan } from './plan.js'
import type { SurveyRow } from './types.js'

/** A row as one JSON line. */
export function jsonLine(row: SurveyRow): string {
  return `${JSON.stringify(row)}\n`
}

/** Column-name stem of each crawler: lower-case, runs of other characters as `_`, made unique. */
export function crawlerSlugs(plan: SurveyPlan): string[] {
  const used = new Set<string>()
  return plan.crawlers.map((c) => {
    const base = c.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'crawler'
    let slug = base
    for (let n = 2; used.has(slug); n++) slug = `${base}_${n}`
    used.add(slug)
    return slug
  })
}

const ROW_COLUMNS = ['origin', 'source', 'offset', 'captured', 'outcome', 'status', 'bytes', 'error', 'sitemaps', 'lint_errors', 'lint_codes']

/** The CSV header line for `plan`. */
export function csvHeader(plan: SurveyPlan): string {
  const cols = [...ROW_COLUMNS]
  for (const slug of crawlerSlugs(plan)) {
    cols.push(`${slug}_class`, `${slug}_by`, `${slug}_named`)
    plan.paths.forEach((_, k) => cols.push(`${slug}_p${k + 1}_allowed`, `${slug}_p${k + 1}_line`))
    cols.push(`${slug}_crawl_delay`, `${slug}_preferences`)
  }
  return `${cols.join(',')}\n`
}

function field(v: string | number | boolean | null): string {
  if (v === null) return ''
  const s = String(v)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/** Preferences as `category=y|n|path` pairs joined with `;`, sorted by category. */
export function preferenceText(prefs: Record<string, boolean | null>): string {
  return Object.keys(prefs).sort().map((k) => `${k}=${prefs[k] === null ? 'path' : prefs[k] ? 'y' : 'n'}`).join(';')
}

/** A row as one CSV line, in `csvHeader(plan)`'s columns; a crawler missing from the row (an error row) has empty cells. */
export function csvLine(row: SurveyRow, plan: SurveyPlan): string {
  const cells: (string | number | boolean | null)[] = [
    row.origin, row.source, row.offset, row.captured, row.outcome, row.status, row.bytes, row.error, row.sitemaps, row.lintErrors, row.lintCodes.join(';'),
  ]
  plan.crawlers.forEach((_, i) => {
    const c = row.crawlers[i]
    cells.push(c?.class ?? null, c?.by ?? null, c?.named ?? null)
    plan.paths.forEach((__, k) => {
      const p = c?.paths[k]
      cells.push(p?.allowed ?? null, p?.line ?? null)
    })
    cells.push(c?.crawlDelay ?? null, c === undefined ? null : preferenceText(c.preferences))
  })
  return `${cells.map(field).join(',')}\n`
}
