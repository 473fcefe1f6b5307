// The matcher (RFC 9309 2.2.2-2.2.3; Google's RobotsMatcher): the verdict for a URL against the current table. Owns the current
// table (set by useTable, read-only here) and the per-path probe cache; takes the normalized path
// from url.ts.
//
// Invariants: a table stays current until the next useTable; every rule in it is ranked by
// priority (pattern length) then lower line, and the result of `decide` is (rule index + 1) << 1 |
// allowed, 0 in the upper bits when no rule matched. Searches stay linear in the path: `find`
// falls back to KMP once verification has spent a linear budget.

import {
  RULE_F_ALLOW, RULE_F_ANCHORED, RULE_F_AT_FILTER, RULE_FLAGS, RULE_LINE, RULE_LINK, RULE_LIT_LEN, RULE_PAT_LEN,
  RULE_PAT_OFF, RULE_SEG_OFF, RULE_SIZE, RULE_SKIP, RULE_TYPE_MASK, RULE_TYPE_SHIFT, TABLE_KEYS_OFF, TABLE_N_ALWAYS,
  TABLE_HEADER_SIZE, TABLE_INDEX_OFF, TABLE_N_RULES, TABLE_POOL_OFF, TABLE_SUFFIX_BLOOM, TABLE_SUFFIX_END, TABLE_WIDE_OFF, TYPE_CONTAINS,
  TYPE_EXACT, TYPE_LITERAL, TYPE_SUFFIX, TYPE_WILD, WIDE_KEY_END, WIDE_KEY_FROM, WIDE_KEY_HI, WIDE_KEY_LO, WIDE_KEY_SIZE,
} from '../src/engine/layout';
import { byteVector, sameBytes, STAR, V_DOLLAR, V_STAR } from './bytes';
import { patternAnchored, patternBody, patternLiteral, readPattern } from './pattern';
import { indexSlot } from './table';
import {
  lineNext, locateLine, locatePath, path as currentPath, pathLength, QUERY_UNKNOWN, queryFirst, queryLast, scratchAfterPath, utf16ToUtf8,
} from './url';

let rulesBase: usize = 0;
let keysBase: usize = 0;
let suffixEnd: u32 = 0;
let suffixBloom: u32 = 0;
let poolBase: usize = 0;
let indexBase: usize = 0;
let wideBase: usize = 0;
let nRules: u32 = 0;
let nAlways: u32 = 0;

