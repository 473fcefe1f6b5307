// The survey's HTML report: one static page (no script, no network: styles inline, charts as
// inline SVG) from the aggregate totals. Every text that came from an input or an option (crawler
// names, categories, file names) is HTML-escaped; numbers are formatted here.

import { OTHER_CATEGORY, type SurveyTotals } from './aggregate.js'
import { SETS } from './plan.js'

export interface ReportMeta {
  /** What was surveyed (input paths), shown under the title. */
  inputs: readonly string[]
  paths: readonly string[]
  /** ISO date of the run. */
  date: string
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

const pct = (n: number, of: number): string => (of === 0 ? '0%' : `${((100 * n) / of).toFixed(1)}%`)
const int = (n: number): string => n.toLocaleString('en-US')

const LABEL_W = 210
const BAR_W = 420
const ROW_H = 22

interface Bar { label: string; parts: { value: number; cls: string; title: string }[]; note: string }

/** A horizontal bar chart: one row per bar, parts stacked left to right as shares of `of`. */
function barChart(id: string, title: string, bars: readonly Bar[], of: number): string {
  const height = bars.length * ROW_H + 8
  const rows = bars.map((b, i) => {
    const y = i * ROW_H + 4
    let x = LABEL_W
    const rects = b.parts.map((p) => {
      const w = of === 0 ? 0 : (BAR_W * p.value) / of
      const r = `<rect class="${p.cls}" x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${ROW_H - 6}" data-value="${p.value}"><title>${escapeHtml(p.title)}</title></rect>`
      x += w
      return r
    }).join('')
    return `<g class="bar"><text class="label" x="${LABEL_W - 8}" y="${y + ROW_H - 10}" text-anchor="end">${escapeHtml(b.label)}</text>` +
      `<rect class="track" x="${LABEL_W}" y="${y}" width="${BAR_W}" height="${ROW_H - 6}"/>${rects}` +
      `<text class="note" x="${LABEL_W + BAR_W + 8}" y="${y + ROW_H - 10}">${escapeHtml(b.note)}</text></g>`
  }).join('')
  return `<figure id="${id}"><figcaption>${escapeHtml(title)}</figcaption>` +
    `<svg role="img" aria-label="${escapeHtml(title)}" width="${LABEL_W + BAR_W + 150}" height="${height}" viewBox="0 0 ${LABEL_W + BAR_W + 150} ${height}">${rows}</svg></figure>`
}

/** The report page. */
export function surveyReport(t: SurveyTotals, meta: ReportMeta): string {
  const read = t.read
  const sets = [...SETS, 'other']
  const blocking = sets.map((set) => {
    const members = t.crawlers.filter((c) => (set === 'other' ? c.sets.length === 0 : c.sets.includes(set)))
    if (members.length === 0) return ''
    const bars = members.map((c): Bar => ({
      label: c.name,
      parts: [
        { value: c.blocked, cls: 'blocked', title: `${c.name}: blocked entirely on ${int(c.blocked)} sites (${pct(c.blocked, read)})` },
        { value: c.partial, cls: 'partial', title: `${c.name}: blocked partly on ${int(c.partial)} sites (${pct(c.partial, read)})` },
      ],
      note: `${pct(c.blocked, read)} / ${pct(c.partial, read)}`,
    }))
    return barChart(`set-${set}`, `${set}: share of sites blocking each crawler entirely / partly`, bars, read)
  }).join('')
  const categories = [...t.preferences].sort((a, b) => (a[0] === OTHER_CATEGORY ? 1 : b[0] === OTHER_CATEGORY ? -1 : a[0] < b[0] ? -1 : 1))
  const prefBars: Bar[] = [
    { label: 'any preference', parts: [{ value: t.withPreferences, cls: 'stated', title: `${int(t.withPreferences)} sites state a preference` }], note: pct(t.withPreferences, read) },
    ...categories.map(([category, p]): Bar => ({
      label: category,
      parts: [
        { value: p.no, cls: 'blocked', title: `${category}=n on ${int(p.no)} sites` },
        { value: p.yes, cls: 'allowed', title: `${category}=y on ${int(p.yes)} sites` },
      ],
      note: `n ${pct(p.no, read)} / y ${pct(p.yes, read)}`,
    })),
  ]
  const lintTop = [...t.lint].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 12)
  const lintBars = lintTop.map(([code, n]): Bar => ({ label: code, parts: [{ value: n, cls: 'lint', title: `${code}: ${int(n)} sites` }], note: pct(n, read) }))
  const o = t.outcomes
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>robots.txt survey</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#57606a}table{border-collapse:collapse}td,th{padding:3px 10px;text-align:right;border-bottom:1px solid #d0d7de}
th:first-child,td:first-child{text-align:left}figure{margin:12px 0}figcaption{font-weight:600;margin-bottom:4px}
svg text{font:12px system-ui,sans-serif;fill:#1b1f24}.track{fill:#f0f2f4}.blocked{fill:#c0392b}.partial{fill:#f0a040}
.allowed{fill:#2e8b57}.stated{fill:#4a6fa5}.lint{fill:#7a5195}.note{fill:#57606a}
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:-1px}
</style></head><body>
<h1>robots.txt survey</h1>
<p class="meta">${escapeHtml(meta.date)} · ${int(o.ok + o['allow-all'] + o['disallow-all'] + o.error)} records from ${escapeHtml(meta.inputs.join(', '))} · paths ${escapeHtml(meta.paths.join(' '))}</p>
<table id="outcomes"><tr><th>outcome</th><th>sites</th><th>share</th></tr>
${(['ok', 'allow-all', 'disallow-all', 'error'] as const).map((k) => `<tr><td>${k}</td><td>${int(o[k])}</td><td>${pct(o[k], read + o.error)}</td></tr>`).join('\n')}
</table>
<h2>Crawlers blocked</h2>
<p class="legend">Share of the ${int(read)} sites read:<span class="blocked" style="background:#c0392b"></span>entirely<span class="partial" style="background:#f0a040"></span>partly</p>
${blocking}
<h2>AI usage preferences (Content-Signal, Content-Usage)</h2>
${barChart('preferences', 'share of sites stating each preference (n / y for some crawler)', prefBars, read)}
<h2>Most common lint findings</h2>
${lintBars.length === 0 ? '<p>none</p>' : barChart('lint', 'share of sites with each finding (errors and warnings)', lintBars, read)}
</body></html>
`
}
