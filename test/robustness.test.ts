// Hostile robots.txt bodies (issue 9): malformed input never throws and is parsed as well as it
// can be; size limits hold.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseRobots, type Robots } from '../src/index.js'
import { fuzzOptions } from './helpers/fuzz.js'

/** Every public read of a Robots, none of which may throw. */
function exercise(robots: Robots): void {
  void robots.sitemaps
  void robots.lines.length
  robots.crawlDelay('bot')
  for (const agent of ['bot', '*', ['a', 'Googlebot']] as const) {
    const m = robots.matcher(agent)
    const v = m.check('https://x.com/a/b?c=d')
    expect(typeof v.allowed).toBe('boolean')
    expect(m.isAllowedMany(['/', 'https://x.com/%zz/é', ''])).toHaveLength(3)
  }
}

describe('edge: malformed bodies never throw', () => {
  test(`random bytes (${fuzzOptions(10_000).numRuns} runs)`, () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => exercise(parseRobots(bytes))), fuzzOptions(10_000, 0x0dd))
  })
  test(`random strings, lone surrogates included (${fuzzOptions(10_000).numRuns} runs)`, () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 512 }), (s) => exercise(parseRobots(s))), fuzzOptions(10_000, 0xabc))
  })
  test('empty input, NULs, invalid UTF-8', () => {
    for (const body of ['', '\u0000', '\u0000\u0000\nUser-agent: *\nDisallow: /x\u0000y']) exercise(parseRobots(body))
    const invalid = Uint8Array.from([0x55, 0x73, 0x65, 0x72, 0x2d, 0x61, 0x67, 0x65, 0x6e, 0x74, 0x3a, 0x2a, 0x0a, 0xff, 0xfe, 0xc0, 0x80, 0x0a, 0x44, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x3a, 0x2f, 0xed, 0xa0, 0x80])
    const r = parseRobots(invalid)
    exercise(r)
    // The invalid bytes of the pattern are escaped one by one (RFC 9309 2.2.2; Google's MaybeEscapePattern).
    expect(r.isAllowed('http://x/%ED%A0%80', 'bot')).toBe(false)
  })
  test('UTF-16 files (NUL every other byte) parse to nothing, so everything is allowed', () => {
    const text = 'User-agent: *\nDisallow: /\n'
    const le = Uint8Array.from([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])])
    const be = Uint8Array.from([0xfe, 0xff, ...[...text].flatMap((c) => [0, c.charCodeAt(0)])])
    for (const body of [le, be]) {
      const r = parseRobots(body)
      exercise(r)
      expect(r.isAllowed('http://x/a', 'bot')).toBe(true)
    }
  })
  test('an HTML page served as robots.txt: lines that happen to parse are used', () => {
    const html = '<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>\nUser-agent: *\nDisallow: /private\n<p>Sorry</p></body></html>'
    const r = parseRobots(html)
    exercise(r)
    expect(r.isAllowed('http://x/private', 'bot')).toBe(false)
    expect(r.isAllowed('http://x/public', 'bot')).toBe(true)
  })
  test('16 KB and 1 MB lines', () => {
    for (const n of [16_000, 16_663, 16_664, 1_000_000]) {
      const r = parseRobots(`User-agent: *\nDisallow: /${'*a'.repeat(n / 2)}\nAllow: /ok`, { maxBytes: Infinity })
      exercise(r)
      expect(r.isAllowed('http://x/ok', 'bot')).toBe(true)
    }
  })
  test('a 200,000-rule file parses, compiles and matches', () => {
    const lines = ['User-agent: *']
    for (let i = 0; i < 200_000; i++) lines.push(`Disallow: /p${i}/`)
    const r = parseRobots(lines.join('\n'), { maxBytes: Infinity })
    const m = r.matcher('bot')
    expect(m.check('http://x/p199999/a')).toMatchObject({ allowed: false, line: 200_001 })
    expect(m.isAllowed('http://x/q')).toBe(true)
    expect(m.isAllowed('http://x/p7/')).toBe(false)
  })
})

describe('edge: size limits', () => {
  test('a 100 MB body is cut at 500 KiB by default (a rule past the cut does not apply)', () => {
    const head = 'User-agent: *\nDisallow: /early\n'
    const body = head + '#'.repeat(100 * 1024 * 1024) + '\nDisallow: /late\n'
    const r = parseRobots(body)
    expect(r.isAllowed('http://x/early', 'bot')).toBe(false)
    expect(r.isAllowed('http://x/late', 'bot')).toBe(true)
    expect(r.lines.length).toBe(3) // two lines and the cut comment line
  })
  test('maxBytes: Infinity on a multi-megabyte file reads all of it', () => {
    const body = 'User-agent: *\n' + '# filler line\n'.repeat(400_000) + 'Disallow: /late\n'
    expect(body.length).toBeGreaterThan(5_000_000)
    expect(parseRobots(body).isAllowed('http://x/late', 'bot')).toBe(true)
    expect(parseRobots(body, { maxBytes: Infinity }).check('http://x/late', 'bot')).toMatchObject({ allowed: false, line: 400_002 })
    expect(parseRobots(new TextEncoder().encode(body), { maxBytes: Infinity }).isAllowed('http://x/late', 'bot')).toBe(false)
  })
})
