// Property tests: the wasm matcher against the pure-TS reference matcher (src/engine/reference.ts), on
// random patterns and paths and on grammar-generated bodies. Fixed seeds, so a failure is
// reproducible; PROPERTY_RUNS scales the run counts (the CI default is the 100,000).
import fc from 'fast-check'
import { describe, expect, onTestFinished, test } from 'vitest'
import { agentTokens } from '../src/engine/args.js'
import { utf8 } from '../src/engine/bytes.js'
import { diffRobots, parseRobots } from '../src/index.js'
import { parseBody } from '../src/engine/parse.js'
import { referenceCheck } from '../src/engine/reference.js'
import { getEngine } from '../src/engine/wasm.js'
import { fuzzOptions } from './helpers/fuzz.js'
import { allPaths, bodyArb, callerArb, DIFF_ALPHABET, diffFileArb, pathArb, patternArb, urlArb } from './helpers/arbitraries.js'


function reference(body: string, agent: string | string[], url: string) {
  return referenceCheck(parseBody(utf8(body)), agentTokens(agent), utf8(url))
}

/** One group of `rules` checked on each of `paths` (on http://x.com), against the reference. */
function groupAgainstPaths(rules: fc.Arbitrary<[string, string][]>, paths: fc.Arbitrary<string[]>) {
  return fc.property(rules, paths, (rs, ps) => {
    const body = 'User-agent: *\n' + rs.map(([k, p]) => `${k}: ${p}`).join('\n')
    const matcher = parseRobots(body).matcher('bot')
    for (const p of ps) {
      const url = 'http://x.com' + p
      const got = matcher.check(url)
      expect({ url, allowed: got.allowed, line: got.line }).toEqual({ url, ...reference(body, 'bot', url) })
    }
  })
}

