// Compiles the selected rules of one agent into the table the wasm matcher runs on (layout in
// assembly/index.ts and src/abi.ts): plain bytes, no JS object per rule survives compilation.

import {
  F_ALLOW, F_ANCHORED, F_HAS_ORIG, HEADER_SIZE, H_ALWAYS, H_MAX_PAT, H_POOL_OFF, H_RULES, H_RULES_OFF,
  RULE_FLAGS, RULE_LINE, RULE_LIT_LEN, RULE_PAT_LEN, RULE_PAT_OFF, RULE_PREV, RULE_SEG_OFF, RULE_SIZE,
  T_CONTAINS, T_EXACT, T_LITERAL, T_SUFFIX, T_WILD, TYPE_SHIFT,
} from './abi.js'
import { compareBytes } from './bytes.js'
import { R_ALLOW, R_END, R_ESC, R_LINE, R_START, RULE_STRIDE, type ParsedRobots } from './parse.js'

const INDEX_HTM = [0x2f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x2e, 0x68, 0x74, 0x6d] // "/index.htm"
const STAR = 0x2a

// Compilation scratch, one slot per table entry, reused across calls (compilation never re-enters
// itself): no object per rule. Slot k describes pattern pat[k][ps, pe) and, when F_HAS_ORIG is set
// in flags, the text as written body[os, oe).
let cap = 0
let pat: Uint8Array[] = []
let ps = new Int32Array(0)
let pe = new Int32Array(0)
let lit = new Int32Array(0)
let seg = new Int32Array(0)
let flags = new Int32Array(0)
let lines = new Int32Array(0)
let os = new Int32Array(0)
let oe = new Int32Array(0)
let key = new Int32Array(0)
let prev = new Int32Array(0)

function reserve(n: number): void {
  if (n <= cap) return
  cap = Math.max(n, cap * 2, 64)
  pat = new Array<Uint8Array>(cap)
  ps = new Int32Array(cap)
  pe = new Int32Array(cap)
  lit = new Int32Array(cap)
  seg = new Int32Array(cap)
  flags = new Int32Array(cap)
  lines = new Int32Array(cap)
  os = new Int32Array(cap)
  oe = new Int32Array(cap)
  key = new Int32Array(cap)
  prev = new Int32Array(cap)
}

/**
 * Classifies the pattern p[s, e) into slot k (types in assembly/index.ts); false when it can never
 * match. The common shapes get a type of their own so that the matcher does one comparison or one
 * search instead of running the general segment loop.
 */
function classify(k: number, p: Uint8Array, s: number, e: number, allow: boolean, line: number): boolean {
  const n = e - s
  let f = allow ? F_ALLOW : 0
  let litLen = 0
  let segOff = 0
  let type = T_LITERAL
  if (n > 0) {
    // A pattern that starts with neither '/' nor '*' can never match a path (paths start with
    // '/'); `$` alone is one of them. Dropping them changes no verdict and no matching line.
    const c0 = p[s]
    if (c0 !== 0x2f && c0 !== STAR) return false
    const anchored = p[e - 1] === 0x24
    const body = anchored ? n - 1 : n
    let star = 0
    while (star < body && p[s + star] !== STAR) star++
    litLen = star
    if (star === body) {
      type = anchored ? T_EXACT : T_LITERAL
    } else {
      let j = star
      while (j < body && p[s + j] === STAR) j++
      let q = j
      while (q < body && p[s + q] !== STAR) q++
      if (j === body) type = T_LITERAL // only stars after the prefix: "/a*" and "/a*$" match any extension
      else if (q === body) {
        type = anchored ? T_SUFFIX : T_CONTAINS
        segOff = j
      } else type = T_WILD
    }
    if (anchored) f |= F_ANCHORED
  }
  pat[k] = p
  ps[k] = s
  pe[k] = e
  lit[k] = litLen
  seg[k] = segOff
  flags[k] = f | (type << TYPE_SHIFT)
  lines[k] = line
  // Sort key: the first four literal bytes, zero-padded. Patterns are ASCII without NUL, so the key
  // fits in 31 bits and a shorter prefix sorts before its extensions.
  let kk = 0
  for (let i = 0; i < 4; i++) kk = (kk << 8) | (i < litLen ? p[s + i]! : 0)
  key[k] = kk
  return true
}

