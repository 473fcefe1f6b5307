// Every page of the benchmarks, drawn from bench/results.json (bench/results.mjs) so that no
// figure is typed by hand: bench/RESULTS.md (every table, the goals and the notes of
// bench/NOTES.md), bench/RUNTIMES.md, the block between <!-- bench:headline:start --> and
// <!-- bench:headline:end --> in README.md and docs/benchmarks.md, the block between
// <!-- bench:sections:start --> and <!-- bench:sections:end --> in docs/benchmarks.md, and
// docs/bench.svg.
//
// Invariants: rows are found by id, never by a label or a table header; every number written is a
// value of results.json, formatted (ratios are the bench's own, not recomputed); a row the headline
// needs is there, or its section says why it was not measured: otherwise nothing is written and the
// exit status is MISSING; text outside the markers is never touched. Google's C++ library is the
// reference for exactness, not a speed row: it is not measured here.
//
//   node bench/report.mjs [--root DIR]   redraws every page from DIR/bench/results.json
//   exit 0 written; 3 (MISSING) a row the pages need is missing; 4 (UNREADABLE) results.json is
//   missing, not JSON or not of this shape
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SCHEMA } from './results.mjs'

export const START = '<!-- bench:headline:start -->'
export const END = '<!-- bench:headline:end -->'
export const EXIT = { MISSING: 3, UNREADABLE: 4 }

/** An error of the report, with the exit status `node bench/report.mjs` gives for it. */
export class ReportError extends Error {
  constructor(message, status) {
    super(message)
    this.name = 'ReportError'
    this.status = status
  }
}

/**
 * What each section measures and how to reproduce it, for bench/RESULTS.md and docs/benchmarks.md.
 * A section results.json holds must be described here.
 */