describe('property: wasm matcher equals the reference matcher', () => {
  test(`one rule, random pattern and path (${fuzzOptions(100_000).numRuns} runs)`, () => {
    fc.assert(
      fc.property(fc.constantFrom('Allow', 'Disallow'), patternArb, pathArb, (kind, pattern, path) => {
        const body = `User-agent: *\nDisallow: /\n${kind}: ${pattern}`
        const got = parseRobots(body).check('http://x.com' + path, 'bot')
        const want = reference(body, 'bot', 'http://x.com' + path)
        expect({ allowed: got.allowed, line: got.line }).toEqual(want)
      }),
      fuzzOptions(100_000, 0x5eed),
    )
  })

  test(`several competing rules against many paths through isAllowedMany and checkMany (${fuzzOptions(10_000).numRuns} runs)`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), patternArb), { minLength: 1, maxLength: 12 }),
        fc.array(pathArb, { minLength: 1, maxLength: 20 }),
        (rules, paths) => {
          const body = 'User-agent: *\n' + rules.map(([k, p]) => `${k}: ${p}`).join('\n')
          const matcher = parseRobots(body).matcher('bot')
          const urls = paths.map((p) => 'http://x.com' + p)
          const allowed = matcher.isAllowedMany(urls)
          const lines = matcher.checkMany(urls)
          urls.forEach((url, i) => {
            const want = reference(body, 'bot', url)
            expect([allowed[i] === 1, Math.abs(lines[i]!)]).toEqual([want.allowed, want.line])
          })
        },
      ),
      fuzzOptions(10_000, 0xbeef),
    )
  })

  // Past 64 sorted rules the matcher binary-searches their prefixes instead of scanning the keys.
  test(`groups of 65-160 rules against many paths (${fuzzOptions(300).numRuns} runs)`, () => {
    const prefix = fc.array(fc.constantFrom('a', 'b', 'ab', '/', '%2F', 'é', 'x'), { minLength: 1, maxLength: 4 }).map((xs) => '/' + xs.join(''))
    const pattern = fc.tuple(prefix, fc.constantFrom('', '*', '$', '*b', '*.php$', '/*a')).map(([p, t]) => p + t)
    fc.assert(
      groupAgainstPaths(
        fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), fc.oneof(pattern, patternArb)), { minLength: 65, maxLength: 160 }),
        fc.array(fc.oneof(pathArb, prefix), { minLength: 1, maxLength: 20 }),
      ),
      fuzzOptions(300, 0x6a11),
    )
  })

  // An indexed part compares 12 bytes after the '/' in one step (its wide keys) and reads the pool
  // only past them; its index gives the second bytes '!' to '~' a slot each and shares one slot
  // below and one above. Literals here share long runs so that keys tie at and beyond byte 13, and
  // second bytes sit on both sides of those slot bounds.
  test(`groups of 65-200 rules with long shared prefixes against paths that share them (${fuzzOptions(300).numRuns} runs)`, () => {
    const piece = fc.constantFrom('a', 'b', 'aaaaaaaaaa', 'ab', '/', '!', '~', ' ', '\x7f', '\x01', 'abcdefghijkl')
    const literal = fc.array(piece, { minLength: 1, maxLength: 5 }).map((xs) => '/' + xs.join(''))
    const pattern = fc.tuple(literal, fc.constantFrom('', '', '*', '$', '*b$', '*a')).map(([p, t]) => p + t)
    fc.assert(
      groupAgainstPaths(
        fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern), { minLength: 65, maxLength: 200 }),
        fc.array(fc.tuple(literal, fc.constantFrom('', 'a', 'b', '/', 'ab', 'aaaaaaaaaaaaaaa')).map(([p, t]) => p + t), { minLength: 1, maxLength: 30 }),
      ),
      fuzzOptions(300, 0x71de),
    )
  })

  test(`grammar-generated bodies, agents and URLs (${fuzzOptions(100_000).numRuns} runs)`, () => {
    fc.assert(
      fc.property(bodyArb, callerArb, urlArb, (body, agent, url) => {
        const got = parseRobots(body).check(url, agent)
        expect({ allowed: got.allowed, line: got.line }).toEqual(reference(body, agent, url))
      }),
      fuzzOptions(100_000, 0xfeed),
    )
  })

  // The rules every path reaches ('/*...' patterns) are grouped in the table by a filter byte of
  // their first segment (its rarest byte; its first when that is '?', '&' or '='), and a CONTAINS
  // segment that starts with the filter byte is compared in place when the path holds that byte
  // once. Groups here: '?' with 0, 1 and 2 '?' in the path, segments led by '/' filtered by a
  // later byte, CONTAINS and WILD sharing a byte, SUFFIX groups, and one group of 300 rules (its
  // skip count stops at 255).
  test('edge: grouped always-rules agree with the reference on paths around their filter bytes', () => {
    const rules = [
      'Disallow: /*?page=', 'Allow: /*?page=1', 'Disallow: /*?s', 'Allow: /*?', 'Disallow: /*x?y',
      'Disallow: /*/feed/', 'Allow: /*/feed/a*b', 'Disallow: /*/f*', 'Disallow: *ff', 'Disallow: /*&sort=',
      'Disallow: /*=1$', 'Disallow: /*.pdf$', 'Allow: /*a.pdf$', 'Disallow: /*/$', 'Allow: /$', 'Disallow: /',
      ...Array.from({ length: 300 }, (_, i) => `Disallow: /*/zq${i}/`),
    ]
    const body = 'User-agent: *\n' + rules.join('\n')
    const m = parseRobots(body).matcher('bot')
    const heads = ['', '/feed/', '/ffeed/', '/f', '/zq7/', '/zq299/', '/zq300/', '/x', '/a.pdf', '/b.pdf']
    const tails = ['', '?', '?page', '?page=', '?page_', '?page=1', '?page=1?page=', '??s', '?s&sort=', '&sort', '&sort=?', 'x?y', '?x?y', '=1', '/', '/ff']
    for (const h of heads) {
      for (const t of tails) {
        const url = 'http://x.com' + (h === '' ? '/' : h) + t
        const want = reference(body, 'bot', url)
        const got = m.check(url)
        expect({ url, allowed: got.allowed, line: got.line }).toEqual({ url, ...want })
      }
    }
  })

  // Node batches go in as UTF-16 (Buffer) and are transcoded in wasm; other runtimes use TextEncoder.
  test.each([['UTF-16', true], ['TextEncoder', false]])(`batches of mixed ASCII, non-ASCII and lone surrogates agree with one-by-one checks, %s input (${fuzzOptions(5_000).numRuns} runs)`, (_, utf16) => {
    const engine = getEngine()
    const saved = engine.utf16Batches
    engine.utf16Batches = utf16
    onTestFinished(() => { engine.utf16Batches = saved })
    const m = parseRobots('User-agent: *\nDisallow: /%C3%A9\nDisallow: /*%EF%BF%BD$\nAllow: /%F0%9F%98%80\nDisallow: /a').matcher('bot')
    const piece = fc.constantFrom('a', 'é', '\ud83d', '\ude00', '😀', '/', '%c3%a9', '\u0000', '#', '?')
    const url = fc.tuple(fc.constantFrom('http://x/', '/', ''), fc.array(piece, { maxLength: 6 })).map(([p, xs]) => p + xs.join(''))
    fc.assert(
      fc.property(fc.array(url, { maxLength: 40 }), (urls) => {
        const many = m.isAllowedMany(urls)
        const lines = m.checkMany(urls)
        urls.forEach((u, i) => {
          const v = m.check(u)
          expect([many[i], lines[i]]).toEqual([v.allowed ? 1 : 0, v.allowed ? v.line : -v.line])
        })
      }),
      fuzzOptions(5_000, 0xface),
    )
  })
})