/** SEMANTICS.md 10: `…/index.htm…` also allows `…/` exactly: the derived pattern, or null. */
function indexHtmlPattern(p: Uint8Array, s: number, e: number): Uint8Array | null {
  let slash = e - 1
  while (slash >= s && p[slash] !== 0x2f) slash--
  if (slash < s || e - slash < INDEX_HTM.length) return null
  for (let k = 0; k < INDEX_HTM.length; k++) if (p[slash + k] !== INDEX_HTM[k]) return null
  const len = slash - s + 1
  const derived = new Uint8Array(len + 1)
  for (let i = 0; i < len; i++) derived[i] = p[s + i]!
  derived[len] = 0x24
  return derived
}

/** Orders slots by literal prefix (bytewise), then line. */
function bySortKey(a: number, b: number): number {
  const d = key[a]! - key[b]!
  if (d !== 0) return d
  const la = lit[a]!
  const lb = lit[b]!
  if (la > 4 || lb > 4) {
    const c = compareBytes(pat[a]!, ps[a]! + 4, ps[a]! + la, pat[b]!, ps[b]! + 4, ps[b]! + lb)
    if (c !== 0) return c
  }
  return lines[a]! - lines[b]!
}

/** Most groups have a few dozen rules: insertion sort beats Array.prototype.sort's call overhead. */
function sortSlots(a: number[]): void {
  if (a.length > 32) {
    a.sort(bySortKey)
    return
  }
  for (let i = 1; i < a.length; i++) {
    const x = a[i]!
    let j = i - 1
    while (j >= 0 && bySortKey(a[j]!, x) > 0) {
      a[j + 1] = a[j]!
      j--
    }
    a[j + 1] = x
  }
}

function samePrefix(a: number, b: number): boolean {
  return lit[a] === lit[b] && key[a] === key[b] && (lit[a]! <= 4 || compareBytes(pat[a]!, ps[a]! + 4, ps[a]! + lit[a]!, pat[b]!, ps[b]! + 4, ps[b]! + lit[b]!) === 0)
}

/** Is slot a's literal prefix a proper prefix of slot b's? */
function properPrefix(a: number, b: number): boolean {
  const la = lit[a]!
  if (la >= lit[b]!) return false
  const pa = pat[a]!
  const pb = pat[b]!
  for (let i = 0; i < la; i++) if (pa[ps[a]! + i] !== pb[ps[b]! + i]) return false
  return true
}

/**
 * Builds the table for `ruleIds` (indexes into `parsed.rules`, file order). Equal-priority ties
 * are broken by line number, so the order of entries in the table is free: always-candidates
 * (literal prefix empty) first, then the rest sorted by literal prefix for the binary search and
 * prefix chains of the matcher.
 */