export const SECTIONS = {
  'per-url': {
    heading: 'Per URL and per file', reproduce: 'npm run bench',
    about: 'single, batch and byte-path checks on a synthetic 184-line file (`bench/synthetic.mjs`) and on the '
      + 'labelled URLs of the real files, parse + compile + first check per real file, the start of a fresh process, '
      + 'and the memory a compiled matcher keeps, each against robots-parser in the same process, interleaved '
      + '(rounds alternate which library goes first; medians of the rounds).',
  },
  scaling: { heading: 'Scaling', reproduce: 'npm run bench',
    about: 'one check as the group grows from 10 to 10,000 rules, and as the URL grows from 20 to 2,000 bytes.' },
  'where-time-goes': { heading: 'Where the time goes', reproduce: 'npm run bench',
    about: 'a check taken apart: the host\'s work alone (encoding or copying the URL into wasm memory), the wasm check '
      + 'alone through its ABI, and a real-file check with its table resident, switching tables, and in benchmark '
      + 'order.' },
  'rule-free': { heading: 'Without the rules', reproduce: 'npm run bench',
    about: 'the synthetic URLs through the same three entry points against one rule that never matches: what a URL '
      + 'costs outside rule work, and the ratio each entry point would reach if the rules cost nothing.' },
  'cli-check': { heading: 'The CLI on the byte path', reproduce: 'npm run bench',
    about: '`robotstxt check ROBOTS AGENT --urls FILE > FILE` over 10,000,000 synthetic URLs in a fresh process, with '
      + 'its peak RSS.' },
  'cli-threads': { heading: 'The CLI on two threads', reproduce: 'node bench/cli-threads.mjs',
    about: '`check --urls` and `filter` on one thread and on two, fresh processes interleaved, with the CPU time of '
      + 'all threads and the most two threads can give on this machine (the one-thread run\'s CPU work spread over '
      + 'its cores).' },
  eviction: { heading: 'The table arena at its cap', reproduce: 'npm run bench',
    about: 'the CPU time of a compile with room in the arena, at its cap evicting the least recently used table, and '
      + 'with every table in use (the eviction clock at its bound).' },
  hostile: { heading: 'Hostile files', reproduce: 'node --expose-gc bench/hostile.mjs',
    about: 'every `Robots` accessor and `diffRobots` against `parseRobots(body).matcher(\'x\')` on ~500 KiB worst '
      + 'shapes (`bench/shapes.mjs`), CPU time, best of 7 after a forced collection and 5 untimed calls; the CLI\'s '
      + '`check`, `lint --json --all-lines` and `explain` as processes. Runs alone on any Node the package supports.' },
  peers: { heading: 'Other parsers', reproduce: 'npm run bench',
    about: 'robots-parser, robots-txt-guard and robots-txt-parser on the synthetic single check, and how often each '
      + 'gives Google\'s verdict on every labelled case (each library given the file as it accepts it).' },
  survey: { heading: 'The survey', reproduce: 'node bench/survey.mjs',
    about: '`robotstxt survey` end to end on a WARC.gz in Common Crawl\'s layout (the corpus cycled to 200,000 '
      + 'records, 30 crawlers x 2 paths) on one thread and on two: records per second, CPU per record, and the most '
      + 'two threads can give on this machine.' },
  sizes: { heading: 'Sizes', reproduce: 'npm run bench',
    about: 'the bytes of what `dist/` ships, and gzipped; `test/sizes.test.ts` holds a budget for each.' },
  'per-site': { heading: 'Per site', reproduce: 'node bench/per-site.mjs',
    about: 'robots.txt as crawlers meet it, a site at a time, over the real files: first contact '
      + '(`parseRobots(body).isAllowed(url, agent)`, string and byte bodies), crawler-shaped checks (the labelled '
      + 'checks shuffled, so the host changes on almost every one, through `Matcher.isAllowed` and '
      + '`Robots.isAllowed`) with the floors of that order, memory kept per cached `Robots` and `Matcher` (each '
      + 'library in a child process of its own, after `gc()`), and the cold start of a fresh process in CPU time, '
      + 'split into its floors.' },
  field: { heading: 'The field\'s benchmark', reproduce: 'node bench/per-site.mjs',
    about: 'the benchmark Scrapy used to choose protego: for each site, parse its robots.txt, then check its labelled '
      + 'URLs, each for its case\'s own agent; robots-parser in this process, protego and `urllib.robotparser` in a '
      + 'Python process of their own, each with its agreement with the labels.' },
  'field-floors': { heading: 'Many agents a site: floors and costs', reproduce: 'node bench/per-site.mjs --many-agents',
    about: 'the floors under the field\'s benchmark (free compiles; one pass answering one URL) and what a site\'s '
      + 'later agent costs streamed, compiled and checked on its table, with the number of checks at which streaming '
      + 'costs a compile.' },
  expectations: { heading: '`robotstxt test`\'s engine work', reproduce: 'node bench/per-site.mjs --many-agents',
    about: '50 expectations (10 crawler presets x 5 URLs) per real file judged from one `checkMatrix` call, against '
      + 'robots-parser answering the same 50 checks.' },
  'workerd-cold': { heading: 'A cold Worker', reproduce: 'node bench/workerd-cold.mjs',
    about: 'the CPU time workerd spends on a new isolate (made by a Worker Loader) with the package and without it, '
      + 'each less a warm isolate\'s request, medians of interleaved batches (Linux only: /proc schedstat). A '
      + 'Worker\'s own clock stands still between I/O.' },
  goals: { heading: 'Goals', reproduce: 'npm run bench',
    about: 'each goal the project set, the value measured in this run, the floor it must keep while the goal is '
      + 'missed, and whether it was met; the notes below say why a goal is missed.' },
  runtimes: { heading: 'Per runtime', reproduce: 'npm run bench:runtimes',
    about: 'the synthetic single, batch and byte-path checks on Node 20 to 26, Bun, Deno and Chromium, each against '
      + 'robots-parser on the same runtime.' },
  crawl: { heading: '`checkUrls` on a crawler\'s frontier', reproduce: 'npm run bench:crawl',
    about: '`checkUrls` over URLs interleaved across 1,000 origins served on 127.0.0.1, cold (every robots.txt '
      + 'fetched) and warm, with the heap after a full collection.' },
}

