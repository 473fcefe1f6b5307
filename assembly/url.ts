// The matcher's input side (Google's GetPathParamsQuery, after our URL normalization): finds a URL's path and normalizes it, and turns
// a batch's UTF-16 code units into UTF-8 as TextEncoder would. Owns the matcher's scratch area and
// the current path: after `locatePath`, path()/pathLength() name the normalized path, either inside
// the URL itself (nothing to change) or in scratch.
//
// Invariants: scratch holds at least 3 * (URL length) + 8 bytes for a normalized path (9 * for a
// URL line, which may be ill-formed UTF-8), then room for the matcher's KMP table (see index.ts);
// vector stores may write up to 15 bytes past the path. queryFirst/queryLast describe the current
// path whenever it lies inside the URL.

import { LINE_BOUNDS_SIZE, LINE_END, LINE_START } from '../src/engine/layout';
import { byteVector, copyRun, FFFD_BYTES, isTriple, nextSpecial, PERCENT, SLASH, storeEscaped, storeReplacement, storeUpperTriple, V_HASH, V_LF, V_NUL, V_PERCENT, V_QUERY, V_SEMI, V_SLASH } from './bytes';

const HTTPS: u64 = 0x2f2f3a7370747468; // "https://", little-endian
const HTTP: u64 = 0x2f2f3a70747468; // "http://"

let scratchBase: usize = 0;
let pathPtr: usize = 0;
let pathLen: u32 = 0;

export function useScratch(scratch: usize): void {
  scratchBase = scratch;
}

/** The normalized path of the last URL given to locatePath. */
@inline export function path(): usize {
  return pathPtr;
}

@inline export function pathLength(): u32 {
  return pathLen;
}

/** First scratch byte past the normalized path (4-aligned): free for the matcher during a call. */
@inline export function scratchAfterPath(): usize {
  return (scratchBase + <usize>pathLen + 4) & ~(3 as usize);
}

// Google's GetPathParamsQuery, after our URL normalization: finds the path of the URL at [url, url+len) and leaves it, normalized, in
// pathPtr/pathLen. The path points into the URL itself when no byte needs changing, else into
// scratch. Normalizing only the path is equivalent to normalizing the whole URL first: the
// delimiters `/ ? ; # :` are never part of a `%hh` triple and escaping never produces them.
export function locatePath(url: usize, len: u32): void {
  locate(url, len, false);
}

// locatePath for the URL line that starts at data + start in data[0, len), as every line export
// reads it: the line ends at its '\n' (a '\r' before it dropped) or at len. The path is found
// and the line's end in the same sweep, which stops at the first '\n' wherever it falls; only a
// path cut short by '#' or NUL leaves the rest of the line to scan. Sets lineNext.
export function locateLine(data: usize, start: u32, len: u32): void {
  lineNext = start + locate(data + start, len - start, true) + 1;
}

