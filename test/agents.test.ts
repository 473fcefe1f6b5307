// agentSetVerdicts (src/engine/agents.ts) against the engine's single-agent API, over every file of
// the shared corpus: the survey's rows may differ from parseRobots(body).check(path, tokens) in nothing.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { agentSetVerdicts } from '../src/engine/agents.js'
import { R_END, R_START, RULE_STRIDE, R_ALLOW, selectRules } from '../src/engine/parse.js'
import { parseRobots } from '../src/engine/robots.js'
import { CORPUS, corpusAvailable } from './helpers/cases.js'

const TOKENS = ['googlebot', 'Googlebot-Image', 'bingbot', 'GPTBot', 'ChatGPT-User', 'CCBot', 'ClaudeBot', 'anthropic-ai', 'Google-Extended', 'AhrefsBot', 'Baiduspider', 'YandexBot', 'Applebot', 'PerplexityBot', 'foo']

function signed(v: { allowed: boolean; line: number }): number {
  return v.allowed ? v.line : -v.line
}

/**
 * Rules among those that apply to `tokens` with a pattern that can match something (not empty,
 * starting with '/' or '*'), from the TS parser's selection.
 */
function counts(body: Uint8Array, tokens: string[]): { named: boolean; allows: number; disallows: number } {
  const p = parseRobots(body).parsed
  const sel = selectRules(p, tokens.map((t) => t.toLowerCase()))
  let allows = 0
  let disallows = 0
  for (const r of sel.rules) {
    const start = p.rules[r * RULE_STRIDE + R_START]!
    if (start === p.rules[r * RULE_STRIDE + R_END] || (p.body[start] !== 0x2f && p.body[start] !== 0x2a)) continue
    if (p.rules[r * RULE_STRIDE + R_ALLOW] === 1) allows++
    else disallows++
  }
  return { named: sel.named, allows, disallows }
}

describe.skipIf(!corpusAvailable())('agentSetVerdicts over the corpus', () => {
  const dir = join(CORPUS, 'robots')
  const files = readdirSync(dir).sort()

  test('every set and path: the verdict of Robots.check, the named flag and rule counts of the selected groups', () => {
    const pathArb = fc.oneof(fc.constantFrom('/', '/index.html', '/search?q=x', '/wp-admin/', '/private/a%20b', '/api/', '/*'), fc.webPath())
    const setArb = fc.uniqueArray(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 3 })
    let checked = 0
    for (const name of files) {
      const body = new Uint8Array(readFileSync(join(dir, name)))
      // Paths written in the file itself hit its rules, not only the defaults.
      const own = [...new TextDecoder().decode(body.subarray(0, 20_000)).matchAll(/^\s*(?:dis)?allow\s*:\s*(\/\S*)/gim)].map((m) => m[1]!).slice(0, 8)
      fc.assert(fc.property(fc.array(setArb, { minLength: 1, maxLength: 4 }), fc.array(pathArb, { maxLength: 4 }), (sets, extra) => {
        const paths = [...own, ...extra]
        const robots = parseRobots(body)
        const results = agentSetVerdicts(robots, sets, paths)
        expect(results).toHaveLength(sets.length)
        const fresh = parseRobots(body)
        sets.forEach((tokens, s) => {
          const r = results[s]!
          expect(Array.from(r.verdicts)).toEqual(paths.map((p) => signed(fresh.check(p, tokens))))
          expect({ named: r.named, allows: r.allows, disallows: r.disallows }).toEqual(counts(body, tokens))
          checked += paths.length
        })
        // Sets of one selection answer alike for all that derives from the groups: the survey asks
        // Crawl-delay and preferences once per selection. Selections are numbered in order of first use.
        const first = new Map<number, string[]>()
        sets.forEach((tokens, s) => {
          const selection = results[s]!.selection
          const f = first.get(selection)
          if (f === undefined) {
            expect(selection).toBe(first.size)
            first.set(selection, tokens)
            return
          }
          expect([fresh.crawlDelay(tokens), fresh.usagePreferences(tokens)]).toEqual([fresh.crawlDelay(f), fresh.usagePreferences(f)])
        })
      }), { numRuns: 3, seed: name.length })
    }
    expect(checked).toBeGreaterThan(files.length)
  }, 300_000)
})

describe.skipIf(!corpusAvailable())('Robots.crawlDelay once the parsed form exists', () => {
  test('the lookup in the parsed form gives the wasm pass\'s answer on every corpus file', () => {
    const dir = join(CORPUS, 'robots')
    let delays = 0
    for (const name of readdirSync(dir).sort()) {
      const body = new Uint8Array(readFileSync(join(dir, name)))
      const parsed = parseRobots(body)
      void parsed.parsed
      for (const tokens of [['googlebot'], ['bingbot', 'msnbot'], ['YandexBot', 'Yandex'], ['nobody']]) {
        const fresh = parseRobots(body).crawlDelay(tokens)
        expect(parsed.crawlDelay(tokens), name).toBe(fresh)
        if (fresh !== undefined) delays++
      }
    }
    expect(delays).toBeGreaterThan(50)
  }, 120_000)
})

test('bad arguments throw a TypeError naming what was expected', () => {
  const robots = parseRobots('User-agent: *\nDisallow: /x\n')
  expect(() => agentSetVerdicts(robots, 'googlebot' as never, ['/'])).toThrow(/agentSets: expected an array/)
  expect(() => agentSetVerdicts(robots, [[]], ['/'])).toThrow(TypeError)
  expect(() => agentSetVerdicts(robots, [['a']], [1 as never])).toThrow(/paths\[0\]: expected a string/)
})

test('a set changed between calls is read again; a frozen one, checked once, still answers for its own tokens', () => {
  const robots = parseRobots('User-agent: a\nDisallow: /\n\nUser-agent: b\nAllow: /\n')
  const set = ['a']
  expect(agentSetVerdicts(robots, [set], ['/x'])[0]!.verdicts[0]).toBe(-2)
  set[0] = 'b'
  expect(agentSetVerdicts(robots, [set], ['/x'])[0]!.verdicts[0]).toBe(5)
  const frozen = Object.freeze(['A/1.0'])
  for (let i = 0; i < 2; i++) expect(Array.from(agentSetVerdicts(robots, [frozen, ['b']], ['/x']).map((r) => r.verdicts[0]))).toEqual([-2, 5])
  expect(() => agentSetVerdicts(robots, [Object.freeze([])], ['/'])).toThrow(TypeError)
  expect(() => agentSetVerdicts(robots, [Object.freeze([])], ['/'])).toThrow(TypeError)
})

test('the sets of one selection share one frozen verdict list: a caller cannot change another set\'s answer', () => {
  const robots = parseRobots('User-agent: *\nDisallow: /x\n\nUser-agent: b\nAllow: /\n')
  const [a, c, b] = agentSetVerdicts(robots, [['a'], ['c'], ['b']], ['/x', '/y'])
  expect(a!.verdicts).toBe(c!.verdicts)
  expect(b!.verdicts).not.toBe(a!.verdicts)
  for (const r of [a!, b!, c!]) expect(Object.isFrozen(r.verdicts)).toBe(true)
  expect(() => { (a!.verdicts as number[])[0] = 7 }).toThrow(TypeError)
  expect([a!.verdicts, b!.verdicts]).toEqual([[-2, 0], [5, 5]])
})
