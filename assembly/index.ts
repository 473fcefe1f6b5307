// robotstxt-wasm matcher: the hot path, URL bytes in, verdict number out.
//
// ─── ABI ────────────────────────────────────────────────────────────────────────────────────────
// Mirrored by `WasmExports` in src/engine/abi.ts; src/engine/wasm.ts is the only host file that calls it.
// All pointers and lengths are byte offsets/counts in the exported `memory`. Integers are
// little-endian. Runtime is "stub": this module never allocates. Below `heapBase()` it keeps only
// static data (the matcher's per-path probe cache); memory above it is the host's, carved into
// three regions of its choosing:
//
//   table    the compiled rules of one Matcher (format below), written by the host, read-only here.
//            Becomes current with `useTable`; stays current until the next `useTable`.
//   input    URL bytes (UTF-8) written by the host before each `check`/`checkMany` call; for a batch
//            also the `ends` array (u32) and the `out` array, written here.
//   scratch  owned by this module during a call; the host only guarantees its size:
//            at least 3 * (longest URL in the call) + 8 bytes for the normalized path, followed by
//            4 * maxPatLen (table header) + 4 bytes for the string-search fallback table.
//            Slack: 16-byte vector loads may read up to 15 bytes past the end of a URL, a path or a
//            pattern in the table, and stores may write up to 15 bytes past the normalized path
//            or a URL transcoded into a batch's stage; the host keeps at least 64 bytes of memory
//            after scratch and after every URL it writes, and the input area follows the table,
//            so these stay in bounds. Bytes read past an end are masked off and never change a
//            result.
//
// The host may grow `memory` between calls (never during one); that detaches every host view of
// the buffer, so the host rebuilds its views after growing. Nothing here caches a pointer across
// calls except the table and scratch bases set by `useTable`/`useScratch`, the body being scanned
// between `scanStart` and the `scan` call that returns 0, and the table `compile` returned (valid
// until the next `compile`/`compileList`, whose work area the host passes explicitly).
//
// Exports
//   heapBase(): usize                 first byte the host may use (end of static data).
//   useTable(table: usize): void      the table at `table` (4-aligned) is the current rule set.
//   useScratch(scratch: usize): void  scratch base (4-aligned).
//   check(url: usize, len: u32): i32  verdict for one URL (raw bytes, not yet normalized):
//                                     (deciding rule index + 1) << 1 | allowed. Rule index 0..nRules-1
//                                     of the current table; 0 in the upper bits = no rule matched.
//   checkMany(ends: usize, bytes: usize, count: u32, out: usize): void
//                                     URL i is bytes[ends[i-1] .. ends[i]) (ends[-1] = 0), ends are
//                                     u32; writes check()'s number for URL i as i32 at out + 4i.
//   allowedMany(ends: usize, bytes: usize, count: u32, out: usize): void
//                                     same, but writes one byte per URL at out + i: 1 allowed, 0 not.
//   checkMany16(ends: usize, units: usize, count: u32, out: usize, stage: usize): void
//   allowedMany16(ends: usize, units: usize, count: u32, out: usize, stage: usize): void
//                                     checkMany/allowedMany over UTF-16 code units (u16 each, at
//                                     `units`; ends in units). Each URL is transcoded to UTF-8 as
//                                     TextEncoder would (lone surrogate -> U+FFFD) into `stage`, in
//                                     the input area: 3 bytes per unit of the longest URL, + slack.
//   unitEndsToByteEnds(ends: usize, bytes: usize, count: u32): void
//                                     the host encoded `count` strings joined into one UTF-8 run at
//                                     `bytes` and wrote their ends in UTF-16 units; rewrites them in
//                                     place as byte offsets. Requires TextEncoder output (well-formed
//                                     UTF-8) and no surrogate pair split across two strings.
//   scanStart, scan, scanLineCount    the line scanner: see "Line scanner" below.
//   compile, compiledTable, compileNeeded, compileList
//                                     the compiler (body -> table for one agent): see "Compiler".
//
// Table (built by the compiler at the end of this file; every field u32 unless noted)
//   header (32 bytes): nRules, nAlways, rulesOff, poolOff, maxPatLen, keysOff, suffixEnd,
//            suffixBloom. rulesOff/poolOff/keysOff are relative to the table start. suffixEnd:
//            the index after the always part's SUFFIX groups; suffixBloom: bit (b & 31) set for
//            each of their bytes b, so that a path whose last byte is in none skips them all.
//   rules  (20 bytes each, at rulesOff):
//            +0  patOff   pattern bytes at pool + patOff (escaped, SEMANTICS.md 5)
//            +4  line     line number in the robots.txt (tie-break: lower line wins)
//            +8  prev     sorted part: chain link, index + 1 of the next candidate rule, 0 = end
//                         (see below). Always part: the group's filter byte (below), low byte.
//            +12 patLen   u16, priority of the rule (every '*' and a final '$' count)
//            +14 litLen   u16, length of the literal prefix (up to the first '*' or final '$')
//            +16 flags    u8: bit0 allow; bits1-3 type; bit4 anchored (pattern ends in '$');
//                         bit5 is the host's (original text follows in pool); bit6, always part
//                         CONTAINS only: its segment starts with the group's filter byte. Types:
//                         LITERAL  matches when the literal prefix does (also "/a*", "/a*$", "")
//                         EXACT    "/a$": the path is exactly the literal prefix
//                         WILD     anything else with '*': general segment matcher
//                         SUFFIX   "/a*x$" (one literal segment after the stars): path ends with it
//                         CONTAINS "/a*x"  (one literal segment after the stars): find it once
//            +17 skip     u8, always part only: how many rules after this one share its group
//            +18 segOff   u16, SUFFIX/CONTAINS/WILD: offset of the first segment after the stars
//            Rules [0, nAlways) have litLen 0 or 1 (a prefix "" or "/", which every path has) and
//            are tried for every path, in groups that share a filter byte the path must hold:
//            CONTAINS and WILD by the byte of their first segment least common in URL paths (any
//            byte of it must occur; its first byte when that is already rare, such as '?'), then
//            SUFFIX by the last byte of their segment (the path must end with it), then the rest;
//            a group whose byte fails that test is skipped whole.
//            Rules [nAlways, nRules) are sorted by literal prefix (bytewise, a prefix sorts before
//            its extensions), equal prefixes in line order. `prev` of a sorted rule is
//            the rule before it when that has the same prefix, else the last rule of the longest
//            other prefix that is a prefix of this one. So from any rule, following `prev` visits
//            exactly the rules whose literal prefix is a prefix of its own.
//   keys   (u32 each, at keysOff, 16-aligned): one per sorted rule, in rule order: the first four
//            literal bytes, big-endian, zero past the prefix's end, so that one unsigned compare
//            orders most prefixes against the path; padded to a multiple of 4 with 0xffffffff
//            (the vector scan reads whole groups of 4).
//   pool: pattern bytes.
//
// Semantics: SEMANTICS.md 7-10 over the single rule set the host selected for the agent (the
// specific set if any group named the agent, else the global set); path extraction (section 8) and
// percent-encoding normalization (section 1) of the URL happen here.
// ────────────────────────────────────────────────────────────────────────────────────────────────

const T_LITERAL: u32 = 0;
const T_EXACT: u32 = 1;
const T_WILD: u32 = 2;
const T_SUFFIX: u32 = 3;
const T_CONTAINS: u32 = 4;
const F_ALLOW: u32 = 1;
const F_ANCHORED: u32 = 16;
const F_AT_FILTER: u32 = 64;
const RULE_SIZE: usize = 20;
// Sorted parts up to this many rules are located by a vector scan of their keys, larger ones by
// binary search.
const SCAN_KEYS: u32 = 64;

const STAR: u32 = 0x2a;
const SLASH: u32 = 0x2f;
const PERCENT: u32 = 0x25;
const HTTPS: u64 = 0x2f2f3a7370747468; // "https://", little-endian
const HTTP: u64 = 0x2f2f3a70747468; // "http://"

let rulesBase: usize = 0;
let keysBase: usize = 0;
let suffixEnd: u32 = 0;
let suffixBloom: u32 = 0;
let poolBase: usize = 0;
let nRules: u32 = 0;
let nAlways: u32 = 0;
let scratchBase: usize = 0;

// Set per call by `locatePath`.
let pathPtr: usize = 0;
let pathLen: u32 = 0;

export function heapBase(): usize {
  return (__heap_base + 15) & ~(15 as usize);
}

