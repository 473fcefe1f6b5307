// Streaming check of a URL list on the byte path: bytes in, one verdict line out per input line, in
// order, with no string per line. A line that cannot be checked (too long, or on another origin
// than a fetched robots.txt) costs only itself: it gets an `error` output line and a numbered
// message on stderr, and the stream goes on.
//
// Memory stays flat whatever the input size: the input is consumed one stream chunk at a time, only
// the unfinished last line is carried over (at most MAX_URL_LINE bytes), the verdicts of a block of
// whole lines come from one Matcher.checkLines call into a reused Int32Array, and each block's
// output is one buffer written once; when the output reports a full buffer, reading waits for 'drain'.

import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { firstInvalidUtf8 } from '../engine/bytes.js'

/** The longest input line accepted, in bytes: far beyond any real URL, small enough to hold. */
export const MAX_URL_LINE = 1 << 20

/**
 * One code per line of `block` (whole lines, each ending in '\n' except perhaps the last): the
 * matching line when allowed, ~line (= -line - 1) when disallowed, which unlike checkLines' -line
 * also encodes "disallowed, line 0" (disallow-all).
 */
export type LinesCheck = (block: Uint8Array) => Int32Array

/** Why the line block[start, end) cannot be checked, or null when it can. */
export type LineFilter = (block: Uint8Array, start: number, end: number) => string | null

/** Counts of a finished stream. */
export interface StreamResult {
  total: number
  disallowed: number
  /** Lines that could not be checked (each reported on the error stream with its number). */
  bad: number
}

const enc = new TextEncoder()
// ignoreBOM: a BOM is echoed as read, not swallowed at the start of each line.
const dec = new TextDecoder('utf-8', { ignoreBOM: true })
const ALLOWED = enc.encode('allowed\t')
const DISALLOWED = enc.encode('disallowed\t')
const BAD_LINE = enc.encode('error\t0\t')
/** The most bytes an output line adds to its URL: "disallowed\t" + 10 digits + "\t" + "\n". */
const LINE_OVERHEAD = 23

/**
 * Checks every line of `input` and writes `allowed|disallowed<TAB>LINE<TAB>URL` lines to `output`.
 * Lines are split on LF; a CR before the LF is dropped; a final line without LF counts; a UTF-8
 * BOM at the very start is dropped. A URL is echoed as it was read, except that ill-formed UTF-8
 * is echoed as it was checked (each bad sequence as U+FFFD). `onProgress` is called after each
 * block (the caller throttles and renders it).
 */