export function compileTable(parsed: ParsedRobots, ruleIds: readonly number[]): Uint8Array {
  reserve(2 * ruleIds.length)
  const body = parsed.body
  const rules = parsed.rules
  let n = 0
  for (let i = 0; i < ruleIds.length; i++) {
    const base = ruleIds[i]! * RULE_STRIDE
    const allow = rules[base + R_ALLOW] === 1
    const line = rules[base + R_LINE]!
    const esc = rules[base + R_ESC]!
    const p = esc >= 0 ? parsed.escaped[esc]! : body
    const s = esc >= 0 ? 0 : rules[base + R_START]!
    const e = esc >= 0 ? p.length : rules[base + R_END]!
    if (classify(n, p, s, e, allow, line)) {
      if (esc >= 0) {
        flags[n] = flags[n]! | F_HAS_ORIG
        os[n] = rules[base + R_START]!
        oe[n] = rules[base + R_END]!
      }
      n++
    }
    if (allow) {
      const derived = indexHtmlPattern(p, s, e)
      if (derived !== null && classify(n, derived, 0, derived.length, true, line)) {
        // Reported as the allow line it came from.
        flags[n] = flags[n]! | F_HAS_ORIG
        os[n] = rules[base + R_START]!
        oe[n] = rules[base + R_END]!
        n++
      }
    }
  }

  const order: number[] = []
  for (let k = 0; k < n; k++) if (lit[k] === 0) order.push(k)
  const nAlways = order.length
  const sorted: number[] = []
  for (let k = 0; k < n; k++) if (lit[k] !== 0) sorted.push(k)
  sortSlots(sorted)
  linkPrefixChains(sorted, nAlways)
  for (const k of sorted) order.push(k)

  let poolSize = 0
  let maxPat = 0
  for (let k = 0; k < n; k++) {
    const len = pe[k]! - ps[k]!
    poolSize += len
    if (flags[k]! & F_HAS_ORIG) poolSize += 2 + oe[k]! - os[k]!
    if (len > maxPat) maxPat = len
  }
  const rulesOff = HEADER_SIZE
  const poolOff = rulesOff + n * RULE_SIZE
  const table = new Uint8Array((poolOff + poolSize + 3) & ~3)
  const u32 = new Uint32Array(table.buffer)
  const u16 = new Uint16Array(table.buffer)
  u32[H_RULES] = n
  u32[H_ALWAYS] = nAlways
  u32[H_RULES_OFF] = rulesOff
  u32[H_POOL_OFF] = poolOff
  u32[H_MAX_PAT] = maxPat

  let o = 0
  for (let i = 0; i < n; i++) {
    const k = order[i]!
    const at = rulesOff + i * RULE_SIZE
    const len = pe[k]! - ps[k]!
    u32[(at + RULE_PAT_OFF) >> 2] = o
    u32[(at + RULE_LINE) >> 2] = lines[k]!
    u32[(at + RULE_PREV) >> 2] = i < nAlways ? 0 : prev[k]!
    u16[(at + RULE_PAT_LEN) >> 1] = len
    u16[(at + RULE_LIT_LEN) >> 1] = lit[k]!
    u16[(at + RULE_SEG_OFF) >> 1] = seg[k]!
    table[at + RULE_FLAGS] = flags[k]!
    copyBytes(table, poolOff + o, pat[k]!, ps[k]!, pe[k]!)
    o += len
    if (flags[k]! & F_HAS_ORIG) {
      const olen = oe[k]! - os[k]!
      table[poolOff + o] = olen & 0xff
      table[poolOff + o + 1] = olen >> 8
      copyBytes(table, poolOff + o + 2, body, os[k]!, oe[k]!)
      o += 2 + olen
    }
  }
  // Drop references to the caller's bytes: the scratch outlives this call.
  pat.fill(body, 0, n)
  return table
}

/** Patterns are short: a loop beats creating a subarray for `set`. */
function copyBytes(dst: Uint8Array, at: number, src: Uint8Array, s: number, e: number): void {
  if (e - s > 64) dst.set(src.subarray(s, e), at)
  else for (let i = s; i < e; i++) dst[at++] = src[i]!
}

/**
 * Sets `prev` (table index + 1, 0 = none) of the prefix-sorted slots, which will sit at table
 * index `offset + position`: the entry before when it has the same literal prefix, else the last
 * entry of the longest other prefix that is a prefix of this one. A stack holds the table indexes
 * of the chain of prefixes of the current entry.
 */
function linkPrefixChains(sorted: readonly number[], offset: number): void {
  const stack: number[] = []
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i]!
    const idx = offset + i
    if (i > 0 && samePrefix(sorted[i - 1]!, k)) {
      prev[k] = idx // the previous table index, + 1
      stack[stack.length - 1] = idx
      continue
    }
    while (stack.length > 0 && !properPrefix(sorted[stack[stack.length - 1]! - offset]!, k)) stack.pop()
    prev[k] = stack.length > 0 ? stack[stack.length - 1]! + 1 : 0
    stack.push(idx)
  }
}

/** Reads back rule `i` of a table: what `Matcher.check` reports. */
export function tableRule(table: Uint8Array, i: number): { allow: boolean; line: number; pattern: Uint8Array } {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength)
  const at = view.getUint32(H_RULES_OFF * 4, true) + i * RULE_SIZE
  const pool = view.getUint32(H_POOL_OFF * 4, true)
  const off = pool + view.getUint32(at + RULE_PAT_OFF, true)
  const patLen = view.getUint16(at + RULE_PAT_LEN, true)
  const flags = table[at + RULE_FLAGS]!
  let pattern = table.subarray(off, off + patLen)
  if (flags & F_HAS_ORIG) {
    const len = table[off + patLen]! | (table[off + patLen + 1]! << 8)
    pattern = table.subarray(off + patLen + 2, off + patLen + 2 + len)
  }
  return { allow: (flags & F_ALLOW) !== 0, line: view.getUint32(at + RULE_LINE, true), pattern }
}

/** Largest pattern length in a table (sizes the matcher's scratch). */
export function tableMaxPattern(table: Uint8Array): number {
  const at = H_MAX_PAT * 4
  return (table[at]! | (table[at + 1]! << 8) | (table[at + 2]! << 16) | (table[at + 3]! << 24)) >>> 0
}