export function useTable(table: usize): void {
  nRules = load<u32>(table);
  nAlways = load<u32>(table, 4);
  rulesBase = table + <usize>load<u32>(table, 8);
  keysBase = table + <usize>load<u32>(table, 20);
  suffixEnd = load<u32>(table, 24);
  suffixBloom = load<u32>(table, 28);
  poolBase = table + <usize>load<u32>(table, 12);
}

export function useScratch(scratch: usize): void {
  scratchBase = scratch;
}

@inline function isHex(c: u32): bool {
  return (c - 0x30 < 10) || ((c | 0x20) - 0x61 < 6);
}

@inline function hexDigit(n: u32): u32 {
  return n < 10 ? n + 0x30 : n + 0x37;
}

@inline function upperHex(c: u32): u32 {
  return c >= 0x61 ? c - 0x20 : c;
}

// SEMANTICS.md 8 and 1: finds the path of the URL at [url, url+len) and leaves it, normalized, in
// pathPtr/pathLen. The path points into the URL itself when no byte needs changing, else into
// scratch. Normalizing only the path is equivalent to normalizing the whole URL first: the
// delimiters `/ ? ; # :` are never part of a `%hh` triple and escaping never produces them.
//
// One pass instead of the spec's separate searches: the first of '/', '?', ';', '#' from s decides.
// A '#' first means the path is "/". A '/' that ends a "://" (the ':' at index >= s) is the
// protocol; no earlier "://" can exist, since its '/' would have come first. The path then starts
// at the first delimiter after "://", again "/" if a '#' comes first.
//
// "https://" and "http://" are read as one word: neither scheme holds a delimiter, so the general
// path would find the same "://" (slack makes the 8-byte read safe for a 7-byte URL).
function locatePath(url: usize, len: u32): void {
  let i: u32 = 0;
  const head = load<u64>(url);
  if (len >= 8 && head == HTTPS) {
    i = findDelimiter(url, 8, len);
    if (i >= len || load<u8>(url + i) == 0x23) { setRootPath(); return; }
  } else if (len >= 7 && (head & 0x00ffffffffffffff) == HTTP) {
    i = findDelimiter(url, 7, len);
    if (i >= len || load<u8>(url + i) == 0x23) { setRootPath(); return; }
  } else {
    if (len >= 2 && load<u8>(url) == SLASH && load<u8>(url, 1) == SLASH) i = 2;
    const s = i;
    i = findDelimiter(url, i, len);
    if (i >= len || load<u8>(url + i) == 0x23) { setRootPath(); return; }
    if (load<u8>(url + i) == SLASH && i > s && i + 1 < len && load<u8>(url + i - 1) == 0x3a && load<u8>(url + i + 1) == SLASH) {
      i = findDelimiter(url, i + 2, len);
      if (i >= len || load<u8>(url + i) == 0x23) { setRootPath(); return; }
    }
  }
  const p = i;
  // Path end: '#' or NUL (the reference reads the path as a C string); note whether any byte
  // needs normalizing (>= 0x80 or '%'), 16 bytes at a time.
  let end = len;
  let dirty = false;
  const vHash = i8x16.splat(0x23);
  const vZero = i8x16.splat(0);
  const vPct = i8x16.splat(<i8>PERCENT);
  for (; i < len; i += 16) {
    const v = v128.load(url + i);
    const live = len - i < 16 ? (1 << (len - i)) - 1 : 0xffff;
    const stop = i8x16.bitmask(v128.or(i8x16.eq(v, vHash), i8x16.eq(v, vZero))) & live;
    const odd = (i8x16.bitmask(i8x16.eq(v, vPct)) | i8x16.bitmask(v)) & live;
    if (stop != 0) {
      const k = ctz<u32>(stop);
      if ((odd & ((1 << k) - 1)) != 0) dirty = true;
      end = i + k;
      break;
    }
    if (odd != 0) dirty = true;
  }
  const needSlash = load<u8>(url + p) != SLASH;
  if (!dirty && !needSlash) {
    pathPtr = url + p;
    pathLen = end - p;
    return;
  }
  let o = scratchBase;
  if (needSlash) { store<u8>(o, SLASH); o++; }
  i = p;
  while (true) {
    const k = nextSpecial(url, i, end);
    copyRun(o, url + i, k - i);
    o += k - i;
    if (k >= end) break;
    const c = <u32>load<u8>(url + k);
    if (c >= 0x80) {
      store<u8>(o, PERCENT);
      store<u8>(o, hexDigit(c >> 4), 1);
      store<u8>(o, hexDigit(c & 15), 2);
      o += 3;
      i = k + 1;
    } else if (k + 2 < end && isHex(load<u8>(url + k + 1)) && isHex(load<u8>(url + k + 2))) {
      store<u8>(o, PERCENT);
      store<u8>(o, upperHex(load<u8>(url + k + 1)), 1);
      store<u8>(o, upperHex(load<u8>(url + k + 2)), 2);
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

// First index >= i of '/', '?', ';' or '#', or len.
function findDelimiter(url: usize, i: u32, len: u32): u32 {
  const vSlash = i8x16.splat(<i8>SLASH);
  const vQuery = i8x16.splat(0x3f);
  const vSemi = i8x16.splat(0x3b);
  const vHash = i8x16.splat(0x23);
  for (; i < len; i += 16) {
    const v = v128.load(url + i);
    const m = v128.or(v128.or(i8x16.eq(v, vSlash), i8x16.eq(v, vQuery)), v128.or(i8x16.eq(v, vSemi), i8x16.eq(v, vHash)));
    let bits = i8x16.bitmask(m);
    if (len - i < 16) bits &= (1 << (len - i)) - 1;
    if (bits != 0) return i + ctz<u32>(bits);
  }
  return len;
}

// First index in [i, end) of a byte that normalization changes ('%' or >= 0x80), or end.
function nextSpecial(url: usize, i: u32, end: u32): u32 {
  const vPct = i8x16.splat(<i8>PERCENT);
  for (; i < end; i += 16) {
    const v = v128.load(url + i);
    let bits = i8x16.bitmask(i8x16.eq(v, vPct)) | i8x16.bitmask(v);
    if (end - i < 16) bits &= (1 << (end - i)) - 1;
    if (bits != 0) return i + ctz<u32>(bits);
  }
  return end;
}

// Copies n bytes 16 at a time; may write up to 15 bytes past dst + n (scratch slack).
@inline function copyRun(dst: usize, src: usize, n: u32): void {
  for (let q: u32 = 0; q < n; q += 16) v128.store(dst + q, v128.load(src + q));
}

function setRootPath(): void {
  store<u8>(scratchBase, SLASH);
  pathPtr = scratchBase;
  pathLen = 1;
}

@inline function bytesEqual(a: usize, b: usize, n: u32): bool {
  for (let i: u32 = 0; i < n; i++) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
  }
  return true;
}

// bytesEqual for the matcher, 16 bytes per compare: both sides may be read up to 15 bytes past
// their end (path and URL slack; the table is followed by the input area). Bytes past n are
// masked off.
@inline function sameBytes(a: usize, b: usize, n: u32): bool {
  let i: u32 = 0;
  while (n - i > 16) {
    if (i8x16.bitmask(i8x16.eq(v128.load(a + i), v128.load(b + i))) != 0xffff) return false;
    i += 16;
  }
  const live: u32 = (1 << (n - i)) - 1;
  return (i8x16.bitmask(i8x16.eq(v128.load(a + i), v128.load(b + i))) & live) == live;
}

// Leftmost occurrence of needle[0..n) in hay[from..to), or -1. Candidates are found 16 at a time
// by comparing the needle's first and last bytes at once, then verified; real patterns rarely
// have false candidates. Once verification has spent more than a linear budget (hostile input
// such as "*aaaa…ab" against "aaaa…"), KMP takes over, so a segment costs O(|hay| + n), never
// O(|hay| * n).
function find(hay: usize, from: u32, to: u32, needle: usize, n: u32): i32 {
  if (to < from || to - from < n) return -1;
  const limit = to - n + 1; // candidate starts are [from, limit)
  const vFirst = i8x16.splat(load<u8>(needle));
  const vLast = i8x16.splat(load<u8>(needle + n - 1));
  let budget: u32 = ((to - from) << 1) + 64;
  for (let i = from; i < limit; i += 16) {
    let bits = i8x16.bitmask(v128.and(
      i8x16.eq(v128.load(hay + i), vFirst),
      i8x16.eq(v128.load(hay + i + n - 1), vLast),
    ));
    if (limit - i < 16) bits &= (1 << (limit - i)) - 1;
    while (bits != 0) {
      const at = i + ctz<u32>(bits);
      let j: u32 = 1;
      while (j < n && load<u8>(hay + at + j) == load<u8>(needle + j)) j++;
      if (j >= n) return <i32>at;
      if (j > budget) return kmpFind(hay, at + 1, to, needle, n);
      budget -= j;
      bits &= bits - 1;
    }
  }
  return -1;
}

function kmpFind(hay: usize, from: u32, to: u32, needle: usize, n: u32): i32 {
  // fail[j] = length of the longest proper border of needle[0..j+1).
  // The path may itself live in scratch (at most 3 * url length + 1 bytes); the table follows it.
  const fail = (scratchBase + <usize>pathLen + 4) & ~(3 as usize);
  store<u32>(fail, 0);
  let k: u32 = 0;
  for (let j: u32 = 1; j < n; j++) {
    const c = load<u8>(needle + j);
    while (k > 0 && load<u8>(needle + k) != c) k = load<u32>(fail + (<usize>(k - 1) << 2));
    if (load<u8>(needle + k) == c) k++;
    store<u32>(fail + (<usize>j << 2), k);
  }
  k = 0;
  for (let i = from; i < to; i++) {
    const c = load<u8>(hay + i);
    while (k > 0 && load<u8>(needle + k) != c) k = load<u32>(fail + (<usize>(k - 1) << 2));
    if (load<u8>(needle + k) == c) k++;
    if (k == n) return <i32>(i + 1 - n);
  }
  return -1;
}

// First and last index of a byte in the current path, computed on first request and kept for the
// rest of the path's decide(): the literal segments of CONTAINS and WILD rules often share their
// first byte ('?', '.', '&'), so one scan per distinct byte replaces one per rule, and a byte the
// path lacks rejects every rule that needs it at once. Slot c (12 bytes): generation, first, last.
const PROBES: usize = memory.data(256 * 12, 16);
let probeGen: u32 = 0;

function probeSlot(c: u32): usize {
  const slot = PROBES + <usize>c * 12;
  if (load<u32>(slot) != probeGen) {
    const path = pathPtr;
    const plen = pathLen;
    let first: i32 = -1;
    let last: i32 = -1;
    const v = i8x16.splat(<i8>c);
    for (let i: u32 = 0; i < plen; i += 16) {
      let bits = i8x16.bitmask(i8x16.eq(v128.load(path + i), v));
      if (plen - i < 16) bits &= (1 << (plen - i)) - 1;
      if (bits != 0) {
        if (first < 0) first = <i32>(i + ctz<u32>(bits));
        last = <i32>(i + 31 - clz<u32>(bits));
      }
    }
    store<u32>(slot, probeGen);
    store<i32>(slot, first, 4);
    store<i32>(slot, last, 8);
  }
  return slot;
}

// Leftmost occurrence at or after `pos` of the literal segment seg[0, n) (n >= 1) in the path, or
// -1. The probe of its first byte bounds the search on both sides.
@inline function findSegment(pos: u32, seg: usize, n: u32): i32 {
  const slot = probeSlot(<u32>load<u8>(seg));
  const last = load<i32>(slot, 8);
  if (last < <i32>pos) return -1;
  const first = <u32>load<i32>(slot, 4);
  // One occurrence (a path's usual single '?'): one comparison, no search.
  if (first == <u32>last) return <u32>last + n <= pathLen && sameBytes(pathPtr + first, seg, n) ? last : -1;
  const end = <u32>last + n < pathLen ? <u32>last + n : pathLen;
  return find(pathPtr, first > pos ? first : pos, end, seg, n);
}

// Pattern bytes [j, n) start with '*' and the path has matched up to `pos`. Split at '*' into
// literal segments; after a '*' every position from the current one onward is reachable, so only
// the leftmost occurrence of the next segment matters; with an end anchor the last segment must
// end the path. This equals the reference's position-set algorithm (SEMANTICS.md 9).
function matchWild(pat: usize, j: u32, n: u32, anchored: bool, pos: u32): bool {
  const plen = pathLen;
  while (true) {
    while (j < n && load<u8>(pat + j) == STAR) j++;
    if (j == n) return true;
    let k = j;
    while (k < n && load<u8>(pat + k) != STAR) k++;
    const seg = k - j;
    if (k == n && anchored) {
      if (plen - pos < seg) return false;
      return sameBytes(pathPtr + plen - seg, pat + j, seg);
    }
    const at = findSegment(pos, pat + j, seg);
    if (at < 0) return false;
    pos = <u32>at + seg;
    j = k;
  }
  return true;
}

// The first four bytes of the path as one big-endian word, zero past its end; compared with a
// rule's key (its first four literal bytes, same form) it orders most literal prefixes against
// the path in one step. Neither paths nor patterns contain NUL, so a zero always means "ended".
@inline function pathKey(path: usize, plen: u32): u32 {
  const k = bswap<u32>(load<u32>(path));
  return plen >= 4 ? k : k & ~(u32.MAX_VALUE >> (plen << 3));
}

// Compare the literal prefix of sorted rule i with the path: < 0 if it sorts before the path or
// is a prefix of it, > 0 otherwise.
@inline function litCompare(i: u32, pkey: u32): i32 {
  const key = load<u32>(keysBase + (<usize>(i - nAlways) << 2));
  if (key != pkey) return key < pkey ? -1 : 1;
  return litCompareRest(rulesBase + <usize>i * RULE_SIZE);
}

// The same for a sorted rule whose key equals the path's.
@inline function litCompareRest(rule: usize): i32 {
  const litLen = <u32>load<u16>(rule, 14);
  if (litLen <= 4) return -1;
  const lit = poolBase + <usize>load<u32>(rule);
  const n = litLen < pathLen ? litLen : pathLen;
  for (let i: u32 = 4; i < n; i++) {
    const a = <i32>load<u8>(lit + i);
    const b = <i32>load<u8>(pathPtr + i);
    if (a != b) return a - b;
  }
  return litLen <= pathLen ? -1 : 1;
}

// Sorted rules have a literal prefix of at least one byte.
@inline function isLitPrefix(rule: usize, key: u32, pkey: u32): bool {
  const litLen = <u32>load<u16>(rule, 14);
  if (litLen > pathLen) return false;
  const mask = litLen >= 4 ? u32.MAX_VALUE : ~(u32.MAX_VALUE >> (litLen << 3));
  if ((pkey & mask) != key) return false;
  return litLen <= 4 || sameBytes(poolBase + <usize>load<u32>(rule) + 4, pathPtr + 4, litLen - 4);
}

// Does rule r, whose literal prefix is known to be a prefix of the path, match it?
@inline function ruleMatches(rule: usize): bool {
  const flags = <u32>load<u8>(rule, 16);
  const type = (flags >> 1) & 7;
  if (type == T_LITERAL) return true;
  if (type == T_EXACT) return pathLen == <u32>load<u16>(rule, 14);
  const patLen = <u32>load<u16>(rule, 12);
  const pat = poolBase + <usize>load<u32>(rule);
  if (type == T_SUFFIX) {
    const segOff = <u32>load<u16>(rule, 18);
    const segLen = patLen - 1 - segOff;
    const seg = pat + segOff;
    if (pathLen < <u32>load<u16>(rule, 14) + segLen) return false;
    // The last byte first: it rejects almost every path with one compare.
    if (load<u8>(pathPtr + pathLen - 1) != load<u8>(seg + segLen - 1)) return false;
    return sameBytes(pathPtr + pathLen - segLen, seg, segLen);
  }
  if (type == T_CONTAINS) {
    const segOff = <u32>load<u16>(rule, 18);
    return findSegment(<u32>load<u16>(rule, 14), pat + segOff, patLen - segOff) >= 0;
  }
  const anchored = (flags & F_ANCHORED) != 0;
  const litLen = <u32>load<u16>(rule, 14);
  return matchWild(pat, litLen, anchored ? patLen - 1 : patLen, anchored, litLen);
}

// Rank of a matching rule: priority first, then the lower line (SEMANTICS.md 7); 0 ranks below
// every rule.
@inline function rank(rule: usize): u64 {
  // The complement is taken in 32 bits first: under a u64 cast AssemblyScript would widen the
  // load and complement all 64 bits.
  const lineRank: u32 = ~load<u32>(rule, 4);
  return ((<u64>load<u16>(rule, 12) + 1) << 32) | <u64>lineRank;
}

// Verdict for the path in pathPtr/pathLen against the current table (SEMANTICS.md 7).
function decide(): i32 {
  if (++probeGen == 0) {
    memory.fill(PROBES, 0, 256 * 12);
    probeGen = 1;
  }
  let allowRank: u64 = 0;
  let allowIdx: i32 = -1;
  let disRank: u64 = 0;
  let disIdx: i32 = -1;
  const rules = rulesBase;

  // The rules every path reaches come in groups that one byte test rejects whole: SUFFIX rules
  // by the last byte of their segment, CONTAINS and WILD by a byte of their first segment (absent
  // from the path: none can match). +8 holds the byte, +17 counts the group's rules after this one.
  const path = pathPtr;
  const plen = pathLen;
  let i: u32 = 0;
  while (i < nAlways) {
    const head = rules + <usize>i * RULE_SIZE;
    const type = (<u32>load<u8>(head, 16) >> 1) & 7;
    const end = i + 1 + <u32>load<u8>(head, 17);
    // Where the filter byte occurs when it occurs exactly once (a path's one '?'): a CONTAINS
    // segment that starts with it can then only be there, and is compared in place.
    let once: i32 = -1;
    if (type == T_SUFFIX) {
      const last = <u32>load<u8>(path + plen - 1);
      if ((suffixBloom & (1 << (last & 31))) == 0) { i = suffixEnd; continue; }
      if (last != <u32>load<u8>(head, 8)) { i = end; continue; }
    } else if (type == T_CONTAINS || type == T_WILD) {
      const slot = probeSlot(<u32>load<u8>(head, 8));
      const last = load<i32>(slot, 8);
      if (last < 0) { i = end; continue; }
      if (load<i32>(slot, 4) == last) once = last;
    }
    for (; i < end; i++) {
      const rule = rules + <usize>i * RULE_SIZE;
      const flags = <u32>load<u8>(rule, 16);
      let hit: bool;
      if (once >= 0 && (flags & F_AT_FILTER) != 0) {
        const seg = poolBase + <usize>load<u32>(rule) + <usize>load<u16>(rule, 18);
        const n = <u32>load<u16>(rule, 12) - <u32>load<u16>(rule, 18);
        hit = <u32>once >= <u32>load<u16>(rule, 14) && <u32>once + n <= plen && sameBytes(path + <usize>once, seg, n);
      } else hit = ruleMatches(rule);
      if (hit) {
        const k = rank(rule);
        if (flags & F_ALLOW) {
          if (k > allowRank) { allowRank = k; allowIdx = <i32>i; }
        } else if (k > disRank) { disRank = k; disIdx = <i32>i; }
      }
    }
  }

  // Upper bound over the sorted rules: how many have a literal prefix <= the path. Keys order all
  // but the rules whose key equals the path's: count keys below and up to it (a vector scan of
  // the contiguous keys for the usual small group, a branch-free search for a large one), then
  // order the equal-key run by the rest of the literal.
  const pkey = pathKey(pathPtr, pathLen);
  const nSorted = nRules - nAlways;
  const keys = keysBase;
  let lo: u32 = 0;
  let hi: u32 = 0;
  if (nSorted <= SCAN_KEYS) {
    // Keys are padded to a multiple of 4 with 0xffffffff, above every path's key ('/' leads).
    const vp = i32x4.splat(pkey);
    let below = i32x4.splat(0);
    let upTo = i32x4.splat(0);
    for (let j: u32 = 0; j < nSorted; j += 4) {
      const v = v128.load(keys + (<usize>j << 2));
      below = i32x4.sub(below, i32x4.lt_u(v, vp));
      upTo = i32x4.sub(upTo, i32x4.le_u(v, vp));
    }
    lo = <u32>(i32x4.extract_lane(below, 0) + i32x4.extract_lane(below, 1) + i32x4.extract_lane(below, 2) + i32x4.extract_lane(below, 3));
    hi = <u32>(i32x4.extract_lane(upTo, 0) + i32x4.extract_lane(upTo, 1) + i32x4.extract_lane(upTo, 2) + i32x4.extract_lane(upTo, 3));
  } else {
    // One branch-free search with the whole comparison; it leaves no equal-key run to order.
    let base: u32 = 0;
    let n = nSorted;
    while (n > 1) {
      const half = n >> 1;
      base = select<u32>(base + half, base, litCompare(nAlways + base + half, pkey) <= 0);
      n -= half;
    }
    lo = base + (litCompare(nAlways + base, pkey) <= 0 ? 1 : 0);
    hi = lo;
  }
  while (lo < hi) {
    const mid = lo + ((hi - lo) >> 1);
    if (litCompareRest(rules + <usize>(nAlways + mid) * RULE_SIZE) <= 0) lo = mid + 1;
    else hi = mid;
  }
  let r: i32 = <i32>(nAlways + lo) - 1;
  // Walk up until a rule whose prefix is a prefix of the path; a run of one prefix is skipped
  // whole (its rules share litLen, ancestors have shorter ones).
  while (r >= <i32>nAlways) {
    const rule = rules + <usize>r * RULE_SIZE;
    if (isLitPrefix(rule, load<u32>(keys + (<usize>(<u32>r - nAlways) << 2)), pkey)) break;
    const litLen = load<u16>(rule, 14);
    r = <i32>load<u32>(rule, 8) - 1;
    while (r >= 0 && load<u16>(rules + <usize>r * RULE_SIZE, 14) == litLen) {
      r = <i32>load<u32>(rules + <usize>r * RULE_SIZE, 8) - 1;
    }
  }
  while (r >= <i32>nAlways) {
    const rule = rules + <usize>r * RULE_SIZE;
    if (ruleMatches(rule)) {
      const k = rank(rule);
      if (load<u8>(rule, 16) & <u8>F_ALLOW) {
        if (k > allowRank) { allowRank = k; allowIdx = r; }
      } else if (k > disRank) { disRank = k; disIdx = r; }
    }
    r = <i32>load<u32>(rule, 8) - 1;
  }

  // A disallow decides when it outranks every allow by priority; the empty pattern (priority 0)
  // matches everything yet disallows nothing.
  const allowPrio = <u32>(allowRank >> 32);
  const disPrio = <u32>(disRank >> 32);
  if (disPrio > allowPrio) return ((disIdx + 1) << 1) | (disPrio > 1 ? 0 : 1);
  return ((allowIdx + 1) << 1) | 1;
}

export function check(url: usize, len: u32): i32 {
  locatePath(url, len);
  return decide();
}

export function checkMany(ends: usize, bytes: usize, count: u32, out: usize): void {
  let start: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const end = load<u32>(ends + (<usize>i << 2));
    locatePath(bytes + start, end - start);
    store<i32>(out + (<usize>i << 2), decide());
    start = end;
  }
}

export function allowedMany(ends: usize, bytes: usize, count: u32, out: usize): void {
  let start: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const end = load<u32>(ends + (<usize>i << 2));
    locatePath(bytes + start, end - start);
    store<u8>(out + i, <u8>(decide() & 1));
    start = end;
  }
}

