// A first check is decided straight from the body (assembly/stream.ts) and later checks by a
// compiled table: both must give the same verdict, line and rule, on every labelled case and on
// random bodies, from string and byte bodies alike; and an agent's second check must compile.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseRobots, type Verdict } from '../src/index.js'
import { bodyArb, callerArb, urlArb } from './helpers/arbitraries.js'
import { corpusAvailable, loadCorpus, loadFixture, type LabelledBody } from './helpers/cases.js'
import { fuzzOptions } from './helpers/fuzz.js'

const decoder = new TextDecoder()

/** For each case: a fresh Robots (so the check streams) against a compiled matcher and the label. */
function streamedMismatches(bodies: LabelledBody[], asString: boolean): string[] {
  const bad: string[] = []
  for (const b of bodies) {
    const text = decoder.decode(b.body)
    // A string body stands for the bytes only when they are well-formed UTF-8 (round-trip exactly).
    if (asString && !Buffer.from(text, 'utf8').equals(Buffer.from(b.body))) continue
    const compiled = parseRobots(b.body)
    const body = asString ? text : b.body
    b.cases.forEach((c, i) => {
      const streamed = parseRobots(body).check(c.url, c.agent)
      if (streamed.allowed !== c.allowed || streamed.line !== c.line) {
        bad.push(`${b.id} #${i}: label ${c.allowed}/${c.line}, streamed ${streamed.allowed}/${streamed.line}`)
      }
      expectSame(bad, `${b.id} #${i}`, streamed, compiled.matcher(c.agent).check(c.url))
    })
  }
  return bad
}

function expectSame(bad: string[], what: string, a: Verdict, b: Verdict): void {
  if (JSON.stringify(a) !== JSON.stringify(b)) bad.push(`${what}: streamed ${JSON.stringify(a)}, table ${JSON.stringify(b)}`)
}

const sets: [string, () => LabelledBody[]][] = [
  ['google-spec-cases.jsonl', () => loadFixture('google-spec-cases.jsonl')],
  ['edge-cases.jsonl', () => loadFixture('edge-cases.jsonl')],
  ['fuzz-cases.jsonl', () => loadFixture('fuzz-cases.jsonl')],
]

describe('streamed first check: every labelled case, verdict, line and rule equal to the table', () => {
  for (const [name, load] of sets) {
    test(`${name}, byte bodies`, () => expect(streamedMismatches(load(), false)).toEqual([]))
    test(`${name}, string bodies`, () => expect(streamedMismatches(load(), true)).toEqual([]))
  }
  test.skipIf(!corpusAvailable())('corpus: 2,454 real files (../shared/corpus), byte bodies', () => {
    expect(streamedMismatches(loadCorpus(), false)).toEqual([])
  })
})

describe('property: streamed and compiled checks agree', () => {
  test(`random bodies, agents and URLs (${fuzzOptions(20_000).numRuns} runs)`, () => {
    fc.assert(fc.property(bodyArb, callerArb, urlArb, (body, agent, url) => {
      const streamed = parseRobots(body).check(url, agent)
      const table = parseRobots(body).matcher(agent).check(url)
      expect(streamed).toEqual(table)
    }), fuzzOptions(20_000))
  })
})

describe('patterns against paths shorter, equal and longer than their literal start', () => {
  // The streamed match rejects most patterns from their first 16 bytes alone: where the path ends
  // or differs there, against literal bytes, '*' and '$' (last or not) in the pattern.
  const paths = ['/', '/a', '/ab', '/a$', '/a*b', '/abcdefghijklmno', '/abcdefghijklmnop', '/abcdefghijklmnopq']
  const patterns = ['/', '/$', '*', '$', '/a', '/a$', '/a*', '/a$b', '/ab', '/abc', '/b', 'a', '/abcdefghijklmno', '/abcdefghijklmnop$', '/abcdefghijklmnopq', '/abcdefghijklmnop*q', '/abcdefghijklmnopz']
  test('the streamed verdict, line and rule equal the table\'s', () => {
    const bad: string[] = []
    for (const kind of ['Allow', 'Disallow']) {
      for (const pattern of patterns) {
        const body = `User-agent: *\nDisallow: /zz\n${kind}: ${pattern}\n`
        const compiled = parseRobots(body).matcher('bot')
        for (const path of paths) {
          const url = `https://x${path}`
          expectSame(bad, `${kind}: ${pattern} on ${path}`, parseRobots(body).check(url, 'bot'), compiled.check(url))
          expectSame(bad, `${kind}: ${pattern} on ${path} (bytes)`, parseRobots(Buffer.from(body)).check(url, 'bot'), compiled.check(url))
        }
      }
    }
    expect(bad).toEqual([])
  })
})

