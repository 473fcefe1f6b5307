// Byte helpers shared by the stages: hex digits, SIMD byte search and compare, and the
// percent-encoding normalization of RFC 9309 2.2.2; Google's MaybeEscapePattern (bytes >= 0x80 become %HH, existing %hh triples
// are upper-cased), which the matcher applies to paths and the compiler to patterns.
//
// Vector loads read up to 15 bytes past the range they are given; every caller's memory has that
// slack (see the ABI in index.ts), and bytes read past an end are masked off before they count.

export const STAR: u32 = 0x2a;
export const SLASH: u32 = 0x2f;
export const PERCENT: u32 = 0x25;

// Byte vectors: 16 copies of each byte the SIMD searches compare with, loaded rather than written as
// i8x16.splat constants. V8 builds a v128 constant afresh at every use (three instructions), also
// inside loops; a loaded vector is one memory operand. The scanner's block masks alone use twenty
// a block: loading them made a scan of the corpus 3% faster (Node 24, 2026-11-28).
export const V_LF: usize = 0;
export const V_CR: usize = 16;
export const V_HASH: usize = 32;
export const V_NUL: usize = 48;
export const V_COLON: usize = 64;
export const V_QUERY: usize = 80;
export const V_PERCENT: usize = 96;
export const V_SLASH: usize = 112;
export const V_SEMI: usize = 128;
export const V_STAR: usize = 144;
export const V_DOLLAR: usize = 160;
export const BYTE_VECTORS: usize = memory.data<u8>([
  0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a,
  0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d,
  0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x3a,
  0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f,
  0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25,
  0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x2f,
  0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x3b,
  0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a,
  0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24, 0x24,
], 16);

/** The byte vector at `at` (V_*). */
@inline export function byteVector(at: usize): v128 {
  return v128.load(BYTE_VECTORS + at);
}

@inline export function isHex(c: u32): bool {
  return (c - 0x30 < 10) || ((c | 0x20) - 0x61 < 6);
}

@inline export function hexDigit(n: u32): u32 {
  return n < 10 ? n + 0x30 : n + 0x37;
}

@inline export function upperHex(c: u32): u32 {
  return c >= 0x61 ? c - 0x20 : c;
}

@inline export function isSpaceByte(c: u32): bool {
  return c == 0x20 || (c - 0x09 < 5);
}

// First index in [i, end) holding byte a or b, or end.
export function findEither(p: usize, i: u32, end: u32, a: u32, b: u32): u32 {
  const va = i8x16.splat(<i8>a);
  const vb = i8x16.splat(<i8>b);
  for (; i < end; i += 16) {
    const v = v128.load(p + i);
    let bits = i8x16.bitmask(v128.or(i8x16.eq(v, va), i8x16.eq(v, vb)));
    if (end - i < 16) bits &= (1 << (end - i)) - 1;
    if (bits != 0) return i + ctz<u32>(bits);
  }
  return end;
}

// First index in [i, end) of a byte that normalization changes ('%' or >= 0x80), or end.
export function nextSpecial(p: usize, i: u32, end: u32): u32 {
  const vPct = byteVector(V_PERCENT);
  for (; i < end; i += 16) {
    const v = v128.load(p + i);
    let bits = i8x16.bitmask(i8x16.eq(v, vPct)) | i8x16.bitmask(v);
    if (end - i < 16) bits &= (1 << (end - i)) - 1;
    if (bits != 0) return i + ctz<u32>(bits);
  }
  return end;
}

// Copies n bytes 16 at a time; may write up to 15 bytes past dst + n (the destination's slack).
@inline export function copyRun(dst: usize, src: usize, n: u32): void {
  for (let q: u32 = 0; q < n; q += 16) v128.store(dst + q, v128.load(src + q));
}

@inline export function bytesEqual(a: usize, b: usize, n: u32): bool {
  for (let i: u32 = 0; i < n; i++) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
  }
  return true;
}

// bytesEqual 16 bytes per compare: both sides may be read up to 15 bytes past their end (path and
// URL slack; the table is followed by the input area). Bytes past n are masked off.
@inline export function sameBytes(a: usize, b: usize, n: u32): bool {
  let i: u32 = 0;
  while (n - i > 16) {
    if (i8x16.bitmask(i8x16.eq(v128.load(a + i), v128.load(b + i))) != 0xffff) return false;
    i += 16;
  }
  const live: u32 = (1 << (n - i)) - 1;
  return (i8x16.bitmask(i8x16.eq(v128.load(a + i), v128.load(b + i))) & live) == live;
}

// The two rewrites of the normalization, shared by escapeInto (patterns) and url.ts's normalize
// (paths). A '%' followed by two hex digits in v[0, n) at i (the '%' itself is known):
@inline export function isTriple(v: usize, i: u32, n: u32): bool {
  return i + 2 < n && isHex(load<u8>(v + i + 1)) && isHex(load<u8>(v + i + 2));
}

// A %HH triple: the '%', then its two hex digits at these offsets.
const TRIPLE_HI: usize = 1;
const TRIPLE_LO: usize = 2;

// Writes the triple at t upper-cased at o.
@inline export function storeUpperTriple(o: usize, t: usize): void {
  store<u8>(o, PERCENT);
  store<u8>(o, upperHex(load<u8>(t, TRIPLE_HI)), TRIPLE_HI);
  store<u8>(o, upperHex(load<u8>(t, TRIPLE_LO)), TRIPLE_LO);
}

// U+FFFD, what TextDecoder and TextEncoder put for ill-formed input, in UTF-8 (EF BF BD): its
// first two bytes as a little-endian u16, then the last.
const FFFD_HEAD: u16 = 0xbfef;
const FFFD_LAST: u8 = 0xbd;
export const FFFD_BYTES: u32 = 3;

// Writes U+FFFD at o; FFFD_BYTES long.
@inline export function storeReplacement(o: usize): void {
  store<u16>(o, FFFD_HEAD);
  store<u8>(o + sizeof<u16>(), FFFD_LAST);
}

// Writes byte b escaped as %HH at o.
@inline export function storeEscaped(o: usize, b: u32): void {
  store<u8>(o, PERCENT);
  store<u8>(o, hexDigit(b >> 4), 1);
  store<u8>(o, hexDigit(b & 15), 2);
}

// RFC 9309 2.2.2; Google's MaybeEscapePattern: the length of the normalized form of v[0, n), or 0 when normalizing changes
// nothing (no byte >= 0x80, no lower-case %hh).
export function escapedLength(v: usize, n: u32): u32 {
  let changed = false;
  let len = n;
  for (let i: u32 = 0; i < n; i++) {
    const c = <u32>load<u8>(v + i);
    if (c >= 0x80) { changed = true; len += 2; }
    else if (c == PERCENT && isTriple(v, i, n)) {
      if (load<u8>(v + i + 1) >= 0x61 || load<u8>(v + i + 2) >= 0x61) changed = true;
      i += 2;
    }
  }
  return changed ? len : 0;
}

// Writes the normalized form of v[0, n) at dst (escapedLength bytes when that is not 0).
export function escapeInto(dst: usize, v: usize, n: u32): void {
  let o = dst;
  for (let i: u32 = 0; i < n; i++) {
    const c = <u32>load<u8>(v + i);
    if (c >= 0x80) {
      storeEscaped(o, c);
      o += 3;
    } else if (c == PERCENT && isTriple(v, i, n)) {
      storeUpperTriple(o, v + i);
      o += 3;
      i += 2;
    } else {
      store<u8>(o, c);
      o++;
    }
  }
}
