// Compiles the selected rules of one agent into the table the wasm matcher runs on (layout in
// assembly/index.ts and src/abi.ts): plain bytes, no JS object per rule survives compilation.

import {
  F_ALLOW, F_ANCHORED, F_HAS_ORIG, HEADER_SIZE, H_ALWAYS, H_MAX_PAT, H_POOL_OFF, H_RULES, H_RULES_OFF,
  RULE_FLAGS, RULE_LINE, RULE_LIT_LEN, RULE_PAT_LEN, RULE_PAT_OFF, RULE_PREV, RULE_SEG_OFF, RULE_SIZE,
  T_CONTAINS, T_EXACT, T_LITERAL, T_SUFFIX, T_WILD, TYPE_SHIFT,
} from './abi.js'
import { compareBytes } from './bytes.js'
import { R_ALLOW, R_END, R_LINE, R_START, RULE_STRIDE, rulePattern, type ParsedRobots } from './parse.js'

interface Entry {
  pat: Uint8Array
  ps: number
  pe: number
  litLen: number
  segOff: number
  flags: number
  line: number
  /** Text as written when it differs from the pattern (escaped, or an index.html derivative). */
  orig: Uint8Array | null
  os: number
  oe: number
  prev: number
}

const INDEX_HTM = [0x2f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x2e, 0x68, 0x74, 0x6d] // "/index.htm"
const STAR = 0x2a

/**
 * Classifies a pattern for the matcher (types in assembly/index.ts). The common shapes get a
 * type of their own so that the matcher does one comparison or one search instead of running
 * the general segment loop.
 */
function entryFor(pat: Uint8Array, ps: number, pe: number, allow: boolean, line: number): Entry | null {
  const n = pe - ps
  let flags = allow ? F_ALLOW : 0
  let litLen = 0
  let segOff = 0
  let type = T_LITERAL
  if (n > 0) {
    // A pattern that starts with neither '/' nor '*' can never match a path (paths start with
    // '/'); `$` alone is one of them. Dropping them changes no verdict and no matching line.
    const c0 = pat[ps]
    if (c0 !== 0x2f && c0 !== STAR) return null
    const anchored = pat[pe - 1] === 0x24
    const body = anchored ? n - 1 : n
    let star = 0
    while (star < body && pat[ps + star] !== STAR) star++
    litLen = star
    if (star === body) {
      type = anchored ? T_EXACT : T_LITERAL
    } else {
      let j = star
      while (j < body && pat[ps + j] === STAR) j++
      let k = j
      while (k < body && pat[ps + k] !== STAR) k++
      if (j === body) type = T_LITERAL // only stars after the prefix: "/a*" and "/a*$" match any extension
      else if (k === body) {
        type = anchored ? T_SUFFIX : T_CONTAINS
        segOff = j
      } else type = T_WILD
    }
    if (anchored) flags |= F_ANCHORED
  }
  flags |= type << TYPE_SHIFT
  return { pat, ps, pe, litLen, segOff, flags, line, orig: null, os: 0, oe: 0, prev: 0 }
}

/** SEMANTICS.md 10: `…/index.htm…` also allows `…/` exactly, as its own rule on the same line. */
function indexHtmlEntry(pat: Uint8Array, ps: number, pe: number, line: number): Entry | null {
  let slash = -1
  for (let i = pe - 1; i >= ps; i--) {
    if (pat[i] === 0x2f) {
      slash = i
      break
    }
  }
  if (slash < 0 || pe - slash < INDEX_HTM.length) return null
  for (let k = 0; k < INDEX_HTM.length; k++) if (pat[slash + k] !== INDEX_HTM[k]) return null
  const len = slash - ps + 1
  const derived = new Uint8Array(len + 1)
  derived.set(pat.subarray(ps, slash + 1))
  derived[len] = 0x24
  return entryFor(derived, 0, len + 1, true, line)
}

/**
 * Builds the table for `ruleIds` (indexes into `parsed.rules`, file order). Equal-priority ties
 * are broken by line number, so the order of entries in the table is free: always-candidates
 * first, then the rest sorted by literal prefix for the binary search in the matcher.
 */
