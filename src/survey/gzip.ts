// The members of a gzip file (RFC 1952) inflated natively by node:zlib, one by one with the file
// offsets where each starts and ends: a WARC.gz record's offset is the start of the member holding
// it. pako (warcio's own gzip reader) costs three times as much per member as node:zlib on the
// survey's records.
//
// Members are inflated a region at a time (up to REGION compressed bytes, members back to back),
// asynchronously: node:zlib runs on libuv's thread pool, so the next region inflates while this
// one's records are read, beside the JS thread. zlib checks each member's trailer (CRC-32, size)
// as it inflates; the output is split at the member starts, which the trailers' sizes must add up
// to; a region that does not inflate or split cleanly is read again one member at a time
// (inflateRawSync, each member's trailer checked here), which finds the bad member.
//
// Invariants: every member handed out inflated to its end and matched its trailer; the first
// member that does not (garbage, a cut, a bad trailer) ends the stream, and `stop` says where and
// why; so does a member larger than WINDOW compressed or MAX_INFLATED inflated, with a null reason:
// the caller reads that one another way. Memory is bounded by those sizes, whatever the file.

import * as zlib from 'node:zlib'
import type { ByteSource } from './byte-source.js'

/** Compressed bytes read at a time, and so the largest member inflated here. */
const WINDOW = 1 << 20
/** The largest inflated member or region handed out whole (a robots.txt body is cut to 500 KiB anyway). */
const MAX_INFLATED = 8 << 20
/** Compressed bytes inflated together at most (a region: members back to back). */
const REGION = 1 << 18
/** Output chunk of a region's inflation: each chunk is a trip to the thread pool. */
const REGION_CHUNK = 1 << 20

// RFC 1952 2.3: ID1 ID2 CM FLG MTIME(4) XFL OS, then the optional fields FLG announces.
const HEADER_SIZE = 10
const TRAILER_SIZE = 8
const FLG_FHCRC = 2
const FLG_FEXTRA = 4
const FLG_FNAME = 8
const FLG_FCOMMENT = 16
const FLG_RESERVED = 0xe0

// zlib.crc32 came with Node 22.2 and 20.15: without it, the caller keeps warcio's gzip reader.
const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32

/** The native reader works on this runtime. */
export const nativeGzip = typeof crc32 === 'function'

/** Where the stream of members ended before the file did. */
export interface GzipStop {
  /** File offset of the member that was not handed out. */
  at: number
  /** Why it was not: the data is bad; null when it is only too large for this reader. */
  reason: string | null
}

/** One member of the file, inflated: its data, and where it starts and ends in the file. */
export interface GzipMember {
  data: Uint8Array
  offset: number
  end: number
}

export class GzipMembers {
  /** Set when the members ended before the end of the file. */
  stop: GzipStop | null = null
  private readonly size: number

  constructor(private readonly src: ByteSource, private readonly start: number) {
    this.size = src.size
  }

  /** The inflated members, in file order, until the end of the file or `stop`. */
  async *members(): AsyncGenerator<GzipMember> {
    let next: Region | null = null
    try {
      const w = new Window(this.src)
      let pos = this.start
      next = await this.#region(w, pos)
      while (pos < this.size) {
        const region: Region | null = next
        next = null
        if (region !== null) {
          // The next region inflates on the thread pool while this one's records are read.
          if (region.end < this.size) next = await this.#region(w, region.end)
          const members = splitMembers(region.input, await region.inflated)
          if (members !== null) {
            for (let m = 0; m < members.data.length; m++) {
              const offset = pos
              pos += members.sizes[m]!
              yield { data: members.data[m]!, offset, end: pos }
            }
            continue
          }
          // Not plain members back to back: one member at a time, from where the region began.
          next?.inflated.catch(() => undefined)
          next = null
        }
        const end = region?.end ?? pos + 1
        while (pos < end) {
          const member = await this.#member(w, pos)
          if (member === null) return
          const offset = pos
          pos = member.end
          yield { data: member.data, offset, end: pos }
        }
        if (pos < this.size) next = await this.#region(w, pos)
      }
    } finally {
      await next?.inflated.catch(() => undefined)
    }
  }

