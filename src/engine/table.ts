// Reads compiled tables back (layout.ts; assembly/table.ts writes them): what Matcher.check reports.

import {
  RULE_F_ALLOW, RULE_F_HAS_ORIG, RULE_FLAGS, RULE_LINE, RULE_PAT_LEN, RULE_PAT_OFF, RULE_SIZE, TABLE_MAX_PAT, TABLE_N_RULES,
  TABLE_HEADER_SIZE, TABLE_POOL_OFF,
} from './layout.js'
import { u32At } from './bytes.js'

/** Reads back rule `i` of a table: what `Matcher.check` reports. */
export function tableRule(table: Uint8Array, i: number): { allow: boolean; line: number; pattern: Uint8Array } {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength)
  const at = TABLE_HEADER_SIZE + i * RULE_SIZE
  const pool = view.getUint32(TABLE_POOL_OFF, true)
  const off = pool + view.getUint32(at + RULE_PAT_OFF, true)
  const patLen = view.getUint16(at + RULE_PAT_LEN, true)
  const flags = table[at + RULE_FLAGS]!
  let pattern = table.subarray(off, off + patLen)
  if (flags & RULE_F_HAS_ORIG) {
    const len = table[off + patLen]! | (table[off + patLen + 1]! << 8)
    pattern = table.subarray(off + patLen + 2, off + patLen + 2 + len)
  }
  return { allow: (flags & RULE_F_ALLOW) !== 0, line: view.getUint32(at + RULE_LINE, true), pattern }
}

/** The line of rule `i`, read bytewise: batch verdicts turn rule indexes into lines with no allocation. */
export function tableRuleLine(table: Uint8Array, i: number): number {
  const at = TABLE_HEADER_SIZE + i * RULE_SIZE + RULE_LINE
  return u32At(table, at)
}

/**
 * The table's length in bytes, from its own offsets (the pool comes last, in rule order): what a
 * view of an arena table, which runs to the end of memory, holds of it.
 */
export function tableLength(table: Uint8Array): number {
  const n = u32At(table, TABLE_N_RULES)
  let end = 0
  for (let i = 0; i < n; i++) {
    const at = TABLE_HEADER_SIZE + i * RULE_SIZE
    const pool = u32At(table, TABLE_POOL_OFF)
    let e = u32At(table, at + RULE_PAT_OFF) + (table[at + RULE_PAT_LEN]! | (table[at + RULE_PAT_LEN + 1]! << 8))
    if (table[at + RULE_FLAGS]! & RULE_F_HAS_ORIG) e += 2 + (table[pool + e]! | (table[pool + e + 1]! << 8))
    if (e > end) end = e
  }
  return (u32At(table, TABLE_POOL_OFF) + end + 3) & ~3
}

/** Largest pattern length in a table (sizes the matcher's scratch). Read bytewise: it runs on every
 * table switch, where a DataView would be an allocation. */
export function tableMaxPattern(table: Uint8Array): number {
  return u32At(table, TABLE_MAX_PAT)
}

/**
 * Allow and disallow lines of a table with a pattern that is not empty (an empty pattern matches
 * nothing). Counted by line: one `Allow: .../index.html` line compiles to two rules (Google's
 * RobotsMatcher also allows the directory itself).
 */
export function tableRuleCounts(table: Uint8Array): { allows: number; disallows: number } {
  const n = u32At(table, TABLE_N_RULES)
  const rules = TABLE_HEADER_SIZE
  const pool = u32At(table, TABLE_POOL_OFF)
  const allows = new Set<number>()
  const disallows = new Set<number>()
  // Read bytewise, as tableRule reads a rule but with no object per rule: a survey counts every table.
  for (let i = 0; i < n; i++) {
    const at = rules + i * RULE_SIZE
    const flags = table[at + RULE_FLAGS]!
    let length = u16At(table, at + RULE_PAT_LEN)
    if (flags & RULE_F_HAS_ORIG) length = u16At(table, pool + u32At(table, at + RULE_PAT_OFF) + length)
    if (length > 0) ((flags & RULE_F_ALLOW) !== 0 ? allows : disallows).add(u32At(table, at + RULE_LINE))
  }
  return { allows: allows.size, disallows: disallows.size }
}

function u16At(table: Uint8Array, at: number): number {
  return table[at]! | (table[at + 1]! << 8)
}
