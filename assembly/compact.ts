// The compact body: what a site keeps once it has been read. Each line is rewritten to the fewest
// bytes that scan to the same record (scanner.ts): an empty line to nothing, a comment to "#", an
// invalid line to "x", a directive to its key as written, ':' (or ' ' where the colon was
// missing), its value as written and "#" if it had a comment; a line over MAX_LINE_BYTES is kept
// as it is. Lines are joined by '\n' with none after the last, and a BOM is dropped (but for a
// first line that starts with one's first byte, see compactFinish).
//
// It is kept coded: a key spelled as nearly every file spells it ("Disallow", "User-agent", ...)
// with its colon is written as one code byte (CODES below), and `expandCompact` writes the plain
// compact body back, which is what the scanner and every view read. A code is a byte no plain
// compact line starts with: the scanner trims whitespace (0x09-0x0d, 0x20) before a key, a NUL
// cuts a line before anything starts, and a line starting with ':' is invalid ("x"). Only a line
// kept whole may start with any byte; it is written after ESC when it starts with a code or ESC.
//
// Invariant: scanning the plain compact body gives, line for line, the same number, kind, flags,
// key and value as the original (only offsets differ), so every view derived from the scan (rules,
// groups, the per-line report, sitemaps, directives, Crawl-delay, verdicts and lines) is the same
// (test/compact.test.ts checks them all on every labelled body). The plain body is never longer
// than the original (every byte written stands for at least one byte of it) but for the 3-byte BOM
// compactFinish may add; the coded body is shorter still but for one ESC per line kept whole (each
// over MAX_LINE_BYTES bytes). Both fit the room compactStart asks for.

import { CODED_PLAIN_LENGTH, CODED_TRAILER, KIND_ALLOW, KIND_COMMENT, KIND_DISALLOW, KIND_INVALID, KIND_MASK, KIND_OTHER, KIND_SITEMAP, KIND_USER_AGENT, SCAN_F_COMMENT,
  SCAN_F_NO_COLON, SCAN_F_TOO_LONG } from '../src/engine/layout';
import { copyRun } from './bytes';
import { currentKeyEnd, currentKeyStart, currentKindFlags, currentLine, currentLineEnd, currentLineStart, currentValueEnd, currentValueStart, scanBody } from './scanner';

// The coded keys, colon included, each at its code's SPELLING_AT offset.
const SPELLINGS = memory.data<u8>([
  0x44, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x3a, // "Disallow:"
  0x55, 0x73, 0x65, 0x72, 0x2d, 0x61, 0x67, 0x65, 0x6e, 0x74, 0x3a, // "User-agent:"
  0x41, 0x6c, 0x6c, 0x6f, 0x77, 0x3a, // "Allow:"
  0x53, 0x69, 0x74, 0x65, 0x6d, 0x61, 0x70, 0x3a, // "Sitemap:"
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // slack for 16-byte loads
]);
// The codes: bytes below 16, so one swizzle of CODE_LANES tells a vector's code bytes.
const C_DISALLOW: u32 = 0x00;
const C_USER_AGENT: u32 = 0x09;
const C_ALLOW: u32 = 0x0b;
const C_SITEMAP: u32 = 0x0c;
/** A code with no spelling: the line after it is written as it is (a line kept whole that starts with a code). */
const ESC: u32 = 0x0d;
/** Bit c set for each code c. */
const CODES: u32 = 1 << C_DISALLOW | 1 << C_USER_AGENT | 1 << C_ALLOW | 1 << C_SITEMAP | 1 << ESC;
/** Byte c (c < 16) is 0x80 for a code, 0 otherwise (i8x16.swizzle gives 0 for c >= 16). */
const CODE_LANES = memory.data<u8>([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0x80, 0x80, 0x80, 0, 0], 16);
/** A code's spelling: its offset in SPELLINGS << 8 | its length, by code (codes are below 16). */
const SPELLING_AT = memory.data<u16>([0 << 8 | 9, 0, 0, 0, 0, 0, 0, 0, 0, 9 << 8 | 11, 0, 20 << 8 | 6, 26 << 8 | 8, 0, 0, 0]);

@inline function isCode(c: u32): bool {
  return c < 16 && ((CODES >> c) & 1) != 0;
}

// The key each code stands for, by scan kind (KIND_USER_AGENT 0, KIND_ALLOW 1, KIND_DISALLOW 2,
// KIND_SITEMAP 3; KIND_OTHER 4 and beyond have none): 16 bytes of spelling, zero-padded, then 16
// bytes of mask (0xff over the spelling), so a key is compared in one vector and no branch.
const KEYS = memory.data<u8>([
  0x55, 0x73, 0x65, 0x72, 0x2d, 0x61, 0x67, 0x65, 0x6e, 0x74, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x41, 0x6c, 0x6c, 0x6f, 0x77, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x44, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x53, 0x69, 0x74, 0x65, 0x6d, 0x61, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
], 16);
// No key is u32.MAX_VALUE bytes long: KIND_OTHER's row never matches.
const KEY_LENGTHS = memory.data<u32>([10, 5, 8, 7, u32.MAX_VALUE]);
const KEY_CODES = memory.data<u8>([<u8>C_USER_AGENT, <u8>C_ALLOW, <u8>C_DISALLOW, <u8>C_SITEMAP, 0]);

let out: usize = 0;
let at: usize = 0;
// Plain length minus coded length so far.
let grown: i32 = 0;

/**
 * Starts a compact body at `dst`: room for the scanned body's length, one byte per line kept whole
 * (MAX_LINE_BYTES + 1 bytes of it at least) and 64 bytes of slack (the trailer, and vector stores).
 */