// The sweep of both. With `line` (a constant at each call site) `len` is the rest of the data and
// a '\n' ends the URL; returns where (len when none), else 0. Every test below reads bytes before
// that '\n' or compares a byte with one that is not '\n', so a URL line is located exactly as the
// line's text alone would be. Ill-formed UTF-8 needs no pass of its own: only path bytes can
// change the verdict, and normalize() repairs them as it escapes them.
//
// One pass instead of the spec's separate searches: the first of '/', '?', ';', '#' from s decides.
// A '#' first means the path is "/". A '/' that ends a "://" (the ':' at index >= s) is the
// protocol; no earlier "://" can exist, since its '/' would have come first. The path then starts
// at the first delimiter after "://", again "/" if a '#' comes first.
//
// "https://" and "http://" are read as one word: neither scheme holds a delimiter, so the general
// path would find the same "://" (slack makes the 8-byte read safe for a 7-byte URL).
@inline function locate(url: usize, len: u32, line: bool): u32 {
  let i: u32 = 0;
  const head = load<u64>(url);
  if (len >= 8 && head == HTTPS) i = findDelimiter(url, 8, len, line);
  else if (len >= 7 && (head & 0x00ffffffffffffff) == HTTP) i = findDelimiter(url, 7, len, line);
  else {
    if (len >= 2 && load<u8>(url) == SLASH && load<u8>(url, 1) == SLASH) i = 2;
    const s = i;
    i = findDelimiter(url, i, len, line);
    if (i < len && load<u8>(url + i) == SLASH && i > s && i + 1 < len && load<u8>(url + i - 1) == 0x3a && load<u8>(url + i + 1) == SLASH) {
      i = findDelimiter(url, i + 2, len, line);
    }
  }
  if (i >= len || load<u8>(url + i) != SLASH && load<u8>(url + i) != 0x3f && load<u8>(url + i) != 0x3b) {
    // No path before '#' or the line's end.
    setRootPath();
    return line ? newlineFrom(url, i, len) : 0;
  }
  const p = i;
  // Path end: '#' or NUL (the reference reads the path as a C string), or the line's '\n'; note
  // whether any byte needs normalizing (>= 0x80 or '%') and where the '?'s are, 16 bytes at a time.
  let end = len;
  let dirty = false;
  let qFirst: i32 = -1;
  let qLast: i32 = -1;
  const vHash = byteVector(V_HASH);
  const vZero = byteVector(V_NUL);
  const vNl = byteVector(V_LF);
  const vQuery = byteVector(V_QUERY);
  const vPct = byteVector(V_PERCENT);
  for (; i < len; i += 16) {
    const v = v128.load(url + i);
    let live: u32 = len - i < 16 ? (1 << (len - i)) - 1 : 0xffff;
    let stops = v128.or(i8x16.eq(v, vHash), i8x16.eq(v, vZero));
    if (line) stops = v128.or(stops, i8x16.eq(v, vNl));
    const stop = i8x16.bitmask(stops) & live;
    if (stop != 0) live = (1 << ctz<u32>(stop)) - 1;
    if (((i8x16.bitmask(i8x16.eq(v, vPct)) | i8x16.bitmask(v)) & live) != 0) dirty = true;
    const q = i8x16.bitmask(i8x16.eq(v, vQuery)) & live;
    if (q != 0) {
      if (qFirst < 0) qFirst = <i32>(i + ctz<u32>(q) - p);
      qLast = <i32>(i + 31 - clz<u32>(q) - p);
    }
    if (stop != 0) {
      end = i + ctz<u32>(stop);
      break;
    }
  }
  let next: u32 = 0;
  if (line) {
    next = newlineFrom(url, end, len);
    // A path that runs to the line's end ends with the line's text; url[p] is a delimiter, so a
    // dropped '\r' is never the path's first byte.
    if (next == end) end = textEnd(url, p, end, len);
  }
  if (!dirty && load<u8>(url + p) == SLASH) {
    pathPtr = url + p;
    pathLen = end - p;
    queryFirst = qFirst;
    queryLast = qLast;
  } else {
    normalize(url, p, end);
    queryFirst = QUERY_UNKNOWN;
  }
  return next;
}

// The index of the first '\n' at or after i in url[0, len), or len.
@inline function newlineFrom(url: usize, i: u32, len: u32): u32 {
  return i < len && load<u8>(url + i) == 0x0a ? i : lineEnd(url, i, len);
}

// Where '?' first and last occurs in the current path (-1 when it has none), or QUERY_UNKNOWN in
// queryFirst when the path was rewritten into scratch: the matcher's probe of '?' needs no scan
// of its own for a path that stayed in place.
export const QUERY_UNKNOWN: i32 = -2;
export let queryFirst: i32 = -1;
export let queryLast: i32 = -1;

// url[p, end) normalized into scratch as the path: a leading '/' added when it starts with '?' or
// ';', bytes >= 0x80 escaped as %HH and %hh triples upper-cased (RFC 9309 2.2.2), and an ill-formed
// UTF-8 sequence first replaced by U+FFFD as TextDecoder would, so raw bytes get the verdict of
// the string they decode to. Writes at most 9 bytes per byte (a lone byte becomes %EF%BF%BD).
function normalize(url: usize, p: u32, end: u32): void {
  let o = scratchBase;
  if (load<u8>(url + p) != SLASH) { store<u8>(o, SLASH); o++; }
  let i = p;
  while (true) {
    const k = nextSpecial(url, i, end);
    copyRun(o, url + i, k - i);
    o += k - i;
    if (k >= end) break;
    const c = <u32>load<u8>(url + k);
    if (c >= 0x80) {
      const n = utf8Sequence(url + k, end - k);
      if (n > 0) {
        for (let j: u32 = 0; j < <u32>n; j++) {
          storeEscaped(o, <u32>load<u8>(url + k + j));
          o += 3;
        }
        i = k + <u32>n;
      } else {
        // U+FFFD, EF BF BD, escaped.
        store<u64>(o, 0x4225464225464525); // "%EF%BF%B", little-endian
        store<u8>(o + 8, 0x44); // "D"
        o += 9;
        i = k + <u32>(-n);
      }
    } else if (isTriple(url, k, end)) {
      storeUpperTriple(o, url + k);
      o += 3;
      i = k + 3;
    } else {
      store<u8>(o, PERCENT);
      o++;
      i = k + 1;
    }
  }
  pathPtr = scratchBase;
  pathLen = <u32>(o - scratchBase);
}

