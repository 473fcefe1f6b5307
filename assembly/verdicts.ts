// Verdict lines: the byte path's output for `robotstxt check --urls`. Takes URL lines (as the line
// exports in matcher.ts read them) with one code and one mark per line, and writes one text line
// per URL: `allowed<TAB>LINE<TAB>URL`, `disallowed<TAB>LINE<TAB>URL`, or `error<TAB>0<TAB>URL` for a
// line the host rejected (VERDICT_* in src/engine/layout.ts).
//
//   verdictLines(data, len, code, marks, out): u32
//       data[0, len): URL lines ('\n'; a '\r' before it dropped; a last line without '\n' counts).
//       code: every line's, the matching line when allowed, ~line when disallowed (a fetched
//       robots.txt that allows or disallows everything).
//       marks: u8 per line (VERDICT_*), or 0 when every code stands. Returns the bytes written.
//   checkVerdictLines(data, len, marks, out): u32
//       the same with each code computed against the current table, as checkLines computes it, in
//       the one pass.
//   verdictLinesSeen(), verdictDisallowed(), verdictControls(), verdictSuspects(): the lines the
//       last call wrote, how many of them were disallowed (rejected lines not counted), how many
//       echo a URL the host must escape (a character a terminal acts on: C0, DEL, C1, bidi
//       overrides and isolates; or ill-formed UTF-8, whose bytes the host writes as \xHH,
//       src/cli/stream.ts), and how many lines (not rejected) are not plainly a URL or a path
//       (plainUrl), which the host then judges itself: the common output costs a few compares.
//
// Invariants: a URL is echoed byte for byte as it was read (the host escapes the lines counted in
// verdictControls); nothing is written past out + len + VERDICT_LINE_OVERHEAD * lines, plus 15
// bytes of vector slack; the host keeps 64 bytes of slack after data too, for 16-byte reads.

import { VERDICT_CODE, VERDICT_ERROR_SILENT } from '../src/engine/layout';
import { copyRun } from './bytes';
import { checkLine, ruleLine } from './matcher';
import { lineNext, lineText, urlLine, wellFormedUtf8 } from './url';

// The prefixes, as static bytes and their lengths (copyRun reads 16 bytes: the rest is never kept).
const ALLOWED = memory.data<u8>([0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x65, 0x64, 0x09]); // "allowed\t"
const ALLOWED_LEN: u32 = 8;
const DISALLOWED = memory.data<u8>([0x64, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x65, 0x64, 0x09]); // "disallowed\t"
const DISALLOWED_LEN: u32 = 11;
const ERROR = memory.data<u8>([0x65, 0x72, 0x72, 0x6f, 0x72, 0x09, 0x30, 0x09]); // "error\t0\t"
const ERROR_LEN: u32 = 8;

// Writes v (0 <= v < 2^32) in decimal at o; returns the end.
@inline function putDecimal(o: usize, v: u32): usize {
  let digits: u32 = 1;
  for (let t = v; t >= 10; t /= 10) digits++;
  let k = o + digits;
  do {
    k--;
    store<u8>(k, <u8>(0x30 + v % 10));
    v /= 10;
  } while (v != 0);
  return o + digits;
}

// Writes one output line at o: the prefix of its code or mark, the URL (unless the mark is
// VERDICT_ERROR_SILENT) as read and '\n'; returns the end. A URL the host must escape (a control,
// or ill-formed UTF-8) is counted in controlsSeen.
@inline function writeLine(o: usize, mark: u32, code: i32, url: usize, n: u32): usize {
  if (mark == VERDICT_CODE) {
    if (code < 0) {
      copyRun(o, DISALLOWED, DISALLOWED_LEN);
      o = putDecimal(o + DISALLOWED_LEN, <u32>~code);
    } else {
      copyRun(o, ALLOWED, ALLOWED_LEN);
      o = putDecimal(o + ALLOWED_LEN, <u32>code);
    }
    store<u8>(o++, 0x09);
  } else {
    copyRun(o, ERROR, ERROR_LEN);
    o += ERROR_LEN;
  }
  if (mark != VERDICT_ERROR_SILENT) {
    const found = copyScan(o, url, n);
    if (found & CONTROL || (found & HIGH && (!wellFormedUtf8(o, n) || wideControl(o, n)))) controlsSeen++;
    o += n;
  }
  store<u8>(o, 0x0a);
  return o + 1;
}

// What copyScan found in the bytes it copied: a byte >= 0x80, a C0 control or DEL.
const HIGH: u32 = 1;
const CONTROL: u32 = 2;

