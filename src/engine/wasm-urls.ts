// The URL side of the engine (assembly/url.ts, matcher.ts, verdicts.ts): URLs go into the input
// area against the resident table (Engine.use), and verdicts come out: one URL, a batch of strings
// (UTF-8, or UTF-16 where the runtime has a Buffer), or UTF-8 lines in chunks (the byte path and
// the CLI's output lines).
//
// Invariants: every URL, batch or chunk overwrites the input area (so no body stays cached there);
// a chunk ends after a '\n', so a line is never split; results are copied out of wasm memory before
// the next call.

import { LINE_BOUNDS_SIZE, VERDICT_LINE_OVERHEAD } from './layout.js'
import { encoder } from './bytes.js'
import { align16, NodeBuffer, type Engine } from './wasm.js'

const BATCH_URLS = 1024
const SMALL_BATCH = 8
/** Bytes of URL lines per wasm call (about 1,600 typical URLs); a longer line makes its own chunk. */
const LINES_CHUNK = 65536
/**
 * Bytes after a chunk of `len` bytes of lines that the line exports use: the verdicts. Scratch,
 * three times the input area and so over 15 bytes per byte of the chunk, holds a path normalized
 * from ill-formed UTF-8 (at most 9 bytes per byte).
 */
function linesRoom(len: number): number {
  return align16(4 * (len + 1) + 64)
}

/** Bytes for a chunk's marks: a chunk of `len` bytes holds at most len + 1 lines (one per byte, plus a last one without '\n'). */
function marksRoom(len: number): number {
  return align16(len + 1 + 16)
}

/** Bytes the verdict-line exports write after a chunk of `len` bytes of lines and its marks: each URL as read, plus each line's prefix. */
function verdictsRoom(len: number): number {
  return len + VERDICT_LINE_OVERHEAD * (len + 1) + 64
}


/** Output lines of `robotstxt check --urls`, with their count and how many were disallowed. */
export interface VerdictLines {
  out: Uint8Array
  lines: number
  disallowed: number
  /** Output lines whose URL holds a control character (C0, DEL, C1, bidi) or ill-formed UTF-8: the CLI escapes them. */
  controls: number
  /** Lines (not rejected by a mark) that are not plainly a URL or a path: the CLI judges them (assembly/verdicts.ts plainUrl). */
  suspects: number
}

/** `a`, or when it has fewer than `need` items an array of its kind, twice as long at least, holding its first `keep`. */
function withRoom<T extends Int32Array | Uint32Array | Uint8Array>(a: T, keep: number, need: number): T {
  if (need <= a.length) return a
  const grown = new (a.constructor as new (n: number) => T)(Math.max(need, 2 * a.length))
  grown.set(a.subarray(0, keep) as ArrayLike<number>)
  return grown
}

/**
 * Encoding the joined string equals encoding each string on its own when no surrogate pair forms
 * across a boundary: a string ending in a high surrogate followed, past any empty strings, by one
 * starting with a low surrogate. (Encoded apart, each lone half is U+FFFD, as `check` encodes it.)
 */
function joinedBoundariesHold(urls: readonly string[], start: number, count: number): boolean {
  let endsHigh = false
  for (let k = start; k < start + count; k++) {
    const u = urls[k]!
    if (u.length === 0) continue
    if (endsHigh && (u.charCodeAt(0) & 0xfc00) === 0xdc00) return false
    endsHigh = (u.charCodeAt(u.length - 1) & 0xfc00) === 0xd800
  }
  return true
}

/**
 * The batch urls[start, start + count) as one string, with its length and its longest URL's, in
 * UTF-16 units. Appending lets V8 build a rope that the one copy into memory flattens: 4-5 ns per
 * URL cheaper than slice + join on 1,000 URLs.
 */