describe('a site streams its first check, then compiles', () => {
  test('the first agent compiles on its second check, every other agent on its first', () => {
    const r = parseRobots('User-agent: a\nDisallow: /x\nUser-agent: *\nAllow: /\nDisallow: /y\n')
    expect(r.check('http://h/x', 'a')).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/x' } })
    expect(r.matcherKeys).toEqual(['["a"]'])
    expect(r.isAllowed('http://h/x', 'a')).toBe(false)
    expect(r.isAllowed('http://h/y', 'b')).toBe(false)
    expect(r.isAllowed('http://h/z', 'b')).toBe(true)
    expect(r.isAllowed('http://h/x', 'a')).toBe(false)
    // The slots' use order counts the calls that reached them: the last 'b' and 'a' were answered
    // by the agents the Robots holds, which leave the slots alone (reaching them is what they save).
    expect(r.matcherKeys).toEqual(['["a"]', '["b"]'])
  })

  test('the recent agents never answer for another agent, nor after their matchers are evicted from the slots', () => {
    const body = Array.from({ length: 20 }, (_, i) => `User-agent: bot${String.fromCharCode(97 + i)}\nDisallow: /${i}\n`).join('')
    const r = parseRobots(body)
    const agents = Array.from({ length: 20 }, (_, i) => `bot${String.fromCharCode(97 + i)}`)
    // Each agent twice (streamed, then compiled), cycling past the 16-entry cache.
    for (let round = 0; round < 3; round++) {
      for (const [i, a] of agents.entries()) {
        expect(r.check(`http://h/${i}`, a).allowed).toBe(false)
        expect(r.check(`http://h/${i}`, a).allowed).toBe(false)
        expect(r.check(`http://h/${(i + 1) % 20}`, a).allowed).toBe(true)
      }
    }
    expect(r.matcherKeys.length).toBe(16)
  })

  test(`property: the recent agents a Robots holds answer as each agent's own matcher does, whatever the order (${fuzzOptions(300).numRuns} runs)`, () => {
    // Eight agents, each with its own group, so an answer from another agent's matcher shows.
    const agents = Array.from({ length: 8 }, (_, i) => `bot${String.fromCharCode(97 + i)}`)
    const body = agents.map((a, i) => `User-agent: ${a}\nDisallow: /${i}\nAllow: /${i}/ok\n`).join('') + 'User-agent: *\nDisallow: /\n'
    const matchers = agents.map((a) => parseRobots(body).matcher(a))
    const call = fc.record({ agent: fc.integer({ min: 0, max: 8 }), path: fc.integer({ min: 0, max: 8 }), ok: fc.boolean(), form: fc.constantFrom('same', 'copy', 'array', 'version') })
    fc.assert(fc.property(fc.array(call, { maxLength: 120 }), (calls) => {
      const r = parseRobots(body)
      for (const c of calls) {
        const url = `http://h/${c.path}${c.ok ? '/ok' : ''}`
        // Agent 8 has no group of its own: the global group answers, as for any unnamed agent.
        const name = c.agent < 8 ? agents[c.agent]! : 'other'
        // The same string object, an equal string that is another object, a list, a full user-agent.
        const agent = c.form === 'copy' ? [...name].join('') : c.form === 'array' ? [name] : c.form === 'version' ? `${name}/2.1` : name
        const want = c.agent < 8 ? matchers[c.agent]!.isAllowed(url) : false
        if (r.isAllowed(url, agent) !== want) return false
        if (r.check(url, agent).allowed !== want) return false
      }
      return true
    }), fuzzOptions(300))
  })

  test('a body over the wasm scan limit (maxBytes raised) streams through the TypeScript parser', () => {
    const big = 'User-agent: *\nDisallow: /private\n' + '#'.repeat(1_100_000) + '\nAllow: /private/ok\n'
    const r = parseRobots(big, { maxBytes: Infinity })
    expect(r.check('http://h/private/ok', 'x')).toEqual({ allowed: true, line: 4, rule: { kind: 'allow', pattern: '/private/ok' } })
    expect(r.check('http://h/private/no', 'x')).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' } })
  })
})