// ── formatting: a value of results.json in its unit ──────────────────────────────────────────
const count = (v) => Math.round(v).toLocaleString('en')
function fmtNs(ns, digits) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`
  return `${ns.toFixed(digits ?? 1)} ns`
}
const UNITS = {
  ns: (v, d) => fmtNs(v, d),
  µs: (v, d = 1) => `${v.toFixed(d)} µs`,
  ms: (v, d = 2) => `${v.toFixed(d)} ms`,
  s: (v, d = 2) => `${v.toFixed(d)} s`,
  B: (v) => `${count(v)} B`,
  MiB: (v) => `${Math.round(v)} MiB`,
  'MB/s': (v, d = 1) => `${v.toFixed(d)} MB/s`,
  x: (v, d = 1) => `${v.toFixed(d)}x`,
  count: (v, d) => (d === undefined ? count(v) : v.toFixed(d)),
  checks: (v, d = 2) => `${v.toFixed(d)} checks`,
  '/s': (v) => count(v),
  'M/s': (v, d = 2) => `${(v / 1e6).toFixed(d)}M`,
  agreement: (v) => `${((100 * v.right) / v.total).toFixed(2)}% (${count(v.right)} of ${count(v.total)})`,
}
/** Ratio styles: `faster` and `share` read a ratio (the peer's value over ours). */
const STYLES = {
  signed: (v, unit, d) => `${v < 0 ? '-' : '+'}${format(Math.abs(v), unit, d)}`,
  faster: (r) => (r >= 1 ? `${r.toFixed(1)}x faster` : `${(1 / r).toFixed(2)}x slower`),
  share: (r) => `${(1 / r).toFixed(2)}x the bytes`,
}

/** `value` in `unit` as a cell; a string is text, null an empty cell, a pair "a vs b". */
export function format(value, unit, digits, style) {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value.replaceAll('|', '\\|')
  if (Array.isArray(value)) return value.map((v) => format(v, unit, digits, style)).join(' vs ')
  if (style !== undefined) {
    if (STYLES[style] === undefined) throw new ReportError(`results.json: no cell style ${JSON.stringify(style)}`, EXIT.UNREADABLE)
    return STYLES[style](value, unit, digits)
  }
  const f = UNITS[unit]
  if (f === undefined) throw new ReportError(`results.json: no unit ${JSON.stringify(unit)}`, EXIT.UNREADABLE)
  return f(value, digits)
}

const FIELDS = new Set(['ours', 'theirs', 'ratio', 'peer', 'label'])
/** The value of a row under a column's key, with the unit, digits and style that apply to it. */
function cellOf(row, column) {
  const value = FIELDS.has(column.key) ? row[column.key] : row.cells?.[column.key]
  const unit = row.units?.[column.key] ?? column.unit ?? (column.key === 'ratio' ? 'x' : row.unit)
  const digits = column.digits ?? (column.key === 'ours' || column.key === 'theirs' ? row.digits : undefined)
  return { value, unit, digits, style: row.styles?.[column.key] ?? column.style }
}

/** The Markdown table of a section, rows in their order. */
export function sectionTable(section) {
  const numeric = (c) => c.unit !== 'text'
  const md = [`| ${[section.title, ...section.columns.map((c) => c.label)].map((s) => format(s)).join(' | ')} |`,
    `|---|${section.columns.map((c) => (numeric(c) ? '---:' : '---')).join('|')}|`]
  for (const row of section.rows) {
    if (row.error !== undefined) {
      md.push(`| ${format(row.label)} | ${section.columns.map((_, i) => (i === 0 ? `**NOT MEASURED: ${format(row.error)}**` : '')).join(' | ')} |`)
      continue
    }
    const cells = section.columns.map((c) => {
      const { value, unit, digits, style } = cellOf(row, c)
      const text = format(value, unit, digits, style)
      return c.bold && text !== '' ? `**${text}**` : text
    })
    md.push(`| ${format(row.label)} | ${cells.join(' | ')} |`)
  }
  for (const n of section.notMeasured ?? []) md.push(`| ${format(n.label)} | **NOT MEASURED: ${format(n.why)}** |${section.columns.slice(1).map(() => ' |').join('')}`)
  return md
}

// ── reading and checking results.json ─────────────────────────────────────────────────────────
const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x)

/** The results at `path`, checked for shape; a ReportError (UNREADABLE) when it cannot be used. */
export function loadResults(path) {
  let text
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ReportError(`${path}: cannot read it (${error.code ?? error.message}); \`npm run bench\` writes it`, EXIT.UNREADABLE)
  }
  let data
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new ReportError(`${path}: not JSON (${error.message})`, EXIT.UNREADABLE)
  }
  checkShape(data, path)
  return data
}

/** Throws a ReportError (UNREADABLE) naming the first thing in `data` that is not results of SCHEMA. */
export function checkShape(data, where = 'results.json') {
  const fail = (what) => {
    throw new ReportError(`${where}: ${what}`, EXIT.UNREADABLE)
  }
  if (!isObject(data) || data.schema !== SCHEMA) fail(`not results of schema ${SCHEMA}`)
  if (!isObject(data.runs)) fail('no runs')
  const ids = new Set()
  for (const [name, run] of Object.entries(data.runs)) {
    if (!isObject(run) || !Array.isArray(run.sections)) fail(`run ${name} has no sections`)
    for (const s of run.sections) {
      if (!isObject(s) || typeof s.id !== 'string' || !Array.isArray(s.rows) || !Array.isArray(s.columns)) fail(`run ${name}: a section without id, columns or rows`)
      if (SECTIONS[s.id] === undefined) fail(`section ${s.id} is not described in bench/report.mjs SECTIONS`)
      for (const r of s.rows) {
        if (!isObject(r) || typeof r.id !== 'string' || typeof r.label !== 'string') fail(`section ${s.id}: a row without id or label`)
        if (ids.has(r.id)) fail(`row id ${r.id} appears twice`)
        ids.add(r.id)
      }
    }
  }
}

