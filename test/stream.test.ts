// A first check is decided straight from the body (assembly/stream.ts) and later checks by a
// compiled table: both must give the same verdict, line and rule, on every labelled case and on
// random bodies, from string and byte bodies alike; an agent's second check must compile, and an
// agent no group names takes the site's global matcher when it has one.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseRobots, type Verdict } from '../src/index.js'
import type { WasmExports } from '../src/engine/abi.js'
import { NAMED_BIT_SHIFT, NAMED_HASH_PRIME, NAMED_SECOND, NAMED_WORDS } from '../src/engine/layout.js'
import { agentTokens, namingHash } from '../src/engine/args.js'
import { utf8 } from '../src/engine/bytes.js'
import { referenceCheck } from '../src/engine/reference.js'
import { getEngine } from '../src/engine/wasm.js'
import { compileAgents } from '../src/engine/wasm-body.js'
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

describe('agents no group names share the global matcher, with no compile of their own', () => {
  /** Runs `f` counting the engine's wasm compiles. */
  function compiles(f: () => void): number {
    const e = getEngine()
    const real = e.w
    let calls = 0
    ;(e as { w: WasmExports }).w = { ...real, compile: (...args: Parameters<WasmExports['compile']>) => (calls++, real.compile(...args)) }
    try {
      f()
    } finally {
      ;(e as { w: WasmExports }).w = real
    }
    return calls
  }

  /** A token's two signature bits, from the host's hash as layout.ts NAMED_* defines them. */
  const namedBits = (token: string): number[] => {
    const h = namingHash(token)
    return [h >>> NAMED_BIT_SHIFT, Math.imul(h ^ NAMED_SECOND, NAMED_HASH_PRIME) >>> NAMED_BIT_SHIFT]
  }

  const BODY = 'User-agent: googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /all\nAllow: /all/ok\n'

  test('after the first compile of an unnamed agent, other unnamed agents compile nothing; a named one still compiles', () => {
    const r = parseRobots(BODY)
    expect(r.isAllowed('http://h/g', 'googlebot')).toBe(false) // streamed
    expect(compiles(() => expect(r.check('http://h/all/x', 'bingbot')).toEqual({ allowed: false, line: 5, rule: { kind: 'disallow', pattern: '/all' } }))).toBe(1)
    expect(compiles(() => {
      for (const a of ['CCBot', 'GPTBot/1.1', ['foobot', 'other-bot'], 'x_y']) {
        expect(r.check('http://h/all/ok', a)).toEqual({ allowed: true, line: 6, rule: { kind: 'allow', pattern: '/all/ok' } })
        expect(r.isAllowed('http://h/g', a)).toBe(true)
      }
    })).toBe(0)
    // Googlebot is named: its second check compiles its own table.
    expect(compiles(() => expect(r.check('http://h/all', 'Googlebot/2.1')).toEqual({ allowed: true, line: 0 }))).toBe(1)
    // So does a list with a named token in it.
    expect(compiles(() => expect(r.isAllowed('http://h/g', ['ccbot', 'googlebot'])).toBe(false))).toBe(1)
  })

  test('a token whose signature bits are a named token\'s is compiled, and gets the global groups', () => {
    const named = namedBits('googlebot')
    let twin = ''
    for (let i = 0; twin === ''; i++) {
      const t = 'bot' + i.toString(36).replace(/[0-9]/g, (d) => 'qrstuvwxyz'[Number(d)]!)
      if (namedBits(t).every((b) => named.includes(b))) twin = t
    }
    const r = parseRobots(BODY)
    r.isAllowed('http://h/', 'bingbot') // streamed
    r.isAllowed('http://h/', 'ccbot') // compiled: the site's global matcher
    expect(compiles(() => expect(r.check('http://h/g', twin)).toEqual({ allowed: true, line: 0 }))).toBe(1)
    expect(r.isAllowed('http://h/all', twin)).toBe(false)
  })

  /** The signature the last compile left, as u32 words (the export hands them out as i32). */
  const signature = (): number[] => Array.from({ length: NAMED_WORDS }, (_, w) => getEngine().w.namedSignature(w) >>> 0)

  test('the host and the wasm compiler set the same signature bits for a token, whatever its case and what follows it', () => {
    const e = getEngine()
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z_-]{1,12}$/), fc.constantFrom('', '/1.0', ' x', '*', '9'), (token, tail) => {
      compileAgents(e, utf8(`User-agent: ${token}${tail}\nDisallow: /\n`), ['z'])
      const want = new Array<number>(NAMED_WORDS).fill(0)
      for (const b of namedBits(token.toLowerCase())) want[b >> 5]! = (want[b >> 5]! | (1 << (b & 31))) >>> 0
      expect(signature()).toEqual(want)
    }), fuzzOptions(2_000))
    // A value with no token ('*', a digit first) sets no bit.
    compileAgents(e, utf8('User-agent: *\nUser-agent: 9bot\nUser-agent: /x\nDisallow: /\n'), ['z'])
    expect(signature()).toEqual(new Array<number>(NAMED_WORDS).fill(0))
  })

  test(`property: a site checked for many agents in any order answers each as the reference does (${fuzzOptions(500).numRuns} runs)`, () => {
    const agentArb = fc.constantFrom('a', 'b', 'foo', 'Googlebot', 'googlebot-news', 'AB42bot', 'x/1.0', 'other', 'c', 'bingbot', 'x y')
    fc.assert(fc.property(bodyArb, fc.array(fc.tuple(fc.oneof(agentArb, fc.array(agentArb, { minLength: 1, maxLength: 3 })), urlArb), { maxLength: 40 }), (body, calls) => {
      const r = parseRobots(body)
      const parsed = parseRobots(body).parsed
      for (const [agent, url] of calls) {
        const want = referenceCheck(parsed, agentTokens(agent), utf8(url))
        const got = r.check(url, agent)
        if (got.allowed !== want.allowed || got.line !== want.line) return false
        if (r.isAllowed(url, agent) !== want.allowed) return false
      }
      return true
    }), fuzzOptions(500))
  })
})
