// Compiled tables as bytes, for tests that read them field by field or compare them.
import { tableLength } from '../../src/engine/table.js'
import { getEngine } from '../../src/engine/wasm.js'
import type { TableRef } from '../../src/engine/wasm-tables.js'

/** A copy of a table the engine kept (Tables.keep), its arena block freed: no Matcher owns it. */
export function keptBytes(table: TableRef): Uint8Array {
  const e = getEngine()
  const view = e.tables.bytes(table)
  const bytes = view.slice(0, tableLength(view))
  if (typeof table === 'number') e.tables.free(table)
  return bytes
}
