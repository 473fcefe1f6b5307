// Streaming check of a URL list: bytes in, one verdict line out per input line, in order.
//
// Memory stays flat whatever the input size: the input is consumed one stream chunk at a time,
// only the unfinished last line is carried over (at most MAX_URL_LINE characters), verdicts are
// computed in batches of BATCH URLs into one reused Int32Array, and each batch's output is one
// string written once; when the output stream reports a full buffer, reading waits for 'drain'.

import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { InputError } from './errors.js'

/** URLs per verdict batch (and per output write). */
export const BATCH = 4096
/** The longest input line accepted, in UTF-16 units: far beyond any real URL, small enough to hold. */
export const MAX_URL_LINE = 1 << 20

/**
 * Splits decoded text into lines. Input is UTF-8 bytes split on LF; a CR before the LF is dropped;
 * invalid UTF-8 becomes U+FFFD (the line is still checked); a BOM at the very start is dropped; a
 * final line without LF counts as a line, an LF at the very end does not start another.
 */
export class LineSplitter {
  // Stream mode keeps a multi-byte character split across chunks intact. LF never occurs inside
  // a UTF-8 sequence, so decoding the whole stream equals decoding each line on its own.
  readonly #decoder = new TextDecoder('utf-8', { fatal: false })
  #carry = ''
  /** Lines returned so far. */
  count = 0

  /** The complete lines in `chunk` (plus the carried-over start of the first one). */
  push(chunk: Uint8Array): string[] {
    const text = this.#decoder.decode(chunk, { stream: true })
    const nl = text.lastIndexOf('\n')
    if (nl < 0) {
      this.#carry += text
      if (this.#carry.length > MAX_URL_LINE) this.#tooLong()
      return []
    }
    const complete = this.#carry + text.slice(0, nl)
    const lines = complete.split('\n')
    this.#carry = text.slice(nl + 1)
    if (this.#carry.length > MAX_URL_LINE) this.#tooLong(lines.length)
    // Only the first line holds carried-over text; the others are no longer than the chunk.
    if (lines[0]!.length > MAX_URL_LINE) this.#tooLong()
    if (text.length > MAX_URL_LINE) for (let i = 1; i < lines.length; i++) if (lines[i]!.length > MAX_URL_LINE) this.#tooLong(i)
    if (complete.includes('\r')) {
      for (let i = 0; i < lines.length; i++) {
        const s = lines[i]!
        if (s.charCodeAt(s.length - 1) === 0x0d) lines[i] = s.slice(0, -1)
      }
    }
    this.count += lines.length
    return lines
  }

  /** The final line when the input did not end with LF. */
  end(): string[] {
    let last = this.#carry + this.#decoder.decode()
    this.#carry = ''
    if (last === '') return []
    if (last.charCodeAt(last.length - 1) === 0x0d) last = last.slice(0, -1)
    this.count++
    return [last]
  }

  #tooLong(offset = 0): never {
    throw new InputError(`--urls: line ${this.count + offset + 1} is longer than ${MAX_URL_LINE.toLocaleString('en-US')} characters; expected one URL per line`)
  }
}

/**
 * Fills `out[0..urls.length)` with the matching line when allowed and ~line (= -line - 1) when
 * disallowed: unlike checkMany's -line, that also encodes "disallowed, line 0" (disallow-all).
 */
export type BatchCheck = (urls: readonly string[], out: Int32Array) => void

/** Counts of a finished stream. */
export interface StreamResult {
  total: number
  disallowed: number
}

/**
 * Checks every line of `input` and writes `allowed|disallowed<TAB>LINE<TAB>URL` lines to `output`.
 * `onProgress` is called after each batch (the caller throttles and renders it).
 */
export async function streamCheck(input: AsyncIterable<Uint8Array>, output: Writable, check: BatchCheck, onProgress?: (r: StreamResult) => void): Promise<StreamResult> {
  const splitter = new LineSplitter()
  const verdicts = new Int32Array(BATCH)
  const result: StreamResult = { total: 0, disallowed: 0 }

  const emit = async (lines: string[]) => {
    for (let from = 0; from < lines.length; from += BATCH) {
      const batch = lines.length <= BATCH ? lines : lines.slice(from, from + BATCH)
      check(batch, verdicts)
      let text = ''
      for (let i = 0; i < batch.length; i++) {
        const v = verdicts[i]!
        if (v < 0) {
          result.disallowed++
          text += 'disallowed\t' + ~v + '\t' + batch[i]! + '\n'
        } else {
          text += 'allowed\t' + v + '\t' + batch[i]! + '\n'
        }
      }
      result.total += batch.length
      if (!output.write(text)) await drained(output)
      onProgress?.(result)
    }
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
