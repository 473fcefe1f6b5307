// The line scanner (RFC 9309 2.2; Google's ParseRobotsTxt and ParseKeyAndValue): splits a body
// into lines (BOM, CR/LF/CRLF, the 16,663-byte cut, NUL), removes comments, trims, finds key and
// value and classifies the key. It hands out one line at a time: `nextLine` advances, and the
// accessors below describe the current line until the next call. The compiler pulls directives
// this way; `scan` writes every line as a record (SCAN_* in src/engine/layout.ts) for the host.
//
// Invariants: the body [body, body + len) stays in place from scanStart until the body is done
// (nextLine returned false); offsets handed out are relative to the body's start; every line is
// seen exactly once, in order, numbered from 1.

import {
  KIND_ALLOW, KIND_COMMENT, KIND_DISALLOW, KIND_EMPTY, KIND_INVALID, KIND_OTHER, KIND_SITEMAP, KIND_USER_AGENT,
  MAX_LINE_BYTES, SCAN_F_COMMENT, SCAN_F_ESCAPE, SCAN_F_GLOBAL, SCAN_F_NO_COLON, SCAN_F_TOO_LONG,
  SCAN_F_TYPO, SCAN_KEY_END, SCAN_KEY_START, SCAN_KIND, SCAN_LINE, SCAN_LINE_END, SCAN_LINE_START,
  SCAN_RECORD_SIZE, SCAN_VAL_END, SCAN_VAL_START,
} from '../src/engine/layout';
import { byteVector, findEither, isSpaceByte, nextSpecial, STAR, V_COLON, V_CR, V_HASH, V_LF, V_NUL } from './bytes';

let sBody: usize = 0;
let sLen: u32 = 0;
let sPos: u32 = 0;
let sDone = true;

// The current line.
let lineNo: u32 = 0;
let kindFlags: u32 = 0;
let lineStart: u32 = 0;
let lineEnd: u32 = 0;
let keyStart: u32 = 0;
let keyEnd: u32 = 0;
let valStart: u32 = 0;
let valEnd: u32 = 0;

export function scanStart(body: usize, len: u32): void {
  sBody = body;
  sLen = len;
  lineNo = 0;
  sDone = false;
  mBlock = u32.MAX_VALUE;
  // Up to three bytes are skipped while they match EF BB BF in order.
  let i: u32 = 0;
  if (i < len && load<u8>(body) == 0xef) {
    i++;
    if (i < len && load<u8>(body + 1) == 0xbb) {
      i++;
      if (i < len && load<u8>(body + 2) == 0xbf) i++;
    }
  }
  sPos = i;
}

/**
 * Continues a scan of [body, body + len) that other calls interrupted (they each start their own):
 * at byte `pos`, where line `line` + 1 begins, as scanPosition() said after the last line read.
 */
export function scanResume(body: usize, len: u32, pos: u32, line: u32): void {
  scanStart(body, len);
  if (line == 0) return;
  sPos = pos;
  lineNo = line;
}

/** Where the next line begins, or -1 when the body is done. */
export function scanPosition(): i32 {
  return sDone ? -1 : <i32>sPos;
}

/** The body being scanned (its offsets are what the accessors hand out). */
@inline export function scanBody(): usize { return sBody; }
/** Lines seen so far (all of them once nextLine has returned false). */
export function scanLineCount(): u32 { return lineNo; }
@inline export function currentLine(): u32 { return lineNo; }
/** KIND_* in the low byte, SCAN_F_* above. */
@inline export function currentKindFlags(): u32 { return kindFlags; }
@inline export function currentLineStart(): u32 { return lineStart; }
@inline export function currentLineEnd(): u32 { return lineEnd; }
@inline export function currentKeyStart(): u32 { return keyStart; }
@inline export function currentKeyEnd(): u32 { return keyEnd; }
@inline export function currentValueStart(): u32 { return valStart; }
@inline export function currentValueEnd(): u32 { return valEnd; }

