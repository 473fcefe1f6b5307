// The headline of the benchmarks, drawn from the bench's own output so that no figure is typed by
// hand: `npm run bench` writes bench/RESULTS.md (and `--runtime all` bench/RUNTIMES.md), then this
// module reads their tables back and rewrites the generated block between
// <!-- bench:headline:start --> and <!-- bench:headline:end --> in README.md and
// docs/benchmarks.md, and docs/bench.svg, a bar chart of the same ratios.
//
// Invariants: every number it writes is a cell of those two files (ratios are the bench's own
// columns, not recomputed), a row the files lack is left out rather than guessed, and the text
// outside the markers is never touched. Google's C++ library is not measured here, so it has no row.
//
//   node bench/report.mjs      rewrites the headline from the current bench/RESULTS.md and RUNTIMES.md
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const START = '<!-- bench:headline:start -->'
export const END = '<!-- bench:headline:end -->'

/** Every Markdown table of `markdown`: its header cells and its rows' cells, trimmed. */
export function parseTables(markdown) {
  const tables = []
  let current = null
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      current = null
      continue
    }
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((c) => c.trim())
    if (current === null) {
      current = { header: cells, rows: [] }
      tables.push(current)
    } else if (!cells.every((c) => /^:?-+:?$/.test(c))) {
      current.rows.push(cells)
    }
  }
  return tables
}

/** The first row, in the table whose header starts with `header`, whose first cell starts with `label`. */
function row(tables, header, label) {
  for (const t of tables) {
    if (!t.header[0]?.startsWith(header)) continue
    const r = t.rows.find((cells) => cells[0].startsWith(label))
    if (r) return r
  }
  return null
}

/** `**35.5x**`, `35.9x faster`, `9.62x` -> 35.5; null when the cell holds no ratio. */
function ratioOf(cell) {
  const m = /([\d.]+)x/.exec(cell ?? '')
  return m ? Number(m[1]) : null
}

const bold = (s) => s.replaceAll('**', '')

/**
 * The headline's figures, from the text of bench/RESULTS.md and (optional) bench/RUNTIMES.md.
 * Each figure keeps the cells it came from, so the table quotes them exactly.
 */
