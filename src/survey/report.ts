// The survey's HTML report: one static page (no script, no network: styles inline, charts as
// inline SVG) drawn from the summary (aggregate.ts), so that the page shows what the summary says
// and nothing else. Every share names its denominator: the records whose robots.txt was read
// (`ok`) of the total or of a group, or the origins read in both of two groups. Every text that came
// from an input or an option (crawler names, categories, sources, file names) is HTML-escaped;
// numbers are formatted here.

import { OTHER, UNDATED } from './aggregate.js'
import { SETS } from './plan.js'
import type { SurveyChange, SurveyCrawlerTotals, SurveyGroup, SurveySummary } from './types.js'

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

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)}%`)
const int = (n: number): string => n.toLocaleString('en-US')

const LABEL_W = 190
const BAR_W = 400
const NOTE_W = 330
const BAR_H = 11

/** One stacked part of a bar: its count, CSS class and tooltip. */
interface Part { value: number; cls: string; title: string }
/** One row of a chart: a label, one or more stacked bars (each with a small label), a note. */
interface Row { label: string; bars: { sub: string; parts: Part[] }[]; note: string }

/** A horizontal bar chart: each row's bars one under the other, parts stacked as shares of `of`. */
function barChart(id: string, title: string, rows: readonly Row[], of: number): string {
  let y = 4
  const body = rows.map((r) => {
    const top = y
    const bars = r.bars.map((b, k) => {
      const by = top + k * (BAR_H + 3)
      let x = LABEL_W
      const rects = b.parts.map((p) => {
        const w = of === 0 ? 0 : (BAR_W * p.value) / of
        const rect = `<rect class="${p.cls}" x="${x.toFixed(1)}" y="${by}" width="${w.toFixed(1)}" height="${BAR_H}" data-value="${p.value}"><title>${escapeHtml(p.title)}</title></rect>`
        x += w
        return rect
      }).join('')
      const sub = b.sub === '' ? '' : `<text class="sub" x="${LABEL_W - 6}" y="${by + BAR_H - 2}" text-anchor="end">${escapeHtml(b.sub)}</text>`
      return `<g class="bar" data-sub="${escapeHtml(b.sub)}"><rect class="track" x="${LABEL_W}" y="${by}" width="${BAR_W}" height="${BAR_H}"/>${rects}${sub}</g>`
    }).join('')
    const h = r.bars.length * (BAR_H + 3)
    y += h + 8
    const labelX = r.bars.length > 1 || r.bars[0]?.sub !== '' ? LABEL_W - 62 : LABEL_W - 6
    return `<g class="row"><text class="label" x="${labelX}" y="${top + h / 2 + 3}" text-anchor="end">${escapeHtml(r.label)}</text>${bars}` +
      `<text class="note" x="${LABEL_W + BAR_W + 8}" y="${top + h / 2 + 3}">${escapeHtml(r.note)}</text></g>`
  }).join('')
  const width = LABEL_W + BAR_W + NOTE_W
  return `<figure id="${id}"><figcaption>${escapeHtml(title)}</figcaption>` +
    `<svg role="img" aria-label="${escapeHtml(title)}" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}">${body}</svg></figure>`
}

/** The crawlers of a preset set ('other': those of no set, the tokens given). */
function members<T extends { sets: readonly string[] }>(all: readonly T[], set: string): T[] {
  return all.filter((c) => (set === 'other' ? c.sets.length === 0 : c.sets.includes(set)))
}

const SET_IDS = [...SETS, 'other']