  /**
   * The members from `pos` to the last member start in the next REGION bytes (or the end of the file), sent
   * to be inflated at once, asynchronously (node:zlib reads a gzip file's members one after another);
   * null when the window holds no member start after `pos`.
   */
  async #region(w: Window, pos: number): Promise<Region | null> {
    await w.load(pos, Math.min(REGION, this.size - pos))
    const view = w.view(pos).subarray(0, REGION)
    let length = view.length
    if (pos + length < this.size) {
      length = lastMemberStart(view)
      if (length <= 0) return null
    }
    // A copy: the window moves on while the thread pool reads this.
    const input = new Uint8Array(view.subarray(0, length))
    const inflated = new Promise<Uint8Array | null>((resolve) => {
      zlib.gunzip(input, { maxOutputLength: MAX_INFLATED, chunkSize: REGION_CHUNK }, (e, out) => resolve(e === null ? out : null))
    })
    return { end: pos + length, input, inflated }
  }

  /** The member at `pos` inflated, and where the next one starts; null after setting `stop`. */
  async #member(w: Window, pos: number): Promise<{ data: Uint8Array; end: number } | null> {
    // One reason for every way a member can be bad, as warcio's own reader gives it.
    const bad = (): null => {
      this.stop = { at: pos, reason: 'truncated or corrupt gzip data' }
      return null
    }
    if (!(await w.load(pos, HEADER_SIZE))) return bad()
    let b = w.view(pos)
    if (b[0] !== 0x1f || b[1] !== 0x8b || b[2] !== 8 || (b[3]! & FLG_RESERVED) !== 0) return bad()
    const flags = b[3]!
    let h = HEADER_SIZE
    if (flags & FLG_FEXTRA) {
      if (!(await w.load(pos, h + 2))) return bad()
      b = w.view(pos)
      h += 2 + (b[h]! | (b[h + 1]! << 8))
    }
    for (const field of [FLG_FNAME, FLG_FCOMMENT]) {
      if (!(flags & field)) continue
      // A zero-terminated string: found within what the window can hold, else the header is too long.
      let nul = -1
      for (let want = h + 1; nul < 0; want = w.held(pos) + 1) {
        if (!(await w.load(pos, want))) return w.full(pos) ? this.#tooLarge(pos) : bad()
        b = w.view(pos)
        nul = b.indexOf(0, h)
        if (nul < 0 && w.full(pos)) return this.#tooLarge(pos)
      }
      h = nul + 1
    }
    if (flags & FLG_FHCRC) h += 2
    if (!(await w.load(pos, h))) return w.full(pos) ? this.#tooLarge(pos) : bad()
    for (;;) {
      let out: { buffer: Buffer; engine: zlib.InflateRaw }
      try {
        out = zlib.inflateRawSync(w.view(pos).subarray(h), { info: true, maxOutputLength: MAX_INFLATED }) as unknown as { buffer: Buffer; engine: zlib.InflateRaw }
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code === 'ERR_BUFFER_TOO_LARGE') return this.#tooLarge(pos)
        // The deflate data runs past what the window holds: more of the file, or another reader.
        if (code === 'Z_BUF_ERROR' && !w.full(pos) && !w.atEnd) {
          await w.load(pos, w.held(pos) + 1)
          continue
        }
        if (code === 'Z_BUF_ERROR' && w.full(pos)) return this.#tooLarge(pos)
        return bad()
      }
      const t = h + out.engine.bytesWritten
      if (!(await w.load(pos, t + TRAILER_SIZE))) return w.full(pos) ? this.#tooLarge(pos) : bad()
      b = w.view(pos)
      const dv = new DataView(b.buffer, b.byteOffset + t, TRAILER_SIZE)
      const data = out.buffer
      if (dv.getUint32(0, true) !== crc32!(data) || dv.getUint32(4, true) !== data.length >>> 0) return bad()
      return { data, end: pos + t + TRAILER_SIZE }
    }
  }

  #tooLarge(pos: number): null {
    this.stop = { at: pos, reason: null }
    return null
  }
}

