// A scan kept as numbers, to be replayed after the scanner is done: what lets caller code run
// between line records (Robots.forEachLine) without running inside the wasm scan, whose body and
// records sit in wasm memory that a check or compile made by that code would overwrite.
//
// Invariants: a replay feeds its sink exactly the records the scan produced, in order; it keeps
// two bytes per body byte (a line has at least one, but the last) and four numbers per line with a
// key, so the memory is a small multiple of the body's size, freed with the recording.

import { KIND_MASK, KIND_OTHER } from './layout.js'
import type { LineSink } from './parse.js'

export class RecordedScan implements LineSink {
  // Kinds and flags fit in 16 bits (SCAN_F_* stop below 1 << 14). A body of n bytes has at most
  // n + 1 lines: room for all of them up front, so a line costs one store.
  readonly #kinds: Uint16Array
  #lines = 0
  /** keyStart, keyEnd, valStart, valEnd of each line with a key (kind <= KIND_OTHER), in order. */
  #spans = new Int32Array(1024)
  #spanLength = 0

  constructor(body: Uint8Array) {
    this.#kinds = new Uint16Array(body.length + 1)
  }

  line(_line: number, kindFlags: number, _lineStart: number, _lineEnd: number, keyStart: number, keyEnd: number, valStart: number, valEnd: number): void {
    this.#kinds[this.#lines++] = kindFlags
    if ((kindFlags & KIND_MASK) > KIND_OTHER) return
    if (this.#spanLength === this.#spans.length) {
      const s = new Int32Array(this.#spans.length * 2)
      s.set(this.#spans)
      this.#spans = s
    }
    const s = this.#spans
    const i = this.#spanLength
    s[i] = keyStart
    s[i + 1] = keyEnd
    s[i + 2] = valStart
    s[i + 3] = valEnd
    this.#spanLength = i + 4
  }

  /**
   * Feeds the recorded lines to `sink`. Line bounds are not kept: they are reported as -1, and the
   * offsets of a line without a key as 0 (no reader of a replay uses them).
   */
  replay(sink: LineSink): void {
    const kinds = this.#kinds
    const s = this.#spans
    let at = 0
    for (let i = 0; i < this.#lines; i++) {
      const kindFlags = kinds[i]!
      if ((kindFlags & KIND_MASK) > KIND_OTHER) {
        sink.line(i + 1, kindFlags, -1, -1, 0, 0, 0, 0)
      } else {
        sink.line(i + 1, kindFlags, -1, -1, s[at]!, s[at + 1]!, s[at + 2]!, s[at + 3]!)
        at += 4
      }
    }
  }
}
