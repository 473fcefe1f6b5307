// How a body gets into wasm memory (src/engine/wasm.ts Engine.loadBody, Engine.hold).
//
// A byte body held in wasm memory: parseRobots(bytes) copies the body into the engine's input
// area and nowhere else, and whatever needs that area first hands the Robots a copy of its own.
// These tests put every kind of engine use between the parse and the Robots' first use, with the
// caller's buffer overwritten, and require the answers of the same body given as a string.
//
// A string body: written as UTF-16 and transcoded in wasm (Node), or through TextEncoder; both
// must give exactly TextEncoder's bytes, lone surrogates included.
import fc from 'fast-check'
import { describe, expect, onTestFinished, test } from 'vitest'
import { getEngine } from '../src/engine/wasm.js'
import { parseRobots, type Robots } from '../src/index.js'

const BODY = 'User-agent: *\nDisallow: /a\nAllow: /a/index.html\nSitemap: https://x/s1\n\nUser-agent: bot\nDisallow: /b\nCrawl-delay: 3\n'
const OTHER = 'User-agent: *\nAllow: /\nSitemap: https://x/s2\n'
const URLS = ['https://x/a', 'https://x/a/', 'https://x/b', 'https://x/c']

/** What a Robots answers, through each way of asking. */
function answers(r: Robots, first: 'isAllowed' | 'check' | 'matcher' | 'lines' | 'crawlDelay'): unknown[] {
  const out: unknown[] = []
  if (first === 'lines') out.push(r.lines.map((l) => [l.type, l.value]))
  if (first === 'crawlDelay') out.push(r.crawlDelay('bot'))
  if (first === 'matcher') out.push(r.matcher('bot').checkMany(URLS))
  if (first === 'check') out.push(r.check(URLS[1]!, 'other'))
  for (const u of URLS) out.push(r.isAllowed(u, 'other'), r.check(u, 'bot'))
  out.push(r.sitemaps, r.crawlDelay('bot'), r.lines.length)
  return out
}

let tableRules = 2000

/**
 * Engine uses that need the input area, each between a held parse and the Robots' first use;
 * each is prepared (bodies parsed, matchers compiled) before the parse, so the use itself is all
 * that happens in between.
 */
const between: Record<string, () => () => void> = {
  'nothing': () => () => {},
  'another byte body parsed': () => () => { parseRobots(new TextEncoder().encode(OTHER)) },
  'another byte body parsed and checked': () => () => { parseRobots(new TextEncoder().encode(OTHER)).isAllowed('https://x/a', 'bot') },
  'a string body checked': () => () => { parseRobots(OTHER).isAllowed('https://x/a', 'bot') },
  'a string body compiled': () => () => { parseRobots(OTHER).matcher('bot') },
  'a matcher check': () => {
    const m = parseRobots(OTHER).matcher('bot')
    return () => { m.isAllowed('https://x/zzz') }
  },
  'a batch': () => {
    const m = parseRobots(OTHER).matcher('bot')
    return () => { m.checkMany(Array.from({ length: 300 }, (_, i) => `https://x/${i}`)) }
  },
  'a table larger than any before (the input area moves)': () => {
    tableRules *= 2
    const rules = Array.from({ length: tableRules }, (_, i) => `Disallow: /p${i}/*.x$`).join('\n')
    const m = parseRobots(`User-agent: *\n${rules}\n`).matcher('bot')
    return () => { m.isAllowed('https://x/p1/a.x') }
  },
  'a large body (memory grows)': () => () => { parseRobots(`User-agent: *\nDisallow: /${'q'.repeat(300_000)}\n`).isAllowed('https://x/a', 'bot') },
  'lines of another body': () => () => { void parseRobots(new TextEncoder().encode(OTHER)).lines },
}

describe('a held byte body answers as its string', () => {
  const expected = (first: Parameters<typeof answers>[1]) => answers(parseRobots(BODY), first)
  for (const first of ['isAllowed', 'check', 'matcher', 'lines', 'crawlDelay'] as const) {
    for (const [name, prepare] of Object.entries(between)) {
      test(`${name}, then ${first}`, () => {
        const use = prepare()
        const buf = new Uint8Array(256).fill(0x20)
        const text = new TextEncoder().encode(BODY)
        buf.set(text)
        const robots = parseRobots(buf.subarray(0, text.length))
        // The caller reuses its buffer at once, as stream readers do.
        buf.fill(0x41)
        use()
        expect(answers(robots, first)).toEqual(expected(first))
      })
    }
  }

  test('two held bodies parsed in turn, checked in the other order', () => {
    const a = parseRobots(new TextEncoder().encode(BODY))
    const b = parseRobots(new TextEncoder().encode(OTHER))
    expect(b.isAllowed('https://x/a', 'bot')).toBe(true)
    expect(a.isAllowed('https://x/a', 'other')).toBe(false)
    expect(a.sitemaps).toEqual(['https://x/s1'])
    expect(b.sitemaps).toEqual(['https://x/s2'])
  })

  test('the engine holds at most one body, and none once it was checked', () => {
    const e = getEngine()
    const a = parseRobots(new TextEncoder().encode(BODY))
    expect(e.heldOwner).toBe(a)
    const b = parseRobots(new TextEncoder().encode(OTHER))
    expect(e.heldOwner).toBe(b)
    b.isAllowed('https://x/a', 'bot')
    expect(e.heldOwner).toBe(null)
    expect(a.isAllowed('https://x/a', 'other')).toBe(false)
  })
})