/** Every row by id, with its section and run; and what each section could not measure. */
export function indexResults(results) {
  const rows = new Map()
  const sections = new Map()
  for (const [runName, run] of Object.entries(results.runs)) {
    for (const section of run.sections) {
      sections.set(section.id, { section, run, runName })
      for (const row of section.rows) rows.set(row.id, { row, section, run })
    }
  }
  return { rows, sections }
}

/**
 * Finds rows for a page: `need(id, sectionId)` gives the row, or null when its section says why it
 * was not measured (that reason is kept in `notMeasured`); a row missing without a reason is
 * collected, and `done()` throws them all as one MISSING error.
 */
function finder(results) {
  const index = indexResults(results)
  const missing = []
  const notMeasured = new Map()
  const whyNot = (id, sectionId) => {
    const s = index.sections.get(sectionId)?.section
    return s === undefined ? undefined : (s.skipped ?? s.notMeasured?.find((n) => n.id === id)?.why)
  }
  return {
    index,
    notMeasured,
    need(id, sectionId) {
      const found = index.rows.get(id)
      if (found !== undefined) return found.row
      const why = whyNot(id, sectionId)
      if (why !== undefined) notMeasured.set(sectionId, why)
      else missing.push(`${id} (section ${sectionId})`)
      return null
    },
    /** The rows of a section; null when it was skipped; missing when absent or empty. */
    rowsOf(sectionId) {
      const s = index.sections.get(sectionId)?.section
      if (s?.skipped !== undefined) {
        notMeasured.set(sectionId, s.skipped)
        return null
      }
      if (s === undefined || s.rows.length === 0) {
        missing.push(`the rows of section ${sectionId}`)
        return null
      }
      return s.rows
    },
    done() {
      if (missing.length > 0) throw new ReportError(`results.json lacks rows the pages need, and no section says why: ${missing.join(', ')}`, EXIT.MISSING)
    },
  }
}

// ── the headline ──────────────────────────────────────────────────────────────────────────────
/** What each kind of headline number means, and the commands that reproduce it ([command, for what]). */
export const MEANINGS = {
  exactness: { name: 'Exactness', reproduce: [['npm run bench', 'all labelled cases'], ['node bench/per-site.mjs', 'real-file cases']],
    means: 'the share of labelled checks on which a library gives the verdict of Google\'s C++ matcher; the counts '
      + 'beside each share are its numerator and denominator. *All labelled cases* are every case of the conformance '
      + 'and corpus sets, each library given the file as it accepts it; *real-file cases* are the checks of the '
      + 'field\'s benchmark.' },
  'first-contact': { name: 'First contact', reproduce: [['node bench/per-site.mjs']],
    means: 'the time to parse a site\'s robots.txt and answer its first URL (`parseRobots(body).isAllowed(url, '
      + '\'Googlebot\')`, the body as a string), per file, over the real files of the corpus: what a crawler pays '
      + 'for a site it has not seen.' },
  field: { name: 'The field\'s benchmark', reproduce: [['node bench/per-site.mjs']],
    means: 'for each real site, parse its robots.txt, then check its labelled URLs, each for its case\'s own agent, '
      + 'through `Robots.isAllowed(url, agent)`; the total over all sites. protego and `urllib.robotparser` run the '
      + 'same loop in a Python process of their own.' },
  synthetic: { name: 'Per URL, synthetic file', reproduce: [['npm run bench']],
    means: 'one check against a matcher compiled once for a synthetic 184-line robots.txt (`bench/synthetic.mjs`): a '
      + 'call per URL (`isAllowed`), 1,000 URLs a call (`isAllowedMany`), or the URLs as UTF-8 lines '
      + '(`isAllowedLines`).' },
  real: { name: 'Per URL, real files', reproduce: [['npm run bench']],
    means: 'the labelled URLs of the real files, each checked on its own site\'s matcher, sites interleaved.' },
  crawler: { name: 'Crawler-shaped checks', reproduce: [['node bench/per-site.mjs']],
    means: 'the labelled checks of the real files shuffled with a fixed seed, so the host changes on almost every '
      + 'check, each on a `Matcher` kept per site and agent.' },
  peers: { name: 'Other parsers', reproduce: [['npm run bench']],
    means: 'the synthetic single check through each library\'s own API.' },
  runtimes: { name: 'Runtimes', reproduce: [['npm run bench:runtimes']],
    means: 'the synthetic checks on each runtime, each against robots-parser on the same runtime: how many times '
      + 'faster.' },
}

