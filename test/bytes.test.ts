// isAscii (src/engine/bytes.ts) on views at every offset of a larger buffer: a survey record's body
// is such a view, and the word-at-a-time read must neither miss a high byte in the view nor see
// one just outside it. textReader: every range reads as TextDecoder decodes it alone, whatever the
// chunks around it hold.

import fc from 'fast-check'
import { expect, test } from 'vitest'
import { decodeUtf8, isAscii, TEXT_CHUNK, textReader } from '../src/engine/bytes.js'
import { fuzzOptions } from './helpers/fuzz.js'

test('isAscii answers for the view alone, at every offset and length', () => {
  const buf = new Uint8Array(48)
  for (let offset = 0; offset < 9; offset++) {
    for (let length = 0; length < 24; length++) {
      buf.fill(0x41)
      // High bytes just outside the view do not count.
      if (offset > 0) buf[offset - 1] = 0xff
      buf[offset + length] = 0xff
      expect(isAscii(buf.subarray(offset, offset + length)), `${offset}+${length}`).toBe(true)
      for (let at = 0; at < length; at++) {
        buf[offset + at] = 0x80
        expect(isAscii(buf.subarray(offset, offset + length)), `${offset}+${length}, high at ${at}`).toBe(false)
        buf[offset + at] = 0x41
      }
    }
  }
})

test(`textReader: every range is the decoding of its bytes alone; ascii is the whole body's (${fuzzOptions(300).numRuns} runs)`, () => {
  // Bodies of a few chunks, each ASCII or not: a BOM, a two-, three- and four-byte character, lone
  // and truncated sequences, each of which TextDecoder decodes to a character count unlike the bytes'.
  const oddBytes = fc.constantFrom([0xef, 0xbb, 0xbf], [0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x99, 0x82], [0x80], [0xff], [0xe2, 0x82], [0xc3])
  const chunkArb = fc.tuple(fc.boolean(), fc.array(oddBytes, { maxLength: 3 }), fc.nat(TEXT_CHUNK - 1)).map(([plain, odd, at]) => {
    // Letters that change from byte to byte, so that a range read one byte off reads other text.
    const chunk = Uint8Array.from({ length: TEXT_CHUNK }, (_, i) => 0x61 + (i % 26))
    if (!plain) odd.forEach((b, k) => chunk.set(b, Math.min(at + 5 * k, TEXT_CHUNK - 4)))
    return chunk
  })
  fc.assert(
    fc.property(fc.array(chunkArb, { minLength: 1, maxLength: 4 }), fc.nat(), fc.array(fc.tuple(fc.nat(), fc.nat(64)), { maxLength: 30 }), (chunks, cut, ranges) => {
      const whole = new Uint8Array(chunks.length * TEXT_CHUNK)
      chunks.forEach((c, k) => whole.set(c, k * TEXT_CHUNK))
      const body = whole.subarray(0, whole.length - (cut % 100))
      const reader = textReader(body)
      for (const [at, n] of ranges) {
        const start = at % body.length
        const end = Math.min(body.length, start + n)
        expect(reader.text(start, end)).toBe(decodeUtf8(body, start, end))
      }
      expect(reader.ascii).toBe(isAscii(body))
    }),
    fuzzOptions(300, 0x7e47),
  )
})