// UTF-16 code units [from, to) at `units` as UTF-8 at `dst`, byte for byte what TextEncoder
// writes (a lone surrogate becomes U+FFFD); returns the byte count. Eight ASCII units at a time.
function utf16ToUtf8(units: usize, from: u32, to: u32, dst: usize): u32 {
  const high = i16x8.splat(<i16>0xff80);
  let o = dst;
  let i = from;
  while (i < to) {
    const left = to - i;
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
        store<u8>(o, 0xef);
        store<u8>(o, 0xbf, 1);
        store<u8>(o, 0xbd, 2);
        o += 3;
      }
    }
  }
  return <u32>(o - dst);
}

export function checkMany16(ends: usize, units: usize, count: u32, out: usize, stage: usize): void {
  let start: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const end = load<u32>(ends + (<usize>i << 2));
    locatePath(stage, utf16ToUtf8(units, start, end, stage));
    store<i32>(out + (<usize>i << 2), decide());
    start = end;
  }
}

export function allowedMany16(ends: usize, units: usize, count: u32, out: usize, stage: usize): void {
  let start: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const end = load<u32>(ends + (<usize>i << 2));
    locatePath(stage, utf16ToUtf8(units, start, end, stage));
    store<u8>(out + i, <u8>(decide() & 1));
    start = end;
  }
}

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