function join(urls: readonly string[], start: number, count: number): { joined: string; chars: number; longest: number } {
  let joined = ''
  let chars = 0
  let longest = 0
  for (let k = start; k < start + count; k++) {
    const u = urls[k]!
    chars += u.length
    if (u.length > longest) longest = u.length
    joined += u
  }
  return { joined, chars, longest }
}


/** check() on the current table for one URL string. */
export function checkUrl(e: Engine, url: string): number {
  // UTF-8 needs at most 3 bytes per UTF-16 unit.
  if (url.length * 3 > e.inputCap) e.reserveInput(url.length * 3)
  e.clearInput()
  return e.w.check(e.input, encoder.encodeInto(url, e.inView).written)
}

/**
 * Runs a batch on the current table: check()'s number per URL into `results` (Int32Array), or
 * the allowed byte per URL into `bytes`. `urls` are strings already.
 */
export function checkBatch(e: Engine, urls: readonly string[], from: number, to: number, results: Int32Array | null, bytes: Uint8Array | null): void {
  // A few URLs cost less one call each than the batch set-up (join, copy, views).
  if (to - from <= SMALL_BATCH) {
    for (let k = from; k < to; k++) {
      const r = checkUrl(e, urls[k]!)
      if (bytes !== null) bytes[k] = r & 1
      else results![k] = r
    }
    return
  }
  if (e.utf16Batches && NodeBuffer !== undefined) {
    many16(e, urls, from, to, results, bytes)
    return
  }
  for (let start = from; start < to; start += BATCH_URLS) {
    const count = Math.min(BATCH_URLS, to - start)
    let chars = 0
    for (let k = start; k < start + count; k++) chars += urls[k]!.length
    const head = count * 8
    e.reserveInput(head + chars * 3)
    e.clearInput()
    const ends = e.input
    const out = ends + count * 4
    const data = ends + head
    encodeUrls(e, urls, start, count, ends, data, e.inputCap - head)
    if (bytes !== null) {
      e.w.allowedMany(ends, data, count, out)
      bytes.set(e.u8.subarray(out, out + count), start)
    } else {
      e.w.checkMany(ends, data, count, out)
      results!.set(e.i32.subarray(out >> 2, (out >> 2) + count), start)
    }
  }
}

/**
 * Writes urls[start, start + count) as UTF-8 at `data` (room for `room` bytes, 3 per UTF-16 unit)
 * and their ends, byte offsets from `data`, as u32 at `ends`: byte for byte what TextEncoder gives
 * for each URL on its own.
 */
export function encodeUrls(e: Engine, urls: readonly string[], start: number, count: number, ends: number, data: number, room: number): void {
  const { joined, chars } = join(urls, start, count)
  const u8 = e.u8
  // One encodeInto for the whole batch; when it is all ASCII (bytes == UTF-16 units) the
  // boundaries are the string lengths, otherwise each URL is encoded on its own.
  const { written } = encoder.encodeInto(joined, u8.subarray(data, data + room))
  const endsView = e.i32
  let at = 0
  if (written === chars) {
    for (let k = 0; k < count; k++) {
      at += urls[start + k]!.length
      endsView[(ends >> 2) + k] = at
    }
  } else if (joinedBoundariesHold(urls, start, count)) {
    // Some URL is non-ASCII: the joined bytes are still right; wasm turns the ends, in UTF-16
    // units, into byte offsets.
    for (let k = 0; k < count; k++) {
      at += urls[start + k]!.length
      endsView[(ends >> 2) + k] = at
    }
    e.w.unitEndsToByteEnds(ends, data, count)
  } else {
    for (let k = 0; k < count; k++) {
      at += encoder.encodeInto(urls[start + k]!, u8.subarray(data + at, data + room)).written
      endsView[(ends >> 2) + k] = at
    }
  }
}

/**
 * The verdict of every line of `data` (a URL as UTF-8 per line): check()'s number (`wide`) or the
 * allowed byte, one per line, into `into` while it has room, else into a new array that grows by
 * doubling. Returns exactly the verdicts: a view of `into`'s start when they all fitted, else an
 * array of their own (and `into` may hold the first ones). Each chunk is copied into memory once.
 */
