// bench/report.mjs and bench/results.mjs: every page of the benchmarks is drawn from
// bench/results.json, rows found by id. Renaming every label leaves every page's numbers where they
// were; a row the pages need that is missing stops the report with its own exit status and writes
// nothing; a section that was not measured is named with its reason; goals and their notes are in
// bench/RESULTS.md and nowhere in the guides. Fed the committed record and fixed rows; nothing timed.
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  chartSvg, END, EXIT, headlineFigures, headlineMarkdown, notesMarkdown, replaceHeadline, ReportError, resultsMarkdown, SECTIONS, SECTIONS_END,
  SECTIONS_START, sectionsMarkdown, START,
} from '../bench/report.mjs'
import { goalRow, recordRun, skipped, type Results, type Row } from '../bench/results.mjs'
import { goalsSection, peersSection, perUrlSection } from '../bench/sections.mjs'
import { PEERS } from '../bench/peers.mjs'
import { hostileShapes, SHAPE_IDS } from '../bench/shapes.mjs'

const ROOT = join(import.meta.dirname, '..')
const COMMITTED: Results = JSON.parse(readFileSync(join(ROOT, 'bench', 'results.json'), 'utf8'))
const NOTES = readFileSync(join(ROOT, 'bench', 'NOTES.md'), 'utf8')
const copy = (): Results => structuredClone(COMMITTED)
const headline = (r: Results) => headlineMarkdown(headlineFigures(r))
const block = (text: string) => text.slice(text.indexOf(START), text.indexOf(END))
/** The headline's table rows: every line of a table but its header and separator. */
const tableRows = (md: string) => md.split('\n').filter((l) => l.startsWith('| ') && !/^\| (exactness|speed|runtime)\b/.test(l))

const tmp: string[] = []
afterAll(() => {
  for (const d of tmp) rmSync(d, { recursive: true, force: true })
})
/** A root holding the pages report.mjs writes, with `results` as its record. */
function rootWith(results: Results | string | null) {
  const root = mkdtempSync(join(tmpdir(), 'bench-report-'))
  tmp.push(root)
  mkdirSync(join(root, 'bench'))
  mkdirSync(join(root, 'docs'))
  copyFileSync(join(ROOT, 'README.md'), join(root, 'README.md'))
  copyFileSync(join(ROOT, 'docs', 'benchmarks.md'), join(root, 'docs', 'benchmarks.md'))
  copyFileSync(join(ROOT, 'bench', 'NOTES.md'), join(root, 'bench', 'NOTES.md'))
  if (results !== null) writeFileSync(join(root, 'bench', 'results.json'), typeof results === 'string' ? results : JSON.stringify(results))
  return root
}
const report = (root: string) => spawnSync(process.execPath, [join(ROOT, 'bench', 'report.mjs'), '--root', root], { encoding: 'utf8' })
const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8')

/** Every label, title, column label and intro of `r` renamed. */
function renamed(r: Results): Results {
  const out = structuredClone(r)
  for (const run of Object.values(out.runs)) {
    run.intro = `renamed: ${run.intro ?? ''}`
    for (const s of run.sections) {
      s.title = `renamed ${s.title}`
      s.intro = (s.intro ?? []).map((p) => `renamed ${p}`)
      for (const c of s.columns) c.label = `renamed ${c.label}`
      for (const row of s.rows) row.label = `renamed ${row.label}`
    }
  }
  return out
}

