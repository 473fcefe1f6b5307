// The wasm line scanner (assembly/index.ts) against its TS twin (parseBody in src/parse.ts): the
// parsed structure (groups, rules, escapes, sitemaps, other lines, line count) must be identical.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { utf8 } from '../src/bytes.js'
import '../src/index.js'
import { parseBody, type ParsedRobots } from '../src/parse.js'
import { parseBytes } from '../src/robots.js'
import { bodyArb } from './helpers/arbitraries.js'
import { corpusAvailable, loadCorpus, loadFixture } from './helpers/cases.js'

const RUNS = Number(process.env.PROPERTY_RUNS ?? 100_000)

function structure(p: ParsedRobots) {
  const { report: _report, body: _body, ...rest } = p
  return rest
}

function same(body: Uint8Array): void {
  expect(structure(parseBytes(body))).toEqual(structure(parseBody(body)))
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
  test(`grammar-generated bodies (${RUNS / 2} runs)`, () => {
    fc.assert(fc.property(bodyArb, (body) => same(utf8(body))), { numRuns: RUNS / 2, seed: 0xc0de })
  })
  test(`random bytes biased to line ends, NUL, '#', ':' and spaces (${RUNS / 4} runs)`, () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x0a, 0x0d, 0x00, 0x23, 0x3a, 0x20, 0x09, 0x0b, 0x2a, 0xef, 0xbb, 0xbf, 0x25))
    fc.assert(fc.property(fc.array(byte, { maxLength: 80 }), (bytes) => same(Uint8Array.from(bytes))), { numRuns: RUNS / 4, seed: 0xb17e })
  })
  test('lines around the 16,663-byte cut, and a body of many lines', () => {
    for (const n of [16_662, 16_663, 16_664, 40_000]) same(utf8(`User-agent: *\nDisallow: /${'a'.repeat(n)}\nAllow: /b\n`))
    same(utf8('User-agent: *\n' + 'Disallow: /x\n'.repeat(50_000)))
    // Three-byte directive lines give more records than one scan call holds: calls must resume.
    same(utf8('User-agent: *\n' + 'a:\nDisallow:\n'.repeat(40_000)))
  })
})