// First index >= i of '/', '?', ';' or '#' (or '\n' with `line`, a constant at each call site), or len.
@inline function findDelimiter(url: usize, i: u32, len: u32, line: bool): u32 {
  const vSlash = byteVector(V_SLASH);
  const vQuery = byteVector(V_QUERY);
  const vSemi = byteVector(V_SEMI);
  const vHash = byteVector(V_HASH);
  const vNl = byteVector(V_LF);
  for (; i < len; i += 16) {
    const v = v128.load(url + i);
    let m = v128.or(v128.or(i8x16.eq(v, vSlash), i8x16.eq(v, vQuery)), v128.or(i8x16.eq(v, vSemi), i8x16.eq(v, vHash)));
    if (line) m = v128.or(m, i8x16.eq(v, vNl));
    let bits = i8x16.bitmask(m);
    if (len - i < 16) bits &= (1 << (len - i)) - 1;
    if (bits != 0) return i + ctz<u32>(bits);
  }
  return len;
}

function setRootPath(): void {
  store<u8>(scratchBase, SLASH);
  pathPtr = scratchBase;
  pathLen = 1;
  queryFirst = -1;
  queryLast = -1;
}

// UTF-16 code units [from, to) at `units` as UTF-8 at `dst`, byte for byte what TextEncoder
// writes (a lone surrogate becomes U+FFFD); returns the byte count. ASCII runs 32, 16 or 8 units
// at a time.
export function utf16ToUtf8(units: usize, from: u32, to: u32, dst: usize): u32 {
  const high = i16x8.splat(<i16>0xff80);
  let o = dst;
  let i = from;
  while (i < to) {
    const left = to - i;
    // Long ASCII runs (whole robots.txt bodies) 32 units per test.
    if (left >= 32) {
      const q = units + (<usize>i << 1);
      const a = v128.load(q);
      const b = v128.load(q, 16);
      const c = v128.load(q, 32);
      const d = v128.load(q, 48);
      if (!v128.any_true(v128.and(v128.or(v128.or(a, b), v128.or(c, d)), high))) {
        v128.store(o, i8x16.narrow_i16x8_u(a, b));
        v128.store(o, i8x16.narrow_i16x8_u(c, d), 16);
        o += 32;
        i += 32;
        continue;
      }
    }
    const v = v128.load(units + (<usize>i << 1));
    if (left >= 16) {
      const w = v128.load(units + (<usize>i << 1), 16);
      if (!v128.any_true(v128.and(v128.or(v, w), high))) {
        v128.store(o, i8x16.narrow_i16x8_u(v, w));
        o += 16;
        i += 16;
        continue;
      }
    }
    // The last units of a string, or eight before a non-ASCII one: lanes past `to` are read
    // (slack) and written (stage slack) but not counted.
    const ascii = ~<u32>i16x8.bitmask(i16x8.ne(v128.and(v, high), i16x8.splat(0))) & 0xff;
    const run: u32 = ascii == 0xff ? 8 : ctz<u32>(~ascii);
    if (run != 0) {
      store<u64>(o, i64x2.extract_lane(i8x16.narrow_i16x8_u(v, v), 0));
      const n = run < left ? run : left;
      o += n;
      i += n;
      continue;
    }
    const c = <u32>load<u16>(units + (<usize>i << 1));
    i++;
    if (c < 0x80) {
      store<u8>(o, <u8>c);
      o += 1;
    } else if (c < 0x800) {
      store<u8>(o, <u8>(0xc0 | (c >> 6)));
      store<u8>(o, <u8>(0x80 | (c & 0x3f)), 1);
      o += 2;
    } else if ((c & 0xf800) != 0xd800) {
      store<u8>(o, <u8>(0xe0 | (c >> 12)));
      store<u8>(o, <u8>(0x80 | ((c >> 6) & 0x3f)), 1);
      store<u8>(o, <u8>(0x80 | (c & 0x3f)), 2);
      o += 3;
    } else {
      const d = i < to ? <u32>load<u16>(units + (<usize>i << 1)) : 0;
      if (c < 0xdc00 && (d & 0xfc00) == 0xdc00) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        store<u8>(o, <u8>(0xf0 | (cp >> 18)));
        store<u8>(o, <u8>(0x80 | ((cp >> 12) & 0x3f)), 1);
        store<u8>(o, <u8>(0x80 | ((cp >> 6) & 0x3f)), 2);
        store<u8>(o, <u8>(0x80 | (cp & 0x3f)), 3);
        o += 4;
        i++;
      } else {
        storeReplacement(o);
        o += FFFD_BYTES;
      }
    }
  }
  return <u32>(o - dst);
}

// The end of the line that starts at `start` in data[0, len): the index of its '\n', or len for a
// last line without one; 16 bytes at a time.
export function lineEnd(data: usize, start: u32, len: u32): u32 {
  const vNl = i8x16.splat(0x0a);
  for (let i = start; i < len; i += 16) {
    let nl = i8x16.bitmask(i8x16.eq(v128.load(data + i), vNl));
    if (len - i < 16) nl &= (1 << (len - i)) - 1;
    if (nl != 0) return i + ctz<u32>(nl);
  }
  return len;
}

