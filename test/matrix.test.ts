// Robots.checkMatrix (assembly/matrix.ts through src/engine/wasm-body.ts matrixVerdicts): every
// agent on every URL from one pass over the body, held to Google's verdict and line on every
// labelled case and to the reference matcher on random bodies, agents and URLs (strings and
// bytes, sites and agents interleaved in random order, the heap collected between calls), and to
// the one-agent API on the shapes that take more than one pass or more room.
import v8 from 'node:v8'
import vm from 'node:vm'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { WasmExports } from '../src/engine/abi.js'
import { agentSetVerdicts } from '../src/engine/agents.js'
import { agentTokens, NAMING_TOKEN, namingHash } from '../src/engine/args.js'
import { utf8 } from '../src/engine/bytes.js'
import { parseBody } from '../src/engine/parse.js'
import { referenceCheck } from '../src/engine/reference.js'
import { getEngine } from '../src/engine/wasm.js'
import { crawlers, crawlerTokens, parseRobots, type Robots } from '../src/index.js'
import { bodyArb, pathArb, patternArb, urlArb } from './helpers/arbitraries.js'
import { corpusAvailable, loadCorpus, loadFixture, type LabelledBody } from './helpers/cases.js'
import { fuzzOptions } from './helpers/fuzz.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

type Agent = string | string[]

/** The distinct agents and URLs of a body's cases, and where each case's answer is in their matrix. */
function matrixOfCases(b: LabelledBody): { agents: Agent[]; urls: string[]; cell: number[] } {
  const keys = [...new Set(b.cases.map((c) => JSON.stringify(c.agent)))]
  const urls = [...new Set(b.cases.map((c) => c.url))]
  const cell = b.cases.map((c) => keys.indexOf(JSON.stringify(c.agent)) * urls.length + urls.indexOf(c.url))
  return { agents: keys.map((k) => JSON.parse(k) as Agent), urls, cell }
}

/** The cases whose matrix answer differs from the label, described. */
function mismatches(bodies: LabelledBody[], asString: boolean): string[] {
  const bad: string[] = []
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  for (const b of bodies) {
    let body: string | Uint8Array = b.body
    if (asString) {
      // A string stands for these bytes only when they are well-formed UTF-8.
      try {
        body = decoder.decode(b.body)
      } catch {
        continue
      }
    }
    const { agents, urls, cell } = matrixOfCases(b)
    const m = parseRobots(body).checkMatrix(urls, agents)
    expect(m).toHaveLength(agents.length * urls.length)
    b.cases.forEach((c, i) => {
      const v = m[cell[i]!]!
      if ((v >= 0) !== c.allowed || Math.abs(v) !== c.line) bad.push(`${b.id} #${i} agent=${JSON.stringify(c.agent)} url=${JSON.stringify(c.url)}: want ${c.allowed}/${c.line}, got ${v}`)
    })
  }
  return bad
}

const SUITES: [string, () => LabelledBody[]][] = [
  ['google-spec-cases.jsonl', () => loadFixture('google-spec-cases.jsonl')],
  ['edge-cases.jsonl', () => loadFixture('edge-cases.jsonl')],
  ['fuzz-cases.jsonl', () => loadFixture('fuzz-cases.jsonl')],
]

describe('checkMatrix: every labelled case, each body\'s agents x URLs in one call', () => {
  for (const [name, load] of SUITES) {
    test(`${name}, body as bytes and as a string`, () => {
      const bodies = load()
      expect(mismatches(bodies, false)).toEqual([])
      expect(mismatches(bodies, true)).toEqual([])
    })
  }
  test.skipIf(!corpusAvailable())('corpus: 2,454 real files, body as bytes and as a string', () => {
    const bodies = loadCorpus()
    expect(bodies.reduce((n, b) => n + b.cases.length, 0)).toBeGreaterThan(50_000)
    expect(mismatches(bodies, false)).toEqual([])
    expect(mismatches(bodies, true)).toEqual([])
  }, 120_000)
})

