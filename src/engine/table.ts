// Reads compiled tables (layout in assembly/index.ts and src/engine/abi.ts; the wasm compiler writes them).

import { F_ALLOW, F_HAS_ORIG, H_MAX_PAT, H_POOL_OFF, H_RULES_OFF, RULE_FLAGS, RULE_LINE, RULE_PAT_LEN, RULE_PAT_OFF, RULE_SIZE } from './abi.js'

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