export function headlineFigures(results, runtimes = '') {
  const t = parseTables(results)
  const measured = /^Measured (\d{4}-\d\d-\d\d) on ([^;]+?), Node (v[\d.]+)/m.exec(results)
  const figures = {
    date: measured?.[1] ?? null, machine: measured?.[2] ?? null, node: measured?.[3] ?? null,
    exactness: [], perSite: [], perUrl: [], runtimes: [], runtimesNote: null,
  }

  // Exactness: every library on all labelled cases, then the field's benchmark, which adds the
  // Python libraries on the real-file cases.
  for (const r of parseTables(results).find((x) => x.header[0]?.startsWith('library (synthetic'))?.rows ?? []) {
    figures.exactness.push({ library: r[0].replace(' (this build)', ''), cases: 'all labelled cases', agreement: r[3] })
  }
  const field = t.find((x) => x.header[0] === 'library' && x.header.includes('agrees with the labels'))
  if (field) {
    const col = field.header.indexOf('agrees with the labels')
    const seen = new Set()
    for (const r of field.rows) {
      if (seen.has(r[0])) continue
      seen.add(r[0])
      figures.exactness.push({ library: r[0], cases: 'real-file cases (field benchmark)', agreement: r[col] })
    }
  }

  // Per site: first contact, then the field's benchmark (its total, each library against ours).
  const first = row(t, 'what crawlers do', 'first contact')
  if (first) figures.perSite.push({ short: 'first contact', what: 'first contact: parse + first check, per file', ours: first[2], theirs: first[1], against: 'robots-parser', ratio: ratioOf(first[3]) })
  if (field) {
    // The bench's "total / first row" column: each library's total over the first row's, which is
    // robotstxt-wasm as the others are called (a string body, isAllowed(url, agent)).
    const total = field.header.indexOf('total')
    const relative = field.header.indexOf('total / first row')
    const ours = field.rows[0]
    if (ours?.[0] === 'robotstxt-wasm' && total >= 0 && relative >= 0) {
      for (const r of field.rows.filter((x) => x[0] !== 'robotstxt-wasm')) {
        figures.perSite.push({
          short: 'the field\'s benchmark', what: 'the field\'s benchmark: parse each site\'s robots.txt, check its links (total)', ours: ours[total], theirs: r[total], against: r[0],
          ratio: ratioOf(r[relative]),
        })
      }
    }
  }

  // Per URL, against robots-parser.
  for (const [label, short, what] of [
    ['synthetic (a): single', 'single check', 'single `Matcher.isAllowed`, synthetic file'],
    ['synthetic (a): batch', 'batch', 'batch `isAllowedMany`, synthetic file'],
    ['synthetic (a): byte path', 'byte path', 'byte path `isAllowedLines`, synthetic file'],
    ['real files (b): single', 'real files', 'single `Matcher.isAllowed`, real files'],
  ]) {
    const r = row(t, 'phase', label)
    if (r) figures.perUrl.push({ short, what, ours: r[1], theirs: r[2], against: 'robots-parser', ratio: ratioOf(r[3]) })
  }
  const shaped = row(t, 'what crawlers do', 'crawler-shaped checks')
  if (shaped) figures.perUrl.push({ short: 'crawler-shaped', what: 'crawler-shaped checks (host changes on every check)', ours: shaped[2], theirs: shaped[1], against: 'robots-parser', ratio: ratioOf(shaped[3]) })
  for (const r of parseTables(results).find((x) => x.header[0]?.startsWith('library (synthetic'))?.rows ?? []) {
    if (r[0].startsWith('robotstxt-wasm') || r[0].startsWith('robots-parser')) continue
    figures.perUrl.push({ short: 'single check', what: 'single check, synthetic file', ours: null, theirs: r[1], against: r[0], ratio: ratioOf(r[2]) })
  }

  // Runtimes: each runtime's ratios against robots-parser in that runtime.
  const rt = parseTables(runtimes).find((x) => x.header[0] === 'runtime')
  if (rt) {
    const at = (name) => rt.header.indexOf(name)
    for (const r of rt.rows) {
      figures.runtimes.push({ runtime: r[0], single: r[at('single')], batch: r[at('batch')], bytes: r[at('byte path')] })
    }
    figures.runtimesNote = /^Synthetic workload[^\n]*?; (\d{4}-\d\d-\d\d), ([^\n]+?)\.$/m.exec(runtimes)?.slice(1) ?? null
  }
  return figures
}

/** How much faster, in words a reader cannot misread: a ratio within 5% of 1 is "as fast". */
function faster(ratio) {
  if (ratio === null) return '—'
  if (ratio >= 1.05) return `**${ratio.toFixed(1)}×** faster`
  if (ratio > 1 / 1.05) return `as fast (${ratio.toFixed(2)}×)`
  return `${(1 / ratio).toFixed(1)}× slower`
}

/** The headline as Markdown. */
export function headlineMarkdown(f) {
  const md = []
  md.push(`Measured ${f.date ?? 'on an unknown date'} on ${f.machine ?? 'an unknown machine'}, Node ${f.node ?? '?'}, by \`npm run bench\`` +
    ' (full tables: [bench/RESULTS.md](bench/RESULTS.md)). Google\'s C++ library is the reference for exactness; its speed is not measured here.', '')
  if (f.exactness.length > 0) {
    md.push('| exactness: Google\'s verdict | on | agreement |', '|---|---|---:|')
    for (const e of f.exactness) md.push(`| ${e.library} | ${e.cases} | ${e.agreement} |`)
    md.push('')
  }
  const speed = [...f.perSite.map((s) => ({ ...s, kind: 'per site' })), ...f.perUrl.map((s) => ({ ...s, kind: 'per URL' }))]
  if (speed.length > 0) {
    md.push('| speed | against | robotstxt-wasm | it | robotstxt-wasm is |', '|---|---|---:|---:|---:|')
    for (const s of speed) md.push(`| ${s.kind}: ${s.what} | ${s.against} | ${s.ours ?? '—'} | ${s.theirs} | ${faster(s.ratio)} |`)
    md.push('')
  }
  if (f.runtimes.length > 0) {
    const when = f.runtimesNote ? ` (${f.runtimesNote[0]}, ${f.runtimesNote[1]}, \`npm run bench:runtimes\`)` : ''
    md.push(`| runtime${when} | single | batch | byte path |`, '|---|---:|---:|---:|')
    for (const r of f.runtimes) md.push(`| ${r.runtime} | ${bold(r.single)} | ${bold(r.batch)} | ${bold(r.bytes)} |`)
    md.push('', 'Runtimes: robotstxt-wasm against robots-parser in the same runtime, synthetic workload.', '')
  }
  md.push('![robotstxt-wasm against the other parsers: how many times faster, per site and per URL](docs/bench.svg)')
  return md.join('\n')
}