const AGENT = fc.constantFrom('a', 'b', 'foo', 'Googlebot', 'googlebot-news', 'AB42bot', 'x/1.0', 'other', 'c', 'bingbot', 'x y', '*')
const agentArb: fc.Arbitrary<Agent> = fc.oneof(
  AGENT,
  fc.array(AGENT, { minLength: 1, maxLength: 3 }),
  fc.constantFrom(...crawlers.map((c) => c.name)).map((name) => [...crawlerTokens(name)]),
)

/**
 * Groups of competing rules: each named by one to three agents' tokens (or `*`), each with rules
 * from the pattern grammar, so that several rules of one group often match a path and tie.
 */
const groupsArb = fc.array(fc.tuple(
  fc.array(fc.constantFrom('*', 'a', 'b', 'foo', 'Googlebot', 'googlebot-news', 'bingbot', 'c'), { minLength: 1, maxLength: 3 }),
  fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), patternArb), { minLength: 1, maxLength: 6 }),
), { minLength: 1, maxLength: 4 }).map((groups) => groups.map(([agents, rules]) => [...agents.map((a) => `User-agent: ${a}`), ...rules.map(([k, p]) => `${k}: ${p}`)].join('\n')).join('\n\n'))

/** A call on one of the sites: a matrix, or a single check through isAllowed/check (which compiles and compacts). */
const callArb = fc.record({
  site: fc.nat(3),
  kind: fc.constantFrom('matrix', 'matrix', 'matrix', 'single'),
  agents: fc.array(agentArb, { minLength: 1, maxLength: 6 }),
  urls: fc.array(fc.oneof(urlArb, pathArb.map((p) => 'http://x.com' + p)), { maxLength: 6 }),
  // A full collection after about one call in four: the heap and the engine's tables as a long
  // run leaves them.
  collect: fc.nat(3).map((k) => k === 0),
})

describe('property: checkMatrix equals the reference matcher', () => {
  test(`sites as strings and bytes, calls interleaved across sites and agents in random order, the heap collected between them (${fuzzOptions(400).numRuns} runs)`, () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.oneof(bodyArb, groupsArb), fc.boolean()), { minLength: 4, maxLength: 4 }), fc.array(callArb, { minLength: 1, maxLength: 12 }), (bodies, calls) => {
      const sites: Robots[] = bodies.map(([body, asBytes]) => parseRobots(asBytes ? utf8(body) : body))
      const parsed = bodies.map(([body]) => parseBody(utf8(body)))
      for (const call of calls) {
        const r = sites[call.site]!
        const want = (agent: Agent, url: string) => referenceCheck(parsed[call.site]!, agentTokens(agent), utf8(url))
        if (call.kind === 'single') {
          for (const url of call.urls) {
            const v = r.check(url, call.agents[0]!)
            const w = want(call.agents[0]!, url)
            if (v.allowed !== w.allowed || v.line !== w.line) return false
          }
        } else {
          const m = r.checkMatrix(call.urls, call.agents)
          if (m.length !== call.agents.length * call.urls.length) return false
          for (let a = 0; a < call.agents.length; a++) {
            for (let u = 0; u < call.urls.length; u++) {
              const w = want(call.agents[a]!, call.urls[u]!)
              if (m[a * call.urls.length + u] !== (w.allowed ? w.line : -w.line)) return false
            }
          }
        }
        if (call.collect) gc()
      }
      return true
    }), fuzzOptions(400, 0x3a7))
  }, 300_000)
})

/** Matcher.checkMany of each agent, a row each: what the matrix must equal. */
function rowsByMatcher(r: Robots, urls: string[], agents: Agent[]): number[] {
  return agents.flatMap((a) => Array.from(r.matcher(a).checkMany(urls)))
}