export function compileTable(parsed: ParsedRobots, ruleIds: readonly number[]): Uint8Array {
  const always: Entry[] = []
  const sorted: Entry[] = []
  const body = parsed.body
  for (const r of ruleIds) {
    const base = r * RULE_STRIDE
    const allow = parsed.rules[base + R_ALLOW] === 1
    const line = parsed.rules[base + R_LINE]!
    const [pat, ps, pe] = rulePattern(parsed, r)
    const entry = entryFor(pat, ps, pe, allow, line)
    if (entry === null) continue
    if (pat !== body) {
      entry.orig = body
      entry.os = parsed.rules[base + R_START]!
      entry.oe = parsed.rules[base + R_END]!
    }
    ;(entry.litLen === 0 ? always : sorted).push(entry)
    if (allow) {
      const derived = indexHtmlEntry(pat, ps, pe, line)
      if (derived !== null) {
        derived.orig = body
        derived.os = parsed.rules[base + R_START]!
        derived.oe = parsed.rules[base + R_END]!
        ;(derived.litLen === 0 ? always : sorted).push(derived)
      }
    }
  }

  sorted.sort((a, b) => compareBytes(a.pat, a.ps, a.ps + a.litLen, b.pat, b.ps, b.ps + b.litLen) || a.line - b.line)
  linkPrefixChains(sorted, always.length)

  const entries = always.concat(sorted)
  let poolSize = 0
  let maxPat = 0
  for (const e of entries) {
    poolSize += e.pe - e.ps
    if (e.orig !== null) poolSize += 2 + e.oe - e.os
    if (e.pe - e.ps > maxPat) maxPat = e.pe - e.ps
  }
  const rulesOff = HEADER_SIZE
  const poolOff = rulesOff + entries.length * RULE_SIZE
  const table = new Uint8Array((poolOff + poolSize + 3) & ~3)
  const u32 = new Uint32Array(table.buffer)
  const u16 = new Uint16Array(table.buffer)
  u32[H_RULES] = entries.length
  u32[H_ALWAYS] = always.length
  u32[H_RULES_OFF] = rulesOff
  u32[H_POOL_OFF] = poolOff
  u32[H_MAX_PAT] = maxPat

  let o = 0
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    const at = rulesOff + i * RULE_SIZE
    const patLen = e.pe - e.ps
    u32[(at + RULE_PAT_OFF) >> 2] = o
    u32[(at + RULE_LINE) >> 2] = e.line
    u32[(at + RULE_PREV) >> 2] = e.prev
    u16[(at + RULE_PAT_LEN) >> 1] = patLen
    u16[(at + RULE_LIT_LEN) >> 1] = e.litLen
    u16[(at + RULE_SEG_OFF) >> 1] = e.segOff
    table[at + RULE_FLAGS] = e.flags | (e.orig !== null ? F_HAS_ORIG : 0)
    copyBytes(table, poolOff + o, e.pat, e.ps, e.pe)
    o += patLen
    if (e.orig !== null) {
      const len = e.oe - e.os
      table[poolOff + o] = len & 0xff
      table[poolOff + o + 1] = len >> 8
      copyBytes(table, poolOff + o + 2, e.orig, e.os, e.oe)
      o += 2 + len
    }
  }
  return table
}

/** Patterns are short: a loop beats creating a subarray for `set`. */
function copyBytes(dst: Uint8Array, at: number, src: Uint8Array, s: number, e: number): void {
  if (e - s > 64) dst.set(src.subarray(s, e), at)
  else for (let i = s; i < e; i++) dst[at++] = src[i]!
}

/**
 * Sets `prev` (index + 1 in the final table, 0 = none) on prefix-sorted entries: the entry before
 * when it has the same literal prefix, else the last entry of the longest other prefix that is a
 * prefix of this one. A stack holds the chain of prefixes of the current entry.
 */
function linkPrefixChains(sorted: Entry[], offset: number): void {
  const stack: number[] = []
  for (let k = 0; k < sorted.length; k++) {
    const e = sorted[k]!
    const idx = offset + k
    if (k > 0) {
      const p = sorted[k - 1]!
      if (p.litLen === e.litLen && compareBytes(p.pat, p.ps, p.ps + p.litLen, e.pat, e.ps, e.ps + e.litLen) === 0) {
        e.prev = idx // previous index + 1
        stack[stack.length - 1] = idx
        continue
      }
    }
    while (stack.length > 0) {
      const top = sorted[stack[stack.length - 1]! - offset]!
      if (top.litLen < e.litLen && compareBytes(top.pat, top.ps, top.ps + top.litLen, e.pat, e.ps, e.ps + top.litLen) === 0) break
      stack.pop()
    }
    e.prev = stack.length > 0 ? stack[stack.length - 1]! + 1 : 0
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
