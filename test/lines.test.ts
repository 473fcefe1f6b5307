// Matcher.isAllowedLines and checkLines (URLs as UTF-8 lines): every verdict equals isAllowed on the
// line decoded by `new TextDecoder('utf-8', { ignoreBOM: true })` (the documented statement); line
// splitting, chunking, arguments and bounds.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseRobots, type Matcher } from '../src/index.js'
import { LINE_BOUNDS_SIZE, LINE_END, LINE_START, VERDICT_CODE, VERDICT_ERROR, VERDICT_ERROR_SILENT } from '../src/engine/layout.js'
import { getEngine } from '../src/engine/wasm.js'
import { lineBounds, verdictLines } from '../src/engine/wasm-urls.js'
import { parseBody } from '../src/engine/parse.js'
import { referenceCheck } from '../src/engine/reference.js'
import { fuzzOptions } from './helpers/fuzz.js'
import { bodyArb, callerArb, urlArb } from './helpers/arbitraries.js'
import { isUrlOrPath } from '../src/cli/options.js'

const enc = new TextEncoder()
// A line is decoded as written: a BOM at its start is a character of the URL, not a mark to drop.
const dec = new TextDecoder('utf-8', { ignoreBOM: true })

/** The lines of `bytes` as the API defines them, decoded: the oracle's view of the input. */
function lineSpans(bytes: Uint8Array): Array<[number, number]> {
  const out: Array<[number, number]> = []
  let start = 0
  while (start < bytes.length) {
    let nl = bytes.indexOf(0x0a, start)
    const last = nl < 0
    if (last) nl = bytes.length
    let end = nl
    if (!last && end > start && bytes[end - 1] === 0x0d) end--
    out.push([start, end])
    start = nl + 1
  }
  return out
}

function splitLines(bytes: Uint8Array): string[] {
  return lineSpans(bytes).map(([start, end]) => dec.decode(bytes.subarray(start, end)))
}

function expectSameAsSingle(matcher: Matcher, bytes: Uint8Array): void {
  const lines = splitLines(bytes)
  const allowed = matcher.isAllowedLines(bytes)
  const checked = matcher.checkLines(bytes)
  expect(allowed.length).toBe(lines.length)
  expect(checked.length).toBe(lines.length)
  const want = lines.map((l) => matcher.check(l))
  expect(Array.from(allowed)).toEqual(want.map((v) => (v.allowed ? 1 : 0)))
  expect(Array.from(checked)).toEqual(want.map((v) => (v.allowed ? v.line : -v.line)))
}

