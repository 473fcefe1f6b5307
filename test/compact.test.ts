// A Robots replaces its body by the compact body (assembly/compact.ts) at its first check, kept
// coded (the usual keys as one byte). Every view must stay exactly what the original body gives:
// the per-line report, sitemaps, directives, usage preferences, Crawl-delay, verdicts with their
// lines and rules, on every labelled body and on random ones; and the compact body must be
// smaller, stable, and compact no further.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseRobots, type Robots } from '../src/index.js'
import { CODED_TRAILER, MAX_LINE_BYTES } from '../src/engine/layout.js'
import { expandBody, streamCheck } from '../src/engine/wasm-body.js'
import { getEngine } from '../src/engine/wasm.js'
import { bodyArb, callerArb, urlArb } from './helpers/arbitraries.js'
import { corpusAvailable, loadCorpus, loadFixture, type LabelledBody } from './helpers/cases.js'
import { fuzzOptions } from './helpers/fuzz.js'

const AGENTS = ['googlebot', 'bingbot', 'gptbot', 'x', ['googlebot-news', 'googlebot']] as const

/** Everything a Robots tells, but verdicts (which the callers compare on their own URLs). */
function views(r: Robots): unknown {
  return {
    lines: r.lines,
    sitemaps: r.sitemaps,
    directives: r.directives,
    prefs: AGENTS.map((a) => r.usagePreferences(a)),
    delays: AGENTS.map((a) => r.crawlDelay(a as string)),
  }
}

/** A Robots compacted by its first check (of `url` for `agent`), and the verdict it gave. */
function compacted(body: string | Uint8Array, url: string, agent: string | readonly string[]) {
  const r = parseRobots(body)
  const first = r.check(url, agent)
  return { r, first }
}

function compareBody(b: LabelledBody, bad: string[]): void {
  const fresh = parseRobots(b.body)
  const c0 = b.cases[0]
  const { r, first } = compacted(b.body, c0?.url ?? 'http://h/', c0?.agent ?? 'x')
  if (c0 !== undefined && (first.allowed !== c0.allowed || first.line !== c0.line)) bad.push(`${b.id}: first check ${JSON.stringify(first)}`)
  b.cases.forEach((c, i) => {
    const got = r.check(c.url, c.agent)
    if (got.allowed !== c.allowed || got.line !== c.line) bad.push(`${b.id} #${i}: compact ${got.allowed}/${got.line}, label ${c.allowed}/${c.line}`)
    if (JSON.stringify(got) !== JSON.stringify(fresh.check(c.url, c.agent))) bad.push(`${b.id} #${i}: rule differs`)
  })
  if (JSON.stringify(views(r)) !== JSON.stringify(views(fresh))) bad.push(`${b.id}: views differ`)
  const body = r.parsed.body
  if (body.length > b.body.length) bad.push(`${b.id}: compact ${body.length} B > original ${b.body.length} B`)
}

describe('compact body: every view equals the original body\'s', () => {
  for (const name of ['google-spec-cases.jsonl', 'edge-cases.jsonl', 'fuzz-cases.jsonl']) {
    test(name, () => {
      const bad: string[] = []
      for (const b of loadFixture(name)) compareBody(b, bad)
      expect(bad).toEqual([])
    })
  }
  test.skipIf(!corpusAvailable())('corpus: 2,454 real files, and they shrink', () => {
    const bad: string[] = []
    let before = 0
    let after = 0
    for (const b of loadCorpus()) {
      compareBody(b, bad)
      const r = parseRobots(b.body)
      r.isAllowed('http://h/', 'x')
      before += b.body.length
      after += r.parsed.body.length
    }
    expect(bad).toEqual([])
    // The real files keep about half their bytes (comments, blank lines, spacing go).
    expect(after).toBeLessThan(before * 0.7)
  })
  test(`property: random bodies (${fuzzOptions(5_000).numRuns} runs)`, () => {
    fc.assert(fc.property(bodyArb, callerArb, urlArb, (body, agent, url) => {
      const fresh = parseRobots(body)
      const { r, first } = compacted(body, url, agent)
      expect(first).toEqual(fresh.check(url, agent))
      expect(views(r)).toEqual(views(fresh))
      expect(r.check(url, agent)).toEqual(fresh.check(url, agent))
    }), fuzzOptions(5_000))
  })
})

describe('compact body: form', () => {
  test('comments, blank lines, spacing, CR line ends and a BOM go; line numbers stay', () => {
    const body = '\ufeff# site rules\r\n\r\nUser-agent :  Googlebot  # us\r\nDisallow\t/private\r\n<div class="x">\rAllow: /p/ok\n'
    const r = parseRobots(body)
    expect(r.check('http://h/private/x', 'Googlebot')).toEqual({ allowed: false, line: 4, rule: { kind: 'disallow', pattern: '/private' } })
    expect(new TextDecoder().decode(r.parsed.body)).toBe('#\n\nUser-agent:Googlebot#\nDisallow /private\n<div class="x">\nAllow:/p/ok\n')
  })
  test('a line over 16,663 bytes is kept whole, so it is still reported too long', () => {
    const long = 'Disallow: /' + 'a'.repeat(20_000)
    const r = parseRobots(`User-agent: *\n${long}\n`)
    r.isAllowed('http://h/', 'x')
    expect(r.lines[1]!.tooLong).toBe(true)
    expect(r.parsed.body.length).toBe(13 + long.length + 1)
  })
  test('compacting twice changes nothing; a Robots read before its first check keeps its body', () => {
    const body = 'User-agent: *  # all\n\nDisallow:   /x\n'
    const once = parseRobots(body)
    once.isAllowed('http://h/x', 'a')
    const twice = parseRobots(once.parsed.body)
    twice.isAllowed('http://h/x', 'a')
    expect([...twice.parsed.body]).toEqual([...once.parsed.body])
    const read = parseRobots(body)
    void read.parsed
    read.isAllowed('http://h/x', 'a')
    expect(new TextDecoder().decode(read.parsed.body)).toBe(body)
  })
})