// ─── Line scanner (SEMANTICS.md 2-4) ────────────────────────────────────────────────────────────
// The parser's byte work in wasm: splits the body into lines (BOM, CR/LF/CRLF, the 16,663-byte
// cut, NUL), removes comments, trims, finds key and value and classifies the key. It emits one
// record per line that has a directive; the host builds groups and rules from the records
// (src/engine/parse.ts, Builder), exactly as its own TS line splitter does for the per-line report.
//
//   scanStart(body: usize, len: u32): void    begin scanning the body at [body, body+len)
//   scan(out: usize, cap: u32): u32           writes up to `cap` records at out (24 bytes each)
//                                             and returns how many; 0 means the body is done.
//                                             Stops only between lines, so calls can resume.
//   scanLineCount(): u32                      lines seen so far (all of them once scan returns 0)
//
// Record (u32 each): line, kind | flags, keyStart, keyEnd, valStart, valEnd (offsets in body).
// kind: 0 user-agent, 1 allow, 2 disallow, 3 sitemap, 4 other. flags (<< 8): 1 accepted typo,
// 2 missing colon, 4 line too long, 8 comment, 16 global user-agent, 32 value has '%' or a byte
// >= 0x80 (may need escaping).

const MAX_LINE: u32 = 16663;
const K_UA: u32 = 0;
const K_ALLOW: u32 = 1;
const K_DISALLOW: u32 = 2;
const K_SITEMAP: u32 = 3;
const K_OTHER: u32 = 4;
const S_TYPO: u32 = 1 << 8;
const S_NO_COLON: u32 = 2 << 8;
const S_TOO_LONG: u32 = 4 << 8;
const S_COMMENT: u32 = 8 << 8;
const S_GLOBAL: u32 = 16 << 8;
const S_ESCAPE: u32 = 32 << 8;

