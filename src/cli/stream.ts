// Streaming check of a URL list on the byte path: bytes in, one verdict line out per input line, in
// order, with no string per line. A line that cannot be checked (too long, not an absolute URL or
// a path, blank lines included, or on another origin than a fetched robots.txt) costs only itself:
// it gets an `error` output line and a numbered message on stderr, and the stream goes on.
//
// Three steps, so that the middle one can run on worker threads (threads/pool.ts): lineBlocks cuts
// the input into blocks of whole lines, read straight into buffers of BLOCK bytes that each block
// owns (a worker takes it by transfer); checkBlock turns a block into its output lines and its
// rejected lines, numbered within the block; writeVerdicts writes the outputs in order, numbers the
// rejections and keeps the counts.
//
// Memory stays flat whatever the input size: a block is at most BLOCK bytes plus one line, an
// unfinished line longer than the limit is dropped up to its LF (only its end is carried), each
// block is checked and its output lines written in one wasm pass (assembly/verdicts.ts) into one
// buffer, written once; when the output reports a full buffer, writing, and so reading, waits for
// 'drain'. JavaScript looks at single lines only when some may be rejected: a fetched robots.txt's
// origin filter, an overlong line, or a line the engine did not find plainly a URL or a path
// (assembly/verdicts.ts plainUrl: a blank line, "not a url", an ftp: URL), which the URL parser
// then judges. A URL is echoed byte for byte, with its control characters and ill-formed UTF-8
// escaped (style.ts escapeBytes): the engine counts the lines that need it, so only a block holding
// one is rewritten.

import { once } from 'node:events'
import type { FileHandle } from 'node:fs/promises'
import type { Writable } from 'node:stream'
import { LINE_BOUNDS_SIZE, LINE_END, LINE_START, VERDICT_ERROR, VERDICT_ERROR_SILENT } from '../engine/layout.js'
import { getEngine } from '../engine/wasm.js'
import { lineBounds, type VerdictLines } from '../engine/wasm-urls.js'
import { isUrlOrPath, urlProblem } from './options.js'
import { escapeBytes, escapeControls } from './style.js'

/** The longest input line accepted, in bytes: far beyond any real URL, small enough to hold. */
export const MAX_URL_LINE = 1 << 20

/** Bytes read at once into a block's buffer: large reads and few messages between threads. */
export const BLOCK = 1 << 20

/**
 * The output lines of `block` (whole lines, each ending in '\n' except perhaps the last): for each
 * line, `allowed<TAB>LINE<TAB>URL` or `disallowed<TAB>LINE<TAB>URL`, or `error<TAB>0<TAB>URL` when
 * `marks` (VERDICT_* per line, or null) rejects it; with the number of lines and of disallowed ones.
 * The output goes into `into` when it fits.
 */
export type LinesReport = (block: Uint8Array, marks: Uint8Array | null, into?: Uint8Array) => VerdictLines

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
 * Reads up to `into.length - at` bytes into `into` at `at`; resolves to how many, 0 at the end.
 * The bytes are copied: `into` stays the caller's.
 */
export type ReadInto = (into: Uint8Array, at: number) => Promise<number>

/** A list file read straight into the blocks' buffers. */
export function fileReader(handle: FileHandle): ReadInto {
  return async (into, at) => (await handle.read(into, at, into.length - at, null)).bytesRead
}

/** A stream (stdin) copied into the blocks' buffers: its chunks may share one buffer, a block may not. */
export function streamReader(input: AsyncIterable<Uint8Array>): ReadInto {
  const it = input[Symbol.asyncIterator]()
  let chunk: Uint8Array = new Uint8Array(0)
  return async (into, at) => {
    while (chunk.length === 0) {
      const r = await it.next()
      if (r.done === true) return 0
      chunk = r.value
    }
    const n = Math.min(chunk.length, into.length - at)
    into.set(chunk.subarray(0, n), at)
    chunk = chunk.subarray(n)
    return n
  }
}

/**
 * Lines of the input in blocks of about `size` bytes: whole lines, each ending in '\n' except the
 * input's last when it has none; the input's UTF-8 BOM dropped. A line whose bytes pass `maxLine`
 * before its LF is not held: its bytes are dropped, and the block that holds its LF starts there
 * with `tooLongFirst` (an empty first line, to be rejected). Each block's bytes are a view of a
 * buffer no other block shares. A consumer done with a block may put its buffer in `spares`, for a
 * later block. Searches stay within the bytes read: a spare's old bytes are never seen.
 */