export function lineVerdicts(e: Engine, data: Uint8Array, wide: true, into: Int32Array | undefined): Int32Array
export function lineVerdicts(e: Engine, data: Uint8Array, wide: false, into: Uint8Array | undefined): Uint8Array
export function lineVerdicts(e: Engine, data: Uint8Array, wide: boolean, into: Int32Array | Uint8Array | undefined): Int32Array | Uint8Array {
  let got: Int32Array | Uint8Array = into ?? (wide ? new Int32Array(0) : new Uint8Array(0))
  let k = 0
  eachChunk(e, data, linesRoom, (at, len, out) => {
    const n = wide ? e.w.checkLines(at, len, out) : e.w.allowedLines(at, len, out)
    got = withRoom(got, k, k + n)
    got.set(wide ? e.i32.subarray(out >> 2, (out >> 2) + n) : e.u8.subarray(out, out + n), k)
    k += n
  })
  if (got === into) return got.subarray(0, k)
  return k === got.length ? got : got.slice(0, k)
}

/**
 * Each line of `data` as the line exports split it (assembly/url.ts lineBounds): LINE_BOUNDS_SIZE
 * bytes per line, its start at LINE_START and the end of its text at LINE_END, as offsets into
 * `data`.
 */
export function lineBounds(e: Engine, data: Uint8Array): Uint32Array {
  let got = new Uint32Array(0)
  let k = 0
  let base = 0
  const perLine = LINE_BOUNDS_SIZE / 4
  eachChunk(e, data, (len) => align16(LINE_BOUNDS_SIZE * (len + 1) + 16), (at, len, out) => {
    const n = e.w.lineBounds(at, len, base, out) * perLine
    got = withRoom(got, k, k + n)
    got.set(e.u32.subarray(out >> 2, (out >> 2) + n), k)
    k += n
    base += len
  })
  return got.subarray(0, k)
}

/**
 * The output lines of `robotstxt check --urls` for the URL lines of `data` (assembly/verdicts.ts),
 * each with `code` (the matching line when allowed, ~line when disallowed: a fetched robots.txt
 * that allows or disallows everything); `marks` has one VERDICT_* per line or is null. Returns
 * the output (a view of `into` when it had room, else of a new buffer), the number of lines and
 * how many were disallowed (lines marked rejected not counted).
 */
export function verdictLines(e: Engine, data: Uint8Array, code: number, marks: Uint8Array | null, into?: Uint8Array): VerdictLines {
  return verdictChunks(e, data, marks, into, (at, len, marksAt, out) => e.w.verdictLines(at, len, code, marksAt, out))
}

/**
 * verdictLines with each line's code computed against the current table (use() it first), in the
 * pass that writes the output (assembly/verdicts.ts, checkVerdictLines).
 */
export function checkVerdictLines(e: Engine, data: Uint8Array, marks: Uint8Array | null, into?: Uint8Array): VerdictLines {
  return verdictChunks(e, data, marks, into, (at, len, marksAt, out) => e.w.checkVerdictLines(at, len, marksAt, out))
}

/**
 * The chunk loop of the two verdict-line entry points: places each chunk's marks (when given),
 * lays out its output (verdictsRoom), lets `write` run the wasm export over it (the
 * bytes written back) and collects the output and counts: into `into` while it has room (a
 * buffer of a block before, reused), else into a new buffer.
 */
