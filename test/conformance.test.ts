// Every labelled case (../shared/README.md) through the three public ways of asking, plus the
// reference matcher: verdict and matching line must equal the labels exactly.
import { describe, expect, test } from 'vitest'
import { agentTokens } from '../src/engine/args.js'
import { utf8 } from '../src/engine/bytes.js'
import { parseRobots } from '../src/index.js'
import { parseBody } from '../src/engine/parse.js'
import { referenceCheck } from '../src/engine/reference.js'
import { corpusAvailable, loadCorpus, loadFixture, type LabelledBody } from './helpers/cases.js'

type Way = 'Robots.check' | 'Robots.check after reading sitemaps' | 'Matcher.check' | 'Matcher.isAllowedMany+checkMany'
  | 'Matcher.isAllowedLines+checkLines' | 'reference'

/** Returns a description of every case whose answer differs from its label. */
function mismatches(bodies: LabelledBody[], way: Way): string[] {
  const bad: string[] = []
  for (const b of bodies) {
    const robots = parseRobots(b.body)
    const report = (i: number, allowed: boolean, line: number) => {
      const c = b.cases[i]!
      if (allowed !== c.allowed || line !== c.line) {
        bad.push(`${b.id} #${i} agent=${JSON.stringify(c.agent)} url=${JSON.stringify(c.url)}: want ${c.allowed}/${c.line}, got ${allowed}/${line}`)
      }
    }
    // Reading the parsed form first scans the body in wasm; the compiler must not trip over that.
    if (way === 'Robots.check after reading sitemaps') void robots.sitemaps
    if (way === 'Robots.check' || way === 'Robots.check after reading sitemaps') {
      b.cases.forEach((c, i) => {
        const v = robots.check(c.url, c.agent)
        report(i, v.allowed, v.line)
      })
    } else if (way === 'reference') {
      const parsed = parseBody(b.body.subarray(0, 512_000))
      b.cases.forEach((c, i) => {
        const v = referenceCheck(parsed, agentTokens(c.agent), utf8(c.url))
        report(i, v.allowed, v.line)
      })
    } else {
      // One matcher per distinct agent, as a crawler would keep them.
      const byAgent = new Map<string, number[]>()
      b.cases.forEach((c, i) => {
        const key = JSON.stringify(c.agent)
        byAgent.set(key, [...(byAgent.get(key) ?? []), i])
      })
      for (const [key, idx] of byAgent) {
        const matcher = robots.matcher(JSON.parse(key) as string | string[])
        if (way === 'Matcher.check') {
          for (const i of idx) {
            const v = matcher.check(b.cases[i]!.url)
            report(i, v.allowed, v.line)
          }
        } else if (way === 'Matcher.isAllowedLines+checkLines') {
          // A URL holding '\n' or '\r' cannot be a line of its own; those few are checked singly.
          const lineIdx = idx.filter((i) => !/[\r\n]/.test(b.cases[i]!.url))
          for (const i of idx) {
            if (/[\r\n]/.test(b.cases[i]!.url)) {
              const v = matcher.check(b.cases[i]!.url)
              report(i, v.allowed, v.line)
            }
          }
          // CRLF on every other body (the '\r' must be dropped); every line ends with its EOL except a
          // non-empty last one on every third body (a final line without '\n' counts).
          const eol = b.id.length % 2 === 0 ? '\n' : '\r\n'
          const urls = lineIdx.map((i) => b.cases[i]!.url)
          const open = b.id.length % 3 === 0 && urls.length > 0 && urls[urls.length - 1] !== ''
          const text = new TextEncoder().encode(urls.length === 0 ? '' : urls.join(eol) + (open ? '' : eol))
          const allowed = matcher.isAllowedLines(text)
          const lines = matcher.checkLines(text)
          expect(allowed.length).toBe(lineIdx.length)
          lineIdx.forEach((i, k) => {
            expect(lines[k]! >= 0).toBe(allowed[k] === 1)
            report(i, allowed[k] === 1, Math.abs(lines[k]!))
          })
        } else {
          const urls = idx.map((i) => b.cases[i]!.url)
          const allowed = matcher.isAllowedMany(urls)
          const lines = matcher.checkMany(urls)
          idx.forEach((i, k) => {
            expect(lines[k]! >= 0).toBe(allowed[k] === 1)
            report(i, allowed[k] === 1, Math.abs(lines[k]!))
          })
        }
      }
    }
  }
  return bad
}

const WAYS: Way[] = [
  'Robots.check', 'Robots.check after reading sitemaps', 'Matcher.check', 'Matcher.isAllowedMany+checkMany',
  'Matcher.isAllowedLines+checkLines', 'reference',
]

const SUITES: [string, string, () => LabelledBody[]][] = [
  ['google', 'Google robots.txt conformance suite (google-spec-cases.jsonl)', () => loadFixture('google-spec-cases.jsonl')],
  ['edge', 'one body per quirk of the reference (edge-cases.jsonl)', () => loadFixture('edge-cases.jsonl')],
  ['fuzz', 'grammar-generated bodies (fuzz-cases.jsonl)', () => loadFixture('fuzz-cases.jsonl')],
]

for (const [source, what, load] of SUITES) {
  describe(`${source}: ${what}`, () => {
    const bodies = load()
    const count = bodies.reduce((n, b) => n + b.cases.length, 0)
    for (const way of WAYS) {
      test(`${way}: all ${count} cases give the labelled verdict and line`, () => {
        expect(mismatches(bodies, way)).toEqual([])
      })
    }
  })
}

const haveCorpus = corpusAvailable()
if (!haveCorpus) console.warn('corpus: ../shared/corpus not found, the 58,896 real-file cases are SKIPPED')
describe.skipIf(!haveCorpus)('corpus: 2,454 real robots.txt files (../shared/corpus/cases.jsonl)', () => {
  const bodies = haveCorpus ? loadCorpus() : []
  const count = bodies.reduce((n, b) => n + b.cases.length, 0)
  for (const way of WAYS) {
    test(`${way}: all ${count} cases give the labelled verdict and line`, () => {
      expect(count).toBeGreaterThan(50_000)
      expect(mismatches(bodies, way)).toEqual([])
    })
  }
})