// copyRun that also tells (HIGH | CONTROL) what the n bytes hold.
@inline function copyScan(dst: usize, src: usize, n: u32): u32 {
  let high: u32 = 0;
  let control: u32 = 0;
  const space = i8x16.splat(0x20);
  const del = i8x16.splat(0x7f);
  for (let q: u32 = 0; q < n; q += 16) {
    const v = v128.load(src + q);
    v128.store(dst + q, v);
    const live: u32 = n - q < 16 ? (1 << (n - q)) - 1 : 0xffff;
    high |= i8x16.bitmask(v) & live;
    control |= i8x16.bitmask(v128.or(i8x16.lt_u(v, space), i8x16.eq(v, del))) & live;
  }
  return (high != 0 ? HIGH : 0) | (control != 0 ? CONTROL : 0);
}

// Whether well-formed UTF-8 p[0, n) holds a C1 control (U+0080-U+009F: C2 80-9F) or a Unicode
// Bidi_Control: an embedding or override (U+202A-U+202E: E2 80 AA-AE), an isolate (U+2066-U+2069:
// E2 81 A6-A9) or a mark (U+061C: D8 9C; U+200E, U+200F: E2 80 8E-8F), as src/cli/style.ts escapes.
function wideControl(p: usize, n: u32): bool {
  for (let i: u32 = 0; i + 1 < n; i++) {
    const b = load<u8>(p + i);
    const c = load<u8>(p + i + 1);
    if (b == 0xc2 && c >= 0x80 && c <= 0x9f) return true;
    if (b == 0xd8 && c == 0x9c) return true;
    if (b == 0xe2 && i + 2 < n) {
      const d = load<u8>(p + i + 2);
      if ((c == 0x80 && ((d >= 0xaa && d <= 0xae) || d == 0x8e || d == 0x8f)) || (c == 0x81 && d >= 0xa6 && d <= 0xa9)) return true;
    }
  }
  return false;
}

let linesSeen: u32 = 0;
let disallowedSeen: u32 = 0;
let controlsSeen: u32 = 0;
let suspectsSeen: u32 = 0;

/** The lines the last verdictLines/checkVerdictLines call wrote. */
export function verdictLinesSeen(): u32 {
  return linesSeen;
}

/** How many of them were disallowed (rejected lines not counted). */
export function verdictDisallowed(): u32 {
  return disallowedSeen;
}

/** How many of them echo a URL with a control character or ill-formed UTF-8 (see writeLine). */
export function verdictControls(): u32 {
  return controlsSeen;
}

/** How many of them (not rejected) are not plainly a URL or a path (see plainUrl). */
export function verdictSuspects(): u32 {
  return suspectsSeen;
}

@inline function lower(c: u32): u32 {
  return c - 0x41 <= 25 ? c | 0x20 : c;
}

// "http://" and "https://" as little-endian u64 words, for one compare of a line's start with its
// letters lower-cased (0x20 OR-ed into the letters' bytes only: elsewhere it would turn 0x1a into ':').
const HTTP_WORD: u64 = 0x2f2f3a70747468; // "http://" (7 bytes)
const HTTPS_WORD: u64 = 0x2f2f3a7370747468; // "https://"
const HTTP_LETTERS: u64 = 0x20202020;
const HTTPS_LETTERS: u64 = 0x2020202020;