/** A window of WINDOW bytes over the file, moved forward as members are read. */
class Window {
  readonly #buf = new Uint8Array(WINDOW)
  /** File offset of #buf[0], and the bytes it holds. */
  #at = 0
  #len = 0
  atEnd = false
  private readonly size: number

  constructor(private readonly src: ByteSource) {
    this.size = src.size
  }

  /** Makes file bytes [pos, pos + n) available; false when the file ends first (or n > WINDOW). */
  async load(pos: number, n: number): Promise<boolean> {
    if (pos >= this.#at && pos + n <= this.#at + this.#len) return true
    if (n > WINDOW) return false
    // Keep what is held from pos on, then fill the rest of the window.
    const keep = pos >= this.#at && pos < this.#at + this.#len ? this.#at + this.#len - pos : 0
    if (keep > 0) this.#buf.copyWithin(0, pos - this.#at, this.#at + this.#len)
    this.#at = pos
    this.#len = keep
    // Up to the whole window in one read where the source has it (a file), but no waiting for more
    // than `n` (a URL's bytes come as they come).
    while (this.#len < n && this.#at + this.#len < this.size) {
      const bytesRead = await this.src.read(this.#buf, this.#len, WINDOW - this.#len, this.#at + this.#len)
      if (bytesRead === 0) break
      this.#len += bytesRead
    }
    this.atEnd = this.#at + this.#len >= this.size
    return n <= this.#len
  }

  /** The bytes held from file offset `pos` (which load made available). */
  view(pos: number): Uint8Array {
    return this.#buf.subarray(pos - this.#at, this.#len)
  }

  /** Bytes held from `pos` on. */
  held(pos: number): number {
    return this.#at + this.#len - pos
  }

  /** The window holds WINDOW bytes from `pos`: a member starting there that needs more is too large. */
  full(pos: number): boolean {
    return this.#at === pos && this.#len === WINDOW
  }
}

/** Members sent to be inflated together: the compressed bytes, and what they inflate to (null on any error). */
interface Region {
  end: number
  input: Uint8Array
  inflated: Promise<Uint8Array | null>
}

/** Offset of the last gzip member header (1f 8b 08) in `b` after its start, or -1. */
function lastMemberStart(b: Uint8Array): number {
  for (let i = b.length - 3; i > 0; i--) {
    i = b.lastIndexOf(0x1f, i)
    if (i <= 0) return -1
    if (b[i + 1] === 0x8b && b[i + 2] === 8) return i
  }
  return -1
}

/**
 * The inflated data of each member of `input`, split where the members start, and their compressed
 * sizes; null unless the members' trailers' sizes (ISIZE) share out `out` exactly. zlib has checked
 * every member's CRC-32 and size as it inflated the region (a bad one fails the whole region), so
 * what is left to check is where the members start: a member header (1f 8b 08, reserved flags
 * clear) can also occur inside deflate data, and such a split gives sizes that do not add up (the
 * bytes before it are no trailer); the caller then reads the region one member at a time.
 */
function splitMembers(input: Uint8Array, out: Uint8Array | null): { data: Uint8Array[]; sizes: number[] } | null {
  if (out === null) return null
  const starts: number[] = []
  for (let i = input.indexOf(0x1f); i >= 0; i = input.indexOf(0x1f, i + 1)) {
    if (input[i + 1] === 0x8b && input[i + 2] === 8 && (input[i + 3]! & FLG_RESERVED) === 0) starts.push(i)
  }
  if (starts[0] !== 0) return null
  starts.push(input.length)
  const dv = new DataView(input.buffer, input.byteOffset, input.byteLength)
  const data: Uint8Array[] = []
  const sizes: number[] = []
  let at = 0
  for (let m = 1; m < starts.length; m++) {
    const end = starts[m]!
    if (end - starts[m - 1]! < HEADER_SIZE + TRAILER_SIZE) return null
    const size = dv.getUint32(end - 4, true)
    if (at + size > out.length) return null
    data.push(out.subarray(at, at + size))
    sizes.push(end - starts[m - 1]!)
    at += size
  }
  return at === out.length ? { data, sizes } : null
}
