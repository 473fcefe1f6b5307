// Streaming check of a URL list on the byte path: bytes in, one verdict line out per input line, in
// order, with no string per line. A line that cannot be checked (too long, or on another origin
// than a fetched robots.txt) costs only itself: it gets an `error` output line and a numbered
// message on stderr, and the stream goes on.
//
// Memory stays flat whatever the input size: the input is consumed one stream chunk at a time, only
// the unfinished last line is carried over (at most MAX_URL_LINE bytes), each block of whole lines
// is checked and its output lines written in one wasm pass (assembly/verdicts.ts) into one buffer,
// written once; when the output reports a full buffer, reading waits for 'drain'. JavaScript looks
// at single lines only when some may be rejected (a fetched robots.txt's origin filter, or an
// overlong line). A URL echoed to the output has its control characters escaped (style.ts): the
// engine counts the lines that need it, so only a block holding one is rewritten.

import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { LINE_BOUNDS_SIZE, LINE_END, LINE_START, VERDICT_ERROR, VERDICT_ERROR_SILENT } from '../engine/layout.js'
import { getEngine } from '../engine/wasm.js'
import { lineBounds, type VerdictLines } from '../engine/wasm-urls.js'
import { escapeControls } from './style.js'

/** The longest input line accepted, in bytes: far beyond any real URL, small enough to hold. */
export const MAX_URL_LINE = 1 << 20

/**
 * The output lines of `block` (whole lines, each ending in '\n' except perhaps the last): for each
 * line, `allowed<TAB>LINE<TAB>URL` or `disallowed<TAB>LINE<TAB>URL`, or `error<TAB>0<TAB>URL` when
 * `marks` (VERDICT_* per line, or null) rejects it; with the number of lines and of disallowed ones.
 */
export type LinesReport = (block: Uint8Array, marks: Uint8Array | null) => VerdictLines

/** Why the line block[start, end) cannot be checked, or null when it can. */
export type LineFilter = (block: Uint8Array, start: number, end: number) => string | null

/** Counts of a finished stream. */
export interface StreamResult {
  total: number
  disallowed: number
  /** Lines that could not be checked (each reported on the error stream with its number). */
  bad: number
}

/**
 * Checks every line of `input` and writes `allowed|disallowed<TAB>LINE<TAB>URL` lines to `output`.
 * Lines are split on LF; a CR before the LF is dropped; a final line without LF counts; a UTF-8
 * BOM at the very start is dropped. A URL is echoed as it was read, except that ill-formed UTF-8
 * is echoed as it was checked (each bad sequence as U+FFFD). `onProgress` is called after each
 * block (the caller throttles and renders it).
 */
export async function streamCheck(
  input: AsyncIterable<Uint8Array>, output: Writable, errors: Writable,
  check: LinesReport, filter: LineFilter | null, onProgress?: (r: StreamResult) => void,
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
    // filter loop below polymorphic.
    const block = given.constructor === Uint8Array ? given : new Uint8Array(given.buffer, given.byteOffset, given.length)
    // Lines are only looked at here when some may be rejected: by the filter, or for their length.
    let marks: Uint8Array | null = null
    let report = ''
    if (filter !== null || tooLongFirst || block.length > MAX_URL_LINE) {
      // The lines as the engine splits them, so each mark lands on the line it is meant for.
      const bounds = lineBounds(getEngine(), block)
      const step = LINE_BOUNDS_SIZE / 4
      marks = new Uint8Array(bounds.length / step)
      for (let n = 0; n < marks.length; n++) {
        const start = bounds[n * step + LINE_START / 4]!
        const end = bounds[n * step + LINE_END / 4]!
        const reason = (n === 0 && tooLongFirst) || end - start > MAX_URL_LINE
          ? `longer than ${MAX_URL_LINE.toLocaleString('en-US')} bytes; expected one URL per line`
          : filter === null ? null : filter(block, start, end)
        if (reason !== null) {
          report += `robotstxt: --urls line ${result.total + n + 1}: ${escapeControls(reason)}\n`
          result.bad++
          marks[n] = end - start <= MAX_URL_LINE ? VERDICT_ERROR : VERDICT_ERROR_SILENT
        }
      }
    }
    const { out, lines, disallowed, controls } = check(block, marks)
    result.disallowed += disallowed
    result.total += lines
    if (report !== '') errors.write(report)
    if (!output.write(controls > 0 ? escapeUrls(out) : out)) await drained(output)
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
    } else if (carry.length === 0) {
      block = chunk.subarray(0, nl + 1)
    } else {
      // The carried line is finished on its own: copying only it keeps each block a chunk that
      // the engine takes in one piece, with no copy of the whole.
      const first = chunk.indexOf(0x0a)
      await emit(concat(carry, chunk.subarray(0, first + 1)), false)
      block = chunk.subarray(first + 1, nl + 1)
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

/**
 * Verdict lines with every URL (after the second tab) escaped for a terminal (style.ts): the rare
 * block in which the engine saw a control character.
 */
function escapeUrls(out: Uint8Array): Uint8Array {
  const lines = new TextDecoder().decode(out).split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const url = line.indexOf('\t', line.indexOf('\t') + 1) + 1
    lines[i] = line.slice(0, url) + escapeControls(line.slice(url))
  }
  return new TextEncoder().encode(lines.join('\n'))
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const c = new Uint8Array(a.length + b.length)
  c.set(a)
  c.set(b, a.length)
  return c
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