/** The headline: per crawler, blocked entirely and partly by a group naming it, and by the `*` group, side by side. */
function headline(t: SurveyGroup): string {
  return SET_IDS.map((set) => {
    const crawlers = members(t.crawlers, set)
    if (crawlers.length === 0) return ''
    const rows = crawlers.map((c): Row => ({
      label: c.name,
      bars: [
        { sub: 'by name', parts: [
          { value: c.blockedByName, cls: 'name-entirely', title: `${c.name}: blocked entirely by a group naming it on ${int(c.blockedByName)} of ${int(t.ok)} sites read (${pct(c.blockedByName, t.ok)})` },
          { value: c.partialByName, cls: 'name-partly', title: `${c.name}: blocked partly by a group naming it on ${int(c.partialByName)} of ${int(t.ok)} sites read (${pct(c.partialByName, t.ok)})` },
        ] },
        { sub: 'by *', parts: [
          { value: c.blockedByStar, cls: 'star-entirely', title: `${c.name}: blocked entirely by the * group on ${int(c.blockedByStar)} of ${int(t.ok)} sites read (${pct(c.blockedByStar, t.ok)})` },
          { value: c.partialByStar, cls: 'star-partly', title: `${c.name}: blocked partly by the * group on ${int(c.partialByStar)} of ${int(t.ok)} sites read (${pct(c.partialByStar, t.ok)})` },
        ] },
      ],
      note: `name ${pct(c.blockedByName, t.ok)} + ${pct(c.partialByName, t.ok)} · * ${pct(c.blockedByStar, t.ok)} + ${pct(c.partialByStar, t.ok)}`,
    }))
    return barChart(`set-${set}`, `${set}: share of the ${int(t.ok)} sites read that block each crawler, entirely + partly, by name and by *`, rows, t.ok)
  }).join('\n')
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22']
/** Restricting by name: blocked entirely or partly by a group naming the crawler. */
const byName = (c: SurveyCrawlerTotals): number => c.blockedByName + c.partialByName
/** Restricting at all: blocked entirely or partly, by a group naming it or by the * group. */
const byAny = (c: SurveyCrawlerTotals): number => byName(c) + c.blockedByStar + c.partialByStar

/** A line chart per set: each crawler's share of each group's sites read that restrict it by name. */
function trends(s: SurveySummary): string {
  const groups = s.groups.filter((g) => g.key !== UNDATED && g.key !== OTHER)
  if (s.by === null) return '<p class="none">Group the rows (<code>--by month</code>, <code>year</code> or <code>source</code>) to see shares over time.</p>'
  if (groups.length < 2) return `<p class="none">Only ${groups.length} ${escapeHtml(s.by)} with dated rows: no trend to draw.</p>`
  return SET_IDS.map((set) => {
    const crawlers = members(s.total.crawlers, set)
    if (crawlers.length === 0) return ''
    const index = crawlers.map((c) => s.total.crawlers.indexOf(c))
    const shares = index.map((i) => groups.map((g) => (g.ok === 0 ? null : byName(g.crawlers[i]!) / g.ok)))
    const max = Math.max(0.05, ...shares.flat().filter((v): v is number => v !== null))
    // The axis tops out at the next 5% (10% past 20%), halfway marked.
    const step = max > 0.2 ? 10 : 20
    const top = Math.min(1, Math.ceil(max * step - 1e-9) / step)
    const W = 640
    const H = 200
    const left = 48
    const bottom = 36
    const right = 48
    const x = (k: number): number => left + (k * (W - left - right)) / (groups.length - 1)
    const y = (v: number): number => 10 + (H - 10 - bottom) * (1 - v / top)
    const tick = (v: number): string => `${Number((100 * v).toFixed(1))}%`
    const ticks = [0, top / 2, top].map((v) => `<line class="grid" x1="${left}" x2="${W - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/><text class="axis" x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${tick(v)}</text>`).join('')
    const labels = groups.map((g, k) => `<text class="axis" x="${x(k).toFixed(1)}" y="${H - bottom + 16}" text-anchor="middle">${escapeHtml(g.key)}</text><text class="axis n" x="${x(k).toFixed(1)}" y="${H - bottom + 30}" text-anchor="middle">${int(g.ok)} read</text>`).join('')
    const lines = crawlers.map((c, j) => {
      const color = PALETTE[j % PALETTE.length]!
      const dash = j >= PALETTE.length ? ' stroke-dasharray="5 3"' : ''
      const pts = shares[j]!.map((v, k) => (v === null ? null : [x(k), y(v), v] as const)).filter((p) => p !== null)
      const path = pts.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')
      const dots = pts.map(([px, py, v], k) => `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3" fill="${color}"><title>${escapeHtml(`${c.name}, ${groups[k]!.key}: ${pct(v * groups[k]!.ok, groups[k]!.ok)} of ${int(groups[k]!.ok)} sites read`)}</title></circle>`).join('')
      return `<g class="series" data-crawler="${escapeHtml(c.name)}"><polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${path}"/>${dots}</g>`
    }).join('')
    const legend = crawlers.map((c, j) => `<span class="key"><span class="swatch" style="background:${PALETTE[j % PALETTE.length]}"></span>${escapeHtml(c.name)}</span>`).join('')
    const head = `<tr><th>crawler: by name (by name or *)</th>${groups.map((g) => `<th>${escapeHtml(g.key)}<br><small>of ${int(g.ok)}</small></th>`).join('')}</tr>`
    const cell = (t: SurveyCrawlerTotals, ok: number): string => `<td>${pct(byName(t), ok)} <small>(${pct(byAny(t), ok)})</small></td>`
    const rowsHtml = crawlers.map((c, j) => `<tr><td>${escapeHtml(c.name)}</td>${groups.map((g) => cell(g.crawlers[index[j]!]!, g.ok)).join('')}</tr>`).join('')
    const title = `${set}: share of each ${s.by}'s sites read that block each crawler by name (entirely or partly)`
    return `<figure id="trend-${set}" class="trend"><figcaption>${escapeHtml(title)}</figcaption>` +
      `<svg role="img" aria-label="${escapeHtml(title)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${ticks}${labels}${lines}</svg>` +
      `<p class="legend">${legend}</p><table class="data">${head}${rowsHtml}</table></figure>`
  }).join('\n')
}

/** Pairs of consecutive groups drawn at most (the latest). */
const MAX_CHANGE_CHARTS = 12

/** Per pair of consecutive groups: per crawler, the share of origins read in both whose rules for it changed. */
function changes(s: SurveySummary): string {
  if (s.changes.length === 0) return '<p class="none">No two consecutive groups to compare (group the rows with <code>--by</code>).</p>'
  const sample = s.originSample > 1 ? `<p class="meta">Compared on a sample: 1 origin in ${int(s.originSample)}, chosen by a hash of the origin (the same origins in every group).</p>` : ''
  const shown = s.changes.slice(-MAX_CHANGE_CHARTS)
  const more = s.changes.length > shown.length ? `<p class="meta">The latest ${shown.length} of ${s.changes.length} pairs.</p>` : ''
  return sample + more + shown.map((c: SurveyChange, i) => {
    const rows = c.crawlers.map((x): Row => {
      const other = x.changed - x.restricted - x.lifted
      return {
        label: x.name,
        bars: [{ sub: '', parts: [
          { value: x.restricted, cls: 'restricted', title: `${x.name}: ${int(x.restricted)} of ${int(c.origins)} sites went from allowed to blocked (entirely or partly)` },
          { value: x.lifted, cls: 'lifted', title: `${x.name}: ${int(x.lifted)} of ${int(c.origins)} sites went from blocked to allowed` },
          { value: other, cls: 'other-change', title: `${x.name}: ${int(other)} of ${int(c.origins)} sites changed otherwise (entirely/partly, or name/*)` },
        ] }],
        note: `${int(x.changed)} changed (${pct(x.changed, c.origins)}) · ${int(x.restricted)} newly blocked · ${int(x.lifted)} unblocked`,
      }
    })
    return barChart(`change-${i}`, `${c.from} → ${c.to}: of the ${int(c.origins)} sites read in both, those whose rules for each crawler changed`, rows, c.origins)
  }).join('\n')
}

function outcomes(t: SurveyGroup): string {
  const o = t.outcomes
  const row = (name: string, n: number, cls = ''): string => `<tr${cls === '' ? '' : ` class="${cls}"`}><td>${name}</td><td>${int(n)}</td><td>${pct(n, t.records)}</td></tr>`
  const causes = t.failures.map((f) => row(`&nbsp;&nbsp;${f.status !== null ? `status ${f.status}` : escapeHtml(f.code ?? 'no response')}`, f.records, 'cause'))
  return `<table id="outcomes"><tr><th>outcome</th><th>records</th><th>share of ${int(t.records)}</th></tr>
${row('ok: robots.txt read', o.ok)}
${row('allow-all: no robots.txt (4xx)', o['allow-all'])}
${row('disallow-all: failures (429, 5xx, no response)', o['disallow-all'])}
${causes.join('\n')}
${row('error: record unreadable', o.error)}
</table>`
}

/** The report page. */
export function surveyReport(s: SurveySummary, meta: ReportMeta): string {
  const t = s.total
  const prefRows: Row[] = [
    { label: 'any preference', bars: [{ sub: '', parts: [{ value: t.withPreferences, cls: 'stated', title: `${int(t.withPreferences)} of ${int(t.ok)} sites read state a preference` }] }], note: pct(t.withPreferences, t.ok) },
    ...t.preferences.map((p): Row => ({
      label: p.category,
      bars: [{ sub: '', parts: [
        { value: p.no, cls: 'no', title: `${p.category}=n on ${int(p.no)} of ${int(t.ok)} sites read` },
        { value: p.yes, cls: 'yes', title: `${p.category}=y on ${int(p.yes)} of ${int(t.ok)} sites read` },
      ] }],
      note: `n ${pct(p.no, t.ok)} / y ${pct(p.yes, t.ok)}`,
    })),
  ]
  const lintRows = t.lint.slice(0, 12).map((l): Row => ({ label: l.code, bars: [{ sub: '', parts: [{ value: l.records, cls: 'lint', title: `${l.code}: ${int(l.records)} of ${int(t.ok)} sites read` }] }], note: pct(l.records, t.ok) }))
  const origins = `${s.originSample > 1 ? 'about ' : ''}${int(t.origins)}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>robots.txt survey</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;background:#fff;max-width:960px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 6px}
.meta,.none{color:#57606a}table{border-collapse:collapse}td,th{padding:3px 10px;text-align:right;border-bottom:1px solid #d0d7de}
th:first-child,td:first-child{text-align:left}tr.cause td{color:#57606a;font-size:13px}figure{margin:12px 0 18px}figcaption{font-weight:600;margin-bottom:4px}
table.data{font-size:12px;margin-top:6px}
svg text{font:12px system-ui,sans-serif;fill:#1b1f24}svg text.sub,svg text.axis{font-size:11px;fill:#57606a}svg text.n{font-size:10px}
.track{fill:#f0f2f4}.grid{stroke:#e3e6ea}.note{fill:#57606a}
.name-entirely{fill:#b42318}.name-partly{fill:#f59e0b}.star-entirely{fill:#475569}.star-partly{fill:#a5b4c6}
.restricted{fill:#b42318}.lifted{fill:#2e8b57}.other-change{fill:#a5b4c6}
.no{fill:#b42318}.yes{fill:#2e8b57}.stated{fill:#4a6fa5}.lint{fill:#7a5195}
.legend{margin:2px 0 8px}.legend .key{margin-right:14px;white-space:nowrap}.swatch{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
</style></head><body>
<h1>robots.txt survey</h1>
<p class="meta">${escapeHtml(meta.date)} · ${int(t.records)} records of ${origins} origins from ${escapeHtml(meta.inputs.join(', '))} · paths ${escapeHtml(meta.paths.join(' '))}</p>
<p>Every share of sites below is over the sites whose robots.txt was read (outcome ok): ${int(t.ok)} of ${int(t.records)} records.
Sites without a robots.txt (4xx: everything allowed) and failures (429, 5xx, no response: crawlers stop) are counted here, never as blocking.</p>
${outcomes(t)}
<h2>Who blocks each crawler: a group naming it, or the * group</h2>
<p class="legend"><span class="key"><span class="swatch" style="background:#b42318"></span>entirely, by name</span><span class="key"><span class="swatch" style="background:#f59e0b"></span>partly, by name</span><span class="key"><span class="swatch" style="background:#475569"></span>entirely, by *</span><span class="key"><span class="swatch" style="background:#a5b4c6"></span>partly, by *</span></p>
${headline(t)}
<h2>Over time</h2>
${trends(s)}
<h2>The same sites across snapshots</h2>
<p class="legend"><span class="key"><span class="swatch" style="background:#b42318"></span>allowed → blocked</span><span class="key"><span class="swatch" style="background:#2e8b57"></span>blocked → allowed</span><span class="key"><span class="swatch" style="background:#a5b4c6"></span>other change (entirely/partly, name/*)</span></p>
${changes(s)}
<h2>AI usage preferences (Content-Signal, Content-Usage)</h2>
${barChart('preferences', `share of the ${int(t.ok)} sites read stating each preference (n / y for some crawler)`, prefRows, t.ok)}
<h2>Most common lint findings</h2>
${lintRows.length === 0 ? '<p class="none">none</p>' : barChart('lint', `share of the ${int(t.ok)} sites read with each finding (errors and warnings)`, lintRows, t.ok)}
</body></html>
`
}