export function useTable(table: usize): void {
  nRules = load<u32>(table, TABLE_N_RULES);
  nAlways = load<u32>(table, TABLE_N_ALWAYS);
  rulesBase = table + <usize>TABLE_HEADER_SIZE;
  keysBase = table + <usize>load<u32>(table, TABLE_KEYS_OFF);
  suffixEnd = load<u32>(table, TABLE_SUFFIX_END);
  suffixBloom = load<u32>(table, TABLE_SUFFIX_BLOOM);
  poolBase = table + <usize>load<u32>(table, TABLE_POOL_OFF);
  const indexOff = load<u32>(table, TABLE_INDEX_OFF);
  indexBase = indexOff != 0 ? table + <usize>indexOff : 0;
  const wideOff = load<u32>(table, TABLE_WIDE_OFF);
  wideBase = wideOff != 0 ? table + <usize>wideOff : 0;
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
  // The path may itself live in scratch; the table follows it.
  const fail = scratchAfterPath();
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
const PROBE_GEN = 0; // u32
const PROBE_FIRST = 4; // i32, -1 when absent
const PROBE_LAST = 8; // i32
const PROBE_SIZE = 12;
const PROBES: usize = memory.data(256 * PROBE_SIZE, 16);
let probeGen: u32 = 0;

function probeSlot(c: u32): usize {
  const slot = PROBES + <usize>c * PROBE_SIZE;
  if (load<u32>(slot, PROBE_GEN) != probeGen) {
    const path = currentPath();
    const plen = pathLength();
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
    store<u32>(slot, probeGen, PROBE_GEN);
    store<i32>(slot, first, PROBE_FIRST);
    store<i32>(slot, last, PROBE_LAST);
  }
  return slot;
}

// Leftmost occurrence at or after `pos` of the literal segment seg[0, n) (n >= 1) in the path, or
// -1. The probe of its first byte bounds the search on both sides.
@inline function findSegment(pos: u32, seg: usize, n: u32): i32 {
  const slot = probeSlot(<u32>load<u8>(seg));
  const last = load<i32>(slot, PROBE_LAST);
  if (last < <i32>pos) return -1;
  const first = <u32>load<i32>(slot, PROBE_FIRST);
  // One occurrence (a path's usual single '?'): one comparison, no search.
  if (first == <u32>last) return <u32>last + n <= pathLength() && sameBytes(currentPath() + first, seg, n) ? last : -1;
  const end = <u32>last + n < pathLength() ? <u32>last + n : pathLength();
  return find(currentPath(), first > pos ? first : pos, end, seg, n);
}

// Pattern bytes [j, n) start with '*' and the path has matched up to `pos`. Split at '*' into
// literal segments; after a '*' every position from the current one onward is reachable, so only
// the leftmost occurrence of the next segment matters; with an end anchor the last segment must
// end the path. This equals the reference's position-set algorithm (RFC 9309 2.2.3; Google's RobotsMatchStrategy::Matches).
export function matchWild(pat: usize, j: u32, n: u32, anchored: bool, pos: u32): bool {
  const plen = pathLength();
  while (true) {
    while (j < n && load<u8>(pat + j) == STAR) j++;
    if (j == n) return true;
    let k = j;
    while (k < n && load<u8>(pat + k) != STAR) k++;
    const seg = k - j;
    if (k == n && anchored) {
      if (plen - pos < seg) return false;
      return sameBytes(currentPath() + plen - seg, pat + j, seg);
    }
    const at = findSegment(pos, pat + j, seg);
    if (at < 0) return false;
    pos = <u32>at + seg;
    j = k;
  }
  return true;
}

// A big-endian word of path or literal bytes cut to its first n bytes (all of it when n covers
// it), the rest zero: the form of every key, and of the path's words compared with them.
@inline function high32(w: u32, n: u32): u32 {
  return n >= 4 ? w : w & ~(u32.MAX_VALUE >> (n << 3));
}
@inline function high64(w: u64, n: u32): u64 {
  return n >= 8 ? w : w & ~(u64.MAX_VALUE >> (<u64>n << 3));
}

// The first four bytes of the path as one big-endian word, zero past its end; compared with a
// rule's key (its first four literal bytes, same form) it orders most literal prefixes against
// the path in one step. Neither paths nor patterns contain NUL, so a zero always means "ended".
@inline function pathKey(path: usize, plen: u32): u32 {
  return high32(bswap<u32>(load<u32>(path)), plen);
}

// The path's bytes 1-8 and 9-12 as big-endian numbers, zero past its end: the form of a wide key
// (TABLE_WIDE_OFF).
const KEY_FROM: u32 = WIDE_KEY_FROM;
const KEY_END: u32 = WIDE_KEY_END;
@inline function pathHi(path: usize, plen: u32): u64 {
  return plen <= KEY_FROM ? 0 : high64(bswap<u64>(load<u64>(path + KEY_FROM)), plen - KEY_FROM);
}
@inline function pathLo(path: usize, plen: u32): u32 {
  return plen <= KEY_FROM + 8 ? 0 : high32(bswap<u32>(load<u32>(path + KEY_FROM + 8)), plen - KEY_FROM - 8);
}

// Does sorted rule j of an indexed part sort at or before the path (its literal sorts below the
// path or is a prefix of it)? Byte 0 is '/' on both sides, and the wide key decides unless the
// literal's next 12 bytes equal the path's; only then are the pool's bytes read.
@inline function wideAtOrBefore(j: u32, phi: u64, plo: u32): bool {
  const w = wideBase + <usize>j * WIDE_KEY_SIZE;
  const hi = load<u64>(w, WIDE_KEY_HI);
  const lo = load<u32>(w, WIDE_KEY_LO);
  if (hi == phi && lo == plo) return litCompareRest(rulesBase + <usize>(nAlways + j) * RULE_SIZE, KEY_END) <= 0;
  return (hi < phi) | ((hi == phi) & (lo < plo));
}

// Is the literal of sorted rule j of an indexed part (at `rule`) a prefix of the path? The path's
// words, cut to the literal's length, equal the wide key when the bytes it holds agree.
@inline function widePrefix(j: u32, rule: usize, phi: u64, plo: u32): bool {
  const litLen = <u32>load<u16>(rule, RULE_LIT_LEN);
  if (litLen > pathLength()) return false;
  const w = wideBase + <usize>j * WIDE_KEY_SIZE;
  const held = litLen - KEY_FROM; // >= 1: sorted literals have two bytes or more
  if (high64(phi, held) != load<u64>(w, WIDE_KEY_HI)) return false;
  if (held > 8 && high32(plo, held - 8) != load<u32>(w, WIDE_KEY_LO)) return false;
  return litLen <= KEY_END || sameBytes(poolBase + <usize>load<u32>(rule, RULE_PAT_OFF) + KEY_END, currentPath() + KEY_END, litLen - KEY_END);
}

// Compare the literal of a sorted rule whose first `from` bytes equal the path's with the path:
// < 0 if it sorts before the path or is a prefix of it, > 0 otherwise.
@inline function litCompareRest(rule: usize, from: u32): i32 {
  const litLen = <u32>load<u16>(rule, RULE_LIT_LEN);
  if (litLen <= from) return -1;
  const lit = poolBase + <usize>load<u32>(rule, RULE_PAT_OFF);
  const n = litLen < pathLength() ? litLen : pathLength();
  for (let i = from; i < n; i++) {
    const a = <i32>load<u8>(lit + i);
    const b = <i32>load<u8>(currentPath() + i);
    if (a != b) return a - b;
  }
  return litLen <= pathLength() ? -1 : 1;
}

// Is the literal of a rule of a small sorted part (key `key`) a prefix of the path? Sorted rules
// have a literal prefix of at least one byte.
@inline function isLitPrefix(rule: usize, key: u32, pkey: u32): bool {
  const litLen = <u32>load<u16>(rule, RULE_LIT_LEN);
  if (litLen > pathLength()) return false;
  if (high32(pkey, litLen) != key) return false;
  return litLen <= 4 || sameBytes(poolBase + <usize>load<u32>(rule, RULE_PAT_OFF) + 4, currentPath() + 4, litLen - 4);
}

// Does rule r, whose literal prefix is known to be a prefix of the path, match it?
@inline function ruleMatches(rule: usize): bool {
  const flags = <u32>load<u8>(rule, RULE_FLAGS);
  const type = (flags >> RULE_TYPE_SHIFT) & RULE_TYPE_MASK;
  if (type == TYPE_LITERAL) return true;
  if (type == TYPE_EXACT) return pathLength() == <u32>load<u16>(rule, RULE_LIT_LEN);
  const patLen = <u32>load<u16>(rule, RULE_PAT_LEN);
  const pat = poolBase + <usize>load<u32>(rule, RULE_PAT_OFF);
  if (type == TYPE_SUFFIX) {
    const segOff = <u32>load<u16>(rule, RULE_SEG_OFF);
    const segLen = patLen - 1 - segOff;
    const seg = pat + segOff;
    if (pathLength() < <u32>load<u16>(rule, RULE_LIT_LEN) + segLen) return false;
    // The last byte first: it rejects almost every path with one compare.
    if (load<u8>(currentPath() + pathLength() - 1) != load<u8>(seg + segLen - 1)) return false;
    return sameBytes(currentPath() + pathLength() - segLen, seg, segLen);
  }
  if (type == TYPE_CONTAINS) {
    const segOff = <u32>load<u16>(rule, RULE_SEG_OFF);
    return findSegment(<u32>load<u16>(rule, RULE_LIT_LEN), pat + segOff, patLen - segOff) >= 0;
  }
  const anchored = (flags & RULE_F_ANCHORED) != 0;
  const litLen = <u32>load<u16>(rule, RULE_LIT_LEN);
  return matchWild(pat, litLen, anchored ? patLen - 1 : patLen, anchored, litLen);
}

// Rank of a matching rule: priority first, then the lower line (RFC 9309 2.2.2; Google's RobotsMatcher); 0 ranks below
// every rule.
@inline function rank(rule: usize): u64 {
  // The complement is taken in 32 bits first: under a u64 cast AssemblyScript would widen the
  // load and complement all 64 bits.
  const lineRank: u32 = ~load<u32>(rule, RULE_LINE);
  return ((<u64>load<u16>(rule, RULE_PAT_LEN) + 1) << 32) | <u64>lineRank;
}

// The best matching allow and disallow of the current decide(): rank and rule index (-1: none).
let allowRank: u64 = 0;
let allowIdx: i32 = -1;
let disRank: u64 = 0;
let disIdx: i32 = -1;

// Rule `index` (at `rule`) matches the path: it becomes the best allow or disallow if it outranks it.
@inline function consider(rule: usize, index: i32): void {
  const k = rank(rule);
  if (load<u8>(rule, RULE_FLAGS) & <u8>RULE_F_ALLOW) {
    if (k > allowRank) { allowRank = k; allowIdx = index; }
  } else if (k > disRank) { disRank = k; disIdx = index; }
}

// A new current path: the probes of the last one are stale. Every decision over a path (decide, and
// stream.ts's rules matched one by one) begins here.
export function beginPath(): void {
  if (++probeGen == 0) {
    memory.fill(PROBES, 0, 256 * PROBE_SIZE);
    probeGen = 1;
  }
  // Locating a path it left in place, url.ts found its '?'s: the probe of '?' needs no scan.
  if (queryFirst != QUERY_UNKNOWN) {
    const slot = PROBES + <usize>0x3f * PROBE_SIZE;
    store<u32>(slot, probeGen, PROBE_GEN);
    store<i32>(slot, queryFirst, PROBE_FIRST);
    store<i32>(slot, queryLast, PROBE_LAST);
  }
}

// Does pattern p[0, n) (normalized, as the table writer classifies it) match the current path? The
// table's types taken on the fly: the literal prefix up to the first '*', then, when a '*' follows,
// matchWild over the rest; a trailing '$' anchors. Used where no table is built (stream.ts); equal
// to ruleMatches on the rule classifyPattern makes of the same pattern (test/stream.test.ts).
export function patternMatches(p: usize, n: u32): bool {
  if (n == 0) return true;
  // Most patterns leave the path within their first 16 bytes, before any '*' or '$': one compare
  // finds where (a byte that differs, or the path's end), and a literal byte of the pattern there
  // rejects it without reading the rest (a '$' that is not last is a literal, but stopping at it
  // only takes the long way). Both sides have 16 bytes of slack, masked off by the path's length.
  const v = v128.load(p);
  const stops = v128.or(v128.not(i8x16.eq(v, v128.load(currentPath()))), v128.or(i8x16.eq(v, byteVector(V_STAR)), i8x16.eq(v, byteVector(V_DOLLAR))));
  const k = <u32>ctz<u32>(i8x16.bitmask(stops));
  const plen = pathLength();
  const m = k < plen ? k : plen;
  if (m < 16 && m < n) {
    const c = <u32>load<u8>(p + m);
    if (c != STAR && c != 0x24) return false;
  }
  if (!readPattern(p, n)) return false;
  const anchored = patternAnchored;
  const body = patternBody;
  const star = patternLiteral;
  if (star > plen || !sameBytes(currentPath(), p, star)) return false;
  if (star == body) return !anchored || plen == star;
  return matchWild(p, star, body, anchored, star);
}

// Verdict for the path in currentPath()/pathLength() against the current table (RFC 9309 2.2.2; Google's RobotsMatcher).
function decide(): i32 {
  beginPath();
  allowRank = 0;
  allowIdx = -1;
  disRank = 0;
  disIdx = -1;
  const rules = rulesBase;

  // The rules every path reaches come in groups that one byte test rejects whole: SUFFIX rules
  // by the last byte of their segment, CONTAINS and WILD by a byte of their first segment (absent
  // from the path: none can match). RULE_LINK holds the byte, RULE_SKIP counts the group's rules after this one.
  const path = currentPath();
  const plen = pathLength();
  let i: u32 = 0;
  while (i < nAlways) {
    const head = rules + <usize>i * RULE_SIZE;
    const type = (<u32>load<u8>(head, RULE_FLAGS) >> RULE_TYPE_SHIFT) & RULE_TYPE_MASK;
    const end = i + 1 + <u32>load<u8>(head, RULE_SKIP);
    // Where the filter byte occurs when it occurs exactly once (a path's one '?'): a CONTAINS
    // segment that starts with it can then only be there, and is compared in place.
    let once: i32 = -1;
    if (type == TYPE_SUFFIX) {
      const last = <u32>load<u8>(path + plen - 1);
      if ((suffixBloom & (1 << (last & 31))) == 0) { i = suffixEnd; continue; }
      if (last != <u32>load<u8>(head, RULE_LINK)) { i = end; continue; }
    } else if (type == TYPE_CONTAINS || type == TYPE_WILD) {
      const slot = probeSlot(<u32>load<u8>(head, RULE_LINK));
      const last = load<i32>(slot, PROBE_LAST);
      if (last < 0) { i = end; continue; }
      if (load<i32>(slot, PROBE_FIRST) == last) once = last;
    }
    for (; i < end; i++) {
      const rule = rules + <usize>i * RULE_SIZE;
      const flags = <u32>load<u8>(rule, RULE_FLAGS);
      let hit: bool;
      if (once >= 0 && (flags & RULE_F_AT_FILTER) != 0) {
        const seg = poolBase + <usize>load<u32>(rule, RULE_PAT_OFF) + <usize>load<u16>(rule, RULE_SEG_OFF);
        const n = <u32>load<u16>(rule, RULE_PAT_LEN) - <u32>load<u16>(rule, RULE_SEG_OFF);
        hit = <u32>once >= <u32>load<u16>(rule, RULE_LIT_LEN) && <u32>once + n <= plen && sameBytes(path + <usize>once, seg, n);
      } else hit = ruleMatches(rule);
      if (hit) consider(rule, <i32>i);
    }
  }

  const pkey = pathKey(currentPath(), pathLength());
  const nSorted = nRules - nAlways;
  const keys = keysBase;
  if (indexBase == 0) {
    // A small part (SORTED_SCAN_MAX rules at most, no index) is filtered whole: a rule is a
    // candidate when its key agrees with the path's on the key's nonzero bytes (those of its
    // literal; a path never holds NUL, so a path shorter than a 1-3 byte literal disagrees). Keys
    // are padded to a multiple of 4 with 0xffffffff, which no path's key agrees with ('/' leads).
    const vp = i32x4.splat(pkey);
    const vZero = i32x4.splat(0);
    let cands: u64 = 0;
    for (let j: u32 = 0; j < nSorted; j += 4) {
      const v = v128.load(keys + (<usize>j << 2));
      const agree = i32x4.eq(v128.and(vp, i8x16.ne(v, vZero)), v);
      cands |= <u64>i32x4.bitmask(agree) << j;
    }
    while (cands != 0) {
      const j = <u32>ctz<u64>(cands);
      cands &= cands - 1;
      const r = nAlways + j;
      const rule = rules + <usize>r * RULE_SIZE;
      if (isLitPrefix(rule, load<u32>(keys + (<usize>j << 2)), pkey) && ruleMatches(rule)) consider(rule, <i32>r);
    }
    return verdict();
  }

  // A large part: upper bound over the sorted rules, how many have a literal prefix <= the path.
  // Every path starts with '/', so the index bounds it by the slot of the path's second byte: the
  // rules before entry s sort below the path and those from entry s + 1 on above it. Within, a
  // branch-free search over the wide keys.
  const slot = indexBase + (<usize>indexSlot((pkey >> 16) & 0xff) << 2);
  let base = load<u32>(slot);
  let n = load<u32>(slot + sizeof<u32>()) - base;
  let lo = base;
  const phi = pathHi(path, plen);
  const plo = pathLo(path, plen);
  if (n != 0) {
    while (n > 1) {
      const half = n >> 1;
      base = select<u32>(base + half, base, wideAtOrBefore(base + half, phi, plo));
      n -= half;
    }
    lo = base + (wideAtOrBefore(base, phi, plo) ? 1 : 0);
  }
  let r: i32 = <i32>(nAlways + lo) - 1;
  // Walk up until a rule whose prefix is a prefix of the path; a run of one prefix is skipped
  // whole (its rules share litLen, ancestors have shorter ones).
  while (r >= <i32>nAlways) {
    const rule = rules + <usize>r * RULE_SIZE;
    if (widePrefix(<u32>r - nAlways, rule, phi, plo)) break;
    const litLen = load<u16>(rule, RULE_LIT_LEN);
    r = <i32>load<u32>(rule, RULE_LINK) - 1;
    while (r >= 0 && load<u16>(rules + <usize>r * RULE_SIZE, RULE_LIT_LEN) == litLen) {
      r = <i32>load<u32>(rules + <usize>r * RULE_SIZE, RULE_LINK) - 1;
    }
  }
  while (r >= <i32>nAlways) {
    const rule = rules + <usize>r * RULE_SIZE;
    if (ruleMatches(rule)) consider(rule, r);
    r = <i32>load<u32>(rule, RULE_LINK) - 1;
  }

  return verdict();
}

// A disallow decides when it outranks every allow by priority; the empty pattern (priority 0)
// matches everything yet disallows nothing.
@inline function verdict(): i32 {
  const allowPrio = <u32>(allowRank >> 32);
  const disPrio = <u32>(disRank >> 32);
  if (disPrio > allowPrio) return ((disIdx + 1) << 1) | (disPrio > 1 ? 0 : 1);
  return ((allowIdx + 1) << 1) | 1;
}

// The line number of rule i of the current table (what the host's tableRuleLine reads).
@inline export function ruleLine(i: u32): u32 {
  return load<u32>(rulesBase + <usize>i * RULE_SIZE, RULE_LINE);
}

export function check(url: usize, len: u32): i32 {
  locatePath(url, len);
  return decide();
}

// check() for the URL line that starts at data + start in data[0, len) (see locateLine); sets
// lineNext.
@inline export function checkLine(data: usize, start: u32, len: u32): i32 {
  locateLine(data, start, len);
  return decide();
}

// The loop of the four batch exports. URL i is src[ends[i-1], ends[i]) (ends[-1] = 0): bytes, or
// UTF-16 units transcoded into `stage` first; the verdict goes to `out` as an i32 (check()'s
// number) or as one byte (allowed). `utf16` and `bytesOut` are constants at every call site, so
// inlining leaves each export its own branch-free loop.
@inline function batch(ends: usize, src: usize, count: u32, out: usize, stage: usize, utf16: bool, bytesOut: bool): void {
  let start: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const end = load<u32>(ends + (<usize>i << 2));
    if (utf16) locatePath(stage, utf16ToUtf8(src, start, end, stage));
    else locatePath(src + start, end - start);
    const r = decide();
    if (bytesOut) store<u8>(out + i, <u8>(r & 1));
    else store<i32>(out + (<usize>i << 2), r);
    start = end;
  }
}