describe('property: diffRobots finds every change, and its URLs read back', () => {
  // Brute force: every path of up to 4 bytes after the '/' on the alphabet, checked behind a host
  // (a path such as "//a" alone would read as one).
  const universe = allPaths(DIFF_ALPHABET, 4).map((p) => 'http://x.com' + p)
  const agents = ['x', 'y']
  const key = (agent: string, old: { allowed: boolean; line: number }, now: { allowed: boolean; line: number }) => `${agent} ${old.allowed} ${old.line} ${now.allowed} ${now.line}`

  test(`each (agent, old verdict and line, new verdict and line) of a short path is reported; each URL reported gives its verdicts to check (${fuzzOptions(600).numRuns} runs)`, () => {
    const was = new Int32Array(universe.length)
    const is = new Int32Array(universe.length)
    fc.assert(
      fc.property(diffFileArb, diffFileArb, (a, b) => {
        const d = diffRobots(a, b, { agents })
        expect(d.truncated).toBe(false)
        const reported = new Set(d.changes.map((c) => key(c.agent, c.old, c.new)))
        const before = parseRobots(a)
        const after = parseRobots(b)
        for (const c of d.changes) {
          const o = before.check(c.url, c.agent)
          const n = after.check(c.url, c.agent)
          expect({ url: c.url, old: { allowed: o.allowed, line: o.line }, new: { allowed: n.allowed, line: n.line } }).toEqual({ url: c.url, old: c.old, new: c.new })
        }
        for (const agent of agents) {
          before.matcher(agent).checkMany(universe, was)
          after.matcher(agent).checkMany(universe, is)
          for (let i = 0; i < universe.length; i++) {
            if (was[i]! < 0 === is[i]! < 0) continue
            const k = key(agent, { allowed: was[i]! >= 0, line: Math.abs(was[i]!) }, { allowed: is[i]! >= 0, line: Math.abs(is[i]!) })
            expect(reported.has(k), `${universe[i]}: ${k} not reported`).toBe(true)
          }
        }
      }),
      fuzzOptions(600, 0xd1ff),
    )
  }, Math.max(60_000, fuzzOptions(600).numRuns * 100))
})
