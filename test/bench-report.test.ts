// bench/report.mjs, fed fixed bench output: the headline quotes the bench's cells (never a number
// of its own), leaves out what the run lacks, and draws one bar per ratio, to scale.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { chartSvg, END, headlineFigures, headlineMarkdown, parseTables, replaceHeadline, START, writeHeadline } from '../bench/report.mjs'

const RESULTS = `# Benchmark results

Measured 2026-01-02 on Test CPU, 2 cores, linux x64, Node v24.0.0; robots-parser 3.0.1 in the same process, interleaved, median of 3 rounds.

| phase | robotstxt-wasm | robots-parser | ratio |
|---|---:|---:|---:|
| synthetic (a): single Matcher.isAllowed vs isAllowed | 100.0 ns | 4.00 µs | **40.0x** |
| synthetic (a): batch isAllowedMany vs isAllowed | 200.0 ns | 4.00 µs | **20.0x** |
| real files (b): single Matcher.isAllowed vs isAllowed | 1.00 µs | 8.00 µs | **8.0x** |

| library (synthetic workload, single checks) | time per check | robotstxt-wasm is | Google's verdict on the labelled cases |
|---|---:|---:|---:|
| robotstxt-wasm (this build) | — | — | 100.00% (10 of 10) |
| robots-parser 3.0.1 | 4.00 µs | 40.0x faster | 90.00% (9 of 10) |
| other-lib <1.0> & co | 1.00 µs | 10.0x faster | 80.00% (8 of 10) |

## Per site

| what crawlers do | robots-parser | robotstxt-wasm | robotstxt-wasm is | goal |
|---|---:|---:|---:|---:|
| first contact: \`parseRobots(body).isAllowed(url, 'Googlebot')\`, per file, body as a string | 30.00 µs | 10.00 µs | **3.0x faster** | >= 6x |
| crawler-shaped checks: shuffled | 20.00 µs | 5.00 µs | **4.0x faster** | >= 20x |

| library | body | checks through | total | p50 per site | p95 | p99 | total / first row | agrees with the labels |
|---|---|---|---:|---:|---:|---:|---:|---:|
| robotstxt-wasm | string | \`Robots.isAllowed(url, agent)\` | 100.00 ms | 1 µs | 2 µs | 3 µs | 1.00x | 100.00% (5 of 5) |
| robotstxt-wasm | bytes | \`Matcher.isAllowed(url)\` | 50.00 ms | 1 µs | 2 µs | 3 µs | 0.50x | 100.00% (5 of 5) |
| robots-parser 3.0.1 | string | \`isAllowed(url, agent)\` | 99.00 ms | 1 µs | 2 µs | 3 µs | 0.99x | 80.00% (4 of 5) |
| protego 0.2.1 | string | \`can_fetch(url, agent)\` | 1000.00 ms | 1 µs | 2 µs | 3 µs | 10.00x | 60.00% (3 of 5) |
`

const RUNTIMES = `# Benchmarks per runtime

Synthetic workload (bench/synthetic.mjs), per URL; robots-parser in the same process, interleaved; 2026-01-03, Test CPU, 2 cores.

| runtime | wasm loads as | single \`isAllowed\` | of which encodeInto | batch \`isAllowedMany\` | byte path \`isAllowedLines\` | robots-parser | single | batch | byte path |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
| Node 24.0.0 | embedded | 100 ns | 40 ns | 90 ns | 80 ns | 4.00 µs | **40.0x** | **44.4x** | **50.0x** |
| Bun 1.0.0 | embedded | 100 ns | 40 ns | 90 ns | 80 ns | 3.00 µs | **30.0x** | **33.3x** | **37.5x** |
`

