// Byte-level helpers of the TypeScript host: UTF-8 and base64 decoding, percent-encoding normalization
// (the twin of assembly/bytes.ts), concatenation. Everything in
// robots.txt handling is bytes (RFC 9309): text is only decoded for display.

export const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true })

/** UTF-8 bytes of a string; invalid UTF-16 (lone surrogates) becomes U+FFFD like TextEncoder does. */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s)
}

/** Decodes bytes as UTF-8, invalid sequences become U+FFFD. */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  return decoder.decode(bytes.subarray(start, end))
}

/** Text of byte ranges of one body; `ascii` when byte offsets are string offsets (every range is then exact). */
export interface TextReader {
  readonly ascii: boolean
  text(start: number, end: number): string
}

/**
 * decodeUtf8 for many ranges of one body. The body is decoded a chunk of TEXT_CHUNK bytes at a
 * time, each on the first range asked for in it, and a range in an ASCII chunk is a slice of its
 * chunk's string, byte offsets being string offsets: a slice costs a fraction of a decoder call,
 * and a view that reads a few lines decodes only their chunks. A range in a chunk with other bytes
 * is decoded on its own, exactly. Chunks, not the whole body: a string of half a megabyte is
 * allocated apart from the heap's pages and cost four times the decoding of its bytes in chunks.
 * `source`, the string the body was encoded from, spares that decoding (it is ASCII when its UTF-8
 * is exactly as long). `ascii`, whether the whole body is, is only found when asked for.
 */
export function textReader(bytes: Uint8Array, source?: string): TextReader {
  if (source !== undefined && source.length === bytes.length) return { ascii: true, text: (start, end) => source.slice(start, end) }
  /** Per chunk: its text, null when it is not ASCII, undefined until a range in it is asked for. */
  const chunks: (string | null | undefined)[] = []
  let ascii: boolean | undefined
  return {
    get ascii() {
      return (ascii ??= isAscii(bytes))
    },
    text(start, end) {
      // Shifts, not a division: this runs per range. Offsets fit in 32 bits (no string is that long).
      const c = start >>> TEXT_CHUNK_BITS
      const at = c * TEXT_CHUNK
      // A range across a chunk's end (rare: lines are short) is decoded on its own, exactly.
      if (end - at > TEXT_CHUNK) return decoder.decode(bytes.subarray(start, end))
      let chunk = chunks[c]
      if (chunk === undefined) {
        // ASCII exactly when its text has a character per byte, none of them a replacement: any
        // valid sequence of more bytes is fewer characters. Cheaper than a pass over the bytes.
        const part = bytes.subarray(at, Math.min(bytes.length, at + TEXT_CHUNK))
        const text = decoder.decode(part)
        chunk = chunks[c] = text.length === part.length && !text.includes('\ufffd') ? text : null
      }
      return chunk === null ? decoder.decode(bytes.subarray(start, end)) : chunk.slice(start - at, end - at)
    },
  }
}

const TEXT_CHUNK_BITS = 14
/** Bytes per decoded chunk of an ASCII body: well under the size V8 allocates apart (large objects). */
export const TEXT_CHUNK = 1 << TEXT_CHUNK_BITS

/** body[a, aEnd) and body[b, bEnd) hold the same bytes. */
export function sameBytes(body: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false
  for (let k = 0; a + k < aEnd; k++) if (body[a + k] !== body[b + k]) return false
  return true
}

/**
 * No byte has its high bit set. Reads four bytes at a time from the first four-byte boundary of
 * the buffer on: a body may be a view at any offset of a larger buffer.
 */
export function isAscii(bytes: Uint8Array): boolean {
  let acc = 0
  let i = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3)
  for (let k = 0; k < i; k++) acc |= bytes[k]!
  if (bytes.length - i >= 4) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (bytes.length - i) >> 2)
    for (let w = 0; w < words.length; w++) acc |= words[w]!
    i += words.length << 2
  }
  for (; i < bytes.length; i++) acc |= bytes[i]!
  return (acc & 0x80808080) === 0
}