export async function* lineBlocks(read: ReadInto, maxLine: number, spares: ArrayBuffer[] = [], size = BLOCK): AsyncGenerator<LineBlock> {
  const fresh = (): Uint8Array => {
    for (let b = spares.pop(); b !== undefined; b = spares.pop()) if (b.byteLength === size) return new Uint8Array(b)
    return new Uint8Array(size)
  }
  let buf = fresh()
  /** Bytes of buf in use, from 0: the unfinished line carried over, then what was read. */
  let have = 0
  /** The unfinished line passed maxLine: its bytes are dropped up to its LF. */
  let skipping = false
  let start = -1
  /** The read into buf started before the last block left, so that reading overlaps its checking. */
  let ahead: Promise<number> | null = null
  for (;;) {
    if (buf.length - have < size / 2) buf = withRoom(buf, have, have + size)
    const n = await (ahead ?? read(buf, have))
    ahead = null
    if (n === 0) break
    have += n
    if (start < 0) {
      // The BOM test waits for 3 bytes, or the end.
      if (have < 3) continue
      start = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
    }
    let from = start
    const nl = buf.lastIndexOf(0x0a, have - 1)
    if (skipping) {
      // The overlong line ends at the first LF: it becomes an empty, rejected first line.
      from = nl < 0 ? -1 : buf.indexOf(0x0a)
    } else if (nl < start) {
      from = -1
      if (have - start > maxLine) skipping = true
    }
    if (from < 0) {
      if (skipping) {
        have = 0
        start = 0
      }
      continue
    }
    const tooLongFirst = skipping
    skipping = false
    // The tail goes to the next buffer before the block leaves: a worker may take this one.
    const next = fresh()
    const tail = buf.subarray(nl + 1, have)
    const carried = withRoom(next, 0, tail.length + size / 2)
    carried.set(tail)
    have = tail.length
    if (have > maxLine) {
      skipping = true
      have = 0
    }
    const block = buf.subarray(from, nl + 1)
    ahead = read(carried, have)
    // Awaited on the next pull; a consumer that stops pulling leaves it unobserved.
    ahead.catch(() => undefined)
    yield { bytes: block, tooLongFirst }
    buf = carried
    start = 0
  }
  if (start < 0) start = have >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
  if (skipping) yield { bytes: Uint8Array.of(0x0a), tooLongFirst: true }
  else if (have > start) yield { bytes: buf.subarray(start, have), tooLongFirst: false }
}

/** A block of whole lines (lineBlocks). */
export interface LineBlock {
  bytes: Uint8Array
  /** The first line is what is left of a line over the limit: rejected. */
  tooLongFirst: boolean
}

/** The output of one block, its lines numbered from 0 within it. */
export interface BlockVerdicts {
  out: Uint8Array
  lines: number
  disallowed: number
  /** The lines rejected, each with why (escaped for a terminal). */
  rejected: { line: number; reason: string }[]
}

/** `a`, or when it has fewer than `need` bytes a longer copy of its first `keep`. */
function withRoom(a: Uint8Array, keep: number, need: number): Uint8Array {
  if (need <= a.length) return a
  const grown = new Uint8Array(need)
  grown.set(a.subarray(0, keep))
  return grown
}

/** The output lines of a block (into `into`, a spent output's buffer, when they fit), and its rejected lines: the same on any thread. */
export function checkBlock(block: LineBlock, check: LinesReport, filter: LineFilter | null, into?: Uint8Array): BlockVerdicts {
  const given = block.bytes
  // Plain Uint8Arrays only: a Buffer here and a Uint8Array there make every byte access in the
  // filter loop below polymorphic.
  const bytes = given.constructor === Uint8Array ? given : new Uint8Array(given.buffer, given.byteOffset, given.length)
  // Lines are only looked at here when some may be rejected: by the filter or for their length
  // (known before the engine runs), or as not a URL (known once it counted suspects).
  const rejected: BlockVerdicts['rejected'] = []
  const judge = filter !== null || block.tooLongFirst || bytes.length > MAX_URL_LINE
  let marks = judge ? lineMarks(bytes, block.tooLongFirst, filter, rejected) : null
  let result = check(bytes, marks, into)
  if (marks === null && result.suspects > 0) {
    marks = lineMarks(bytes, false, null, rejected)
    if (rejected.length > 0) result = check(bytes, marks, into)
  }
  const { out, lines, disallowed, controls } = result
  return { out: controls > 0 ? escapeUrls(out) : out, lines, disallowed, rejected }
}

/**
 * A VERDICT_* mark per line of `bytes` (as the engine splits them, so each mark lands on its line),
 * with each rejected line and why pushed to `rejected`: too long, not a URL or a path
 * (urlProblem, the rule of check's URL arguments), or refused by `filter`.
 */