describe('bench/report.mjs', () => {
  const figures = headlineFigures(RESULTS, RUNTIMES)
  const md = headlineMarkdown(figures)
  const lines = md.split('\n')

  test('parseTables reads header and rows, not the separator line', () => {
    const phase = parseTables(RESULTS)[0]!
    expect(phase.header).toEqual(['phase', 'robotstxt-wasm', 'robots-parser', 'ratio'])
    expect(phase.rows).toHaveLength(3)
    expect(phase.rows[1]).toEqual(['synthetic (a): batch isAllowedMany vs isAllowed', '200.0 ns', '4.00 µs', '**20.0x**'])
  })

  test('the run\'s date, machine and Node head the table', () => {
    expect(lines[0]).toMatch(/^Measured 2026-01-02 on Test CPU, 2 cores, linux x64, Node v24\.0\.0, by `npm run bench`/)
  })

  test('exactness quotes each library\'s agreement cell, labelled cases and the field\'s benchmark apart', () => {
    expect(lines).toContain('| robots-parser 3.0.1 | all labelled cases | 90.00% (9 of 10) |')
    expect(lines).toContain('| protego 0.2.1 | real-file cases (field benchmark) | 60.00% (3 of 5) |')
    // robotstxt-wasm appears once per case set, not once per way of calling it.
    expect(lines.filter((l) => l.startsWith('| robotstxt-wasm | real-file'))).toHaveLength(1)
  })

  test('speed rows quote both times and the bench\'s ratio; the field\'s benchmark uses its "total / first row" column', () => {
    expect(lines).toContain('| per site: first contact: parse + first check, per file | robots-parser | 10.00 µs | 30.00 µs | **3.0×** faster |')
    expect(lines).toContain('| per site: the field\'s benchmark: parse each site\'s robots.txt, check its links (total) | protego 0.2.1 | 100.00 ms | 1000.00 ms | **10.0×** faster |')
    // 0.99x of the first row: within 5%, so "as fast", never "1.0x faster".
    expect(lines).toContain('| per site: the field\'s benchmark: parse each site\'s robots.txt, check its links (total) | robots-parser 3.0.1 | 100.00 ms | 99.00 ms | as fast (0.99×) |')
    expect(lines).toContain('| per URL: single `Matcher.isAllowed`, synthetic file | robots-parser | 100.0 ns | 4.00 µs | **40.0×** faster |')
    expect(lines).toContain('| per URL: crawler-shaped checks (host changes on every check) | robots-parser | 5.00 µs | 20.00 µs | **4.0×** faster |')
  })

  test('a row the run lacks is left out, not guessed', () => {
    expect(md).not.toContain('byte path `isAllowedLines`')
    const bare = headlineMarkdown(headlineFigures(RESULTS.split('## Per site')[0]!))
    expect(bare).not.toContain('per site:')
    expect(bare).not.toContain('| runtime')
    expect(bare).toContain('per URL: batch')
  })

  test('runtimes: each runtime\'s ratios, with the date of that run', () => {
    expect(lines).toContain('| Bun 1.0.0 | 30.0x | 33.3x | 37.5x |')
    expect(md).toContain('| runtime (2026-01-03, Test CPU, 2 cores, `npm run bench:runtimes`) |')
  })

  test('Google\'s C++ library has no speed figure: it is not measured here', () => {
    expect(md).toContain('its speed is not measured here')
    expect(md).not.toMatch(/C\+\+[^\n]*×/)
  })

  test('the SVG has a bar per ratio, widths in proportion, labels escaped', () => {
    const svg = chartSvg(figures)
    const bars = [...svg.matchAll(/<rect x="(\d+)" y="\d+" width="(\d+)"/g)].map((m) => Number(m[2]))
    const ratios = [...figures.perSite, ...figures.perUrl].flatMap((s) => s.ratio === null ? [] : [s.ratio])
    expect(bars).toHaveLength(ratios.length)
    const max = Math.max(...ratios)
    ratios.forEach((r, i) => expect(bars[i]).toBe(Math.max(1, Math.round((r / max) * 300))))
    expect(svg).toContain('per URL, single check: vs other-lib')
    expect(svg).toContain('40.0×')
    expect(svg).not.toMatch(/<1\.0>/)
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
  })

  test('markdown cells with markup are escaped in the SVG', () => {
    const svg = chartSvg({ ...figures, perSite: [], perUrl: [{ short: 'a<b>&c', against: 'x', ratio: 2 }] })
    expect(svg).toContain('a&lt;b&gt;&amp;c')
  })

  test('replaceHeadline rewrites only between the markers, and refuses a file without them', () => {
    const doc = `before\n${START}\nold table\n${END}\nafter\n`
    expect(replaceHeadline(doc, 'new')).toBe(`before\n${START}\nnew\n${END}\nafter\n`)
    expect(replaceHeadline(replaceHeadline(doc, 'new'), 'new')).toBe(replaceHeadline(doc, 'new'))
    expect(() => replaceHeadline('no markers', 'x')).toThrow(/bench:headline/)
  })

  test('writeHeadline fills both pages\' markers, with links that work from each, and draws docs/bench.svg', () => {
    const root = mkdtempSync(join(tmpdir(), 'bench-report-'))
    try {
      mkdirSync(join(root, 'bench'))
      mkdirSync(join(root, 'docs'))
      writeFileSync(join(root, 'bench', 'RESULTS.md'), RESULTS)
      writeFileSync(join(root, 'README.md'), `# x\n${START}\n${END}\nrest\n`)
      writeFileSync(join(root, 'docs', 'benchmarks.md'), `# y\n${START}\nstale\n${END}\n`)
      writeHeadline(root)
      const readme = readFileSync(join(root, 'README.md'), 'utf8')
      const docs = readFileSync(join(root, 'docs', 'benchmarks.md'), 'utf8')
      expect(readme).toContain('](docs/bench.svg)')
      expect(readme).toContain('](bench/RESULTS.md)')
      expect(readme.endsWith(`${END}\nrest\n`)).toBe(true)
      expect(docs).toContain('](bench.svg)')
      expect(docs).toContain('](../bench/RESULTS.md)')
      expect(docs).not.toContain('stale')
      expect(readFileSync(join(root, 'docs', 'bench.svg'), 'utf8')).toBe(chartSvg(headlineFigures(RESULTS)))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