const escapeXml = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])

/** A horizontal bar chart of the speed ratios (robotstxt-wasm is N× faster than …), as SVG text. */
export function chartSvg(f) {
  // Short labels: the measure and the library's name without its version.
  const bars = [...f.perSite.map((s) => ({ ...s, kind: 'per site' })), ...f.perUrl.map((s) => ({ ...s, kind: 'per URL' }))]
    .filter((s) => s.ratio !== null)
    .map((s) => ({ label: `${s.kind}, ${s.short}: vs ${s.against.split(' ')[0]}`, ratio: s.ratio }))
  const rowH = 26
  const labelW = 330
  const barW = 300
  const top = 40
  const width = labelW + barW + 70
  const height = top + bars.length * rowH + 30
  const max = Math.max(1, ...bars.map((b) => b.ratio))
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="10" y="22" font-size="14" font-weight="bold">robotstxt-wasm is N× faster (${escapeXml(f.date ?? '')}, Node ${escapeXml(f.node ?? '?')})</text>`,
  ]
  bars.forEach((b, i) => {
    const y = top + i * rowH
    const w = Math.max(1, Math.round((b.ratio / max) * barW))
    out.push(
      `<text x="${labelW - 8}" y="${y + 16}" text-anchor="end">${escapeXml(b.label)}</text>`,
      `<rect x="${labelW}" y="${y + 4}" width="${w}" height="${rowH - 8}" fill="${b.ratio >= 1 ? '#2b6cb0' : '#c05621'}"/>`,
      `<text x="${labelW + w + 6}" y="${y + 16}">${b.ratio.toFixed(1)}×</text>`,
    )
  })
  const oneX = labelW + Math.round(barW / max)
  out.push(`<line x1="${oneX}" y1="${top}" x2="${oneX}" y2="${top + bars.length * rowH}" stroke="#888" stroke-dasharray="3,3"/>`,
    `<text x="${oneX}" y="${top + bars.length * rowH + 16}" text-anchor="middle" fill="#555">1× (as fast)</text>`, '</svg>')
  return out.join('\n') + '\n'
}

/** `text` with the block between the markers replaced by `content`; throws when the markers are missing. */
export function replaceHeadline(text, content) {
  const a = text.indexOf(START)
  const b = text.indexOf(END)
  if (a < 0 || b < a) throw new Error(`no ${START} ... ${END} block`)
  return `${text.slice(0, a + START.length)}\n${content}\n${text.slice(b)}`
}

/** Rewrites the headline in README.md and docs/benchmarks.md, and docs/bench.svg, from bench/*.md. */
export function writeHeadline(root) {
  const read = (p) => (existsSync(join(root, p)) ? readFileSync(join(root, p), 'utf8') : '')
  const figures = headlineFigures(read('bench/RESULTS.md'), read('bench/RUNTIMES.md'))
  const md = headlineMarkdown(figures)
  for (const [file, prefix] of [['README.md', ''], ['docs/benchmarks.md', '../']]) {
    const path = join(root, file)
    if (!existsSync(path) || !readFileSync(path, 'utf8').includes(START)) continue
    // Links are written from the root; a docs/ page reaches docs/ files directly, the others one level up.
    const local = prefix === '' ? md : md.replace(/\]\((?!https?:)(docs\/)?/g, (_, docs) => (docs ? '](' : `](${prefix}`))
    writeFileSync(path, replaceHeadline(readFileSync(path, 'utf8'), local))
  }
  writeFileSync(join(root, 'docs', 'bench.svg'), chartSvg(figures))
  return figures
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeHeadline(join(dirname(fileURLToPath(import.meta.url)), '..'))