// True for a line that is certainly a URL the WHATWG parser accepts, or a path: '/' not followed
// by '/', or http:// or https:// (any case), a host of ASCII letters, digits and hyphens in
// non-empty dot-separated labels (none starting "xn--", the last not starting with a digit, so
// that neither punycode nor an IPv4 address is to be checked), an optional port up to 65535, then
// the end or '/', '?', '#'. Anything else is a suspect the host judges with the URL parser. The
// host is scanned 16 bytes at a time (the data has 64 bytes of slack for such reads).
function plainUrl(p: usize, n: u32): bool {
  if (n == 0) return false;
  const c0 = <u32>load<u8>(p);
  if (c0 == 0x2f) return n == 1 || <u32>load<u8>(p + 1) != 0x2f;
  if (n < 8) return false;
  const word = load<u64>(p);
  let i: u32 = 0;
  if ((word | HTTPS_LETTERS) == HTTPS_WORD) i = 8;
  else if (((word | HTTP_LETTERS) & 0xffffffffffffff) == HTTP_WORD) i = 7;
  else return false;
  const hostStart = i;
  let lastDot: i32 = -1;
  let afterDot = true; // the host's start counts as after a dot: a leading dot is an empty label
  let hyphen = false;
  const a = i8x16.splat(0x61);
  const zero = i8x16.splat(0x30);
  const caseBit = i8x16.splat(0x20);
  for (;;) {
    const v = v128.load(p + i);
    const letter = i8x16.le_u(i8x16.sub(v128.or(v, caseBit), a), i8x16.splat(25));
    const digit = i8x16.le_u(i8x16.sub(v, zero), i8x16.splat(9));
    const dot = i8x16.eq(v, i8x16.splat(0x2e));
    const dash = i8x16.eq(v, i8x16.splat(0x2d));
    const member = i8x16.bitmask(v128.or(v128.or(letter, digit), v128.or(dot, dash)));
    let run = <u32>ctz<u32>(~member);
    const limit = n - i;
    if (run > limit) run = limit;
    const keep: u32 = run >= 16 ? 0xffff : (1 << run) - 1;
    const dots = i8x16.bitmask(dot) & keep;
    // An empty label: a dot right after a dot (or at the start), within the run or across runs.
    if ((dots & 1 && afterDot) || dots & (dots >> 1)) return false;
    if (dots != 0) lastDot = <i32>(i + 31 - clz<u32>(dots));
    if (i8x16.bitmask(dash) & keep) hyphen = true;
    if (run > 0) afterDot = (dots >> (run - 1)) & 1 ? true : false;
    i += run;
    if (run < 16) break;
  }
  if (i == hostStart || afterDot) return false;
  if (<u32>load<u8>(p + <u32>(lastDot + 1 > <i32>hostStart ? lastDot + 1 : hostStart)) - 0x30 <= 9) return false;
  if (hyphen) {
    // A label starting "xn--" is punycode, which the URL parser decodes (and may reject).
    for (let s = hostStart; s + 4 <= i; s++) {
      if ((s == hostStart || load<u8>(p + s - 1) == 0x2e) && lower(<u32>load<u8>(p + s)) == 0x78 && lower(<u32>load<u8>(p + s + 1)) == 0x6e &&
          load<u8>(p + s + 2) == 0x2d && load<u8>(p + s + 3) == 0x2d) return false;
    }
  }
  if (i < n && load<u8>(p + i) == 0x3a) {
    i++;
    let port: u32 = 0;
    let digits: u32 = 0;
    while (i < n && <u32>load<u8>(p + i) - 0x30 <= 9 && digits < 6) {
      port = port * 10 + (<u32>load<u8>(p + i) - 0x30);
      i++;
      digits++;
    }
    if (digits == 0 || port > 65535) return false;
  }
  if (i == n) return true;
  const c = load<u8>(p + i);
  return c == 0x2f || c == 0x3f || c == 0x23;
}

// The loop of the two exports: each line's end is found once, in the sweep that locates its path
// when it is checked here; its code is `fixed`, or, when `computed` (a constant at both call
// sites), checked against the current table.
@inline function verdictLoop(data: usize, len: u32, fixed: i32, marks: usize, out: usize, computed: bool): u32 {
  let o = out;
  let start: u32 = 0;
  let i: usize = 0;
  let disallowed: u32 = 0;
  controlsSeen = 0;
  suspectsSeen = 0;
  while (start < len) {
    const mark = marks != 0 ? <u32>load<u8>(marks + i) : VERDICT_CODE;
    let code = fixed;
    let end: u32 = 0;
    if (computed && mark == VERDICT_CODE) {
      const r = checkLine(data, start, len);
      end = lineText(data, start, len);
      const line = r >>> 1 == 0 ? 0 : ruleLine((r >>> 1) - 1);
      code = r & 1 ? <i32>line : ~(<i32>line);
    } else {
      end = urlLine(data, start, len);
    }
    if (mark == VERDICT_CODE) {
      if (code < 0) disallowed++;
      if (!plainUrl(data + start, end - start)) suspectsSeen++;
    }
    o = writeLine(o, mark, code, data + start, end - start);
    i++;
    start = lineNext;
  }
  linesSeen = <u32>i;
  disallowedSeen = disallowed;
  return <u32>(o - out);
}

export function verdictLines(data: usize, len: u32, code: i32, marks: usize, out: usize): u32 {
  return verdictLoop(data, len, code, marks, out, false);
}

export function checkVerdictLines(data: usize, len: u32, marks: usize, out: usize): u32 {
  return verdictLoop(data, len, 0, marks, out, true);
}