/** How often `f` calls the wasm export `name`, counted through a wrapped ABI. */
function calls(name: keyof WasmExports, f: () => void): number {
  const e = getEngine()
  const real = e.w
  let n = 0
  const wrapped = { ...real, [name]: (...args: unknown[]) => (n++, (real[name] as (...a: unknown[]) => unknown)(...args)) }
  ;(e as { w: WasmExports }).w = wrapped as WasmExports
  try {
    f()
  } finally {
    ;(e as { w: WasmExports }).w = real
  }
  return n
}

describe('checkMatrix: shapes past one pass, one chunk or the first work area', () => {
  const BODY = 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: bot7\nUser-agent: bot300\nDisallow: /\nAllow: /pub$\n'

  test('300 agents (two passes of the body) and 2,100 URLs (three chunks) give Matcher.checkMany\'s rows', () => {
    const r = parseRobots(BODY)
    const agents: Agent[] = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? [`bot${i + 1}`, 'other'] : `bot${i + 1}/1.0`))
    const urls = Array.from({ length: 2100 }, (_, i) => ['https://h/private/ok', 'https://h/pub', 'https://h/private/x', `https://h/p${i}`, 'https://h/pub?x'][i % 5]!)
    const passes = calls('matrixScan', () => {
      expect(Array.from(r.checkMatrix(urls, agents))).toEqual(rowsByMatcher(r, urls, agents))
    })
    expect(passes).toBe(2)
  })

  test('a body whose records outgrow the first work area is scanned again with the room the scan counted', () => {
    // 20,000 one-byte allows and disallows: records take more than the first guess (4 bytes a body byte).
    const lines = ['User-agent: *']
    for (let i = 0; i < 20_000; i++) lines.push(i % 2 === 0 ? 'Allow:/' : `Disallow:/${i % 7}`)
    const r = parseRobots(lines.join('\n'))
    const urls = ['https://h/', 'https://h/3x', 'https://h/6', 'https://h/9']
    const scans = calls('matrixScan', () => {
      expect(Array.from(r.checkMatrix(urls, ['a', 'b']))).toEqual(rowsByMatcher(r, urls, ['a', 'b']))
    })
    expect(scans).toBe(2)
  })

  test('a body too large for the wasm pass (over 1 MiB, read whole) is answered by a matcher per agent, alike', () => {
    const body = 'User-agent: a\nDisallow: /a\n' + '#'.repeat(1_200_000) + '\nUser-agent: *\nDisallow: /late\n'
    const r = parseRobots(body, { maxBytes: Infinity })
    const urls = ['https://h/a', 'https://h/late', 'https://h/']
    expect(calls('matrixScan', () => expect(Array.from(r.checkMatrix(urls, ['a', 'b']))).toEqual([-2, 0, 0, 0, -5, 0]))).toBe(0)
  })

  test('no agents or no URLs: an empty result, each call a fresh array', () => {
    const r = parseRobots(BODY)
    expect(r.checkMatrix([], ['a'])).toEqual(new Int32Array(0))
    expect(r.checkMatrix(['https://h/'], [])).toEqual(new Int32Array(0))
    const one = r.checkMatrix(['https://h/private'], ['a'])
    one[0] = 99
    expect(r.checkMatrix(['https://h/private'], ['a'])).toEqual(Int32Array.of(-2))
  })
})

