// isAscii (src/engine/bytes.ts) on views at every offset of a larger buffer: a survey record's body
// is such a view, and the word-at-a-time read must neither miss a high byte in the view nor see
// one just outside it.

import { expect, test } from 'vitest'
import { isAscii } from '../src/engine/bytes.js'

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