/** The headline's speed rows, by id, and the chart's label for each. */
const SPEED = [
  { id: 'per-site.first-contact.string', section: 'per-site', kind: 'per site', short: 'first contact', what: 'first contact: parse + first check, per file', meaning: 'first-contact' },
  { peersOf: 'field', kind: 'per site', short: 'the field\'s benchmark', what: 'the field\'s benchmark: parse each site\'s robots.txt, check its links (total)', meaning: 'field' },
  { id: 'per-url.synthetic.single', section: 'per-url', kind: 'per URL', short: 'single check', what: 'single `Matcher.isAllowed`, synthetic file', meaning: 'synthetic' },
  { id: 'per-url.synthetic.batch', section: 'per-url', kind: 'per URL', short: 'batch', what: 'batch `isAllowedMany`, synthetic file', meaning: 'synthetic' },
  { id: 'per-url.synthetic.lines', section: 'per-url', kind: 'per URL', short: 'byte path', what: 'byte path `isAllowedLines`, synthetic file', meaning: 'synthetic' },
  { id: 'per-url.real.single', section: 'per-url', kind: 'per URL', short: 'real files', what: 'single `Matcher.isAllowed`, real files', meaning: 'real' },
  { id: 'per-site.crawler.matcher', section: 'per-site', kind: 'per URL', short: 'crawler-shaped', what: 'crawler-shaped checks (host changes on every check)', meaning: 'crawler' },
  { peersOf: 'peers', except: ['peers.robots-parser'], kind: 'per URL', short: 'single check', what: 'single check, synthetic file', meaning: 'peers' },
]
/** The field's base row: robotstxt-wasm as the other libraries are called (a string body, isAllowed(url, agent)). */
const FIELD_BASE = 'field.robotstxt-wasm.string.robots'

const library = (row) => row.peer ?? 'robotstxt-wasm'

/**
 * The headline's figures, found by id in `results`. Throws a ReportError (MISSING) naming every
 * row it needs that is missing without a reason.
 */
export function headlineFigures(results) {
  const f = finder(results)
  const bench = results.runs.bench ?? {}
  const figures = { date: bench.date ?? null, machine: bench.machine ?? null, runtime: bench.runtime ?? null, exactness: [], speed: [], runtimes: [], runtimesRun: null, notMeasured: [] }
  const used = new Set()

  // Exactness: every library on all labelled cases, then the field's benchmark, which adds the
  // Python libraries on the real-file cases.
  f.need('peers.robotstxt-wasm', 'peers')
  f.need('peers.robots-parser', 'peers')
  for (const r of f.rowsOf('peers') ?? []) figures.exactness.push({ library: library(r), cases: 'all labelled cases', agreement: r.cells?.agree ?? null })
  const base = f.need(FIELD_BASE, 'field')
  f.need('field.robots-parser', 'field')
  const fieldRows = f.rowsOf('field') ?? []
  if (base !== null) figures.exactness.push({ library: 'robotstxt-wasm', cases: 'real-file cases (field benchmark)', agreement: base.cells?.agree ?? null })
  for (const r of fieldRows.filter((x) => x.peer !== null && x.peer !== undefined)) {
    figures.exactness.push({ library: r.peer, cases: 'real-file cases (field benchmark)', agreement: r.error === undefined ? (r.cells?.agree ?? null) : null, error: r.error })
  }
  if (figures.exactness.length > 0) used.add('exactness')

  for (const s of SPEED) {
    const rows = s.id !== undefined
      ? [f.need(s.id, s.section)].filter((r) => r !== null)
      : (s.peersOf === 'field' ? fieldRows : (f.rowsOf(s.peersOf) ?? [])).filter((r) => r.peer !== null && r.peer !== undefined && !(s.except ?? []).includes(r.id))
    for (const r of rows) {
      figures.speed.push({ id: r.id, kind: s.kind, short: s.short, what: s.what, meaning: s.meaning, against: r.peer, ours: r.error === undefined ? r.ours : null, theirs: r.error === undefined ? r.theirs : null, unit: r.unit, ratio: r.error === undefined ? r.ratio : null, error: r.error })
      used.add(s.meaning)
    }
  }

  const runtimes = results.runs.runtimes
  if (runtimes === undefined) f.rowsOf('runtimes')
  else {
    figures.runtimesRun = { date: runtimes.date, machine: runtimes.machine }
    for (const r of f.rowsOf('runtimes') ?? []) figures.runtimes.push({ runtime: r.label, single: r.ratio, batch: r.cells?.ratioBatch ?? null, bytes: r.cells?.ratioLines ?? null })
    if (figures.runtimes.length > 0) used.add('runtimes')
  }
  f.done()
  figures.notMeasured = [...f.notMeasured].map(([section, why]) => ({ section, why }))
  figures.meanings = Object.keys(MEANINGS).filter((k) => used.has(k))
  return figures
}