// ASCII case-insensitive: does [k, k+n) start with the lower-case word at `word`?
@inline export function keyIs(k: usize, n: u32, word: string): bool {
  const w = word.length;
  if (n < <u32>w) return false;
  for (let i = 0; i < w; i++) {
    if ((<u32>load<u8>(k + i) | 0x20) != <u32>word.charCodeAt(i)) return false;
  }
  return true;
}

// The key's first eight bytes with ASCII letters lower-cased (`| 0x20`). Only a letter folds onto a
// letter; '-' and ' ' fold from CR and NUL, which a line never holds; bytes >= 0x80 stay >= 0x80.
// May read past the key (the body keeps slack after it); callers compare only bytes the key has.
@inline function folded8(k: usize): u64 {
  return load<u64>(k) | 0x2020202020202020;
}

// The canonical spellings as folded little-endian words: "user-age" + "nt", "disallow", "allow",
// "sitemap", "site-map".
const W_USER_AGE: u64 = 0x6567612d72657375;
const W_NT: u32 = 0x746e;
const W_DISALLOW: u64 = 0x776f6c6c61736964;
const W_ALLOW: u64 = 0x776f6c6c61;
const W_SITEMAP: u64 = 0x70616d65746973;
const W_SITE_MAP: u64 = 0x70616d2d65746973;

// Google's ParsedRobotsKey::Parse: the kind of key [k, k+n), by prefix, with
// SCAN_F_TYPO for an accepted misspelling. The canonical spellings are compared a word at a time;
// the misspellings, rare, byte by byte (every letter compared is A-Z/a-z, so `| 0x20` folds case;
// the hyphen and space in "user-agent" / "user agent" / "site-map" are compared exactly).
function classifyKey(k: usize, n: u32): u32 {
  const w = folded8(k);
  const c = <u32>(w & 0xff);
  if (c == 0x75) { // u
    if (n >= 10 && w == W_USER_AGE && ((<u32>load<u16>(k + 8) | 0x2020) == W_NT)) return KIND_USER_AGENT;
    if (n >= 9 && keyIs(k, 9, 'useragent')) return KIND_USER_AGENT | SCAN_F_TYPO;
    if (n >= 10 && keyIs(k, 4, 'user') && load<u8>(k + 4) == 0x20 && keyIs(k + 5, 5, 'agent')) return KIND_USER_AGENT | SCAN_F_TYPO;
    return KIND_OTHER;
  }
  if (c == 0x61) return n >= 5 && (w & 0xffffffffff) == W_ALLOW ? KIND_ALLOW : KIND_OTHER; // a
  if (c == 0x64) { // d
    if (n >= 8 && w == W_DISALLOW) return KIND_DISALLOW;
    if (keyIs(k, n, 'dissallow') || keyIs(k, n, 'dissalow') || keyIs(k, n, 'disalow') || keyIs(k, n, 'diasllow') || keyIs(k, n, 'disallaw')) return KIND_DISALLOW | SCAN_F_TYPO;
    return KIND_OTHER;
  }
  if (c == 0x73) { // s
    if (n >= 7 && (w & 0xffffffffffffff) == W_SITEMAP) return KIND_SITEMAP;
    if (n >= 8 && w == W_SITE_MAP) return KIND_SITEMAP | SCAN_F_TYPO;
    return KIND_OTHER;
  }
  return KIND_OTHER;
}

// ─── Block masks ─────────────────────────────────────────────────────────────────────────────────
// The body is read in 64-byte blocks (counted from its start): one pass of vector compares per
// block gives a bit per byte for line breaks, for the bytes that cut a line (NUL, '#') and for ':'.
// A line's end, its cut and its first colon are then found with ctz in the same walk over its
// blocks, with no per-line byte search and no data-dependent exit per 16 bytes: lines are short,
// and those branches, not the bytes, set the cost of a scan. Bits of bytes past the body's end are
// garbage and never read: every position found is clipped to the line or the body.
// A block may be read up to 63 bytes past the body's end; the host keeps that slack (index.ts).