describe('a string body is loaded as TextEncoder encodes it', () => {
  const encoder = new TextEncoder()
  const loaded = (s: string): Uint8Array => {
    const e = getEngine()
    e.reserveInput(3 * s.length + 64)
    e.clearInput()
    const n = e.loadBody(s)
    return e.u8.slice(e.input, e.input + n)
  }
  // Long ASCII runs with other units dropped in at every offset the transcoder's 32-, 16- and
  // 8-unit steps can meet them; units of one, two and three UTF-8 bytes, pairs and lone surrogates.
  const unit = fc.constantFrom('a', '\n', '\x7f', '\x80', 'é', 'ÿ', 'Ā', '€', '\ud83d\ude00', '\ud83d', '\ude00', '\uffff')
  const body = fc.tuple(fc.array(fc.tuple(fc.nat(80), unit), { maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 40 }))
    .map(([parts, tail]) => parts.map(([n, u]) => 'x'.repeat(n) + u).join('') + tail)
  for (const utf16 of [true, false]) {
    test(`${utf16 ? 'through UTF-16' : 'through TextEncoder'}: random strings`, () => {
      const e = getEngine()
      const saved = e.utf16Bodies
      e.utf16Bodies = utf16
      onTestFinished(() => { e.utf16Bodies = saved })
      fc.assert(fc.property(body, (s) => {
        expect(Buffer.from(loaded(s)).toString('hex')).toBe(Buffer.from(encoder.encode(s)).toString('hex'))
      }), { numRuns: 3000 })
      const long = 'User-agent: *\nDisallow: /\u00e9t\u00e9\n'.repeat(5000) + '\ud800'
      expect(loaded(long)).toEqual(encoder.encode(long))
    })
  }
})

describe('a string longer than the cut is held as its first maxBytes bytes of UTF-8', () => {
  const encoder = new TextEncoder()
  const unit = fc.constantFrom('a', '\n', 'é', '€', '\ud83d\ude00', '\ud83d', '\ude00')
  const body = fc.array(fc.tuple(fc.nat(40), unit), { maxLength: 8 }).map((parts) => parts.map(([n, u]) => 'x'.repeat(n) + u).join(''))
  for (const utf16 of [true, false]) {
    test(`${utf16 ? 'encoded by wasm' : 'encoded by TextEncoder'}: every cut, even inside a character`, () => {
      const e = getEngine()
      const saved = e.utf16Bodies
      e.utf16Bodies = utf16
      onTestFinished(() => { e.utf16Bodies = saved })
      fc.assert(fc.property(body, fc.nat(200), (s, cut) => {
        const maxBytes = 1 + (cut % Math.max(1, s.length * 3))
        const robots = parseRobots(s, { maxBytes })
        expect(Buffer.from(robots.bodyBytes).toString('hex')).toBe(Buffer.from(encoder.encode(s).subarray(0, maxBytes)).toString('hex'))
      }), { numRuns: 3000 })
    })
  }
  test('encoded a chunk at a time: a surrogate pair at a chunk boundary stays whole', () => {
    for (let k = 16_380; k <= 16_386; k++) {
      const s = 'a'.repeat(k) + '\ud83d\ude00'.repeat(3) + '\u00e9'.repeat(20_000) + '\ud800' + '\u20ac'.repeat(20_000)
      const bytes = encoder.encode(s)
      for (const maxBytes of [bytes.length - 1, k + 5, 100_000]) {
        expect(Buffer.from(parseRobots(s, { maxBytes }).bodyBytes).equals(Buffer.from(bytes.subarray(0, maxBytes)))).toBe(true)
      }
    }
  })

  test('its first check answers from the cut body, then it keeps the compact body', () => {
    const body = `User-agent: *\nDisallow: /private\n${'# a comment\n'.repeat(50_000)}Allow: /private\n`
    const robots = parseRobots(body)
    expect(robots.check('https://x/private', 'bot')).toMatchObject({ allowed: false, line: 2 })
    expect(getEngine().heldOwner).toBe(null)
    expect(robots.bodyBytes.length).toBeLessThan(512_000 / 5)
    const cut = new TextEncoder().encode(body).subarray(0, 512_000)
    expect(robots.lines).toEqual(parseRobots(cut).lines)
  })
})