/** How much faster, in words a reader cannot misread: a ratio within 5% of 1 is "as fast". */
function faster(ratio) {
  if (ratio === null || ratio === undefined) return '—'
  if (ratio >= 1.05) return `**${ratio.toFixed(1)}×** faster`
  if (ratio > 1 / 1.05) return `as fast (${ratio.toFixed(2)}×)`
  return `${(1 / ratio).toFixed(1)}× slower`
}

/** The headline as Markdown: what was measured, what each number means, how to reproduce it. */
export function headlineMarkdown(f) {
  const md = []
  md.push(`Measured ${f.date ?? 'on an unknown date'} on ${f.machine ?? 'an unknown machine'}, ${f.runtime ?? 'an unknown runtime'}, by \`npm run bench\`` +
    ' (every table of the run: [bench/RESULTS.md](bench/RESULTS.md)). Google\'s C++ library is the reference for exactness; its speed is not measured here.', '')
  if (f.exactness.length > 0) {
    md.push('| exactness: Google\'s verdict | on | agreement |', '|---|---|---:|')
    for (const e of f.exactness) md.push(`| ${e.library} | ${e.cases} | ${e.agreement === null ? `not measured${e.error ? `: ${format(e.error)}` : ''}` : format(e.agreement, 'agreement')} |`)
    md.push('')
  }
  if (f.speed.length > 0) {
    md.push('| speed | against | robotstxt-wasm | it | robotstxt-wasm is |', '|---|---|---:|---:|---:|')
    for (const s of f.speed) {
      const cell = (v) => (v === null || v === undefined ? '—' : format(v, s.unit))
      md.push(`| ${s.kind}: ${s.what} | ${s.against} | ${cell(s.ours)} | ${s.error ? `not measured: ${format(s.error)}` : cell(s.theirs)} | ${faster(s.ratio)} |`)
    }
    md.push('')
  }
  if (f.runtimes.length > 0) {
    const when = f.runtimesRun ? ` (${f.runtimesRun.date}, ${f.runtimesRun.machine}, \`npm run bench:runtimes\`)` : ''
    md.push(`| runtime${when} | single | batch | byte path |`, '|---|---:|---:|---:|')
    const x = (v) => (v === null ? '—' : format(v, 'x'))
    for (const r of f.runtimes) md.push(`| ${format(r.runtime)} | ${x(r.single)} | ${x(r.batch)} | ${x(r.bytes)} |`)
    md.push('')
  }
  for (const n of f.notMeasured) md.push(`Not measured in this run: ${SECTIONS[n.section]?.heading ?? n.section} (${format(n.why)}).`, '')
  md.push('What the numbers mean, and how to reproduce them: every time is the median of rounds that alternate which library runs first, in one process;' +
    ' "N× faster" is the other library\'s time over robotstxt-wasm\'s. Run `npm ci && npm run build`, then the command given (`BENCH_ROUNDS=N` sets the rounds):', '')
  for (const k of f.meanings) {
    const m = MEANINGS[k]
    md.push(`* **${m.name}**: ${m.means} Reproduce: ${m.reproduce.map(([c, what]) => `\`${c}\`${what ? ` (${what})` : ''}`).join(', ')}.`)
  }
  md.push('', '![robotstxt-wasm against the other parsers: how many times faster, per site and per URL](docs/bench.svg)')
  return md.join('\n')
}

const escapeXml = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])

/** A horizontal bar chart of the speed ratios (robotstxt-wasm is N× faster than …), as SVG text. */
export function chartSvg(f) {
  // Short labels: the measure and the library's name without its version.
  const bars = f.speed
    .filter((s) => s.ratio !== null && s.ratio !== undefined)
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
    `<text x="10" y="22" font-size="14" font-weight="bold">robotstxt-wasm is N× faster (${escapeXml(f.date ?? '')}, ${escapeXml(f.runtime ?? '?')})</text>`,
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

// ── bench/RESULTS.md and bench/RUNTIMES.md ──────────────────────────────────────────────────────
const GOAL_COLUMNS = ['measured', 'goal', 'floor (kept while the goal is missed)', '']

/** The goals table: goal, measured, floor and met or missed, a row per goal. */
function goalTable(section, noted) {
  // A goal as it was set: 40x, not 40.00x.
  const bound = (b, r) => `${b.op} ${r.unit === 'x' ? `${+b.value.toFixed(2)}x` : format(b.value, r.unit, r.digits)}`
  const md = [`| ${section.title} | ${GOAL_COLUMNS.join(' | ')} |`, '|---|---:|---:|---:|---|']
  for (const r of section.rows) {
    const floor = r.floor === undefined ? '' : `${bound(r.floor, r)}: ${r.floorMet ? 'kept' : '**BROKEN**'}`
    const status = r.met ? 'met' : `**missed**${noted.has(r.id) ? ' (see the notes)' : ''}`
    md.push(`| ${format(r.label)} | ${format(r.ours, r.unit, r.digits)} | ${bound(r.goal, r)} | ${floor} | ${status} |`)
  }
  return md
}

/** A section as Markdown: its heading, `runLine` (another run's), intro, table and closing paragraphs. */
export function sectionMarkdown(section, noted = new Set(), runLine = null) {
  const md = [`## ${SECTIONS[section.id]?.heading ?? section.id}`, '']
  if (runLine !== null) md.push(runLine, '')
  if (section.skipped !== undefined) return [...md, `Not measured in this run: ${format(section.skipped)}.`]
  for (const p of section.intro ?? []) md.push(p, '')
  md.push(...(section.id === 'goals' ? goalTable(section, noted) : sectionTable(section)))
  for (const p of section.after ?? []) md.push('', p)
  return md
}

