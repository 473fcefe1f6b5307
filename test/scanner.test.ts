// The wasm line scanner (assembly/scanner.ts) against its TS twin (scanBodyTs in src/engine/scanner.ts):
// every line record, the parsed structure (groups, rules, escapes, sitemaps, indexes, line count)
// and the per-line report must be identical.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { utf8 } from '../src/engine/bytes.js'
import { parseRobots } from '../src/index.js'
import { reportLines, type LineReport } from '../src/engine/line-report.js'
import { parseBody, parsedCrawlDelay, scanSitemaps, selectRules, type ParsedRobots } from '../src/engine/parse.js'
import { scanBodyTs, type LineSink } from '../src/engine/scanner.js'
import { agentTokens } from '../src/engine/args.js'
import { getEngine } from '../src/engine/wasm.js'
import { keptBytes } from './helpers/tables.js'
import { compileAgents, compileRules, crawlDelayOf, scanLines } from '../src/engine/wasm-body.js'
import { parseBytes } from '../src/engine/robots.js'
import { fuzzOptions } from './helpers/fuzz.js'
import { bodyArb, callerArb } from './helpers/arbitraries.js'
import { corpusAvailable, loadCorpus, loadFixture } from './helpers/cases.js'


function structure(p: ParsedRobots) {
  const { body: _body, ...rest } = p
  return rest
}

/** Every record of a scan, flattened. */
function records(body: Uint8Array, scan: (body: Uint8Array, sink: LineSink) => void): number[] {
  const out: number[] = []
  scan(body, { line: (...fields) => void out.push(...fields) })
  return out
}

function reports(body: Uint8Array, scan: (body: Uint8Array, sink: LineSink) => void): LineReport[] {
  const out: LineReport[] = []
  reportLines(body, scan, (r) => out.push(r))
  return out
}

const wasmScan = (body: Uint8Array, sink: LineSink): void => scanLines(getEngine(), body, sink)

function same(body: Uint8Array): void {
  expect(records(body, wasmScan)).toEqual(records(body, scanBodyTs))
  expect(structure(parseBytes(body))).toEqual(structure(parseBody(body)))
  expect(reports(body, wasmScan)).toEqual(reports(body, scanBodyTs))
  // Robots.sitemaps' own scan (no parsed form) gives the parsed form's list.
  expect(scanSitemaps(body, wasmScan)).toEqual(parseBody(body).sitemaps)
  // The views beside the matcher: directives (from their own scan) are the report's other-key
  // lines with the parsed form's group agents, and forEachLine (a replayed scan) gives `lines`.
  const robots = parseRobots(body)
  const groups = parseBody(body).groups
  expect(robots.directives).toEqual(robots.lines.filter((r) => r.type === 'other').map((r) => ({
    line: r.line, key: r.key, name: r.key!.toLowerCase(), value: r.value, group: r.group,
    agents: r.group < 0 ? [] : groups[r.group]!.global ? ['*', ...groups[r.group]!.agents] : groups[r.group]!.agents,
  })))
  const each: LineReport[] = []
  robots.forEachLine((r) => each.push(r))
  expect(each).toEqual(robots.lines)
}

describe('scanner: wasm line scanner equals the TS parser', () => {
  test('every body of the conformance fixtures (google, edge, fuzz)', () => {
    for (const name of ['google-spec-cases.jsonl', 'edge-cases.jsonl', 'fuzz-cases.jsonl']) {
      for (const b of loadFixture(name)) same(b.body.subarray(0, 512_000))
    }
  })
  test.skipIf(!corpusAvailable())('corpus: every real file', () => {
    for (const b of loadCorpus()) same(b.body.subarray(0, 512_000))
  })
  test(`grammar-generated bodies (${fuzzOptions(50_000).numRuns} runs)`, () => {
    fc.assert(fc.property(bodyArb, (body) => same(utf8(body))), fuzzOptions(50_000, 0xc0de))
  })
  test(`random bytes biased to line ends, NUL, '#', ':' and spaces (${fuzzOptions(25_000).numRuns} runs)`, () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x0a, 0x0d, 0x00, 0x23, 0x3a, 0x20, 0x09, 0x0b, 0x2a, 0xef, 0xbb, 0xbf, 0x25))
    fc.assert(fc.property(fc.array(byte, { maxLength: 80 }), (bytes) => same(Uint8Array.from(bytes))), fuzzOptions(25_000, 0xb17e))
  })
  test('lines around the 16,663-byte cut, and a body of many lines', () => {
    for (const n of [16_662, 16_663, 16_664, 40_000]) same(utf8(`User-agent: *\nDisallow: /${'a'.repeat(n)}\nAllow: /b\n`))
    same(utf8('User-agent: *\n' + 'Disallow: /x\n'.repeat(50_000)))
    // Three-byte directive lines give more records than one scan call holds: calls must resume.
    same(utf8('User-agent: *\n' + 'a:\nDisallow:\n'.repeat(40_000)))
  })
})