const ROBOTS = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok$\nDisallow: /*.pdf$\nDisallow: /%C3%A9\nDisallow: /%EF%BF%BD\n')
const MATCHER = ROBOTS.matcher('bot')

describe('property: isAllowedLines and checkLines equal isAllowed on each decoded line', () => {
  test(`generated bodies and URLs, LF and CRLF, open last line (${fuzzOptions(5_000).numRuns} runs)`, () => {
    fc.assert(
      fc.property(bodyArb, callerArb, fc.array(urlArb, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (body, agent, urls, eol, open) => {
        const clean = urls.filter((u) => !/[\r\n]/.test(u))
        const text = clean.join(eol) + (open && clean.length > 0 && clean[clean.length - 1] !== '' ? '' : clean.length > 0 ? eol : '')
        expectSameAsSingle(parseRobots(body).matcher(agent), enc.encode(text))
      }),
      fuzzOptions(5_000, 0x11e5),
    )
  })

  test(`arbitrary bytes, ill-formed UTF-8 included (${fuzzOptions(20_000).numRuns} runs)`, () => {
    const byte = fc.oneof(
      fc.constantFrom(0xbb, 0x0a, 0x0d, 0x2f, 0x25, 0x61, 0x3f, 0x23, 0x00, 0x80, 0xbf, 0xc0, 0xc3, 0xa9, 0xe0, 0xed, 0xa0, 0xef, 0xf0, 0xf4, 0x90, 0x8f, 0xff),
      fc.integer({ min: 0, max: 255 }),
    )
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 80 }), (bytes) => {
        expectSameAsSingle(MATCHER, Uint8Array.from(bytes))
      }),
      fuzzOptions(20_000, 0xb17e),
    )
  })
})

describe('property: a URL line is located as its text alone would be', () => {
  // locateLine finds the path and the line's end in one sweep and repairs ill-formed UTF-8 only in
  // the path it normalizes; the '?'s it finds stand in for the matcher's own scan. Lines built from
  // schemes, delimiters, CR, NUL and broken sequences reach every branch of that sweep.
  const QUERY_BODY = 'User-agent: *\nDisallow: /*?q=\nAllow: /*?q=1$\nDisallow: /a?\nDisallow: /*?*?\nAllow: /*;\nDisallow: /*%EF%BF%BD\nDisallow: /*.pdf$\nDisallow: /h\n'
  const QUERY_MATCHER = parseRobots(QUERY_BODY).matcher('bot')
  const QUERY_PARSED = parseBody(enc.encode(QUERY_BODY))
  const clean = fc.constantFrom('https://', 'http://', '//', 'host', 'h:', ':', '/', '?', ';', 'q=1', 'q=', 'a', '.pdf').map((p) => enc.encode(p))
  const special = fc.constantFrom('#', '\r', '\r\n', '\n', '\0', '%', '%c3%a9', '%zz', 'é', '\u00df', '\ud83d\ude00').map((p) => enc.encode(p))
  const broken = fc.constantFrom(0xc3, 0xe2, 0x82, 0xed, 0xa0, 0xf0, 0x9f, 0xff).map((b) => Uint8Array.of(b))
  const piece = fc.oneof({ arbitrary: clean, weight: 8 }, { arbitrary: special, weight: 1 }, { arbitrary: broken, weight: 1 })
  test(`lines of schemes, delimiters, CR, NUL and ill-formed bytes (${fuzzOptions(20_000).numRuns} runs)`, () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
        let o = 0
        for (const p of parts) { bytes.set(p, o); o += p.length }
        expectSameAsSingle(QUERY_MATCHER, bytes)
        // The single check shares locatePath's sweep: the pure-TS reference is the independent oracle.
        const checked = QUERY_MATCHER.checkLines(bytes)
        const want = splitLines(bytes).map((l) => referenceCheck(QUERY_PARSED, ['bot'], enc.encode(l)))
        expect(Array.from(checked)).toEqual(want.map((v) => (v.allowed ? v.line : -v.line)))
      }),
      fuzzOptions(20_000, 0x1ace),
    )
  })
})

describe('edge: line splitting', () => {
  const cases: [string, string, number[]][] = [
    ['no bytes, no line', '', []],
    ['one empty line', '\n', [1]],
    ['a last line without \\n counts', '/private', [0]],
    ['\\r before \\n is dropped', '/private/ok\r\n', [1]],
    ['a lone \\r inside a line is kept', '/private/ok\r/x\n', [0]],
    ['a \\r ending the last line without \\n is part of it', '/private/ok\r', [0]],
    ['empty lines are the empty URL', '\n\n/private\n', [1, 1, 0]],
    ['a BOM starting a line is part of its URL', '\ufeff/private\n\ufeff\n', [0, 1]],
  ]
  for (const [name, text, want] of cases) {
    test(name, () => {
      expect(Array.from(MATCHER.isAllowedLines(enc.encode(text)))).toEqual(want)
      expectSameAsSingle(MATCHER, enc.encode(text))
    })
  }

  test("a line starting with EF BB BF gets isAllowed's verdict on the ignoreBOM decoding, which keeps the BOM, not on the default one", () => {
    const keep = new TextDecoder('utf-8', { ignoreBOM: true })
    const drop = new TextDecoder('utf-8')
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf)
    for (const url of ['//example.com/private', 'https://example.com/private', '/private', '/private/ok', '', '?q']) {
      const line = new Uint8Array([...bom, ...enc.encode(url)])
      const want = MATCHER.check(keep.decode(line))
      expect(Array.from(MATCHER.isAllowedLines(line)), url).toEqual([want.allowed ? 1 : 0])
      expect(Array.from(MATCHER.checkLines(line)), url).toEqual([want.allowed ? want.line : -want.line])
    }
    // Where the rules make them differ: with the BOM kept, '//example.com' is no authority (Google's
    // GetPathParamsQuery sees no leading '//'), so the path is the whole line and /private does not
    // match; dropped, the path would be /private, disallowed.
    const line = new Uint8Array([...bom, ...enc.encode('//example.com/private')])
    expect(keep.decode(line)).toBe('\ufeff//example.com/private')
    expect(drop.decode(line)).toBe('//example.com/private')
    expect(MATCHER.isAllowed(keep.decode(line))).toBe(true)
    expect(MATCHER.isAllowed(drop.decode(line))).toBe(false)
    expect(Array.from(MATCHER.isAllowedLines(line))).toEqual([1])
    expect(Array.from(MATCHER.isAllowedLines(new Uint8Array([...enc.encode('/a\n'), ...line])))).toEqual([1, 1])
  })

  test('ill-formed UTF-8 gets the verdict of its U+FFFD decoding, never that of the raw bytes', () => {
    // 0xFF alone would normalize to %FF; decoded it is U+FFFD, %EF%BF%BD, which is disallowed.
    expect(Array.from(MATCHER.isAllowedLines(Uint8Array.from([0x2f, 0xff])))).toEqual([0])
    // An encoded surrogate (ED A0 80) is three replacement characters, as TextDecoder gives.
    expect(MATCHER.isAllowed('/\ufffd\ufffd\ufffd')).toBe(false)
    expect(Array.from(MATCHER.isAllowedLines(Uint8Array.from([0x2f, 0xed, 0xa0, 0x80, 0x0a])))).toEqual([0])
    // Well-formed non-ASCII is kept as is.
    expect(Array.from(MATCHER.isAllowedLines(enc.encode('/é\n/e\n')))).toEqual([0, 1])
  })

  test('lines around and across the 64 KiB chunk boundary, and one line longer than a chunk', () => {
    const urls: string[] = []
    for (let i = 0; urls.join('\n').length < 300_000; i++) urls.push(i % 7 === 0 ? `/private/${'x'.repeat(i % 300)}` : `/p${i}/${'é'.repeat(i % 5)}.pdf`)
    urls.splice(1000, 0, '/private/' + 'y'.repeat(150_000))
    const bytes = enc.encode(urls.join('\n') + '\n')
    const allowed = MATCHER.isAllowedLines(bytes)
    expect(allowed.length).toBe(urls.length)
    expect(Array.from(allowed)).toEqual(urls.map((u) => (MATCHER.isAllowed(u) ? 1 : 0)))
    expectSameAsSingle(MATCHER, bytes)
    // A given out is written chunk by chunk in place; a longer one keeps its tail, and one a line
    // short is found out only in the last chunk, and still throws.
    const out = new Uint8Array(urls.length + 2).fill(9)
    expect(MATCHER.isAllowedLines(bytes, out)).toBe(out)
    expect([...out.subarray(0, urls.length)]).toEqual([...allowed])
    expect([...out.subarray(urls.length)]).toEqual([9, 9])
    const lines = new Int32Array(urls.length)
    expect(MATCHER.checkLines(bytes, lines)).toBe(lines)
    expect([...lines]).toEqual([...MATCHER.checkLines(bytes)])
    expect(() => MATCHER.isAllowedLines(bytes, new Uint8Array(urls.length - 1))).toThrow(new RegExp(`length >= ${urls.length} `))
    expect(() => MATCHER.checkLines(bytes, new Int32Array(urls.length - 1))).toThrow(new RegExp(`length >= ${urls.length} `))
  })

  test('the caller may reuse its buffer: nothing of it is remembered between calls', () => {
    const buf = enc.encode('/private\n')
    expect(Array.from(MATCHER.isAllowedLines(buf))).toEqual([0])
    buf.set(enc.encode('/public\n\n'))
    expect(Array.from(MATCHER.isAllowedLines(buf))).toEqual([1, 1])
  })

  test('a Buffer view into a larger pool reads only its own bytes', () => {
    const pool = Buffer.from('/private\n/public\n/private\n')
    expect(Array.from(MATCHER.isAllowedLines(pool.subarray(9, 17)))).toEqual([1])
  })
})

describe('edge: arguments', () => {
  test('out is filled and returned; a short or wrong out is a TypeError that says what was expected', () => {
    const bytes = enc.encode('/a\n/private\n/b')
    const out = new Uint8Array(5).fill(9)
    expect(MATCHER.isAllowedLines(bytes, out)).toBe(out)
    expect(Array.from(out)).toEqual([1, 0, 1, 9, 9])
    const lines = new Int32Array(3)
    expect(MATCHER.checkLines(bytes, lines)).toBe(lines)
    expect(Array.from(lines)).toEqual([0, -2, 0])
    expect(() => MATCHER.isAllowedLines(bytes, new Uint8Array(2))).toThrow(/out.*Uint8Array of length >= 3/)
    expect(() => MATCHER.checkLines(bytes, new Int32Array(2))).toThrow(TypeError)
    expect(() => MATCHER.checkLines(bytes, new Uint8Array(3) as unknown as Int32Array)).toThrow(/Int32Array/)
  })

  test('bytes must be a Uint8Array', () => {
    for (const bad of ['/a\n', ['/a'], null, undefined, new Uint16Array(2), new ArrayBuffer(4)]) {
      expect(() => MATCHER.isAllowedLines(bad as unknown as Uint8Array)).toThrow(TypeError)
      expect(() => MATCHER.checkLines(bad as unknown as Uint8Array)).toThrow(/bytes.*Uint8Array/)
    }
  })

  test('after a failed call the engine still answers every matcher', () => {
    expect(() => MATCHER.isAllowedLines(enc.encode('/a\n/b\n'), new Uint8Array(1))).toThrow(TypeError)
    expect(MATCHER.isAllowed('/private')).toBe(false)
    expect(parseRobots('User-agent: *\nDisallow: /b').matcher('x').isAllowedMany(['/a', '/b'])).toEqual(Uint8Array.from([1, 0]))
  })
})

// The lines the CLI's origin filter reads (assembly/url.ts lineBounds through Engine.lineBounds).
describe('line bounds: where each line starts and its text ends', () => {
  const asPairs = (b: Uint32Array): Array<[number, number]> => {
    const step = LINE_BOUNDS_SIZE / 4
    return Array.from({ length: b.length / step }, (_, n) => [b[n * step + LINE_START / 4]!, b[n * step + LINE_END / 4]!])
  }
  test(`random bytes thick with CR and LF (${fuzzOptions(5_000).numRuns} runs)`, () => {
    const byte = fc.oneof(fc.constantFrom(0x0a, 0x0d, 0x0d, 0x2f, 0x00, 0xff), fc.integer({ min: 0x20, max: 0x7e }))
    fc.assert(fc.property(fc.array(byte, { maxLength: 80 }), (raw) => {
      const bytes = Uint8Array.from(raw)
      expect(asPairs(lineBounds(getEngine(), bytes))).toEqual(lineSpans(bytes))
    }), fuzzOptions(5_000, 0x11b0))
  })
  test('input of several chunks: offsets run on across them; a line over a chunk, CRLF at a chunk edge', () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `/p${i}${i % 5 === 0 ? '\r' : ''}`)
    lines[20_000] = '/' + 'x'.repeat(200_000)
    const bytes = enc.encode(lines.join('\n') + '\r')
    const got = asPairs(lineBounds(getEngine(), bytes))
    expect(got.length).toBe(40_000)
    expect(got).toEqual(lineSpans(bytes))
  })
})

// The CLI's output lines (assembly/verdicts.ts through Engine.verdictLines) against an oracle made
// of strings: the prefix of each code or mark, the line decoded as TextDecoder decodes it, '\n'.
describe('verdict lines: the output of check --urls', () => {
  /** The output as bytes: each line's prefix, then the line's bytes exactly as read (ill-formed UTF-8 included). */
  function oracle(bytes: Uint8Array, codes: Int32Array, marks: Uint8Array | null): Uint8Array {
    return Buffer.concat(lineSpans(bytes).map(([start, end], i) => {
      const mark = marks === null ? VERDICT_CODE : marks[i]!
      const line = bytes.subarray(start, end)
      const c = codes[i]!
      const prefix = mark !== VERDICT_CODE ? 'error\t0\t' : c < 0 ? `disallowed\t${~c}\t` : `allowed\t${c}\t`
      return Buffer.concat([enc.encode(prefix), mark === VERDICT_ERROR_SILENT ? new Uint8Array(0) : line, Uint8Array.of(0x0a)])
    }))
  }
  // Bytes, not decoded text: decoding the output would repair an ill-formed echo and hide it.
  function expectOutput(out: Uint8Array, want: Uint8Array): void {
    expect(Buffer.from(out).equals(want), `output ${JSON.stringify(Buffer.from(out).toString('latin1'))}, want ${JSON.stringify(Buffer.from(want).toString('latin1'))}`).toBe(true)
  }
  const byte = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constantFrom(0x0a, 0x0d, 0x80, 0xbf, 0xc3, 0xa9, 0xe2, 0xf0, 0xff, 0x00))
  test(`random lines, a code from across the i32 range for every line, and marks (${fuzzOptions(5_000).numRuns} runs)`, () => {
    const code = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(0, -1, 2 ** 31 - 1, -(2 ** 31), 9, 10, 99, 100, 999_999_999, 1_000_000_000))
    fc.assert(fc.property(fc.array(byte, { maxLength: 120 }), code, fc.option(fc.array(fc.constantFrom(VERDICT_CODE, VERDICT_ERROR, VERDICT_ERROR_SILENT), { minLength: 130, maxLength: 130 })), (raw, one, markList) => {
      const bytes = Uint8Array.from(raw)
      const n = splitLines(bytes).length
      const codes = new Int32Array(n).fill(one)
      const marks = markList === null ? null : Uint8Array.from(markList.slice(0, n))
      const got = verdictLines(getEngine(), bytes, one, marks)
      expectOutput(got.out, oracle(bytes, codes, marks))
      expect(got.lines).toBe(n)
    }), fuzzOptions(5_000, 0x0e7a))
  })
  test(`checked in the same pass: equal to checkLines' verdicts written out (${fuzzOptions(5_000).numRuns} runs)`, () => {
    const lineArb = fc.oneof(urlArb, fc.array(byte, { maxLength: 40 }).map((b) => dec.decode(Uint8Array.from(b.filter((x) => x !== 0x0a)))))
    fc.assert(fc.property(bodyArb, callerArb, fc.array(lineArb, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.array(fc.constantFrom(VERDICT_CODE, VERDICT_CODE, VERDICT_ERROR, VERDICT_ERROR_SILENT), { minLength: 13, maxLength: 13 }),
      (body, agent, urls, eol, open, markList) => {
        const matcher = parseRobots(body).matcher(agent)
        const raw = enc.encode(urls.join(eol) + (open ? '' : eol))
        // Some lines made ill-formed after encoding, as a stream can hold them.
        const bytes = raw.map((b, k) => (k % 17 === 5 && b >= 0x80 ? 0xff : b))
        const codes = matcher.checkLines(bytes).map((v) => (v < 0 ? v - 1 : v))
        const marks = markList.length > 0 && markList[0] === VERDICT_ERROR_SILENT ? null : Uint8Array.from(markList)
        const got = matcher.verdictLines(bytes, marks)
        expectOutput(got.out, oracle(bytes, codes, marks))
        expect(got.lines).toBe(codes.length)
        expect(got.disallowed).toBe(codes.filter((c, i) => c < 0 && (marks === null || marks[i] === VERDICT_CODE)).length)
      }), fuzzOptions(5_000, 0x5a11))
  })
  test('input of several chunks (3 MB, lines of every length up to 300 bytes, some not UTF-8)', () => {
    const lines: string[] = []
    for (let i = 0, total = 0; total < 3_000_000; i++) {
      const line = `/p${i}/${'ab\u00e9'.repeat(i % 100)}`
      lines.push(line)
      total += line.length + 1
    }
    const bytes = enc.encode(lines.join('\n'))
    // Some lines made ill-formed: one byte of é replaced by 0xff.
    for (let k = 1000; k < bytes.length; k += 70_001) if (bytes[k] === 0xc3) bytes[k] = 0xff
    const n = lines.length
    // Codes that vary from line to line: the matcher's, written in the same pass.
    const matcher = parseRobots('User-agent: *\nAllow: /p1\nDisallow: /p2\nDisallow: /*ab\u00e9$').matcher('x')
    const codes = matcher.checkLines(bytes).map((v) => (v < 0 ? v - 1 : v))
    expect(new Set(codes).size).toBe(4)
    const marks = Uint8Array.from({ length: n }, (_, i) => (i % 1000 === 7 ? VERDICT_ERROR : VERDICT_CODE))
    expectOutput(matcher.verdictLines(bytes, marks).out, oracle(bytes, codes, marks))
    expectOutput(matcher.verdictLines(bytes, null).out, oracle(bytes, codes, null))
    const none = verdictLines(getEngine(), bytes, ~0, marks)
    expectOutput(none.out, oracle(bytes, new Int32Array(n).fill(~0), marks))
    expect([none.lines, none.disallowed]).toEqual([n, n - marks.filter((m) => m !== VERDICT_CODE).length])
  })

  test('suspects: lines not plainly a URL or a path are counted, and a line counted plain is always one the URL parser accepts', () => {
    const suspects = (lines: string[]) => verdictLines(getEngine(), enc.encode(lines.join('\n')), 0, null).suspects
    const plain = [
      '/', '/a', 'http://a', 'https://example.com/x?y#z', 'HTTPS://Ex-ample.CO.uk:443/p', 'http://a.b.c:65535?q', 'http://abc1.d2/',
      // Hosts past one 16-byte vector.
      `http://${'abc.'.repeat(10)}com/`, `https://${'a'.repeat(15)}.${'b'.repeat(16)}.c-d.example:8080/x`,
    ]
    const notPlain = [
      '', ' /a', '//host/a', 'not a url', 'ftp://a/b', 'http://', 'http:///a', 'http://a..b/', 'http://a./', 'http://1.2.3.4/',
      'http://a.1b/', 'http://xn--zz/', 'http://a:65536/', 'http://a:/', 'http://u@a/', 'http://a_b/', 'http://[::1]/', 'mailto:x@y', '\ufeff/a',
      // Bytes that lower-case into ':' or '/' are neither; labels empty or numeric across a vector boundary.
      'http\x1a//a/', 'http:/\x0fa/', 'https\x1a//a/', `https://${'a'.repeat(15)}..b/`, `http://${'a'.repeat(16)}./`, `http://${'a'.repeat(20)}.1x/`,
      `http://${'b'.repeat(30)}.xn--zz/`, `http://${'a'.repeat(9)}.${'b'.repeat(40)}@c/`,
    ]
    expect(suspects(plain)).toBe(0)
    for (const line of notPlain) expect(suspects(['/a', line, '/b']), JSON.stringify(line)).toBe(1)
    // Marked lines are the host's already: never counted.
    expect(verdictLines(getEngine(), enc.encode('bad\nworse'), 0, Uint8Array.of(VERDICT_ERROR, VERDICT_ERROR_SILENT)).suspects).toBe(0)
    const lineArb = fc.oneof(urlArb, fc.string({ maxLength: 30 }), fc.constantFrom('http://', 'https://', 'HTTP://', '/', '//').chain((p) => fc.string({ maxLength: 20 }).map((r) => p + r)))
    fc.assert(fc.property(lineArb, (line) => {
      const one = line.replace(/[\r\n]/g, '')
      if (suspects(['/a', one, '/b']) === 0) expect(isUrlOrPath(one), JSON.stringify(one)).toBe(true)
    }), fuzzOptions(20_000, 0x5105))
  })

  test('the output goes into a given buffer when it fits, and into a new one when it does not', () => {
    const matcher = parseRobots('User-agent: *\nDisallow: /private').matcher('x')
    const bytes = enc.encode(Array.from({ length: 40_000 }, (_, i) => `/${i % 3 ? 'private' : 'page'}/${i}`).join('\n') + '\n')
    const want = matcher.verdictLines(bytes, null)
    for (const size of [0, 100, want.out.length - 1, want.out.length, 2 * want.out.length]) {
      const into = new Uint8Array(size).fill(0x21)
      const got = matcher.verdictLines(bytes, null, into)
      expect(Buffer.from(got.out).equals(Buffer.from(want.out)), `into ${size} bytes`).toBe(true)
      expect(got.out.buffer === into.buffer, `into ${size} bytes`).toBe(size >= want.out.length)
    }
  })
})
