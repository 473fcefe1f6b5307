// The table writer: turns a list of selected rules (refs, REF_* in src/engine/layout.ts) into the
// compiled table the matcher reads (TABLE_* and RULE_* there). Classifies each pattern (RFC 9309 2.2.3;
// Google's RobotsMatchStrategy::Matches), adds the index.html rule's derived patterns (Google's RobotsMatcher::HandleAllow, the index.html rule), groups the rules every path
// reaches by a filter byte, sorts the rest by literal prefix and links each to its prefixes.
//
// Invariants: it works only inside the arena it is given and never writes past `limit`; when the
// arena is too small it writes nothing and returns 0. The table is position-independent (offsets
// from its start) so the host may copy it anywhere 4-aligned.

import {
  REF_BITS, REF_F_ALLOW, REF_F_HAS_ORIG, REF_LINE, REF_ORIG_LEN, REF_ORIG_PTR, REF_PAT_LEN, REF_PAT_PTR, REF_SIZE,
  RULE_F_ALLOW, RULE_F_ANCHORED, RULE_F_AT_FILTER, RULE_F_HAS_ORIG, RULE_FLAGS, RULE_LINE, RULE_LINK, RULE_LIT_LEN,
  RULE_PAT_LEN, RULE_PAT_OFF, RULE_SEG_OFF, RULE_SIZE, RULE_SKIP, RULE_TYPE_MASK, RULE_TYPE_SHIFT,
  INDEX_FIRST_BYTE, INDEX_LAST_BYTE, SORTED_SCAN_MAX, TABLE_HEADER_SIZE, TABLE_INDEX_ENTRIES, TABLE_INDEX_OFF, TABLE_KEYS_OFF, TABLE_MAX_PAT,
  TABLE_N_ALWAYS, TABLE_N_RULES, TABLE_POOL_OFF, TABLE_SUFFIX_BLOOM, TABLE_SUFFIX_END, TABLE_WIDE_OFF, TYPE_CONTAINS,
  TYPE_EXACT, TYPE_LITERAL, TYPE_SUFFIX, TYPE_WILD, WIDE_KEY_FROM, WIDE_KEY_HI, WIDE_KEY_LO, WIDE_KEY_SIZE,
} from '../src/engine/layout';
import { bytesEqual, STAR } from './bytes';
import { indexHtmlRule, patternAnchored, patternBody, patternLiteral, readPattern } from './pattern';

// An entry per candidate rule while compiling (u32 fields).
const E_PAT = 0; // pattern pointer
const E_PAT_LEN = 1;
const E_LIT = 2; // literal prefix length
const E_SEG = 3; // first segment after the stars
const E_FLAGS = 4; // RULE_F_* | type << RULE_TYPE_SHIFT
const E_LINE = 5;
const E_ORIG = 6; // text as written, when it differs
const E_ORIG_LEN = 7;
const E_KEY = 8; // first four literal bytes, big-endian
const E_PREV = 9; // sorted: chain link; always part: rules after this one in its group
const E_FILTER = 10; // always part's group (see filterKey)
const ENTRY_SIZE: usize = 44;

@inline function align(p: usize): usize {
  return (p + 7) & ~(7 as usize);
}

// Bytes buildTable needs in its arena for n rules with these pattern and text totals: entries
// (up to 2 per rule, index.html), order/merge/stack arrays, derived patterns, and the table.
export function workNeed(n: u32, patBytes: u32, origBytes: u32): u32 {
  const e = 2 * n;
  return e * <u32>ENTRY_SIZE + 3 * e * 4 + (patBytes + n + 16) + tableBound(n, patBytes, origBytes) + 8 * 8;
}

// An upper bound on the bytes of the table built from n refs: header, rules (a ref can derive a
// second rule), alignment, the index and wide keys of a large sorted part (a small part's keys, 64
// at most, fit in the index's share), and the pool.
function tableBound(n: u32, patBytes: u32, origBytes: u32): u32 {
  const e = 2 * n;
  return TABLE_HEADER_SIZE + e * <u32>RULE_SIZE + 16 + <u32>TABLE_INDEX_ENTRIES * 4 + 16 + e * <u32>WIDE_KEY_SIZE + 16 +
    2 * patBytes + n + 2 * origBytes + 2 * e + 16;
}