let sBody: usize = 0;
let sLen: u32 = 0;
let sPos: u32 = 0;
let sLine: u32 = 0;
let sDone = true;

export function scanStart(body: usize, len: u32): void {
  sBody = body;
  sLen = len;
  sLine = 0;
  sDone = false;
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

export function scanLineCount(): u32 {
  return sLine;
}

@inline function isSpaceByte(c: u32): bool {
  return c == 0x20 || (c - 0x09 < 5);
}

// First index in [i, end) holding byte a or b, or end.
function findEither(p: usize, i: u32, end: u32, a: u32, b: u32): u32 {
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

// ASCII case-insensitive: does [k, k+n) start with the lower-case word at `word`?
@inline function keyIs(k: usize, n: u32, word: string): bool {
  const w = word.length;
  if (n < <u32>w) return false;
  for (let i = 0; i < w; i++) {
    if ((<u32>load<u8>(k + i) | 0x20) != <u32>word.charCodeAt(i)) return false;
  }
  return true;
}

// SEMANTICS.md 4. Every letter compared is A-Z/a-z, so `| 0x20` folds case; the hyphen and space
// in "user-agent" / "user agent" / "site-map" are compared exactly below.
function classifyKey(k: usize, n: u32): u32 {
  const c = <u32>load<u8>(k) | 0x20;
  if (c == 0x75) { // u
    if (n >= 10 && keyIs(k, 4, 'user') && load<u8>(k + 4) == 0x2d && keyIs(k + 5, 5, 'agent')) return K_UA;
    if (n >= 9 && keyIs(k, 9, 'useragent')) return K_UA | S_TYPO;
    if (n >= 10 && keyIs(k, 4, 'user') && load<u8>(k + 4) == 0x20 && keyIs(k + 5, 5, 'agent')) return K_UA | S_TYPO;
    return K_OTHER;
  }
  if (c == 0x61) return keyIs(k, n, 'allow') ? K_ALLOW : K_OTHER; // a
  if (c == 0x64) { // d
    if (keyIs(k, n, 'disallow')) return K_DISALLOW;
    if (keyIs(k, n, 'dissallow') || keyIs(k, n, 'dissalow') || keyIs(k, n, 'disalow') || keyIs(k, n, 'diasllow') || keyIs(k, n, 'disallaw')) return K_DISALLOW | S_TYPO;
    return K_OTHER;
  }
  if (c == 0x73) { // s
    if (keyIs(k, n, 'sitemap')) return K_SITEMAP;
    if (n >= 8 && keyIs(k, 4, 'site') && load<u8>(k + 4) == 0x2d && keyIs(k + 5, 3, 'map')) return K_SITEMAP | S_TYPO;
    return K_OTHER;
  }
  return K_OTHER;
}

export function scan(out: usize, cap: u32): u32 {
  if (sDone) return 0;
  return scanLoop(false, out, cap);
}

// The line loop shared by `scan` (records) and `compile` (group selection, no records).
function scanLoop(select: bool, out: usize, cap: u32): u32 {
  const body = sBody;
  const len = sLen;
  let count: u32 = 0;
  let i = sPos;
  while (count < cap) {
    const j = findEither(body, i, len, 0x0a, 0x0d);
    sLine++;
    let flags: u32 = 0;
    let e = j;
    if (j - i > MAX_LINE) { e = i + MAX_LINE; flags |= S_TOO_LONG; }
    // A NUL ends the line; a '#' before it starts a comment.
    const cut = findEither(body, i, e, 0, 0x23);
    if (cut < e) {
      if (load<u8>(body + cut) == 0x23) flags |= S_COMMENT;
      e = cut;
    }
    let s = i;
    while (s < e && isSpaceByte(load<u8>(body + s))) s++;
    while (e > s && isSpaceByte(load<u8>(body + e - 1))) e--;
    if (s < e) {
      let keyEnd: u32 = 0;
      let valStart: u32 = 0;
      let ok = false;
      const colon = findEither(body, s, e, 0x3a, 0x3a);
      if (colon < e) {
        keyEnd = colon;
        while (keyEnd > s && isSpaceByte(load<u8>(body + keyEnd - 1))) keyEnd--;
        valStart = colon + 1;
        ok = keyEnd > s;
      } else {
        // No colon: exactly two runs of non-space/tab, separated by spaces/tabs.
        const sep = findEither(body, s, e, 0x20, 0x09);
        if (sep < e) {
          let v = sep;
          while (v < e && (load<u8>(body + v) == 0x20 || load<u8>(body + v) == 0x09)) v++;
          if (findEither(body, v, e, 0x20, 0x09) == e) {
            keyEnd = sep;
            valStart = sep + 1;
            flags |= S_NO_COLON;
            ok = true;
          }
        }
      }
      if (ok) {
        while (valStart < e && isSpaceByte(load<u8>(body + valStart))) valStart++;
        const kind = classifyKey(body + s, keyEnd - s);
        flags |= kind & ~0xff;
        const k = kind & 0xff;
        if (k == K_UA) {
          if (e > valStart && load<u8>(body + valStart) == STAR) {
            if (e - valStart == 1) flags |= S_GLOBAL;
            else {
              const c = <u32>load<u8>(body + valStart + 1);
              if (c == 0x20 || c == 0x09 || c == 0x0b || c == 0x0c) flags |= S_GLOBAL;
            }
          }
        } else if (k == K_ALLOW || k == K_DISALLOW) {
          if (nextSpecial(body, valStart, e) < e) flags |= S_ESCAPE;
        }
        if (select) {
          selectDirective(k, flags, valStart, e);
        } else {
          const r = out + <usize>count * 24;
          store<u32>(r, sLine);
          store<u32>(r, k | flags, 4);
          store<u32>(r, s, 8);
          store<u32>(r, keyEnd, 12);
          store<u32>(r, valStart, 16);
          store<u32>(r, e, 20);
          count++;
        }
      }
    }
    if (j >= len) { sDone = true; break; }
    // \n, \r and \r\n are one break each.
    i = load<u8>(body + j) == 0x0d && j + 1 < len && load<u8>(body + j + 1) == 0x0a ? j + 2 : j + 1;
  }
  sPos = i;
  return count;
}

// ─── Compiler (SEMANTICS.md 6, 7, 9, 10 into the table format at the top) ───────────────────────
// Builds the table of one agent straight from the body: the line loop above selects the rules of
// the groups naming the agent (or, when none does, of the global groups) as it goes, then they are
// classified, sorted by literal prefix and written out. The host copies the table out of memory.
//
//   compile(body: usize, len: u32, agents: usize, agentsLen: u32, work: usize, cap: u32): u32
//                                     agents: the caller's product tokens, lower-case, each made of
//                                     a-z - _ only, separated by '\n'. Returns the table length, or
//                                     0 when the `cap` bytes of work area at `work` are too few:
//                                     `compileNeeded()` then says how many; call again with them.
//                                     The table starts at `compiledTable()`, inside the work area,
//                                     valid until the next call that uses the work area.
//   compiledTable(): usize
//   compileNeeded(): u32
//   compileList(refs: usize, count: u32, patBytes: u32, origBytes: u32, work: usize, cap: u32): u32
//                                     the same from a rule list the host selected itself (bodies too
//                                     large to scan in memory): `count` refs of 6 u32 each: patPtr,
//                                     patLen, origPtr, origLen, line, bit0 allow | bit1 has orig;
//                                     patterns already escaped; patBytes and origBytes are the sums
//                                     of patLen and origLen.
// The work area holds the selected refs (growing up) and escaped patterns (growing down), then the
// compiler's arrays and the table, all sized from the actual rule counts and pattern bytes.

const REF_SIZE: usize = 24;
const ENTRY_SIZE: usize = 44;
const R_HAS_ORIG: u32 = 2;
const R_SPECIFIC: u32 = 4;
const R_GLOBAL: u32 = 8;
const F_HAS_ORIG: u32 = 32;

let cAgents: usize = 0;
let cAgentsLen: u32 = 0;
let gIn = false;
let gHasRules = false;
let gGlobal = false;
let gNamed = false;
let anyNamed = false;
let refsTop: usize = 0;
let escBottom: usize = 0;
let overflow = false;
// Per set (specific, global): rules, pattern bytes (escaped), text-as-written bytes. Plain
// globals: the stub runtime must not allocate (it would bump into the host's memory).
let specCount: u32 = 0;
let specPat: u32 = 0;
let specOrig: u32 = 0;
let globCount: u32 = 0;
let globPat: u32 = 0;
let globOrig: u32 = 0;
let escTotal: u32 = 0;
let tableOut: usize = 0;
let needed: u32 = 0;

export function compiledTable(): usize {
  return tableOut;
}

export function compileNeeded(): u32 {
  return needed;
}

@inline function align(p: usize): usize {
  return (p + 7) & ~(7 as usize);
}

export function compile(body: usize, len: u32, agents: usize, agentsLen: u32, work: usize, cap: u32): u32 {
  cAgents = agents;
  cAgentsLen = agentsLen;
  gIn = false; gHasRules = false; gGlobal = false; gNamed = false; anyNamed = false;
  refsTop = align(work);
  escBottom = (work + <usize>cap) & ~(7 as usize);
  overflow = false;
  specCount = 0; specPat = 0; specOrig = 0;
  globCount = 0; globPat = 0; globOrig = 0;
  escTotal = 0;
  scanStart(body, len);
  scanLoop(true, 0, u32.MAX_VALUE);
  const n = anyNamed ? specCount : globCount;
  const pat = anyNamed ? specPat : globPat;
  const orig = anyNamed ? specOrig : globOrig;
  if (overflow) {
    needed = (specCount + globCount) * <u32>REF_SIZE + escTotal + workNeed(n, pat, orig) + 128;
    return 0;
  }
  return compileRefs(align(work), refsTop, anyNamed ? R_SPECIFIC : R_GLOBAL, n, pat, orig, align(refsTop), escBottom, work, escTotal);
}

export function compileList(refs: usize, count: u32, patBytes: u32, origBytes: u32, work: usize, cap: u32): u32 {
  return compileRefs(refs, refs + <usize>count * REF_SIZE, 0, count, patBytes, origBytes, align(work), (work + <usize>cap) & ~(7 as usize), work, 0);
}

// Bytes compileRefs needs after the refs for n rules with these pattern and text totals: entries
// (up to 2 per rule, index.html), order/merge/stack arrays, derived patterns, and the table.
function workNeed(n: u32, patBytes: u32, origBytes: u32): u32 {
  const e = 2 * n;
  return e * <u32>ENTRY_SIZE + 3 * e * 4 + (patBytes + n + 16)
    + (32 + e * (<u32>RULE_SIZE + 4) + 32 + 2 * patBytes + n + 2 * origBytes + 2 * e + 16) + 8 * 8;
}

// SEMANTICS.md 6, one directive at a time (the reference's state machine over groups).
function selectDirective(kind: u32, flags: u32, vs: u32, ve: u32): void {
  if (kind == K_UA) {
    if (!gIn || gHasRules) { gIn = true; gHasRules = false; gGlobal = false; gNamed = false; }
    if (flags & S_GLOBAL) { gGlobal = true; return; }
    if (tokenNamesAgent(sBody + vs, ve - vs)) { gNamed = true; anyNamed = true; }
    return;
  }
  if (kind != K_ALLOW && kind != K_DISALLOW) return;
  if (!gIn) return; // before any user-agent line: applies to nobody
  gHasRules = true;
  if (!gNamed && !gGlobal) return;
  const v = sBody + vs;
  const n = ve - vs;
  const escLen = flags & S_ESCAPE ? escapedLength(v, n) : 0;
  if (gNamed) { specCount++; specPat += escLen != 0 ? escLen : n; specOrig += n; }
  else { globCount++; globPat += escLen != 0 ? escLen : n; globOrig += n; }
  escTotal += escLen;
  if (overflow || refsTop + REF_SIZE + <usize>escLen > escBottom) { overflow = true; return; }
  let patPtr = v;
  let patLen = n;
  let bits: u32 = (kind == K_ALLOW ? 1 : 0) | (gNamed ? R_SPECIFIC : R_GLOBAL);
  if (escLen != 0) {
    escBottom -= escLen;
    escapeInto(escBottom, v, n);
    patPtr = escBottom;
    patLen = escLen;
    bits |= R_HAS_ORIG;
  }
  const ref = refsTop;
  refsTop += REF_SIZE;
  store<u32>(ref, <u32>patPtr);
  store<u32>(ref, patLen, 4);
  store<u32>(ref, <u32>v, 8);
  store<u32>(ref, n, 12);
  store<u32>(ref, sLine, 16);
  store<u32>(ref, bits, 20);
}

// The token of a user-agent value (its leading A-Z a-z - _) equals one of the caller's tokens,
// ignoring ASCII case.
function tokenNamesAgent(v: usize, n: u32): bool {
  let t: u32 = 0;
  while (t < n) {
    const c = <u32>load<u8>(v + t);
    if ((c | 0x20) - 0x61 < 26 || c == 0x2d || c == 0x5f) t++; else break;
  }
  if (t == 0) return false;
  let a: u32 = 0;
  while (a < cAgentsLen) {
    let b = a;
    while (b < cAgentsLen && load<u8>(cAgents + b) != 0x0a) b++;
    if (b - a == t) {
      let i: u32 = 0;
      for (; i < t; i++) {
        let c = <u32>load<u8>(v + i);
        if (c - 0x41 < 26) c += 0x20;
        if (c != <u32>load<u8>(cAgents + a + i)) break;
      }
      if (i == t) return true;
    }
    a = b + 1;
  }
  return false;
}

// SEMANTICS.md 5: the length of the escaped form of v[0, n), or 0 when escaping changes nothing
// (no byte >= 0x80, no lower-case %hh).
function escapedLength(v: usize, n: u32): u32 {
  let changed = false;
  let len = n;
  for (let i: u32 = 0; i < n; i++) {
    const c = <u32>load<u8>(v + i);
    if (c >= 0x80) { changed = true; len += 2; }
    else if (c == PERCENT && i + 2 < n && isHex(load<u8>(v + i + 1)) && isHex(load<u8>(v + i + 2))) {
      if (load<u8>(v + i + 1) >= 0x61 || load<u8>(v + i + 2) >= 0x61) changed = true;
      i += 2;
    }
  }
  return changed ? len : 0;
}

// Writes the escaped form of v[0, n) at dst (escapedLength bytes).
function escapeInto(dst: usize, v: usize, n: u32): void {
  let o = dst;
  for (let i: u32 = 0; i < n; i++) {
    const c = <u32>load<u8>(v + i);
    if (c >= 0x80) {
      store<u8>(o, PERCENT); store<u8>(o, hexDigit(c >> 4), 1); store<u8>(o, hexDigit(c & 15), 2);
      o += 3;
    } else if (c == PERCENT && i + 2 < n && isHex(load<u8>(v + i + 1)) && isHex(load<u8>(v + i + 2))) {
      store<u8>(o, PERCENT); store<u8>(o, upperHex(load<u8>(v + i + 1)), 1); store<u8>(o, upperHex(load<u8>(v + i + 2)), 2);
      o += 3;
      i += 2;
    } else {
      store<u8>(o, c);
      o++;
    }
  }
}

// Entry fields (u32): pat, patLen, lit, seg, flags, line, orig, origLen, key, prev, filter (see
// filterKey).
let entries: usize = 0;

@inline function ent(k: u32, field: u32): u32 {
  return load<u32>(entries + <usize>k * ENTRY_SIZE + (<usize>field << 2));
}
@inline function setEnt(k: u32, field: u32, v: u32): void {
  store<u32>(entries + <usize>k * ENTRY_SIZE + (<usize>field << 2), v);
}

// How often each ASCII byte occurs in URL paths: the percentage of the paths of the 58,896 URLs of
// the labelled real-file cases that hold it, rounded. Only the order matters: it picks the filter
// byte least likely to be in a path, so that its group is skipped as often as possible. "/feed/" is
// filtered by 'f' (18%), not '/' (99%).
const COMMON: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  //  !  "  #  $  %  &  '  (  )  *  +  ,   -   .    /  0  1  2  3  4  5  6  7  8  9  :  ;  <  =  >  ?
  1, 0, 0, 5, 3, 13, 4, 0, 0, 0, 1, 0, 0, 14, 31, 99, 3, 9, 7, 5, 5, 2, 1, 1, 3, 2, 2, 6, 0, 15, 0, 18,
  // @ A-Z                                                                            [  \  ]  ^  _
  0, 2, 0, 1, 1, 2, 5, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0, 1, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5,
  // ` a   b   c   d   e   f   g   h   i   j  k  l   m   n   o   p   q  r   s   t   u   v  w   x   y  z  {  |  }  ~
  0, 52, 23, 39, 34, 54, 18, 19, 32, 45, 5, 4, 34, 35, 35, 36, 40, 9, 36, 42, 41, 16, 7, 11, 26, 7, 2, 0, 0, 0, 2, 0,
]);

