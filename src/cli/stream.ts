// Streaming check of a URL list: bytes in, one verdict line out per input line, in order. A line
// that cannot be checked (too long, or on another origin than a fetched robots.txt) costs only
// itself: it gets an `error` output line and a numbered message on stderr, and the stream goes on.
//
// Memory stays flat whatever the input size: the input is consumed one stream chunk at a time,
// only the unfinished last line is carried over (at most MAX_URL_LINE characters), verdicts are
// computed in batches of BATCH URLs into one reused Int32Array, and each batch's output is one
// string written once; when the output stream reports a full buffer, reading waits for 'drain'.

import { once } from 'node:events'
import type { Writable } from 'node:stream'

/** URLs per verdict batch (and per output write). */
export const BATCH = 4096
/** The longest input line accepted, in UTF-16 units: far beyond any real URL, small enough to hold. */
const MAX_URL_LINE = 1 << 20

/**
 * Splits decoded text into lines. Input is UTF-8 bytes split on LF; a CR before the LF is dropped;
 * invalid UTF-8 becomes U+FFFD (the line is still checked); a BOM at the very start is dropped; a
 * final line without LF counts as a line, an LF at the very end does not start another. A line
 * longer than MAX_URL_LINE is not held: it comes out as '' and its number goes to `tooLong`, and
 * the rest of it is skipped up to its LF.
 */
export class LineSplitter {
  // Stream mode keeps a multi-byte character split across chunks intact. LF never occurs inside
  // a UTF-8 sequence, so decoding the whole stream equals decoding each line on its own.
  readonly #decoder = new TextDecoder('utf-8', { fatal: false })
  #carry = ''
  /** The unfinished line is too long: its text is being dropped until its LF. */
  #skipping = false
  /** Lines returned so far. */
  count = 0
  /** Numbers (from 1) of returned lines that were too long; the consumer empties it. */
  readonly tooLong: number[] = []

  /** The complete lines in `chunk` (plus the carried-over start of the first one). */
  push(chunk: Uint8Array): string[] {
    const text = this.#decoder.decode(chunk, { stream: true })
    const nl = text.lastIndexOf('\n')
    if (nl < 0) {
      this.#carryOn(text)
      return []
    }
    const complete = this.#carry + text.slice(0, nl)
    const lines = complete.split('\n')
    this.#carry = ''
    if (this.#skipping) {
      this.#skipping = false
      this.#drop(lines, 0)
    }
    // Only the first line can hold carried-over text; the others are no longer than the chunk.
    if (lines[0]!.length > MAX_URL_LINE) this.#drop(lines, 0)
    if (text.length > MAX_URL_LINE) for (let i = 1; i < lines.length; i++) if (lines[i]!.length > MAX_URL_LINE) this.#drop(lines, i)
    if (complete.includes('\r')) {
      for (let i = 0; i < lines.length; i++) {
        const s = lines[i]!
        if (s.charCodeAt(s.length - 1) === 0x0d) lines[i] = s.slice(0, -1)
      }
    }
    this.count += lines.length
    this.#carryOn(text.slice(nl + 1))
    return lines
  }

  /** The final line when the input did not end with LF. */
  end(): string[] {
    this.#carryOn(this.#decoder.decode())
    let last = this.#carry
    this.#carry = ''
    if (this.#skipping) {
      this.#skipping = false
      this.tooLong.push(++this.count)
      return ['']
    }
    if (last === '') return []
    if (last.charCodeAt(last.length - 1) === 0x0d) last = last.slice(0, -1)
    this.count++
    return [last]
  }

  #carryOn(text: string): void {
    if (this.#skipping) return
    this.#carry += text
    if (this.#carry.length > MAX_URL_LINE) {
      this.#carry = ''
      this.#skipping = true
    }
  }

  #drop(lines: string[], i: number): void {
    if (this.tooLong.at(-1) === this.count + i + 1) return
    lines[i] = ''
    this.tooLong.push(this.count + i + 1)
  }
}

/**
 * Fills `out[0..urls.length)` with the matching line when allowed and ~line (= -line - 1) when
 * disallowed: unlike checkMany's -line, that also encodes "disallowed, line 0" (disallow-all).
 * A URL that cannot be checked is reported through `bad` (its index and why); its `out` is unused.
 */
export type BatchCheck = (urls: readonly string[], out: Int32Array, bad: (index: number, reason: string) => void) => void

/** Counts of a finished stream. */
export interface StreamResult {
  total: number
  disallowed: number
  /** Lines that could not be checked (each reported on the error stream with its number). */
  bad: number
}

/** The output line of an input line that could not be checked. */
const BAD_LINE = 'error\t0\t'

/**
 * Checks every line of `input` and writes `allowed|disallowed<TAB>LINE<TAB>URL` lines to `output`.
 * `onProgress` is called after each batch (the caller throttles and renders it).
 */
export async function streamCheck(input: AsyncIterable<Uint8Array>, output: Writable, errors: Writable, check: BatchCheck, onProgress?: (r: StreamResult) => void): Promise<StreamResult> {
  const splitter = new LineSplitter()
  const verdicts = new Int32Array(BATCH)
  const badAt = new Uint8Array(BATCH)
  const result: StreamResult = { total: 0, disallowed: 0, bad: 0 }

  const emit = async (lines: string[]) => {
    // lines[0] is input line number `first` (from 1).
    const first = splitter.count - lines.length + 1
    for (let from = 0; from < lines.length; from += BATCH) {
      const batch = lines.length <= BATCH ? lines : lines.slice(from, from + BATCH)
      badAt.fill(0, 0, batch.length)
      let report = ''
      const bad = (i: number, reason: string): void => {
        if (badAt[i] === 1) return
        badAt[i] = 1
        report += `robotstxt: --urls line ${first + from + i}: ${reason}\n`
      }
      for (const n of splitter.tooLong) {
        const i = n - first - from
        if (i >= 0 && i < batch.length) bad(i, `longer than ${MAX_URL_LINE.toLocaleString('en-US')} characters; expected one URL per line`)
      }
      check(batch, verdicts, bad)
      let text = ''
      for (let i = 0; i < batch.length; i++) {
        const v = verdicts[i]!
        if (badAt[i] === 1) {
          result.bad++
          text += BAD_LINE + batch[i]! + '\n'
        } else if (v < 0) {
          result.disallowed++
          text += 'disallowed\t' + ~v + '\t' + batch[i]! + '\n'
        } else {
          text += 'allowed\t' + v + '\t' + batch[i]! + '\n'
        }
      }
      result.total += batch.length
      if (report !== '') errors.write(report)
      if (!output.write(text)) await drained(output)
      onProgress?.(result)
    }
    splitter.tooLong.length = 0
  }

  for await (const chunk of input) {
    const lines = splitter.push(chunk)
    if (lines.length > 0) await emit(lines)
  }
  await emit(splitter.end())
  return result
}

/** Resolves on 'drain'; rejects if the stream fails or closes first (a reader that went away). */
async function drained(output: Writable): Promise<void> {
  const ac = new AbortController()
  try {
    await Promise.race([
      once(output, 'drain', { signal: ac.signal }),
      once(output, 'close', { signal: ac.signal }).then(() => {
        throw new Error('output closed')
      }),
    ])
  } finally {
    ac.abort()
  }
}