describe('bench/report.mjs draws every page from bench/results.json', () => {
  test('the committed pages are what `node bench/report.mjs` draws from the committed record', () => {
    const root = rootWith(COMMITTED)
    const r = report(root)
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    for (const page of ['README.md', 'docs/benchmarks.md', 'bench/RESULTS.md', 'bench/RUNTIMES.md', 'docs/bench.svg']) {
      expect(read(root, page), `${page} is not what bench/results.json draws: run node bench/report.mjs`).toBe(read(ROOT, page))
    }
  })

  test('renaming every label, title and column of the record leaves every headline row and number in place', () => {
    const before = headlineFigures(copy())
    const after = headlineFigures(renamed(copy()))
    const numbers = (f: typeof before) => ({
      speed: f.speed.map((s) => [s.id, s.against, s.ours, s.theirs, s.ratio]),
      exactness: f.exactness.map((e) => [e.library, e.agreement]),
      runtimes: f.runtimes.map((x) => [x.single, x.batch, x.bytes]),
    })
    expect(numbers(after)).toEqual(numbers(before))
    expect(before.speed.length).toBeGreaterThanOrEqual(9)
    expect(before.exactness.length).toBeGreaterThanOrEqual(6)
    expect(before.runtimes.length).toBeGreaterThanOrEqual(1)
    // And the README the CLI writes from the renamed record has every row of the committed one.
    const root = rootWith(renamed(copy()))
    expect(report(root).status).toBe(0)
    const rows = tableRows(block(read(root, 'README.md')))
    expect(rows).toHaveLength(tableRows(block(read(ROOT, 'README.md'))).length)
    for (const s of before.speed) expect(rows.some((l) => l.includes(`| ${s.against} |`) && l.includes(`**${s.ratio!.toFixed(1)}×**`))).toBe(true)
  })

  test('a row the headline needs, missing with no reason, is an error naming it: exit status 3, nothing written', () => {
    const r = copy()
    const perUrl = r.runs.bench!.sections.find((s) => s.id === 'per-url')!
    perUrl.rows = perUrl.rows.filter((x) => x.id !== 'per-url.synthetic.batch')
    expect(() => headlineFigures(r)).toThrow(ReportError)
    try {
      headlineFigures(r)
    } catch (error) {
      expect((error as ReportError).status).toBe(EXIT.MISSING)
      expect((error as Error).message).toContain('per-url.synthetic.batch')
    }
    const root = rootWith(r)
    const readme = read(root, 'README.md')
    const result = report(root)
    expect(result.status).toBe(3)
    expect(result.stderr).toContain('per-url.synthetic.batch')
    expect(read(root, 'README.md')).toBe(readme)
    expect(existsSync(join(root, 'bench', 'RESULTS.md'))).toBe(false)
    expect(existsSync(join(root, 'docs', 'bench.svg'))).toBe(false)
  })

  test('a whole section or run the headline reads, gone with no reason, is MISSING too', () => {
    const noPeers = copy()
    noPeers.runs.bench!.sections = noPeers.runs.bench!.sections.filter((s) => s.id !== 'peers')
    expect(() => headlineFigures(noPeers)).toThrow(/peers/)
    const noRuntimes = copy()
    delete noRuntimes.runs.runtimes
    expect(() => headlineFigures(noRuntimes)).toThrow(/runtimes/)
    expect(report(rootWith(noRuntimes)).status).toBe(3)
  })

  test('a section the run could not measure is named with its reason, in the headline and in RESULTS.md', () => {
    const r = copy()
    const sections = r.runs.bench!.sections
    sections[sections.findIndex((s) => s.id === 'per-site')] = skipped('per-site', 'what crawlers do', '../shared/corpus not found')
    const perUrl = sections.find((s) => s.id === 'per-url')!
    perUrl.rows = perUrl.rows.filter((x) => !x.id.startsWith('per-url.real.'))
    perUrl.notMeasured = [{ id: 'per-url.real.single', label: 'real files (b): single', why: '../shared/corpus not found' }, { id: 'per-url.real.batch', label: 'real files (b): batch', why: '../shared/corpus not found' }]
    const md = headline(r)
    expect(md).toContain('Not measured in this run: Per site (../shared/corpus not found).')
    expect(md).toContain('Not measured in this run: Per URL and per file (../shared/corpus not found).')
    expect(md).not.toContain('first contact')
    expect(md).not.toContain('real files |')
    const results = resultsMarkdown(r, NOTES)
    expect(results).toMatch(/## Per site\n\nNot measured in this run: \.\.\/shared\/corpus not found\./)
    expect(results).toContain('| real files (b): single | **NOT MEASURED: ../shared/corpus not found** |')
  })

  test('results.json missing, not JSON, or of another shape: exit status 4, nothing written', () => {
    for (const [results, why] of [
      [null, 'cannot read'], ['{', 'not JSON'], [JSON.stringify({ schema: 2, runs: {} }), 'schema'],
      [JSON.stringify({ schema: 1, runs: { bench: { sections: [{ id: 'mystery', title: 't', columns: [], rows: [] }] } } }), 'mystery'],
    ] as const) {
      const root = rootWith(results)
      const r = report(root)
      expect(r.status, why).toBe(4)
      expect(r.stderr).toContain(why)
      expect(existsSync(join(root, 'bench', 'RESULTS.md'))).toBe(false)
    }
    const twice = copy()
    const peers = twice.runs.bench!.sections.find((s) => s.id === 'peers')!
    peers.rows.push({ ...peers.rows[0]! })
    const r = report(rootWith(twice))
    expect(r.status).toBe(4)
    expect(r.stderr).toContain('appears twice')
  })

  test('every section the bench writes is described for docs/benchmarks.md, and every shape and peer has an id', () => {
    for (const run of Object.values(COMMITTED.runs)) for (const s of run.sections) expect(SECTIONS[s.id], s.id).toBeDefined()
    for (const id of ['rule-free', 'field-floors', 'expectations', 'crawl', 'survey']) expect(SECTIONS[id]).toBeDefined()
    const shapes = Object.keys(hostileShapes(4000))
    expect(shapes.filter((name) => SHAPE_IDS[name] === undefined)).toEqual([])
    expect(new Set(shapes.map((name) => SHAPE_IDS[name])).size).toBe(shapes.length)
    const ids = PEERS.map((p) => p.id)
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('the headline: what each number means and how to reproduce it, with no goals', () => {
  const md = headline(COMMITTED)
  const lines = md.split('\n')

  test('the run\'s date, machine and runtime head it, from the record', () => {
    const run = COMMITTED.runs.bench!
    expect(lines[0]).toContain(`Measured ${run.date} on ${run.machine}, ${run.runtime}, by \`npm run bench\``)
  })

  test('exactness quotes each library\'s agreement with its denominator, labelled cases and the field\'s benchmark apart', () => {
    expect(lines).toContain('| robots-parser 3.0.1 | all labelled cases | 94.01% (71,349 of 75,895) |')
    expect(lines).toContain('| protego 0.2.1 | real-file cases (field benchmark) | 97.05% (57,157 of 58,896) |')
    // robotstxt-wasm appears once per case set, not once per way of calling it.
    expect(lines.filter((l) => l.startsWith('| robotstxt-wasm | real-file'))).toHaveLength(1)
  })

  test('speed rows quote both values and the bench\'s own ratio; the field\'s peers against its first row', () => {
    expect(lines).toContain('| per URL: single `Matcher.isAllowed`, synthetic file | robots-parser 3.0.1 | 107.0 ns | 3.34 µs | **31.2×** faster |')
    expect(lines).toContain('| per site: the field\'s benchmark: parse each site\'s robots.txt, check its links (total) | protego 0.2.1 | 72.26 ms | 1490.04 ms | **20.6×** faster |')
    expect(lines).toContain('| per URL: crawler-shaped checks (host changes on every check) | robots-parser 3.0.1 | 518.7 ns | 3.72 µs | **7.2×** faster |')
  })

  test('a ratio within 5% of 1 reads "as fast", never "1.0x faster"; below it, slower', () => {
    const r = copy()
    const field = r.runs.bench!.sections.find((s) => s.id === 'field')!
    field.rows.find((x) => x.id === 'field.robots-parser')!.ratio = 0.99
    field.rows.find((x) => x.id === 'field.protego')!.ratio = 0.5
    const out = headline(r)
    expect(out).toMatch(/\| robots-parser 3\.0\.1 \| [^|]+ \| [^|]+ \| as fast \(0\.99×\) \|/)
    expect(out).toMatch(/\| protego 0\.2\.1 \| [^|]+ \| [^|]+ \| 2\.0× slower \|/)
  })

  test('every kind of number in it is explained, with the command that reproduces it', () => {
    for (const name of ['Exactness', 'First contact', 'The field\'s benchmark', 'Per URL, synthetic file', 'Crawler-shaped checks', 'Runtimes']) {
      expect(lines.some((l) => l.startsWith(`* **${name}**:`) && /Reproduce: `(npm run|node bench\/)/.test(l)), name).toBe(true)
    }
    expect(md).toContain('| runtime (2026-11-25, Intel(R) Xeon(R) Processor, 2 cores, `npm run bench:runtimes`) |')
  })

  test('no goal, target, met or missed in the headline or in docs/benchmarks.md\'s list of tables', () => {
    expect(md).not.toMatch(/\bgoals?\b|\btargets?\b|\bmissed\b|\bmet\b/i)
    expect(sectionsMarkdown(COMMITTED)).not.toMatch(/\bgoals?\b|\bmissed\b/i)
    const docs = readFileSync(join(ROOT, 'docs', 'benchmarks.md'), 'utf8')
    expect(docs.slice(docs.indexOf(SECTIONS_START), docs.indexOf(SECTIONS_END))).not.toMatch(/\bgoals?\b/i)
  })

  test('Google\'s C++ library has no speed figure: it is not measured here', () => {
    expect(md).toContain('its speed is not measured here')
    expect(md).not.toMatch(/C\+\+[^\n]*×/)
  })

  test('the SVG has a bar per ratio, widths in proportion, labels escaped', () => {
    const figures = headlineFigures(COMMITTED)
    const svg = chartSvg(figures)
    const bars = [...svg.matchAll(/<rect x="(\d+)" y="\d+" width="(\d+)"/g)].map((m) => Number(m[2]))
    const ratios = figures.speed.flatMap((s) => (s.ratio === null ? [] : [s.ratio]))
    expect(bars).toHaveLength(ratios.length)
    const max = Math.max(...ratios)
    ratios.forEach((r, i) => expect(bars[i]).toBe(Math.max(1, Math.round((r / max) * 300))))
    expect(svg).toContain('per URL, single check: vs robots-txt-guard')
    expect(chartSvg({ ...figures, speed: [{ short: 'a<b>&c', kind: 'per URL', against: 'x', ratio: 2 }] })).toContain('a&lt;b&gt;&amp;c')
  })

  test('replaceHeadline rewrites only between the markers, and refuses a file without them', () => {
    const doc = `before\n${START}\nold table\n${END}\nafter\n`
    expect(replaceHeadline(doc, 'new')).toBe(`before\n${START}\nnew\n${END}\nafter\n`)
    expect(replaceHeadline(replaceHeadline(doc, 'new'), 'new')).toBe(replaceHeadline(doc, 'new'))
    expect(() => replaceHeadline('no markers', 'x')).toThrow(/bench:headline/)
  })

  test('links work from each page: the README from the root, docs/benchmarks.md from docs/', () => {
    const root = rootWith(COMMITTED)
    expect(report(root).status).toBe(0)
    const readme = block(read(root, 'README.md'))
    const docs = block(read(root, 'docs/benchmarks.md'))
    expect(readme).toContain('](docs/bench.svg)')
    expect(readme).toContain('](bench/RESULTS.md)')
    expect(docs).toContain('](bench.svg)')
    expect(docs).toContain('](../bench/RESULTS.md)')
  })
})

describe('goals and their notes: bench/RESULTS.md', () => {
  const goal = (measured: number, floor?: [string, number, string]) =>
    goalRow('goal.per-url.synthetic.single', { label: 'single check: robots-parser / ours', measured, goal: ['>=', 40], floor, row: 'per-url.synthetic.single' })

  test('goalRow judges the goal and the floor from the unrounded value', () => {
    const held = goal(31.23, ['>=', 29.64, 'no regression'])
    expect([held.met, held.floorMet]).toEqual([false, true])
    expect(goal(29.6399, ['>=', 29.64, 'no regression']).floorMet).toBe(false)
    expect(goal(40).met).toBe(true)
    expect(goalRow('g', { label: 'l', measured: 0.5, goal: ['<=', 0.5] }).met).toBe(true)
    expect(() => goalRow('g', { label: 'l', measured: 1, goal: ['>', 0.5] })).toThrow(TypeError)
  })

  test('the goals table gives goal, measured, floor and met or missed; a broken floor stands out', () => {
    const r = copy()
    const goals = r.runs.bench!.sections.find((s) => s.id === 'goals')!
    goals.rows = [goal(31.23, ['>=', 29.64, 'no regression']), { ...goal(25, ['>=', 29.64, 'no regression']), id: 'goal.other', label: 'another: robots-parser / ours' }, ...goals.rows.filter((g: Row) => g.id !== 'goal.per-url.synthetic.single')]
    const md = resultsMarkdown(r, NOTES)
    expect(md).toContain('| goal | measured | goal | floor (kept while the goal is missed) |  |')
    expect(md).toContain('| single check: robots-parser / ours | 31.23x | >= 40x | >= 29.64x: kept | **missed** (see the notes) |')
    expect(md).toContain('| another: robots-parser / ours | 25.00x | >= 40x | >= 29.64x: **BROKEN** | **missed** |')
    expect(md).toContain('| memory per compiled Matcher / a robots-parser instance | 0.25x | <= 0.25x |  | met |')
  })

  test('the notes quote the run beside them, name their goals by label, and come after the goals', () => {
    const md = resultsMarkdown(COMMITTED, NOTES)
    expect(md.indexOf('## Notes on the goals')).toBeGreaterThan(md.indexOf('## Goals'))
    expect(md).toContain('### crawler-shaped checks, Matcher.isAllowed: robots-parser / ours; crawler-shaped checks, Robots.isAllowed: robots-parser / ours')
    expect(md).toContain('no check in this order can be more than\n21.2x faster than robots-parser\'s 3.72 µs')
    expect(md).not.toMatch(/\{\{/)
    // The notes' own preamble, for their editors, stays out.
    expect(md).not.toContain('Hand-written')
  })

  test('a note naming a goal or row the run lacks stops the report (MISSING), unless a section was not measured', () => {
    const stale = '## `goal.gone`\n\nWas {{per-url.gone:ratio}}.\n'
    try {
      notesMarkdown(stale, COMMITTED)
      expect.unreachable()
    } catch (error) {
      expect((error as ReportError).status).toBe(EXIT.MISSING)
      expect((error as Error).message).toMatch(/goal\.gone.*per-url\.gone/)
    }
    const partial = copy()
    partial.runs.bench!.sections.push(skipped('crawl', 'pass', 'not run'))
    expect(notesMarkdown(stale, partial).md).toContain('Was (not measured in this run).')
    // A note on no goal (a measurement moved out of a code comment, say) keeps its heading.
    expect(notesMarkdown('## Why `lines` keeps objects\n\n{{per-url.memory}} a matcher.\n', COMMITTED).md).toBe('### Why `lines` keeps objects\n\n1,454 B a matcher.')
  })
})

describe('bench/results.mjs and the section builders', () => {
  test('recordRun replaces its own run and keeps the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-record-'))
    tmp.push(dir)
    const path = join(dir, 'results.json')
    const run = (date: string) => ({ command: 'x', date, machine: 'm', runtime: 'r', sections: [] })
    recordRun(path, 'bench', run('2026-01-01'))
    recordRun(path, 'runtimes', run('2026-01-02'))
    recordRun(path, 'bench', run('2026-01-03'))
    const out = JSON.parse(readFileSync(path, 'utf8'))
    expect(out.schema).toBe(1)
    expect(out.runs.bench.date).toBe('2026-01-03')
    expect(out.runs.runtimes.date).toBe('2026-01-02')
  })

  test('builders keep values as numbers in their units, ratios as the peer over ours, ids apart from labels', () => {
    const s = perUrlSection({
      rows: [{ id: 'per-url.synthetic.single', label: 'single', ours: 100, theirs: 4000 }],
      memory: { count: 10, oursPerMatcher: 1000, theirsPerInstance: 2500, oursPerRuleByte: 1.5 },
    })
    expect(s.rows.map((r) => [r.id, r.unit, r.ours, r.theirs, r.ratio])).toEqual([['per-url.synthetic.single', 'ns', 100, 4000, 40], ['per-url.memory', 'B', 1000, 2500, 2.5]])
    const peers = peersSection([{ id: 'peers.robotstxt-wasm', name: 'robotstxt-wasm', ours: null, ns: null, ratio: null, exact: { right: 2, total: 2 } }, { id: 'peers.x', name: 'x 1.0', ours: 100, ns: 300, ratio: 3, exact: null }])
    expect(peers.rows.map((r) => r.peer)).toEqual([null, 'x 1.0'])
    expect(goalsSection([]).id).toBe('goals')
  })
})