// The filter byte of a CONTAINS or WILD pattern's first segment p[from, to): its first byte when
// that is already rare ('?', '&', '='): the probe of the first byte is the one the segment search
// needs anyway, and query rules then share one group. Else the least common byte (the first of
// equals).
const RARE_ENOUGH: u32 = 20;
function rarestByte(p: usize, from: u32, to: u32): u32 {
  let best = <u32>load<u8>(p + from);
  if (best < 128 && <u32>load<u8>(COMMON + best) <= RARE_ENOUGH) return best;
  let bestScore: u32 = 256;
  for (let i = from; i < to; i++) {
    const c = <u32>load<u8>(p + i);
    if (c == STAR) break;
    const score: u32 = c < 128 ? <u32>load<u8>(COMMON + c) : 0;
    if (score < bestScore) { best = c; bestScore = score; }
  }
  return best;
}

// Classifies pattern p[0, n) into entry k (the types at the top); false when it can never match:
// a non-empty pattern must start with '/' or '*' since every path starts with '/'.
function classifyPattern(k: u32, p: usize, n: u32, allow: bool, line: u32): bool {
  let f: u32 = allow ? F_ALLOW : 0;
  let lit: u32 = 0;
  let seg: u32 = 0;
  let type = T_LITERAL;
  if (n > 0) {
    const c0 = <u32>load<u8>(p);
    if (c0 != SLASH && c0 != STAR) return false;
    const anchored = load<u8>(p + n - 1) == 0x24;
    const body = anchored ? n - 1 : n;
    let star: u32 = 0;
    while (star < body && load<u8>(p + star) != STAR) star++;
    lit = star;
    if (star == body) {
      type = anchored ? T_EXACT : T_LITERAL;
    } else {
      let j = star;
      while (j < body && load<u8>(p + j) == STAR) j++;
      let q = j;
      while (q < body && load<u8>(p + q) != STAR) q++;
      if (j == body) type = T_LITERAL; // only stars after the prefix: "/a*" and "/a*$" match any extension
      else if (q == body) { type = anchored ? T_SUFFIX : T_CONTAINS; seg = j; }
      else { type = T_WILD; seg = j; }
    }
    if (anchored) f |= F_ANCHORED;
  }
  // Sort key: the first four literal bytes, zero-padded. Patterns are ASCII without NUL, so the key
  // fits in 31 bits and a shorter prefix sorts before its extensions.
  let key: u32 = 0;
  for (let i: u32 = 0; i < 4; i++) key = (key << 8) | (i < lit ? <u32>load<u8>(p + i) : 0);
  setEnt(k, 0, <u32>p); setEnt(k, 1, n); setEnt(k, 2, lit); setEnt(k, 3, seg);
  setEnt(k, 4, f | (type << 1)); setEnt(k, 5, line); setEnt(k, 6, 0); setEnt(k, 7, 0);
  setEnt(k, 8, key); setEnt(k, 9, 0);
  // The always part's group (decide): SUFFIX by the last byte of its segment, CONTAINS and WILD by
  // the rarest byte of their first segment, the rest in one group that is never skipped.
  let filter: u32 = 0x200;
  if (type == T_CONTAINS || type == T_WILD) filter = rarestByte(p, seg, (f & F_ANCHORED) != 0 ? n - 1 : n);
  else if (type == T_SUFFIX) filter = 0x100 | <u32>load<u8>(p + n - 2);
  setEnt(k, 10, filter);
  return true;
}