describe('compact body: coded keys', () => {
  /** Views and verdicts (for the agent streamed first and for one compiled after it) of a compacted Robots against a fresh one. */
  function expectSame(body: string | Uint8Array): void {
    const fresh = parseRobots(body)
    const r = parseRobots(body)
    expect(r.check('http://h/x', 'a')).toEqual(fresh.check('http://h/x', 'a'))
    for (const agent of ['a', 'b', 'googlebot']) for (const url of ['http://h/x', 'http://h/y', 'http://h/a']) expect(r.check(url, agent)).toEqual(fresh.check(url, agent))
    expect(views(r)).toEqual(views(fresh))
  }

  test('"Disallow", "User-agent", "Allow" and "Sitemap" with a colon are one byte each, and expand back', () => {
    const e = getEngine()
    const body = 'User-agent: *\nDisallow: /a\nAllow: /b\nSitemap: https://h/s.xml\ndisallow: /c\nUser-Agent: x\nDisallow /d\n'
    const coded = streamCheck(e, body, ['x'], 'http://h/', true).compact!
    // Other spellings, and a key without its colon, are written out.
    const plain = 'User-agent:*\nDisallow:/a\nAllow:/b\nSitemap:https://h/s.xml\ndisallow:/c\nUser-Agent:x\nDisallow /d\n'
    expect(new TextDecoder().decode(expandBody(e, coded))).toBe(plain)
    expect(coded.byteLength).toBe(plain.length - ('User-agent'.length + 'Disallow'.length + 'Allow'.length + 'Sitemap'.length) + CODED_TRAILER)
  })

  test('a line kept whole (too long) that starts with a code byte still scans as it did', () => {
    const long = 'a'.repeat(MAX_LINE_BYTES + 10)
    for (const first of ['\t', '\v', '\f', '\u0000', ' ', 'D', '']) {
      expectSame(`User-agent: *\nDisallow: /x\n${first}${long}\nDisallow: /y\n`)
      expectSame(`${first}${long}\nUser-agent: a\nDisallow: /x\n`)
    }
    const r = parseRobots(`User-agent: *\n\t${long}\nDisallow: /y\n`)
    r.isAllowed('http://h/', 'a')
    expect(r.lines[1]!.tooLong).toBe(true)
    expect(r.isAllowed('http://h/y', 'b')).toBe(false)
  })

  test('a first line that starts with a BOM\'s first byte keeps it (a compacted Robots once read it as a BOM)', () => {
    // EF BB is skipped as the start of a BOM; the line is then "\ufeffUser-agent: *", an unknown
    // key, so the Disallow stands in no group. Compacted without its own BOM, the line lost its
    // EF BB BF to the same skip and became a user-agent line: agent b was disallowed /x.
    const bytes = new Uint8Array([0xef, 0xbb, ...new TextEncoder().encode('\ufeffUser-agent: *\nDisallow: /x\n')])
    const r = parseRobots(bytes)
    expect(r.check('http://h/x', 'a')).toEqual({ allowed: true, line: 0 })
    expect(r.check('http://h/x', 'b')).toEqual({ allowed: true, line: 0 })
    expect(r.lines[0]!.key).toBe('\ufeffUser-agent')
    expectSame(bytes)
    expectSame('\ufeff\ufeffDisallow: /x\n')
    expectSame(new Uint8Array([0xef, 0xef, 0x61, 0x3a, 0x20, 0x62, 0x0a]))
  })

  /** Lines whose first bytes are the codes, ESC, a BOM's, key spellings coded and not, now and then one too long to read whole. */
  const lineStartArb = fc.tuple(
    fc.constantFrom('', '\t', '\v', '\f', '\u0000', '\u00ef', '\ufeff', ' ', ':', '#'),
    fc.constantFrom('Disallow', 'disallow', 'DISALLOW', 'User-agent', 'User-Agent', 'user-agent', 'Allow', 'Sitemap', 'Crawl-delay', 'x', ''),
    fc.constantFrom(':', ': ', ' ', '\t', ' : ', ''),
    fc.constantFrom('/x', '/y', '*', 'a', '', '/x # c'),
    fc.nat(19),
  ).map(([pre, key, sep, value, n]) => pre + key + sep + value + (n === 0 ? 'z'.repeat(MAX_LINE_BYTES) : ''))
  test(`property: random line starts (${fuzzOptions(500).numRuns} runs)`, () => {
    fc.assert(fc.property(fc.array(lineStartArb, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'), (lines, eol) => {
      expectSame(lines.join(eol))
    }), fuzzOptions(500))
  })
})