describe('checkMatrix: a pass that keeps nothing', () => {
  const BODY = 'User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /\n'
  const URLS = ['https://h/x', 'https://h/y']

  test('compiles no table and leaves the site\'s matchers alone, before and after its first check', () => {
    for (const body of [BODY, utf8(BODY)]) {
      const r = parseRobots(body)
      expect(calls('compile', () => expect(Array.from(r.checkMatrix(URLS, ['a', 'GPTBot']))).toEqual([-2, 0, -5, -5]))).toBe(0)
      expect(r.matcherKeys).toEqual([])
      // The site's first check still streams and compacts; later matrices read the compact body.
      expect(r.isAllowed('https://h/x', 'a')).toBe(false)
      expect(Array.from(r.checkMatrix(URLS, ['GPTBot', 'a']))).toEqual([-5, -5, -2, 0])
      expect(r.check('https://h/y', 'GPTBot')).toEqual({ allowed: false, line: 5, rule: { kind: 'disallow', pattern: '/' } })
    }
  })

  test('agents that repeat call after call, and then others as many, are each answered for their own tokens', () => {
    const r = parseRobots(BODY)
    const same = ['GPTBot', 'a']
    for (let i = 0; i < 3; i++) expect(Array.from(r.checkMatrix(URLS, same))).toEqual([-5, -5, -2, 0])
    expect(Array.from(r.checkMatrix(URLS, ['a', 'GPTBot']))).toEqual([-2, 0, -5, -5])
    expect(Array.from(r.checkMatrix(URLS, [['gptbot', 'x'], 'b']))).toEqual([-5, -5, -2, 0])
  })

  test('each URL and agent is read once, before the pass: a getter that checks another site meanwhile changes nothing', () => {
    const r = parseRobots(BODY)
    const other = parseRobots('User-agent: *\nAllow: /\n')
    let reads = 0
    const url = new (class extends URL {
      override get href(): string {
        reads++
        other.checkMatrix(['https://o/x'], ['a', 'b'])
        return 'https://h/x'
      }
    })('https://h/x')
    const agents = new Proxy(['GPTBot', 'a'], { get: (t, k) => (k === '0' && reads++, Reflect.get(t, k)) })
    expect(Array.from(r.checkMatrix([url, 'https://h/y'], agents))).toEqual([-5, -5, -2, 0])
    expect(reads).toBe(2)
  })
})

describe('agentSetVerdicts through the matrix pass', () => {
  test('the last group naming a set and holding no rules names it: no rule applies, and its selection is its own', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /x\nAllow: /x/y\nDisallow:\n\nUser-agent: late\nCrawl-delay: 3\n')
    const [late, other, both] = agentSetVerdicts(robots, [['late'], ['other'], ['other', 'late']], ['/x', '/y'])
    expect(late).toEqual({ named: true, allows: 0, disallows: 0, verdicts: [0, 0], selection: 0 })
    // The empty Disallow matches every path and disallows nothing: it is the deciding line.
    expect(other).toEqual({ named: false, allows: 1, disallows: 1, verdicts: [-2, 4], selection: 1 })
    expect(robots.check('/y', 'other')).toEqual({ allowed: true, line: 4, rule: { kind: 'disallow', pattern: '' } })
    expect(both!.selection).toBe(0)
    expect(robots.crawlDelay('late')).toBe(3)
  })

  test('a body too large for the wasm pass answers as the pass does', () => {
    const body = 'User-agent: a\nDisallow: /a\nAllow: /a/b\n' + '#'.repeat(1_200_000) + '\nUser-agent: *\nDisallow: /late\n'
    const results = agentSetVerdicts(parseRobots(body, { maxBytes: Infinity }), [['a'], ['b'], ['c']], ['/a', '/late'])
    expect(results.map((r) => [r.named, r.allows, r.disallows, [...r.verdicts], r.selection])).toEqual([
      [true, 1, 1, [-2, 0], 0], [false, 0, 1, [0, -6], 1], [false, 0, 1, [0, -6], 1],
    ])
  })
})

// The hash itself is held to the wasm's by test/stream.test.ts (the signature bits).
test('namingHash names exactly the tokens NAMING_TOKEN matches', () => {
  fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 12 }), fc.stringMatching(/^[a-z_-]{1,12}$/)), (t) => {
    expect(namingHash(t) !== -1).toBe(NAMING_TOKEN.test(t))
  }), fuzzOptions(20_000, 0x7a3))
})