// The group of a rule of the always part, computed once by classifyPattern (sorting compares it
// often and rarestByte scans the segment).
@inline function filterKey(k: u32): u32 {
  return ent(k, 10);
}

let sortingAlways = false;

// Literal prefix, then line: the order of the sorted part of the table (the always part: see
// filterKey).
function entryLess(a: u32, b: u32): bool {
  if (sortingAlways) {
    const fa = filterKey(a);
    const fb = filterKey(b);
    return fa != fb ? fa < fb : ent(a, 5) < ent(b, 5);
  }
  const ka = ent(a, 8);
  const kb = ent(b, 8);
  if (ka != kb) return ka < kb;
  const la = ent(a, 2);
  const lb = ent(b, 2);
  if (la > 4 || lb > 4) {
    const pa = <usize>ent(a, 0);
    const pb = <usize>ent(b, 0);
    const n = la < lb ? la : lb;
    for (let i: u32 = 4; i < n; i++) {
      const ca = load<u8>(pa + i);
      const cb = load<u8>(pb + i);
      if (ca != cb) return ca < cb;
    }
    if (la != lb) return la < lb;
  }
  return ent(a, 5) < ent(b, 5);
}

function samePrefix(a: u32, b: u32): bool {
  const la = ent(a, 2);
  return la == ent(b, 2) && bytesEqual(<usize>ent(a, 0), <usize>ent(b, 0), la);
}

function properPrefix(a: u32, b: u32): bool {
  const la = ent(a, 2);
  return la < ent(b, 2) && bytesEqual(<usize>ent(a, 0), <usize>ent(b, 0), la);
}

// Sorts the u32 entry indexes at [order, order + 4n): insertion sort for the usual few dozen,
// bottom-up merge sort (stable, O(n log n)) through `temp` beyond that.
function sortEntries(order: usize, n: u32, temp: usize): void {
  if (n <= 32) {
    for (let i: u32 = 1; i < n; i++) {
      const x = load<u32>(order + (<usize>i << 2));
      let j = <i32>i - 1;
      while (j >= 0 && entryLess(x, load<u32>(order + (<usize>j << 2)))) {
        store<u32>(order + (<usize>(j + 1) << 2), load<u32>(order + (<usize>j << 2)));
        j--;
      }
      store<u32>(order + (<usize>(j + 1) << 2), x);
    }
    return;
  }
  let src = order;
  let dst = temp;
  for (let width: u32 = 1; width < n; width <<= 1) {
    for (let lo: u32 = 0; lo < n; lo += width << 1) {
      const mid = lo + width < n ? lo + width : n;
      const hi = lo + (width << 1) < n ? lo + (width << 1) : n;
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        const a = load<u32>(src + (<usize>i << 2));
        const b = load<u32>(src + (<usize>j << 2));
        // Take from the right only when strictly less: stable.
        if (entryLess(b, a)) { store<u32>(dst + (<usize>o << 2), b); j++; }
        else { store<u32>(dst + (<usize>o << 2), a); i++; }
        o++;
      }
      while (i < mid) { store<u32>(dst + (<usize>o << 2), load<u32>(src + (<usize>i << 2))); i++; o++; }
      while (j < hi) { store<u32>(dst + (<usize>o << 2), load<u32>(src + (<usize>j << 2))); j++; o++; }
    }
    const t = src; src = dst; dst = t;
  }
  if (src != order) memory.copy(order, src, <usize>n << 2);
}

const INDEX_HTM = "/index.htm";