export async function streamCheck(
  input: AsyncIterable<Uint8Array>, output: Writable, errors: Writable,
  check: LinesCheck, filter: LineFilter | null, onProgress?: (r: StreamResult) => void,
): Promise<StreamResult> {
  const result: StreamResult = { total: 0, disallowed: 0, bad: 0 }
  /** The start of the unfinished last line, across chunks. */
  let carry: Uint8Array = new Uint8Array(0)
  /** The unfinished line passed MAX_URL_LINE: its bytes are dropped up to its LF. */
  let skipping = false
  let first = true

  const emit = async (given: Uint8Array, tooLongFirst: boolean) => {
    if (given.length === 0) return
    // Plain Uint8Arrays only: a Buffer here and a Uint8Array there make every byte access in the
    // loops below polymorphic, which costs more than the whole check.
    const block = given.constructor === Uint8Array ? given : new Uint8Array(given.buffer, given.byteOffset, given.length)
    const verdicts = check(block)
    const n = verdicts.length
    // An echoed line grows only when ill-formed UTF-8 is repaired: at most 3 bytes per byte.
    const out = new Uint8Array(3 * block.length + n * LINE_OVERHEAD)
    let o = 0
    let report = ''
    for (let i = 0, p = 0; i < n; i++) {
      // One pass per line: the verdict's prefix is written first, then the URL is copied up to its
      // LF; a line found to be rejected afterwards is rewritten from its start.
      const lineStart = o
      const v = verdicts[i]!
      o = v < 0 ? putInt(out, put(out, o, DISALLOWED), ~v) : putInt(out, put(out, o, ALLOWED), v)
      out[o++] = 0x09
      const urlAt = o
      let high = 0
      let k = p
      for (; k < block.length; k++) {
        const b = block[k]!
        if (b === 0x0a) break
        high |= b
        out[o++] = b
      }
      let end = k
      if (k < block.length && end > p && block[end - 1] === 0x0d) {
        end--
        o--
      }
      if (high >= 0x80 && firstInvalidUtf8(block, p, end) >= 0) o = put(out, urlAt, enc.encode(dec.decode(block.subarray(p, end))))
      const reason = (i === 0 && tooLongFirst) || end - p > MAX_URL_LINE
        ? `longer than ${MAX_URL_LINE.toLocaleString('en-US')} bytes; expected one URL per line`
        : filter === null ? null : filter(block, p, end)
      if (reason !== null) {
        report += `robotstxt: --urls line ${result.total + i + 1}: ${reason}\n`
        result.bad++
        o = put(out, lineStart, BAD_LINE)
        if (end - p <= MAX_URL_LINE) o = put(out, o, enc.encode(dec.decode(block.subarray(p, end))))
      } else if (v < 0) {
        result.disallowed++
      }
      out[o++] = 0x0a
      p = k + 1
    }
    result.total += n
    if (report !== '') errors.write(report)
    if (!output.write(out.subarray(0, o))) await drained(output)
    onProgress?.(result)
  }

  for await (const raw of input) {
    let chunk = raw
    if (first) {
      first = false
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3)
    }
    const nl = chunk.lastIndexOf(0x0a)
    if (nl < 0) {
      if (!skipping) {
        carry = concat(carry, chunk)
        if (carry.length > MAX_URL_LINE) {
          carry = new Uint8Array(0)
          skipping = true
        }
      }
      continue
    }
    let block: Uint8Array
    let tooLongFirst = false
    if (skipping) {
      // The overlong line ends at this chunk's first LF: it becomes an empty, rejected first line.
      block = chunk.subarray(chunk.indexOf(0x0a), nl + 1)
      tooLongFirst = true
      skipping = false
    } else {
      block = carry.length === 0 ? chunk.subarray(0, nl + 1) : concat(carry, chunk.subarray(0, nl + 1))
    }
    // The chunk's buffer may be reused by its producer: the carried tail is copied.
    carry = chunk.slice(nl + 1)
    if (carry.length > MAX_URL_LINE) {
      carry = new Uint8Array(0)
      skipping = true
    }
    await emit(block, tooLongFirst)
  }
  if (skipping) await emit(Uint8Array.of(0x0a), true)
  else await emit(carry, false)
  return result
}

/**
 * The lines of `input` as strings, split as streamCheck splits them (LF; a CR before it dropped; a
 * final line without LF; a BOM at the very start dropped; ill-formed UTF-8 as U+FFFD). A line over
 * MAX_URL_LINE characters is not held: it comes out as '' and its number (from 1) goes to `tooLong`.
 */
export async function* textLines(input: AsyncIterable<Uint8Array>, tooLong: (lineNo: number) => void): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false })
  let carry = ''
  let skipping = false
  let lineNo = 0
  const one = (line: string, endsWithLf: boolean): string => {
    lineNo++
    return endsWithLf && line.charCodeAt(line.length - 1) === 0x0d ? line.slice(0, -1) : line
  }
  for await (const chunk of input) {
    const text = decoder.decode(chunk, { stream: true })
    let from = 0
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      if (skipping) {
        skipping = false
        tooLong(++lineNo)
        yield ''
      } else {
        const line = carry + text.slice(from, nl)
        carry = ''
        if (line.length > MAX_URL_LINE) {
          tooLong(++lineNo)
          yield ''
        } else yield one(line, true)
      }
      from = nl + 1
    }
    if (!skipping) {
      carry += text.slice(from)
      if (carry.length > MAX_URL_LINE) {
        carry = ''
        skipping = true
      }
    }
  }
  const rest = carry + decoder.decode()
  if (skipping) {
    tooLong(++lineNo)
    yield ''
  } else if (rest !== '') {
    yield one(rest, false)
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const c = new Uint8Array(a.length + b.length)
  c.set(a)
  c.set(b, a.length)
  return c
}

function put(out: Uint8Array, o: number, bytes: Uint8Array): number {
  for (let k = 0; k < bytes.length; k++) out[o + k] = bytes[k]!
  return o + bytes.length
}

/** Writes a non-negative integer in decimal. */
function putInt(out: Uint8Array, o: number, v: number): number {
  if (v < 10) {
    out[o] = 0x30 + v
    return o + 1
  }
  const digits = v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : String(v).length
  for (let k = o + digits - 1; k >= o; k--) {
    out[k] = 0x30 + (v % 10)
    v = Math.floor(v / 10)
  }
  return o + digits
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