// The compiler has two ways in: straight from the body (its own group selection during the line
// scan) and from a rule list selected by the TS parser (bodies too large to scan in memory). Both
// must produce the same table, byte for byte.
function sameTable(body: Uint8Array, agent: string | string[]): void {
  const tokens = agentTokens(agent)
  const parsed = parseBody(body)
  const fromBody = keptBytes(compileAgents(getEngine(), body, tokens))
  const fromList = keptBytes(compileRules(getEngine(), parsed, selectRules(parsed, tokens).rules))
  expect(Buffer.from(fromBody).toString('hex')).toBe(Buffer.from(fromList).toString('hex'))
}

describe('compiler: wasm selection from the body equals the TS parser\'s selection', () => {
  const agents: (string | string[])[] = ['Googlebot', 'bingbot', '*', ['googlebot-news', 'googlebot'], 'a']
  test('every body of the conformance fixtures, several agents', () => {
    for (const name of ['google-spec-cases.jsonl', 'edge-cases.jsonl', 'fuzz-cases.jsonl']) {
      for (const b of loadFixture(name)) for (const a of [...agents, ...b.cases.map((c) => c.agent)]) sameTable(b.body.subarray(0, 512_000), a)
    }
  })
  test.skipIf(!corpusAvailable())('corpus: every real file, several agents', () => {
    for (const b of loadCorpus()) for (const a of agents) sameTable(b.body.subarray(0, 512_000), a)
  })
  test('groups of 40,000 rules (the work area grows to fit) and 200 escaped ones', () => {
    sameTable(utf8('User-agent: *\n' + 'Disallow: /a\nAllow: /b/index.html\n'.repeat(20_000)), 'x')
    sameTable(utf8('User-agent: x\n' + 'Disallow: /é%aa\n'.repeat(200) + 'User-agent: *\nDisallow: /'), ['x', 'y'])
  })
  test(`grammar-generated bodies and agents (${fuzzOptions(20_000).numRuns} runs)`, () => {
    fc.assert(fc.property(bodyArb, callerArb, (body, agent) => sameTable(utf8(body), agent)), fuzzOptions(20_000, 0x7ab1e))
  })
})

// Crawl-delay has two ways too: a wasm pass with the compiler's group logic, and the parsed form's
// per-group index (bodies too large for wasm memory). They must agree on every body and agent.
function sameDelay(body: Uint8Array, agent: string | string[]): void {
  const tokens = agentTokens(agent)
  expect(crawlDelayOf(getEngine(), body, tokens)).toBe(parsedCrawlDelay(parseBody(body), tokens))
}

describe('crawl-delay: the wasm pass equals the parsed form', () => {
  const agents: (string | string[])[] = ['Googlebot', 'bingbot', 'yandex', '*', ['a', 'b'], 'a']
  test('every body of the conformance fixtures, several agents', () => {
    for (const name of ['google-spec-cases.jsonl', 'edge-cases.jsonl', 'fuzz-cases.jsonl']) {
      for (const b of loadFixture(name)) for (const a of agents) sameDelay(b.body.subarray(0, 512_000), a)
    }
  })
  test.skipIf(!corpusAvailable())('corpus: every real file, several agents', () => {
    let found = 0
    for (const b of loadCorpus()) {
      for (const a of agents) sameDelay(b.body.subarray(0, 512_000), a)
      if (crawlDelayOf(getEngine(), b.body.subarray(0, 512_000), ['bingbot']) !== undefined) found++
    }
    // Hundreds of real files set a delay: the comparison above is not all `undefined`.
    expect(found).toBeGreaterThan(100)
  })
  // Groups that name an agent after their Crawl-delay line, values valid and not, keys in any case.
  const line = fc.oneof(
    fc.constantFrom('User-agent: a', 'User-agent: b', 'User-agent: *', 'useragent: a', 'User-agent: *a'),
    fc.tuple(fc.constantFrom('Crawl-delay', 'crawl-DELAY', 'Crawl-delay ', 'Crawldelay'), fc.constantFrom(': ', ' ', ':'),
      fc.constantFrom('1', '2.5', '10', '.5', '1.', 'x', '', '3 # c', '0.25', '1e3')).map(([k, s, v]) => k + s + v),
    fc.constantFrom('Disallow: /x', 'Allow: /', '', '# c', 'Sitemap: /s'),
  )
  test(`generated groups (${fuzzOptions(20_000).numRuns} runs)`, () => {
    fc.assert(fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom(...agents), fc.constantFrom('\n', '\r\n', '\r'), (lines, agent, eol) => {
      sameDelay(utf8(lines.join(eol)), agent)
    }), fuzzOptions(20_000, 0xde1a))
  })
  test('a user-agent line after the Crawl-delay line still names the group', () => {
    expect(crawlDelayOf(getEngine(), utf8('User-agent: *\nCrawl-delay: 5\nUser-agent: a\nDisallow: /\nUser-agent: b\nCrawl-delay: 7'), ['a'])).toBe(5)
    expect(crawlDelayOf(getEngine(), utf8('User-agent: x\nCrawl-delay: 5\nUser-agent: *\nDisallow: /'), ['a'])).toBe(5)
    expect(crawlDelayOf(getEngine(), utf8('User-agent: x\nCrawl-delay: 5\nDisallow: /\nUser-agent: *\nDisallow: /'), ['a'])).toBeUndefined()
  })
})