// Compiles the refs in [refs, refsEnd) (file order) whose bits include `tag` (0: all) into the
// table format at the top; returns its length, or 0 (with `needed` set) when [arena, limit) cannot
// hold the arrays and the table. `count`, `patBytes`, `origBytes`: count and byte totals of those
// refs; `used`: other work-area bytes in use above `limit` (escaped patterns).
function compileRefs(refs: usize, refsEnd: usize, tag: u32, count: u32, patBytes: u32, origBytes: u32, arena: usize, limit: usize, work: usize, used: u32): u32 {
  const e2 = 2 * count;
  entries = arena;
  const order = align(entries + <usize>e2 * ENTRY_SIZE);
  const temp = align(order + <usize>e2 * 4);
  const stack = align(temp + <usize>e2 * 4);
  let derived = align(stack + <usize>e2 * 4);
  const tableAt = align(derived + <usize>(patBytes + count + 16));
  const tableEnd = tableAt + <usize>(32 + e2 * (<u32>RULE_SIZE + 4) + 32 + 2 * patBytes + count + 2 * origBytes + 2 * e2 + 16);
  if (tableEnd > limit) {
    needed = <u32>(arena - work) + used + workNeed(count, patBytes, origBytes) + 128;
    return 0;
  }
  const refTotal = <u32>((refsEnd - refs) / REF_SIZE);
  let n: u32 = 0;
  for (let r: u32 = 0; r < refTotal; r++) {
    const ref = refs + <usize>r * REF_SIZE;
    const bits = load<u32>(ref, 20);
    if (tag != 0 && (bits & tag) == 0) continue;
    const pat = <usize>load<u32>(ref);
    const plen = load<u32>(ref, 4);
    const allow = (bits & 1) != 0;
    const line = load<u32>(ref, 16);
    if (classifyPattern(n, pat, plen, allow, line)) {
      if (bits & R_HAS_ORIG) {
        setEnt(n, 4, ent(n, 4) | F_HAS_ORIG); setEnt(n, 6, load<u32>(ref, 8)); setEnt(n, 7, load<u32>(ref, 12));
      }
      n++;
    }
    if (!allow) continue;
    // SEMANTICS.md 10: ".../index.htm..." also allows ".../" exactly, reported as this allow line.
    let slash = <i32>plen - 1;
    while (slash >= 0 && load<u8>(pat + slash) != SLASH) slash--;
    if (slash < 0 || plen - <u32>slash < 10) continue;
    let isIndex = true;
    for (let i = 0; i < 10; i++) {
      if (<u32>load<u8>(pat + slash + i) != <u32>INDEX_HTM.charCodeAt(i)) { isIndex = false; break; }
    }
    if (!isIndex) continue;
    const dlen = <u32>slash + 2;
    memory.copy(derived, pat, dlen - 1);
    store<u8>(derived + dlen - 1, 0x24);
    if (classifyPattern(n, derived, dlen, true, line)) {
      setEnt(n, 4, ent(n, 4) | F_HAS_ORIG);
      setEnt(n, 6, load<u32>(ref, 8)); setEnt(n, 7, load<u32>(ref, 12));
      n++;
    }
    derived += dlen;
  }

  // Always-candidates first: a literal prefix of "" or "/" is a prefix of every path (paths start
  // with '/'). They are grouped by filterKey; field 9, unused by them, holds how many rules of
  // their group follow (at most 255: a shorter skip only costs another test).
  let nAlways: u32 = 0;
  for (let k: u32 = 0; k < n; k++) if (ent(k, 2) <= 1) { store<u32>(order + (<usize>nAlways << 2), k); nAlways++; }
  sortingAlways = true;
  sortEntries(order, nAlways, temp);
  sortingAlways = false;
  for (let i = <i32>nAlways - 2; i >= 0; i--) {
    const k = load<u32>(order + (<usize>i << 2));
    const next = load<u32>(order + (<usize>(i + 1) << 2));
    const f = filterKey(k);
    if (f < 0x200 && f == filterKey(next)) setEnt(k, 9, ent(next, 9) < 255 ? ent(next, 9) + 1 : 255);
  }
  let ns: u32 = 0;
  const sorted = order + (<usize>nAlways << 2);
  for (let k: u32 = 0; k < n; k++) if (ent(k, 2) > 1) { store<u32>(sorted + (<usize>ns << 2), k); ns++; }
  sortEntries(sorted, ns, temp);

  // prev (table index + 1): the entry before when it has the same literal prefix, else the last
  // entry of the longest other prefix that is a prefix of this one; `stack` holds the table
  // indexes of the chain of prefixes of the current entry.
  let top: i32 = -1;
  for (let i: u32 = 0; i < ns; i++) {
    const k = load<u32>(sorted + (<usize>i << 2));
    const idx = nAlways + i;
    if (i > 0 && samePrefix(load<u32>(sorted + (<usize>(i - 1) << 2)), k)) {
      setEnt(k, 9, idx);
      store<u32>(stack + (<usize>top << 2), idx);
      continue;
    }
    while (top >= 0 && !properPrefix(load<u32>(order + (<usize>load<u32>(stack + (<usize>top << 2)) << 2)), k)) top--;
    setEnt(k, 9, top >= 0 ? load<u32>(stack + (<usize>top << 2)) + 1 : 0);
    top++;
    store<u32>(stack + (<usize>top << 2), idx);
  }

  // Table: header, rules, keys of the sorted rules (padded to a multiple of 4), pool.
  const table = tableAt;
  let maxPat: u32 = 0;
  const rulesOff: u32 = 32;
  const keysOff = (rulesOff + n * <u32>RULE_SIZE + 15) & ~15;
  const nKeys = (n - nAlways + 3) & ~3;
  const poolOff = keysOff + nKeys * 4;
  for (let z = rulesOff + n * <u32>RULE_SIZE; z < keysOff; z++) store<u8>(table + z, 0);
  for (let j = n - nAlways; j < nKeys; j++) store<u32>(table + keysOff + (<usize>j << 2), u32.MAX_VALUE);
  let o: u32 = 0;
  let sEnd: u32 = 0;
  let bloom: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const k = load<u32>(order + (<usize>i << 2));
    const at = table + rulesOff + <usize>i * RULE_SIZE;
    const plen = ent(k, 1);
    const f = ent(k, 4);
    // Sorted rules: +8 is the chain link. Always rules: +8 is the filter byte, +17 the skip, bit 6
    // marks a CONTAINS segment that starts with the filter byte (decide's in-place compare), and
    // SUFFIX groups feed the header's end index and bloom.
    let link = ent(k, 9);
    let skip: u32 = 0;
    let atFilter: u32 = 0;
    if (i < nAlways) {
      const filter = filterKey(k);
      link = filter & 0xff;
      skip = ent(k, 9);
      if (((f >> 1) & 7) == T_CONTAINS && <u32>load<u8>(<usize>ent(k, 0) + <usize>ent(k, 3)) == link) atFilter = F_AT_FILTER;
      if (filter >= 0x100 && filter < 0x200) { bloom |= 1 << (filter & 31); sEnd = i + 1; }
    }
    store<u32>(at, o);
    store<u32>(at, ent(k, 5), 4);
    store<u32>(at, link, 8);
    store<u16>(at, <u16>plen, 12);
    store<u16>(at, <u16>ent(k, 2), 14);
    store<u8>(at, <u8>(f | atFilter), 16);
    store<u8>(at, <u8>skip, 17);
    store<u16>(at, <u16>ent(k, 3), 18);
    if (i >= nAlways) store<u32>(table + keysOff + (<usize>(i - nAlways) << 2), ent(k, 8));
    memory.copy(table + poolOff + o, <usize>ent(k, 0), plen);
    o += plen;
    if (f & F_HAS_ORIG) {
      const olen = ent(k, 7);
      store<u16>(table + poolOff + o, <u16>olen);
      memory.copy(table + poolOff + o + 2, <usize>ent(k, 6), olen);
      o += 2 + olen;
    }
    if (plen > maxPat) maxPat = plen;
  }
  const size = (poolOff + o + 3) & ~3;
  for (let z = poolOff + o; z < size; z++) store<u8>(table + z, 0);
  store<u32>(table, n);
  store<u32>(table, nAlways, 4);
  store<u32>(table, rulesOff, 8);
  store<u32>(table, poolOff, 12);
  store<u32>(table, maxPat, 16);
  store<u32>(table, keysOff, 20);
  store<u32>(table, sEnd, 24);
  store<u32>(table, bloom, 28);
  tableOut = table;
  return size;
}