/**
 * Bytes of a base64 string. Node's Buffer decodes natively; elsewhere `Uint8Array.fromBase64` or
 * atob. `native: false` forces the atob path (tests).
 */
export function base64Bytes(s: string, native = true): Uint8Array {
  const g = globalThis as { Buffer?: { from(s: string, enc: 'base64'): Uint8Array }; Uint8Array: { fromBase64?: (s: string) => Uint8Array } }
  if (native && g.Buffer !== undefined) return g.Buffer.from(s, 'base64')
  if (native && g.Uint8Array.fromBase64 !== undefined) return g.Uint8Array.fromBase64(s)
  const bin = atob(s)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

/** space, \t, \n, \v, \f, \r: C's isspace in the "C" locale. */
export function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d)
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
}

const HEX = '0123456789ABCDEF'

/**
 * RFC 9309 2.2.2, Google's MaybeEscapePattern (patterns), and our URL normalization (URLs): `%hh` gets upper-case digits, a byte >= 0x80 becomes
 * `%XX`, everything else is kept. Returns null when nothing changes, which is the common case, so
 * the caller can keep referring to the original bytes.
 */
export function escapeBytes(src: Uint8Array, start: number, end: number): Uint8Array | null {
  let extra = 0
  let needed = false
  for (let i = start; i < end; i++) {
    const c = src[i]!
    if (c === 0x25 && i + 2 < end && isHexDigit(src[i + 1]!) && isHexDigit(src[i + 2]!)) {
      if (src[i + 1]! >= 0x61 || src[i + 2]! >= 0x61) needed = true
      i += 2
    } else if (c >= 0x80) {
      extra += 2
      needed = true
    }
  }
  if (!needed) return null
  const out = new Uint8Array(end - start + extra)
  let o = 0
  for (let i = start; i < end; i++) {
    const c = src[i]!
    if (c === 0x25 && i + 2 < end && isHexDigit(src[i + 1]!) && isHexDigit(src[i + 2]!)) {
      out[o++] = 0x25
      out[o++] = upperHex(src[i + 1]!)
      out[o++] = upperHex(src[i + 2]!)
      i += 2
    } else if (c >= 0x80) {
      out[o++] = 0x25
      out[o++] = HEX.charCodeAt(c >> 4)
      out[o++] = HEX.charCodeAt(c & 15)
    } else {
      out[o++] = c
    }
  }
  return out
}

function upperHex(c: number): number {
  return c >= 0x61 ? c - 0x20 : c
}

/** ASCII-only lower case: Unicode case mapping would let `\u212A` (Kelvin sign) equal `k`. */
export function asciiLower(s: string): string {
  let upper = false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x80) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase())
    if (c >= 0x41 && c <= 0x5a) upper = true
  }
  // All ASCII: the native lower-casing is exact.
  return upper ? s.toLowerCase() : s
}

/** The little-endian u32 at `at` of `bytes` (the layouts of layout.ts are little-endian, as wasm is). */
export function u32At(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
}

/** The chunks joined into one array of `total` bytes (a single chunk is returned as it is). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.length === total) return chunks[0]!
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** Index of the first byte of an ill-formed sequence in body[s, e), or -1 (RFC 3629 table). */
export function firstInvalidUtf8(b: Uint8Array, s: number, e: number): number {
  let i = s
  while (i < e) {
    const c = b[i]!
    if (c < 0x80) {
      i++
      continue
    }
    let n: number
    let lo = 0x80
    let hi = 0xbf
    if (c >= 0xc2 && c <= 0xdf) n = 1
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2
      if (c === 0xe0) lo = 0xa0
      else if (c === 0xed) hi = 0x9f
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3
      if (c === 0xf0) lo = 0x90
      else if (c === 0xf4) hi = 0x8f
    } else return i
    if (i + n >= e) return i
    const c1 = b[i + 1]!
    if (c1 < lo || c1 > hi) return i
    for (let k = 2; k <= n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i
    i += n + 1
  }
  return -1
}