export function checkMany(ends: usize, bytes: usize, count: u32, out: usize): void {
  batch(ends, bytes, count, out, 0, false, false);
}

export function allowedMany(ends: usize, bytes: usize, count: u32, out: usize): void {
  batch(ends, bytes, count, out, 0, false, true);
}

export function checkMany16(ends: usize, units: usize, count: u32, out: usize, stage: usize): void {
  batch(ends, units, count, out, stage, true, false);
}

export function allowedMany16(ends: usize, units: usize, count: u32, out: usize, stage: usize): void {
  batch(ends, units, count, out, stage, true, true);
}

// The loop of the two line exports. URL i is the i-th line of data[0, len): lines end with '\n', a
// '\r' before it is dropped, and a last line without '\n' counts (so "" has no line and "\n" one
// empty line). Each verdict equals check() on the line decoded as TextDecoder would and encoded
// again (locateLine repairs ill-formed UTF-8 in the path it normalizes). Returns the number of
// lines; their verdicts go to `out` as in `batch`.
@inline function lines(data: usize, len: u32, out: usize, bytesOut: bool): u32 {
  let start: u32 = 0;
  let i: u32 = 0;
  while (start < len) {
    const r = checkLine(data, start, len);
    if (bytesOut) store<u8>(out + i, <u8>(r & 1));
    else store<i32>(out + (<usize>i << 2), r);
    i++;
    start = lineNext;
  }
  return i;
}

export function checkLines(data: usize, len: u32, out: usize): u32 {
  return lines(data, len, out, false);
}

export function allowedLines(data: usize, len: u32, out: usize): u32 {
  return lines(data, len, out, true);
}