let mBlock: u32 = u32.MAX_VALUE;

let mBreak: u64 = 0;
let mCut: u64 = 0;
let mColon: u64 = 0;

@inline function blockMasks(b: u32): void {
  if (b == mBlock) return;
  mBlock = b;
  const p = sBody + (<usize>b << 6);
  const vNl = byteVector(V_LF);
  const vCr = byteVector(V_CR);
  const vHash = byteVector(V_HASH);
  const vZero = byteVector(V_NUL);
  const vColon = byteVector(V_COLON);
  // Unrolled: a loop over the four vectors kept its counter and branch on every block.
  const v0 = v128.load(p);
  const v1 = v128.load(p, 16);
  const v2 = v128.load(p, 32);
  const v3 = v128.load(p, 48);
  const brk = <u64>i8x16.bitmask(v128.or(i8x16.eq(v0, vNl), i8x16.eq(v0, vCr)))
    | <u64>i8x16.bitmask(v128.or(i8x16.eq(v1, vNl), i8x16.eq(v1, vCr))) << 16
    | <u64>i8x16.bitmask(v128.or(i8x16.eq(v2, vNl), i8x16.eq(v2, vCr))) << 32
    | <u64>i8x16.bitmask(v128.or(i8x16.eq(v3, vNl), i8x16.eq(v3, vCr))) << 48;
  const cut = <u64>i8x16.bitmask(v128.or(i8x16.eq(v0, vHash), i8x16.eq(v0, vZero)))
    | <u64>i8x16.bitmask(v128.or(i8x16.eq(v1, vHash), i8x16.eq(v1, vZero))) << 16
    | <u64>i8x16.bitmask(v128.or(i8x16.eq(v2, vHash), i8x16.eq(v2, vZero))) << 32
    | <u64>i8x16.bitmask(v128.or(i8x16.eq(v3, vHash), i8x16.eq(v3, vZero))) << 48;
  const col = <u64>i8x16.bitmask(i8x16.eq(v0, vColon))
    | <u64>i8x16.bitmask(i8x16.eq(v1, vColon)) << 16
    | <u64>i8x16.bitmask(i8x16.eq(v2, vColon)) << 32
    | <u64>i8x16.bitmask(i8x16.eq(v3, vColon)) << 48;
  mBreak = brk;
  mCut = cut;
  mColon = col;
}

// Set by findLine: the first NUL or '#' and the first ':' of the line (the line's end when none).
let lineCut: u32 = 0;
let lineColon: u32 = 0;

// The end of the line that starts at i (the first '\n' or '\r', or len), with lineCut and
// lineColon found on the way.
@inline function findLine(i: u32, len: u32): u32 {
  let cutAt = u32.MAX_VALUE;
  let colonAt = u32.MAX_VALUE;
  let b = i >> 6;
  let keep: u64 = u64.MAX_VALUE << <u64>(i & 63);
  let j = len;
  while ((b << 6) < len) {
    blockMasks(b);
    const base = b << 6;
    const brk = mBreak & keep;
    // Bits before the break (all of them when the block has none).
    const before: u64 = brk != 0 ? (brk & (~brk + 1)) - 1 : u64.MAX_VALUE;
    const cut = mCut & keep & before;
    const col = mColon & keep & before;
    if (cut != 0 && cutAt == u32.MAX_VALUE) cutAt = base + <u32>ctz<u64>(cut);
    if (col != 0 && colonAt == u32.MAX_VALUE) colonAt = base + <u32>ctz<u64>(col);
    if (brk != 0) {
      j = base + <u32>ctz<u64>(brk);
      break;
    }
    b++;
    keep = u64.MAX_VALUE;
  }
  if (j > len) j = len;
  lineCut = cutAt < j ? cutAt : j;
  lineColon = colonAt < j ? colonAt : j;
  return j;
}