let tableOut: usize = 0;

/** Where the last table buildTable wrote starts. */
export function builtTable(): usize {
  return tableOut;
}

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
  let f: u32 = allow ? RULE_F_ALLOW : 0;
  let lit: u32 = 0;
  let seg: u32 = 0;
  let type = TYPE_LITERAL;
  if (n > 0) {
    if (!readPattern(p, n)) return false;
    const anchored = patternAnchored;
    const body = patternBody;
    const star = patternLiteral;
    lit = star;
    if (star == body) {
      type = anchored ? TYPE_EXACT : TYPE_LITERAL;
    } else {
      let j = star;
      while (j < body && load<u8>(p + j) == STAR) j++;
      let q = j;
      while (q < body && load<u8>(p + q) != STAR) q++;
      if (j == body) type = TYPE_LITERAL; // only stars after the prefix: "/a*" and "/a*$" match any extension
      else if (q == body) { type = anchored ? TYPE_SUFFIX : TYPE_CONTAINS; seg = j; }
      else { type = TYPE_WILD; seg = j; }
    }
    if (anchored) f |= RULE_F_ANCHORED;
  }
  // Sort key: the first four literal bytes, zero-padded. Patterns are ASCII without NUL, so the key
  // fits in 31 bits and a shorter prefix sorts before its extensions.
  let key: u32 = 0;
  for (let i: u32 = 0; i < 4; i++) key = (key << 8) | (i < lit ? <u32>load<u8>(p + i) : 0);
  setEnt(k, E_PAT, <u32>p); setEnt(k, E_PAT_LEN, n); setEnt(k, E_LIT, lit); setEnt(k, E_SEG, seg);
  setEnt(k, E_FLAGS, f | (type << RULE_TYPE_SHIFT)); setEnt(k, E_LINE, line); setEnt(k, E_ORIG, 0); setEnt(k, E_ORIG_LEN, 0);
  setEnt(k, E_KEY, key); setEnt(k, E_PREV, 0);
  // The always part's group (decide): SUFFIX by the last byte of its segment, CONTAINS and WILD by
  // the rarest byte of their first segment, the rest in one group that is never skipped.
  let filter: u32 = 0x200;
  if (type == TYPE_CONTAINS || type == TYPE_WILD) filter = rarestByte(p, seg, (f & RULE_F_ANCHORED) != 0 ? n - 1 : n);
  else if (type == TYPE_SUFFIX) filter = 0x100 | <u32>load<u8>(p + n - 2);
  setEnt(k, E_FILTER, filter);
  return true;
}

// The group of a rule of the always part, computed once by classifyPattern (sorting compares it
// often and rarestByte scans the segment).
@inline function filterKey(k: u32): u32 {
  return ent(k, E_FILTER);
}

let sortingAlways = false;

// Literal prefix, then line: the order of the sorted part of the table (the always part: see
// filterKey).
function entryLess(a: u32, b: u32): bool {
  if (sortingAlways) {
    const fa = filterKey(a);
    const fb = filterKey(b);
    return fa != fb ? fa < fb : ent(a, E_LINE) < ent(b, E_LINE);
  }
  const ka = ent(a, E_KEY);
  const kb = ent(b, E_KEY);
  if (ka != kb) return ka < kb;
  const la = ent(a, E_LIT);
  const lb = ent(b, E_LIT);
  if (la > 4 || lb > 4) {
    const pa = <usize>ent(a, E_PAT);
    const pb = <usize>ent(b, E_PAT);
    const n = la < lb ? la : lb;
    for (let i: u32 = 4; i < n; i++) {
      const ca = load<u8>(pa + i);
      const cb = load<u8>(pb + i);
      if (ca != cb) return ca < cb;
    }
    if (la != lb) return la < lb;
  }
  return ent(a, E_LINE) < ent(b, E_LINE);
}