function lineMarks(bytes: Uint8Array, tooLongFirst: boolean, filter: LineFilter | null, rejected: BlockVerdicts['rejected']): Uint8Array {
  const bounds = lineBounds(getEngine(), bytes)
  const step = LINE_BOUNDS_SIZE / 4
  const marks = new Uint8Array(bounds.length / step)
  for (let n = 0; n < marks.length; n++) {
    const start = bounds[n * step + LINE_START / 4]!
    const end = bounds[n * step + LINE_END / 4]!
    const reason = (n === 0 && tooLongFirst) || end - start > MAX_URL_LINE
      ? `longer than ${MAX_URL_LINE.toLocaleString('en-US')} bytes; expected one URL per line`
      : urlLineProblem(bytes, start, end) ?? (filter === null ? null : filter(bytes, start, end))
    if (reason !== null) {
      rejected.push({ line: n, reason: escapeControls(reason) })
      marks[n] = end - start <= MAX_URL_LINE ? VERDICT_ERROR : VERDICT_ERROR_SILENT
    }
  }
  return marks
}

/** Why the line block[start, end) is not a URL to check, or null: a path without a string, else urlProblem on its text. */
function urlLineProblem(block: Uint8Array, start: number, end: number): string | null {
  if (end > start && block[start] === 0x2f && block[start + 1] !== 0x2f) return null
  const text = textDecoder.decode(block.subarray(start, end))
  return isUrlOrPath(text) ? null : urlProblem(text)
}

/**
 * Writes each block's output lines to `output` in the order given, and its rejected lines, numbered
 * in the whole input, to `errors`. `onProgress` is called after each block (the caller throttles
 * and renders it); `written` gets each output's buffer once it is written, free for another block.
 */
export async function writeVerdicts(
  blocks: AsyncIterable<BlockVerdicts>, output: Writable, errors: Writable, onProgress?: (r: StreamResult) => void,
  written?: (buffer: ArrayBuffer) => void,
): Promise<StreamResult> {
  const result: StreamResult = { total: 0, disallowed: 0, bad: 0 }
  for await (const b of blocks) {
    if (b.rejected.length > 0) {
      let report = ''
      for (const r of b.rejected) report += `robotstxt: --urls line ${result.total + r.line + 1}: ${r.reason}\n`
      errors.write(report)
      result.bad += b.rejected.length
    }
    result.total += b.lines
    result.disallowed += b.disallowed
    const buffer = b.out.buffer as ArrayBuffer
    if (b.out.length > 0 && !output.write(b.out, written === undefined ? undefined : () => written(buffer))) await drained(output)
    onProgress?.(result)
  }
  return result
}

/**
 * Checks every line of `input` and writes `allowed|disallowed<TAB>LINE<TAB>URL` lines to `output`,
 * on this thread. Lines are split on LF; a CR before the LF is dropped; a final line without LF
 * counts; a UTF-8 BOM at the very start is dropped. A URL is echoed as it was read, its controls
 * and ill-formed UTF-8 escaped (style.ts escapeBytes).
 */
export function streamCheck(
  input: AsyncIterable<Uint8Array>, output: Writable, errors: Writable,
  check: LinesReport, filter: LineFilter | null, onProgress?: (r: StreamResult) => void,
): Promise<StreamResult> {
  return writeVerdicts(mapBlocks(lineBlocks(streamReader(input), MAX_URL_LINE), (b) => checkBlock(b, check, filter)), output, errors, onProgress)
}

async function* mapBlocks<T>(blocks: AsyncIterable<LineBlock>, f: (b: LineBlock) => T): AsyncGenerator<T> {
  for await (const b of blocks) yield f(b)
}

/**
 * Bytes a text line (textLines, blockLines) may hold before it is dropped unread. Each UTF-16 unit
 * decoded takes at most 3 bytes of UTF-8 (a replaced ill-formed sequence too), so a line past
 * this is past MAX_URL_LINE characters: dropping it early changes no answer.
 */
export const MAX_TEXT_LINE_BYTES = 3 * MAX_URL_LINE

const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true })
/** Bytes of lines decoded at once by blockLines. */
const TEXT_PIECE = 1 << 16

/**
 * The lines of a block (lineBlocks with MAX_TEXT_LINE_BYTES) as strings, made as they are asked
 * for: ill-formed UTF-8 as U+FFFD, the CR before an LF dropped (a last line without LF keeps it). A
 * line over MAX_URL_LINE characters is not kept: it comes out as '', after `tooLong` gets its index
 * in the block (from 0). A line with ill-formed UTF-8 is also shown to `illFormed` as its bytes
 * escaped (style.ts escapeBytes), for output that echoes what was read.
 */