/** Advances to the next line; false when the body is done. */
export function nextLine(): bool {
  if (sDone) return false;
  const body = sBody;
  const len = sLen;
  const i = sPos;
  const j = findLine(i, len);
  lineNo++;
  lineStart = i;
  lineEnd = j;
  let flags: u32 = 0;
  let e = j;
  if (j - i > <u32>MAX_LINE_BYTES) { e = i + <u32>MAX_LINE_BYTES; flags |= SCAN_F_TOO_LONG; }
  // A NUL ends the line; a '#' before it starts a comment.
  const cut = lineCut;
  if (cut < e) {
    if (load<u8>(body + cut) == 0x23) flags |= SCAN_F_COMMENT;
    e = cut;
  }
  let s = i;
  while (s < e && isSpaceByte(load<u8>(body + s))) s++;
  while (e > s && isSpaceByte(load<u8>(body + e - 1))) e--;
  let kind: u32 = flags & SCAN_F_COMMENT ? KIND_COMMENT : KIND_EMPTY;
  keyStart = s;
  keyEnd = s;
  valStart = s;
  valEnd = e;
  if (s < e) {
    kind = KIND_INVALID;
    let kEnd: u32 = 0;
    let vStart: u32 = 0;
    let ok = false;
    // No byte before s is a colon (only spaces are skipped), so the line's first colon is the key's.
    const colon = lineColon;
    if (colon < e) {
      kEnd = colon;
      while (kEnd > s && isSpaceByte(load<u8>(body + kEnd - 1))) kEnd--;
      vStart = colon + 1;
      ok = kEnd > s;
    } else {
      // No colon: exactly two runs of non-space/tab, separated by spaces/tabs.
      const sep = findEither(body, s, e, 0x20, 0x09);
      if (sep < e) {
        let v = sep;
        while (v < e && (load<u8>(body + v) == 0x20 || load<u8>(body + v) == 0x09)) v++;
        if (findEither(body, v, e, 0x20, 0x09) == e) {
          kEnd = sep;
          vStart = sep + 1;
          flags |= SCAN_F_NO_COLON;
          ok = true;
        }
      }
    }
    if (ok) {
      while (vStart < e && isSpaceByte(load<u8>(body + vStart))) vStart++;
      const k = classifyKey(body + s, kEnd - s);
      flags |= k & ~0xff;
      kind = k & 0xff;
      if (kind == KIND_USER_AGENT) {
        if (e > vStart && load<u8>(body + vStart) == STAR) {
          if (e - vStart == 1) flags |= SCAN_F_GLOBAL;
          else {
            const c = <u32>load<u8>(body + vStart + 1);
            if (c == 0x20 || c == 0x09 || c == 0x0b || c == 0x0c) flags |= SCAN_F_GLOBAL;
          }
        }
      } else if (kind == KIND_ALLOW || kind == KIND_DISALLOW) {
        if (nextSpecial(body, vStart, e) < e) flags |= SCAN_F_ESCAPE;
      }
      keyEnd = kEnd;
      valStart = vStart;
    }
  }
  kindFlags = kind | flags;
  if (j >= len) sDone = true;
  // \n, \r and \r\n are one break each.
  else sPos = load<u8>(body + j) == 0x0d && j + 1 < len && load<u8>(body + j + 1) == 0x0a ? j + 2 : j + 1;
  return true;
}

/** Writes up to `cap` line records at `out` and returns how many; 0 means the body is done. */
export function scan(out: usize, cap: u32): u32 {
  let count: u32 = 0;
  while (count < cap && nextLine()) {
    const r = out + <usize>count * SCAN_RECORD_SIZE;
    store<u32>(r, lineNo, SCAN_LINE);
    store<u32>(r, kindFlags, SCAN_KIND);
    store<u32>(r, lineStart, SCAN_LINE_START);
    store<u32>(r, lineEnd, SCAN_LINE_END);
    store<u32>(r, keyStart, SCAN_KEY_START);
    store<u32>(r, keyEnd, SCAN_KEY_END);
    store<u32>(r, valStart, SCAN_VAL_START);
    store<u32>(r, valEnd, SCAN_VAL_END);
    count++;
  }
  return count;
}