// The URL line that starts at `start` in data[0, len), as every line export reads it: returns the
// end of its text (a '\r' before its '\n' dropped); lineNext is where the next line starts.
export let lineNext: u32 = 0;
@inline export function urlLine(data: usize, start: u32, len: u32): u32 {
  lineNext = lineEnd(data, start, len) + 1;
  return lineText(data, start, len);
}

// The end of the text of the line from `start` to lineNext (set by urlLine or locateLine).
@inline export function lineText(data: usize, start: u32, len: u32): u32 {
  return textEnd(data, start, lineNext - 1, len);
}

// The end of the text of the line from `start` whose '\n' is at nl (len: it has none): a '\r'
// before the '\n' is dropped, one ending a last line without '\n' is kept.
@inline function textEnd(data: usize, start: u32, nl: u32, len: u32): u32 {
  return nl < len && nl > start && load<u8>(data + nl - 1) == 0x0d ? nl - 1 : nl;
}

// Each line of data[0, len) as the line exports read it: where it starts and where its text ends
// (a '\r' before its '\n' dropped), plus `base`, at out (LINE_BOUNDS_SIZE bytes each); returns the
// number of lines. The CLI looks at single lines (its origin filter) only through these.
export function lineBounds(data: usize, len: u32, base: u32, out: usize): u32 {
  let start: u32 = 0;
  let i: usize = 0;
  while (start < len) {
    const at = out + i * LINE_BOUNDS_SIZE;
    store<u32>(at, base + start, LINE_START);
    store<u32>(at, base + urlLine(data, start, len), LINE_END);
    i++;
    start = lineNext;
  }
  return <u32>i;
}

// The UTF-8 sequence that starts at src[0] (a byte >= 0x80) within src[0, n), as the WHATWG
// decoder reads it: its length when well-formed, else the negated length of its maximal ill-formed
// subpart (at least 1), which decodes to one U+FFFD; the byte after that subpart is not consumed.
@inline function utf8Sequence(src: usize, n: u32): i32 {
  const c = <u32>load<u8>(src);
  let need: u32 = 0;
  let lo: u32 = 0x80;
  let hi: u32 = 0xbf;
  if (c - 0xc2 <= 0xdf - 0xc2) need = 1;
  else if (c - 0xe0 <= 0xef - 0xe0) {
    need = 2;
    if (c == 0xe0) lo = 0xa0;
    else if (c == 0xed) hi = 0x9f;
  } else if (c - 0xf0 <= 0xf4 - 0xf0) {
    need = 3;
    if (c == 0xf0) lo = 0x90;
    else if (c == 0xf4) hi = 0x8f;
  }
  // j counts the lead and the continuation bytes accepted so far.
  let j: u32 = 1;
  while (j <= need && j < n) {
    const d = <u32>load<u8>(src + j);
    if (d < lo || d > hi) break;
    lo = 0x80;
    hi = 0xbf;
    j++;
  }
  return need != 0 && j > need ? <i32>j : -<i32>j;
}

// True when p[0, n) is well-formed UTF-8 (TextDecoder would replace nothing).
export function wellFormedUtf8(p: usize, n: u32): bool {
  let i: u32 = 0;
  while (i < n) {
    if (<u32>load<u8>(p + i) < 0x80) {
      i++;
      continue;
    }
    const k = utf8Sequence(p + i, n - i);
    if (k <= 0) return false;
    i += <u32>k;
  }
  return true;
}

// The host encoded `count` strings joined into one UTF-8 run at `bytes` (TextEncoder output, no
// surrogate pair split across two strings) and wrote their ends in UTF-16 units; rewrites them in
// place as byte offsets.
export function unitEndsToByteEnds(ends: usize, bytes: usize, count: u32): void {
  let b: u32 = 0;
  let u: u32 = 0;
  for (let k: u32 = 0; k < count; k++) {
    const at = ends + (<usize>k << 2);
    const target = load<u32>(at);
    while (u < target) {
      // ASCII bytes are one unit each: jump over up to 16 of them (never past this string's end),
      // stopping at the first multi-byte sequence.
      const k = target - u < 16 ? target - u : 16;
      const ascii = i8x16.bitmask(v128.load(bytes + b)) & ((1 << k) - 1);
      const z = ascii == 0 ? k : ctz<u32>(ascii);
      u += z;
      b += z;
      if (z == k) continue;
      const c = <u32>load<u8>(bytes + b);
      if (c < 0xe0) { b += 2; u += 1; }
      else if (c < 0xf0) { b += 3; u += 1; }
      else { b += 4; u += 2; } // a surrogate pair: two units, four bytes
    }
    store<u32>(at, b);
  }
}