export function* blockLines(block: LineBlock, tooLong: (index: number) => void, illFormed?: (index: number, shown: string) => void): Generator<string> {
  const bytes = block.bytes
  let index = 0
  // Decoded a piece of whole lines at a time: each line is a slice of its piece's string, and a
  // piece small enough for the young generation goes with its lines, not at the next full GC.
  for (let p = 0; p < bytes.length;) {
    let q = Math.min(p + TEXT_PIECE, bytes.length)
    if (q < bytes.length) {
      const nl = bytes.indexOf(0x0a, q - 1)
      q = nl < 0 ? bytes.length : nl + 1
    }
    const text = textDecoder.decode(bytes.subarray(p, q))
    // Where each line's bytes are, followed only in a piece that may hold ill-formed UTF-8 (LF
    // is never part of a replaced sequence, so the lines of the text and of the bytes agree).
    let at = illFormed !== undefined && text.includes('\ufffd') ? p : -1
    p = q
    for (let from = 0; from < text.length;) {
      const nl = text.indexOf('\n', from)
      const end = nl < 0 ? text.length : nl
      let line = text.slice(from, end)
      let lineEnd = -1
      if (at >= 0) {
        const lf = bytes.indexOf(0x0a, at)
        lineEnd = lf < 0 || lf >= q ? q : lf
      }
      if ((index === 0 && block.tooLongFirst) || line.length > MAX_URL_LINE) {
        tooLong(index)
        line = ''
      } else {
        if (nl >= 0 && line.charCodeAt(line.length - 1) === 0x0d) line = line.slice(0, -1)
        if (at >= 0 && line.includes('\ufffd')) {
          const raw = bytes.subarray(at, nl >= 0 && bytes[lineEnd - 1] === 0x0d ? lineEnd - 1 : lineEnd)
          const shown = escapeBytes(raw)
          if (shown !== escapeControls(line)) illFormed!(index, shown)
        }
      }
      if (at >= 0) at = lineEnd + 1
      index++
      from = end + 1
      yield line
    }
  }
}

/**
 * The lines of the input as strings, split as streamCheck splits them (LF; a CR before it dropped; a
 * final line without LF; a BOM at the very start dropped; ill-formed UTF-8 as U+FFFD). A line over
 * MAX_URL_LINE characters is not held: it comes out as '' and its number (from 1) goes to `tooLong`;
 * a line with ill-formed UTF-8 goes to `illFormed` with its number and its bytes escaped.
 */
export async function* textLines(read: ReadInto, tooLong: (lineNo: number) => void, illFormed?: (lineNo: number, shown: string) => void): AsyncGenerator<string> {
  let lineNo = 0
  // Small blocks: their lines are made as they are asked for, and die young.
  for await (const block of lineBlocks(read, MAX_TEXT_LINE_BYTES, [], TEXT_PIECE)) {
    const first = lineNo
    const shown = illFormed === undefined ? undefined : (i: number, s: string): void => illFormed(first + i + 1, s)
    for (const line of blockLines(block, (i) => tooLong(first + i + 1), shown)) {
      lineNo++
      yield line
    }
  }
}

/**
 * Verdict lines with every URL (after the second tab: the prefixes hold two) escaped for a
 * terminal (style.ts escapeBytes): the rare block in which the engine saw a control character or
 * ill-formed UTF-8. Worked on bytes, so that no URL passes through a decoder's U+FFFD.
 */
function escapeUrls(out: Uint8Array): Uint8Array {
  const encoder = new TextEncoder()
  const parts: Uint8Array[] = []
  let size = 0
  for (let p = 0; p < out.length;) {
    let nl = out.indexOf(0x0a, p)
    if (nl < 0) nl = out.length
    const url = out.indexOf(0x09, out.indexOf(0x09, p) + 1) + 1
    const line = encoder.encode(escapeBytes(out.subarray(url, nl)))
    parts.push(out.subarray(p, url), line, nl < out.length ? NEWLINE : EMPTY)
    size += url - p + line.length + (nl < out.length ? 1 : 0)
    p = nl + 1
  }
  const joined = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    joined.set(part, at)
    at += part.length
  }
  return joined
}

const NEWLINE = Uint8Array.of(0x0a)
const EMPTY = new Uint8Array(0)

/** Resolves on 'drain'; rejects if the stream fails or closes first (a reader that went away). */
export async function drained(output: Writable): Promise<void> {
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
