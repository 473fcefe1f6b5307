// bench/per-site.py, the Python side of the per-site benchmark, on 3 real corpus files: what it
// prints and what its agreement counts count. Nothing here is timed (the bench reports times).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { ensureProtego, PER_SITE_PY, PYTHON, runPerSitePy, type PerSitePy } from '../bench/python.mjs'
import { CORPUS, corpusAvailable } from './helpers/cases.js'

const missing = corpusAvailable() ? await ensureProtego() : 'no ../shared/corpus'
if (missing !== null) console.error(`\n*** bench/per-site.py TESTS SKIPPED: ${missing} ***\n`)

interface Case { agent: string | string[]; url: string; allowed: boolean; line: number }
interface Rec { id: string; file: string; cases: Case[] }

describe.skipIf(missing !== null)(`bench/per-site.py (${missing === null ? `${PYTHON} with protego` : `SKIPPED: ${missing}`})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'per-site-py-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const robots = join(CORPUS, 'robots')
  const recs = readFileSync(join(CORPUS, 'cases.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, 3).map((l) => JSON.parse(l) as Rec)
  // One case with an agent list: neither Python library takes one, so the script must leave it out.
  recs[0]!.cases.push({ ...recs[0]!.cases[0]!, agent: ['Googlebot', 'FooBot'] })
  const withOneAgent = recs.reduce((n, r) => n + r.cases.filter((c) => typeof c.agent === 'string').length, 0)
  const write = (name: string, rs: Rec[]) => {
    const path = join(dir, name)
    writeFileSync(path, rs.map((r) => JSON.stringify(r)).join('\n') + '\n')
    return path
  }
  const asLabelled = write('cases.jsonl', recs)
  const flipped = write('flipped.jsonl', recs.map((r) => ({ ...r, cases: r.cases.map((c) => ({ ...c, allowed: !c.allowed })) })))

  const libs = (out: PerSitePy) => Object.fromEntries(out.libraries.map((l) => [l.name.split(' ')[0]!, l]))

  test('prints one JSON object: per library a total, per-site percentiles, checks and agreement', () => {
    const out = runPerSitePy(asLabelled, robots, 2)
    expect(out.sites).toBe(3)
    expect(out.rounds).toBe(2)
    expect(out.python).toMatch(/^3\.\d+\.\d+$/)
    expect(out.libraries.map((l) => l.name)).toEqual([expect.stringMatching(/^protego \d/), expect.stringMatching(/^urllib\.robotparser \(Python 3\./)])
    for (const l of out.libraries) {
      expect(l.error).toBeUndefined()
      expect(l.checks).toBe(withOneAgent)
      expect(Number.isInteger(l.agree) && l.agree! >= 0 && l.agree! <= withOneAgent).toBe(true)
      for (const k of ['total_ns', 'p50_ns', 'p95_ns', 'p99_ns'] as const) expect(Number.isInteger(l[k]) && l[k]! > 0).toBe(true)
      expect(l.p50_ns! <= l.p95_ns! && l.p95_ns! <= l.p99_ns! && l.p99_ns! <= l.total_ns!).toBe(true)
    }
  })

  test('agreement counts verdicts against the labels: every label flipped, each library agrees with the rest', () => {
    const right = libs(runPerSitePy(asLabelled, robots, 1))
    const wrong = libs(runPerSitePy(flipped, robots, 1))
    for (const name of ['protego', 'urllib.robotparser']) {
      expect(right[name]!.agree! + wrong[name]!.agree!).toBe(withOneAgent)
      // Neither library is so far off on real files that flipping the labels could leave it ahead.
      expect(right[name]!.agree!).toBeGreaterThan(wrong[name]!.agree!)
    }
  })

  test('a library that cannot be imported is a row with its error, not a missing row', () => {
    const shadow = join(dir, 'shadow')
    mkdirSync(shadow, { recursive: true })
    writeFileSync(join(shadow, 'protego.py'), "raise ImportError('shadowed for the test')\n")
    const out = JSON.parse(execFileSync(PYTHON, [PER_SITE_PY, asLabelled, robots, '1'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: shadow } })) as PerSitePy
    expect(out.libraries[0]).toEqual({ name: 'protego', error: 'ImportError: shadowed for the test' })
    expect(out.libraries[1]!.checks).toBe(withOneAgent)
  })
})