function samePrefix(a: u32, b: u32): bool {
  const la = ent(a, E_LIT);
  return la == ent(b, E_LIT) && bytesEqual(<usize>ent(a, E_PAT), <usize>ent(b, E_PAT), la);
}

function properPrefix(a: u32, b: u32): bool {
  const la = ent(a, E_LIT);
  return la < ent(b, E_LIT) && bytesEqual(<usize>ent(a, E_PAT), <usize>ent(b, E_PAT), la);
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

// Bytes [from, from + count) of the literal lit[0, n) as one big-endian number, zero past its end.
function literalWord(lit: usize, n: u32, from: u32, count: u32): u64 {
  let w: u64 = 0;
  for (let i = from; i < from + count; i++) w = (w << 8) | (i < n ? <u64>load<u8>(lit + i) : 0);
  return w;
}

// The index slot of a path's or a sorted literal's second byte c (TABLE_INDEX_OFF): one of its own
// for INDEX_FIRST_BYTE-INDEX_LAST_BYTE, one shared by the bytes below and one by those above. It
// grows with c, so slots ascend with the sorted literals.
@inline export function indexSlot(c: u32): u32 {
  const first = <u32>INDEX_FIRST_BYTE;
  const last = <u32>INDEX_LAST_BYTE;
  return c < first ? 0 : (c > last ? last + 1 : c) - first + 1;
}

// Compiles the refs in [refs, refsEnd) (file order) whose bits include `tag` (0: all) into a table;
// returns its length, or 0 when [arena, limit) cannot hold the arrays and the table (workNeed says
// how much they need). `count`, `patBytes`, `origBytes`: count and byte totals of those refs.
export function buildTable(refs: usize, refsEnd: usize, tag: u32, count: u32, patBytes: u32, origBytes: u32, arena: usize, limit: usize): u32 {
  const e2 = 2 * count;
  entries = arena;
  const order = align(entries + <usize>e2 * ENTRY_SIZE);
  const temp = align(order + <usize>e2 * 4);
  const stack = align(temp + <usize>e2 * 4);
  let derived = align(stack + <usize>e2 * 4);
  const tableAt = align(derived + <usize>(patBytes + count + 16));
  const tableEnd = tableAt + <usize>tableBound(count, patBytes, origBytes);
  if (tableEnd > limit) return 0;
  const refTotal = <u32>((refsEnd - refs) / REF_SIZE);
  let n: u32 = 0;
  for (let r: u32 = 0; r < refTotal; r++) {
    const ref = refs + <usize>r * REF_SIZE;
    const bits = load<u32>(ref, REF_BITS);
    if (tag != 0 && (bits & tag) == 0) continue;
    const pat = <usize>load<u32>(ref, REF_PAT_PTR);
    const plen = load<u32>(ref, REF_PAT_LEN);
    const allow = (bits & REF_F_ALLOW) != 0;
    const line = load<u32>(ref, REF_LINE);
    if (classifyPattern(n, pat, plen, allow, line)) {
      if (bits & REF_F_HAS_ORIG) {
        setEnt(n, E_FLAGS, ent(n, E_FLAGS) | RULE_F_HAS_ORIG); setEnt(n, E_ORIG, load<u32>(ref, REF_ORIG_PTR)); setEnt(n, E_ORIG_LEN, load<u32>(ref, REF_ORIG_LEN));
      }
      n++;
    }
    if (!allow) continue;
    // The index.html rule's ".../$", reported as this allow line.
    const dlen = indexHtmlRule(pat, plen, derived);
    if (dlen == 0) continue;
    if (classifyPattern(n, derived, dlen, true, line)) {
      setEnt(n, E_FLAGS, ent(n, E_FLAGS) | RULE_F_HAS_ORIG);
      setEnt(n, E_ORIG, load<u32>(ref, REF_ORIG_PTR)); setEnt(n, E_ORIG_LEN, load<u32>(ref, REF_ORIG_LEN));
      n++;
    }
    derived += dlen;
  }

  // Always-candidates first: a literal prefix of "" or "/" is a prefix of every path (paths start
  // with '/'). They are grouped by filterKey; E_PREV, unused by them, holds how many rules of
  // their group follow (at most 255: a shorter skip only costs another test).
  let nAlways: u32 = 0;
  for (let k: u32 = 0; k < n; k++) if (ent(k, E_LIT) <= 1) { store<u32>(order + (<usize>nAlways << 2), k); nAlways++; }
  sortingAlways = true;
  sortEntries(order, nAlways, temp);
  sortingAlways = false;
  for (let i = <i32>nAlways - 2; i >= 0; i--) {
    const k = load<u32>(order + (<usize>i << 2));
    const next = load<u32>(order + (<usize>(i + 1) << 2));
    const f = filterKey(k);
    if (f < 0x200 && f == filterKey(next)) setEnt(k, E_PREV, ent(next, E_PREV) < 255 ? ent(next, E_PREV) + 1 : 255);
  }
  let ns: u32 = 0;
  const sorted = order + (<usize>nAlways << 2);
  for (let k: u32 = 0; k < n; k++) if (ent(k, E_LIT) > 1) { store<u32>(sorted + (<usize>ns << 2), k); ns++; }
  sortEntries(sorted, ns, temp);

  // prev (table index + 1): the entry before when it has the same literal prefix, else the last
  // entry of the longest other prefix that is a prefix of this one; `stack` holds the table
  // indexes of the chain of prefixes of the current entry.
  let top: i32 = -1;
  for (let i: u32 = 0; i < ns; i++) {
    const k = load<u32>(sorted + (<usize>i << 2));
    const idx = nAlways + i;
    if (i > 0 && samePrefix(load<u32>(sorted + (<usize>(i - 1) << 2)), k)) {
      setEnt(k, E_PREV, idx);
      store<u32>(stack + (<usize>top << 2), idx);
      continue;
    }
    while (top >= 0 && !properPrefix(load<u32>(order + (<usize>load<u32>(stack + (<usize>top << 2)) << 2)), k)) top--;
    setEnt(k, E_PREV, top >= 0 ? load<u32>(stack + (<usize>top << 2)) + 1 : 0);
    top++;
    store<u32>(stack + (<usize>top << 2), idx);
  }

  // Table: header, rules, then for the sorted part either its keys (padded to a multiple of 4) or,
  // when it is large, its index and wide keys; the pool. Sections are only 4-aligned: the host
  // keeps tables at 4-aligned addresses (src/engine/arena.ts), so padding them to 16 would align
  // nothing and cost every table bytes (the matcher's vector loads do not need alignment).
  const table = tableAt;
  let maxPat: u32 = 0;
  const rulesOff: u32 = TABLE_HEADER_SIZE;
  const afterRules = rulesOff + n * <u32>RULE_SIZE;
  const nSorted = n - nAlways;
  const indexed = nSorted > <u32>SORTED_SCAN_MAX;
  const nKeys: u32 = indexed ? 0 : (nSorted + 3) & ~3;
  const keysOff: u32 = indexed ? 0 : afterRules;
  const indexOff: u32 = indexed ? afterRules : 0;
  const wideOff: u32 = indexed ? indexOff + TABLE_INDEX_ENTRIES * 4 : 0;
  const poolOff = indexed ? wideOff + nSorted * <u32>WIDE_KEY_SIZE : afterRules + nKeys * 4;
  for (let j = nSorted; j < nKeys; j++) store<u32>(table + keysOff + (<usize>j << 2), u32.MAX_VALUE);
  let o: u32 = 0;
  let sEnd: u32 = 0;
  let bloom: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const k = load<u32>(order + (<usize>i << 2));
    const at = table + rulesOff + <usize>i * RULE_SIZE;
    const plen = ent(k, E_PAT_LEN);
    const f = ent(k, E_FLAGS);
    // Sorted rules: RULE_LINK is the chain link. Always rules: RULE_LINK is the filter byte,
    // RULE_SKIP the skip, RULE_F_AT_FILTER marks a CONTAINS segment that starts with the filter
    // byte (decide's in-place compare), and SUFFIX groups feed the header's end index and bloom.
    let link = ent(k, E_PREV);
    let skip: u32 = 0;
    let atFilter: u32 = 0;
    if (i < nAlways) {
      const filter = filterKey(k);
      link = filter & 0xff;
      skip = ent(k, E_PREV);
      if (((f >> RULE_TYPE_SHIFT) & RULE_TYPE_MASK) == TYPE_CONTAINS && <u32>load<u8>(<usize>ent(k, E_PAT) + <usize>ent(k, E_SEG)) == link) atFilter = RULE_F_AT_FILTER;
      if (filter >= 0x100 && filter < 0x200) { bloom |= 1 << (filter & 31); sEnd = i + 1; }
    }
    store<u32>(at, o, RULE_PAT_OFF);
    store<u32>(at, ent(k, E_LINE), RULE_LINE);
    store<u32>(at, link, RULE_LINK);
    store<u16>(at, <u16>plen, RULE_PAT_LEN);
    store<u16>(at, <u16>ent(k, E_LIT), RULE_LIT_LEN);
    store<u8>(at, <u8>(f | atFilter), RULE_FLAGS);
    store<u8>(at, <u8>skip, RULE_SKIP);
    store<u16>(at, <u16>ent(k, E_SEG), RULE_SEG_OFF);
    if (i >= nAlways && indexed) {
      const wide = table + wideOff + <usize>(i - nAlways) * WIDE_KEY_SIZE;
      const pat = <usize>ent(k, E_PAT);
      const lit = ent(k, E_LIT);
      store<u64>(wide, literalWord(pat, lit, WIDE_KEY_FROM, 8), WIDE_KEY_HI);
      store<u32>(wide, <u32>literalWord(pat, lit, WIDE_KEY_FROM + 8, 4), WIDE_KEY_LO);
    } else if (i >= nAlways) store<u32>(table + keysOff + (<usize>(i - nAlways) << 2), ent(k, E_KEY));
    memory.copy(table + poolOff + o, <usize>ent(k, E_PAT), plen);
    o += plen;
    if (f & RULE_F_HAS_ORIG) {
      const olen = ent(k, E_ORIG_LEN);
      store<u16>(table + poolOff + o, <u16>olen);
      memory.copy(table + poolOff + o + 2, <usize>ent(k, E_ORIG), olen);
      o += 2 + olen;
    }
    if (plen > maxPat) maxPat = plen;
  }
  if (indexed) {
    // Entry s counts the sorted rules in slots below s; slots ascend with the rules, so entries
    // s up to rule j's slot start at j, and those past the last rule's slot count them all.
    let s: u32 = 0;
    for (let j: u32 = 0; j < nSorted; j++) {
      const slotJ = indexSlot((ent(load<u32>(sorted + (<usize>j << 2)), E_KEY) >> 16) & 0xff);
      for (; s <= slotJ; s++) store<u32>(table + indexOff + (<usize>s << 2), j);
    }
    for (; s < <u32>TABLE_INDEX_ENTRIES; s++) store<u32>(table + indexOff + (<usize>s << 2), nSorted);
  }
  const size = (poolOff + o + 3) & ~3;
  for (let z = poolOff + o; z < size; z++) store<u8>(table + z, 0);
  store<u32>(table, n, TABLE_N_RULES);
  store<u32>(table, nAlways, TABLE_N_ALWAYS);
  store<u32>(table, poolOff, TABLE_POOL_OFF);
  store<u32>(table, maxPat, TABLE_MAX_PAT);
  store<u32>(table, keysOff, TABLE_KEYS_OFF);
  store<u32>(table, sEnd, TABLE_SUFFIX_END);
  store<u32>(table, bloom, TABLE_SUFFIX_BLOOM);
  store<u32>(table, indexOff, TABLE_INDEX_OFF);
  store<u32>(table, wideOff, TABLE_WIDE_OFF);
  tableOut = table;
  return size;
}
