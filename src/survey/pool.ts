// Rows on worker threads, through the shared ordered pool (threads/pool.ts): records go out in
// batches, each worker computes the rows of a batch, and rows leave in input order whatever the
// thread count. The pool bounds the batches out (threads x IN_FLIGHT), so memory is bounded by
// the batch size, never by the input: a slow consumer stops the reading. A batch's bodies travel
// in one buffer, transferred: the main thread, which reads and dispatches for every worker, copies
// them once into it instead of having each body structured-cloned (measured: the clone was about a
// fifth of the main thread's CPU at 2 threads).
//
// The workers run the survey chunk itself (dist/survey.js), which starts serving batches when it is
// loaded as a worker with WORKER_TAG in its workerData. From the unbundled source (tests), the
// workers run the built chunk.

import { inOrder, serveWork, type PoolStats, type Work } from '../threads/pool.js'
import type { SurveyPlan } from './plan.js'
import { expandRow, packRow, type PackedRow, type SurveyRecord } from './row.js'
import type { SurveyRow } from './types.js'

export type { PoolStats } from '../threads/pool.js'

export const WORKER_TAG = 'robotstxt-wasm survey worker'
/** Records per batch: enough to amortise a message, small enough to keep the threads even. */
export const BATCH = 64
/** Batches out per worker. */
export const IN_FLIGHT = 2

declare const __SURVEY_CHUNK__: boolean | undefined

function workerFile(): URL {
  return typeof __SURVEY_CHUNK__ === 'boolean' ? new URL(import.meta.url) : new URL('../../dist/survey.js', import.meta.url)
}

/** A batch: its records, whose bodies are views of `bodies`. */
interface Batch { records: SurveyRecord[]; bodies: ArrayBuffer }

/** A batch's packed rows (row.ts) as one JSON text: cheaper to pass between threads than a structured clone of many small objects. */
const ROWS: Work<SurveyPlan, Batch, string> = {
  tag: WORKER_TAG,
  setup: (plan) => (batch) => JSON.stringify(batch.records.map((r) => packRow(r, plan))),
  jobBuffers: (batch) => [batch.bodies],
}

/** Serves batches when this module runs as a survey worker; returns false on any other thread. */
export function serveIfWorker(): boolean {
  return serveWork([ROWS])
}

/** The rows of `records` computed on `plan.threads` workers, in input order. */
export async function* pooledRows(records: AsyncIterable<SurveyRecord>, plan: SurveyPlan, stats?: PoolStats): AsyncGenerator<SurveyRow> {
  for await (const rows of inOrder(batches(records), ROWS, { threads: plan.threads, inFlight: IN_FLIGHT, worker: workerFile(), data: plan, stats })) {
    for (const row of JSON.parse(rows) as PackedRow[]) yield expandRow(row, plan)
  }
}

async function* batches(records: AsyncIterable<SurveyRecord>): AsyncGenerator<Batch> {
  let batch: SurveyRecord[] = []
  for await (const r of records) {
    batch.push(r)
    if (batch.length === BATCH) {
      yield withBodies(batch)
      batch = []
    }
  }
  if (batch.length > 0) yield withBodies(batch)
}

/** Each body starts on an 8-byte boundary: the engine reads a body's bytes a word at a time where it can. */
const aligned = (n: number): number => (n + 7) & ~7

/** The records with their bodies copied into one buffer (a record's body may be a view of a larger buffer, which this lets go). */
function withBodies(records: SurveyRecord[]): Batch {
  let size = 0
  for (const r of records) size += aligned(r.body?.length ?? 0)
  const bodies = new ArrayBuffer(size)
  let at = 0
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!
    if (r.body === null) continue
    const body = new Uint8Array(bodies, at, r.body.length)
    body.set(r.body)
    at += aligned(body.length)
    records[i] = { ...r, body }
  }
  return { records, bodies }
}
