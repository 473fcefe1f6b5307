// Compiled tables as bytes, for tests that read them field by field or compare them.
import { tableLength } from '../../src/engine/table.js'
import { getEngine, type TableRef } from '../../src/engine/wasm.js'

/** A copy of a table the engine kept (Engine.keepTable), its arena block freed: no Matcher owns it. */
export function keptBytes(table: TableRef): Uint8Array {
  const e = getEngine()
  const view = e.tableBytes(table)
  const bytes = view.slice(0, tableLength(view))
  if (typeof table === 'number') e.freeTable(table)
  return bytes
}