const NOTE_HEADING = /^## (.*)$/
const PLACEHOLDER = /\{\{([a-z0-9.-]+)(?::([A-Za-z0-9]+))?\}\}/g

/**
 * bench/NOTES.md for RESULTS.md: a `## ` heading names the goals its note explains (their ids,
 * `goal.…`, in backticks; a note on no goal keeps its heading as written), and `{{id}}` or `{{id:field}}` in its text stand for a value of this run. Returns the
 * notes from the first heading on, headings one level down, and the ids of the goals they explain. A goal or row it
 * names that the run lacks is MISSING, unless a section of the run was not measured.
 */
export function notesMarkdown(notes, results) {
  const { rows, sections } = indexResults(results)
  const partial = [...sections.values()].some(({ section }) => section.skipped !== undefined || (section.notMeasured ?? []).length > 0)
  const missing = []
  const noted = new Set()
  const lines = []
  // What precedes the first note is for the notes' editors, not for RESULTS.md.
  const first = notes.search(/^## /m)
  for (const line of (first < 0 ? '' : notes.slice(first)).trimEnd().split('\n')) {
    const heading = NOTE_HEADING.exec(line)
    if (heading !== null) {
      // The heading names goals by id; RESULTS.md names them as its goals table does.
      const labels = []
      for (const [, id] of heading[1].matchAll(/`(goal\.[a-z0-9.-]+)`/g)) {
        const found = rows.get(id)
        if (found?.section.id === 'goals') {
          noted.add(id)
          labels.push(found.row.label)
        } else if (!partial) missing.push(`${id} (named by a note)`)
      }
      lines.push(`### ${labels.length > 0 ? labels.join('; ') : heading[1]}`)
      continue
    }
    lines.push(line.replace(PLACEHOLDER, (_, id, field = 'ours') => {
      const found = rows.get(id)
      if (found === undefined) {
        if (!partial) missing.push(`${id} (quoted by a note)`)
        return '(not measured in this run)'
      }
      const r = found.row
      const column = found.section.columns.find((c) => c.key === field) ?? { key: field }
      // Plain, without the column's style: the note's own words say faster or slower.
      const { value, unit, digits } = cellOf(r, column)
      if (value === undefined) missing.push(`${id}:${field} (quoted by a note)`)
      return format(value, unit, digits)
    }))
  }
  if (missing.length > 0) throw new ReportError(`bench/NOTES.md names what results.json lacks: ${missing.join(', ')}`, EXIT.MISSING)
  return { md: lines.join('\n'), noted }
}

const RUN_LINE = (run) => `Measured ${run.date} on ${run.machine}, ${run.runtime}${run.intro ? `; ${run.intro}` : ''}.`

/** bench/RESULTS.md: the bench run's sections, its goals and the notes on them. */
export function resultsMarkdown(results, notes = '') {
  const run = results.runs.bench
  if (run === undefined) throw new ReportError('results.json has no run `bench` (`npm run bench` writes it)', EXIT.MISSING)
  const { md: notesMd, noted } = notesMarkdown(notes, results)
  const md = ['# Benchmark results', '',
    'Written by `npm run bench` into `bench/results.json` and drawn from it by `node bench/report.mjs`, with the notes of `bench/NOTES.md`: edit those, not this file. What each table measures, and the command that measures it alone: [docs/benchmarks.md](../docs/benchmarks.md).', '',
    RUN_LINE(run)]
  for (const section of run.sections) md.push('', ...sectionMarkdown(section, noted))
  for (const other of ['crawl']) {
    const r = results.runs[other]
    if (r === undefined) continue
    for (const section of r.sections) md.push('', ...sectionMarkdown(section, undefined, `Measured ${r.date} on ${r.machine}, ${r.runtime}, by \`${r.command}\`.`))
  }
  if (notesMd.trim() !== '') md.push('', '## Notes on the goals', '', notesMd.trim())
  return md.join('\n') + '\n'
}

/** bench/RUNTIMES.md, from the run `runtimes`; null when there is none. */
export function runtimesMarkdown(results) {
  const run = results.runs.runtimes
  if (run === undefined) return null
  const md = ['# Benchmarks per runtime', '', 'Written by `npm run bench:runtimes` into `bench/results.json` and drawn from it by `node bench/report.mjs`.', '', `Measured ${run.date} on ${run.machine}${run.intro ? `; ${run.intro}` : ''}.`]
  for (const section of run.sections) {
    md.push('')
    for (const p of section.intro ?? []) md.push(p, '')
    md.push(...(section.skipped === undefined ? sectionTable(section) : [`Not measured: ${format(section.skipped)}.`]))
  }
  return md.join('\n') + '\n'
}

/**
 * docs/benchmarks.md's list of the sections the runs hold: what each measures, how to run it alone.
 * The goals are bench/RESULTS.md's alone: a guide says what a number means, not what it was meant to be.
 */
export function sectionsMarkdown(results) {
  const md = []
  for (const run of Object.values(results.runs)) {
    for (const section of run.sections.filter((x) => x.id !== 'goals')) {
      const s = SECTIONS[section.id]
      const not = section.skipped === undefined ? '' : ` Not measured in the last run: ${format(section.skipped)}.`
      md.push(`* **${s.heading}** (\`${s.reproduce}\`): ${s.about}${not}`)
    }
  }
  return md.join('\n')
}

// ── writing the pages ─────────────────────────────────────────────────────────────────────────
/** `text` with the block between `start` and `end` replaced by `content`; throws when the markers are missing. */
export function replaceBlock(text, content, start = START, end = END) {
  const a = text.indexOf(start)
  const b = text.indexOf(end)
  if (a < 0 || b < a) throw new Error(`no ${start} ... ${end} block`)
  return `${text.slice(0, a + start.length)}\n${content}\n${text.slice(b)}`
}
export const replaceHeadline = (text, content) => replaceBlock(text, content)

export const SECTIONS_START = '<!-- bench:sections:start -->'
export const SECTIONS_END = '<!-- bench:sections:end -->'

/** Links written from the root, for a page in docs/: docs/ files directly, the others one level up. */
const fromDocs = (md) => md.replace(/\]\((?!https?:)(docs\/)?/g, (_, docs) => (docs ? '](' : '](../'))

/**
 * Every page, as { path: text }, from `root`/bench/results.json and bench/NOTES.md; computed in
 * full before anything is written, so an error leaves every file as it was.
 */
export function drawPages(root) {
  const results = loadResults(join(root, 'bench', 'results.json'))
  const notesPath = join(root, 'bench', 'NOTES.md')
  const notes = existsSync(notesPath) ? readFileSync(notesPath, 'utf8') : ''
  const figures = headlineFigures(results)
  const headline = headlineMarkdown(figures)
  const pages = { 'bench/RESULTS.md': resultsMarkdown(results, notes), 'docs/bench.svg': chartSvg(figures) }
  const runtimes = runtimesMarkdown(results)
  if (runtimes !== null) pages['bench/RUNTIMES.md'] = runtimes
  const readme = join(root, 'README.md')
  if (existsSync(readme) && readFileSync(readme, 'utf8').includes(START)) pages['README.md'] = replaceBlock(readFileSync(readme, 'utf8'), headline)
  const docs = join(root, 'docs', 'benchmarks.md')
  if (existsSync(docs)) {
    let text = readFileSync(docs, 'utf8')
    if (text.includes(START)) text = replaceBlock(text, fromDocs(headline))
    if (text.includes(SECTIONS_START)) text = replaceBlock(text, sectionsMarkdown(results), SECTIONS_START, SECTIONS_END)
    pages['docs/benchmarks.md'] = text
  }
  return { pages, figures }
}

/** Redraws every page under `root` from its bench/results.json; returns the headline's figures. */
export function writeReport(root) {
  const { pages, figures } = drawPages(root)
  for (const [path, text] of Object.entries(pages)) writeFileSync(join(root, path), text)
  return figures
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root')
  const root = at >= 0 ? process.argv[at + 1] : join(dirname(fileURLToPath(import.meta.url)), '..')
  try {
    writeReport(root)
  } catch (error) {
    if (!(error instanceof ReportError)) throw error
    process.stderr.write(`bench/report.mjs: ${error.message}\n`)
    process.exit(error.status)
  }
}