function verdictChunks(e: Engine,
  data: Uint8Array, marks: Uint8Array | null, into: Uint8Array | undefined,
  write: (at: number, len: number, marksAt: number, out: number) => number,
): VerdictLines {
  let result = into ?? new Uint8Array(0)
  let used = 0
  let seen = 0
  let lines = 0
  let disallowed = 0
  let controls = 0
  let suspects = 0
  eachChunk(e, data, (len) => marksRoom(len) + verdictsRoom(len), (at, len, free) => {
    if (marks !== null) e.u8.set(marks.subarray(lines, lines + len + 1), free)
    const out = free + marksRoom(len)
    const written = write(at, len, marks === null ? 0 : free, out)
    seen += len
    if (used + written > result.length) {
      // Sized by the output per input byte so far: a block of many chunks is copied out once,
      // into one buffer, not chunk by chunk and then joined.
      const estimate = seen >= data.length ? used + written : Math.ceil(((used + written) / seen) * data.length * 1.0625)
      const grown = new Uint8Array(Math.max(estimate, 2 * result.length, used + written))
      grown.set(result.subarray(0, used))
      result = grown
    }
    result.set(e.u8.subarray(out, out + written), used)
    used += written
    lines += e.w.verdictLinesSeen()
    disallowed += e.w.verdictDisallowed()
    controls += e.w.verdictControls()
    suspects += e.w.verdictSuspects()
  })
  return { out: result.subarray(0, used), lines, disallowed, controls, suspects }
}

/**
 * Hands `data` to `step` in chunks of whole lines, each copied into the input area; `free` is
 * where, after the chunk and its slack, the `room(len)` bytes the step needs begin. A chunk ends
 * after a '\n' (or at the end of data), so a line is never split; a line longer than LINES_CHUNK
 * is a chunk of its own. The input area then holds no body a later call could reuse.
 */
function eachChunk(e: Engine, data: Uint8Array, room: (len: number) => number, step: (at: number, len: number, free: number) => void): void {
  const total = data.length
  for (let p = 0; p < total || (p === 0 && total === 0);) {
    let q = Math.min(p + LINES_CHUNK, total)
    if (q < total) {
      const nl = data.lastIndexOf(0x0a, q - 1)
      if (nl >= p) q = nl + 1
      else {
        const next = data.indexOf(0x0a, q)
        q = next < 0 ? total : next + 1
      }
    }
    const len = q - p
    const freeOff = align16(len + 64)
    e.reserveInput(freeOff + room(len))
    e.clearInput()
    e.u8.set(data.subarray(p, q), e.input)
    step(e.input, len, e.input + freeOff)
    if (total === 0) break
    p = q
  }
}

/**
 * `many` through UTF-16: the joined URLs are written with one Buffer copy; ends are in code
 * units, and wasm transcodes each URL into a staging area of 3 bytes per unit of the longest.
 */
function many16(e: Engine, urls: readonly string[], from: number, to: number, results: Int32Array | null, bytes: Uint8Array | null): void {
  for (let start = from; start < to; start += BATCH_URLS) {
    const count = Math.min(BATCH_URLS, to - start)
    const { joined, chars, longest } = join(urls, start, count)
    const head = count * 8
    const unitsOff = align16(head)
    const stageOff = align16(unitsOff + 2 * chars + 64)
    e.reserveInput(stageOff + 3 * longest)
    e.clearInput()
    if (e.utf16 === null) e.utf16 = NodeBuffer!.from(e.w.memory.buffer)
    const ends = e.input
    const out = ends + count * 4
    e.utf16.write(joined, e.input + unitsOff, 2 * chars, 'utf16le')
    const endsView = e.i32
    let at = 0
    for (let k = 0; k < count; k++) {
      at += urls[start + k]!.length
      endsView[(ends >> 2) + k] = at
    }
    if (bytes !== null) {
      e.w.allowedMany16(ends, e.input + unitsOff, count, out, e.input + stageOff)
      bytes.set(e.u8.subarray(out, out + count), start)
    } else {
      e.w.checkMany16(ends, e.input + unitsOff, count, out, e.input + stageOff)
      results!.set(e.i32.subarray(out >> 2, (out >> 2) + count), start)
    }
  }
}
