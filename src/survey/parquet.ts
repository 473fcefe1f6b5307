// `--out FILE.parquet`: the rows written as Parquet by DuckDB (`@duckdb/node-api`, an optional peer
// dependency loaded only here), with the JSONL's schema, nested: one column per row field, the
// crawlers a list of structs, their paths a list of structs, preferences a map.
//
// Rows go to DuckDB in batches: each batch is written as JSONL to a temporary file and inserted
// into a table of a temporary database on disk (read_json with the schema given, never guessed:
// a batch whose statuses are all null is still an INTEGER column); closing copies the table to the
// Parquet file, written under a temporary name beside it and renamed, so that a file under its
// name is always whole (a shard's file appears when the shard is done). Memory is bounded by the
// batch, disk by the table; the temporary folder is removed when the sink closes or aborts.

import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { jsonLine } from './columns.js'
import type { SurveyRow } from './types.js'

/** Where rows go, one at a time; `close` finishes the file, `abort` leaves none behind. */
export interface RowSink {
  write(row: SurveyRow): Promise<void>
  close(): Promise<void>
  abort(): Promise<void>
}

/** The optional peer that writes Parquet. */
export const PARQUET_PACKAGE = '@duckdb/node-api'

/**
 * The rows' schema in DuckDB's types, in the JSONL's field order (types.ts SurveyRow): the types
 * DuckDB gives the JSONL when it reads it (integers as BIGINT, `captured` as TIMESTAMP), fixed.
 */
export const PARQUET_COLUMNS: Readonly<Record<string, string>> = Object.freeze({
  origin: 'VARCHAR',
  source: 'VARCHAR',
  offset: 'BIGINT',
  captured: 'TIMESTAMP',
  outcome: 'VARCHAR',
  status: 'BIGINT',
  bytes: 'BIGINT',
  error: 'VARCHAR',
  sitemaps: 'BIGINT',
  lintErrors: 'BIGINT',
  lintCodes: 'VARCHAR[]',
  crawlers: 'STRUCT(name VARCHAR, "class" VARCHAR, "by" VARCHAR, named BOOLEAN, paths STRUCT(path VARCHAR, allowed BOOLEAN, line BIGINT)[], preferences MAP(VARCHAR, BOOLEAN), crawlDelay DOUBLE)[]',
})

/**
 * The optional peer, imported only when Parquet is written. Its name is a parameter, not a literal:
 * a bundler that bundles the survey (the package's builds, a user's) leaves the import alone
 * instead of failing on DuckDB's native bindings (and minification cannot fold it into a literal).
 */
function importPeer(name = PARQUET_PACKAGE): Promise<typeof import('@duckdb/node-api')> {
  return import(name) as Promise<typeof import('@duckdb/node-api')>
}

/** Rows per batch inserted, and the most JSON text a batch holds. */
const BATCH_ROWS = 20_000
const BATCH_CHARS = 64 << 20

const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`

/**
 * A sink writing `file` as Parquet. Rejects, naming the package, when `@duckdb/node-api` is not
 * installed.
 */
export async function parquetSink(file: string): Promise<RowSink> {
  let duckdb: typeof import('@duckdb/node-api')
  try {
    duckdb = await importPeer()
  } catch (e) {
    throw new Error(`writing Parquet needs the optional package ${PARQUET_PACKAGE} (npm install ${PARQUET_PACKAGE}): ${e instanceof Error ? e.message : String(e)}`)
  }
  const dir = await mkdtemp(join(tmpdir(), 'robotstxt-parquet-'))
  let instance: import('@duckdb/node-api').DuckDBInstance | null = null
  let connection: import('@duckdb/node-api').DuckDBConnection | null = null
  const cleanup = async (): Promise<void> => {
    connection?.closeSync()
    instance?.closeSync()
    connection = null
    instance = null
    await rm(dir, { recursive: true, force: true })
  }
  try {
    instance = await duckdb.DuckDBInstance.create(join(dir, 'rows.duckdb'), { temp_directory: join(dir, 'spill') })
    connection = await instance.connect()
    const columns = Object.entries(PARQUET_COLUMNS).map(([name, type]) => `"${name}" ${type}`).join(', ')
    await connection.run(`CREATE TABLE rows (${columns})`)
  } catch (e) {
    await cleanup()
    throw e
  }
  const batchFile = join(dir, 'batch.jsonl')
  const jsonColumns = `{${Object.entries(PARQUET_COLUMNS).map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`).join(', ')}}`
  let batch: string[] = []
  let chars = 0
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return
    await writeFile(batchFile, batch.join(''))
    batch = []
    chars = 0
    await connection!.run(`INSERT INTO rows SELECT * FROM read_json(${sqlString(batchFile)}, format = 'newline_delimited', columns = ${jsonColumns}, timestampformat = '%Y-%m-%dT%H:%M:%SZ')`)
  }
  return {
    async write(row) {
      const line = jsonLine(row)
      batch.push(line)
      chars += line.length
      if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) await flush()
    },
    async close() {
      const partial = join(dirname(file), `.${basename(file)}.${process.pid}.partial`)
      try {
        await flush()
        await connection!.run(`COPY rows TO ${sqlString(partial)} (FORMAT parquet, COMPRESSION zstd)`)
        await rename(partial, file)
      } finally {
        await rm(partial, { force: true })
        await cleanup()
      }
    },
    abort: cleanup,
  }
}