export function compactStart(dst: usize): void {
  out = dst;
  at = dst;
  grown = 0;
}

/**
 * Ends the compact body: writes its trailer (layout.ts CODED_*) after it and returns its length
 * with the trailer.
 */
export function compactFinish(): u32 {
  // The scanner skips what starts like a BOM (EF, EF BB, EF BB BF) at a body's start. The
  // original's first line starts after that, and may itself start with EF: it then gets a BOM of
  // its own, which is what the scanner skips, so the line keeps its EF.
  if (at > out && load<u8>(out) == 0xef) {
    memory.copy(out + 3, out, at - out);
    store<u8>(out, 0xef);
    store<u8>(out + 1, 0xbb);
    store<u8>(out + 2, 0xbf);
    at += 3;
  }
  store<u32>(at, <u32>(<i32>(at - out) + grown), CODED_PLAIN_LENGTH);
  return <u32>(at - out) + CODED_TRAILER;
}

/**
 * Appends the current line of the scanner. Inlined into the scan loop: grown past binaryen's
 * inlining limit, a call per line cost a site's first check 100-200 ns more (Node 24, the corpus).
 */
@inline export function compactLine(): void {
  if (currentLine() > 1) store<u8>(at++, 0x0a);
  const kf = currentKindFlags();
  const body = scanBody();
  if (kf & SCAN_F_TOO_LONG) {
    keepWhole(body + currentLineStart(), currentLineEnd() - currentLineStart());
    return;
  }
  const kind = kf & KIND_MASK;
  if (kind <= <u32>KIND_OTHER) {
    const key = body + currentKeyStart();
    const n = currentKeyEnd() - currentKeyStart();
    const start = at;
    at = append(at, key, n);
    store<u8>(at++, kf & SCAN_F_NO_COLON ? 0x20 : 0x3a);
    // The key and its colon become the code when they are its spelling: selects, not branches,
    // since the kinds of lines alternate unpredictably.
    const ki = kind < <u32>KIND_OTHER ? kind : <u32>KIND_OTHER;
    const row = KEYS + (ki << 5);
    const same = i8x16.all_true(i8x16.eq(v128.and(v128.load(key), v128.load(row + 16)), v128.load(row)));
    // A key without its colon (SCAN_F_NO_COLON, above any key length here) is never coded.
    const coded = same & ((n | (kf & SCAN_F_NO_COLON)) == load<u32>(KEY_LENGTHS + (ki << 2)));
    store<u8>(start, select<u32>(load<u8>(KEY_CODES + ki), load<u8>(start), coded));
    const end = at;
    at = select<usize>(start + 1, end, coded);
    grown += <i32>(end - at);
    at = append(at, body + currentValueStart(), currentValueEnd() - currentValueStart());
    if (kf & SCAN_F_COMMENT) store<u8>(at++, 0x23);
  } else if (kind == KIND_INVALID) {
    store<u8>(at++, 0x78);
    if (kf & SCAN_F_COMMENT) store<u8>(at++, 0x23);
  } else if (kind == KIND_COMMENT) store<u8>(at++, 0x23);
}

// A line kept whole (too long), after ESC when it starts with a code: apart from compactLine,
// which every line runs, since almost none comes here.
function keepWhole(from: usize, n: u32): void {
  if (isCode(<u32>load<u8>(from))) {
    store<u8>(at++, ESC);
    grown--;
  }
  at = append(at, from, n);
}

/**
 * Writes the plain compact body of the coded one [src, src + len) at `dst` (room for its plain
 * length and 64 bytes of slack; `src` has 64 bytes of slack) and returns its length. Work goes by
 * 64-byte blocks and codes, not lines: a block's codes are the code bytes that start a line, and
 * the bytes between two codes (at most a block's worth) are moved by four vector stores.
 */
export function expandCompact(src: usize, len: u32, dst: usize): u32 {
  let o = dst;
  let i: u32 = 0;
  // Whether the byte before the block ends a line: the first line starts the body.
  let carry: u64 = 1;
  for (let b: u32 = 0; b < len; b += 64) {
    const lanes = v128.load(CODE_LANES);
    const nl = i8x16.splat(0x0a);
    let breaks: u64 = 0;
    let codes: u64 = 0;
    for (let k: u32 = 0; k < 64; k += 16) {
      const v = v128.load(src + b + k);
      breaks |= <u64>i8x16.bitmask(i8x16.eq(v, nl)) << <u64>k;
      codes |= <u64>i8x16.bitmask(i8x16.swizzle(lanes, v)) << <u64>k;
    }
    let starts = codes & (breaks << 1 | carry);
    carry = breaks >> 63;
    const end = len - b < 64 ? len : b + 64;
    if (len - b < 64) starts &= (<u64>1 << <u64>(len - b)) - 1;
    while (starts != 0) {
      const p = b + <u32>ctz<u64>(starts);
      starts &= starts - 1;
      copy64(o, src + i);
      o += p - i;
      const s = <u32>load<u16>(SPELLING_AT + (<u32>load<u8>(src + p) << 1));
      v128.store(o, v128.load(SPELLINGS + (s >> 8)));
      o += s & 0xff;
      i = p + 1;
    }
    copy64(o, src + i);
    o += end - i;
    i = end;
  }
  return <u32>(o - dst);
}

// 64 bytes from src to dst, of which the caller keeps a prefix.
@inline function copy64(dst: usize, src: usize): void {
  v128.store(dst, v128.load(src));
  v128.store(dst + 16, v128.load(src + 16));
  v128.store(dst + 32, v128.load(src + 32));
  v128.store(dst + 48, v128.load(src + 48));
}

@inline function append(dst: usize, src: usize, n: u32): usize {
  copyRun(dst, src, n);
  return dst + n;
}
