// Rows on worker threads, through the shared ordered pool (threads/pool.ts): records go out in
// batches, each worker computes the rows of a batch, and rows leave in input order whatever the
// thread count. The pool bounds the batches out (threads x IN_FLIGHT), so memory is bounded by
// the batch size, never by the input: a slow consumer stops the reading.
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

/** A batch's packed rows (row.ts) as one JSON text: cheaper to pass between threads than a structured clone of many small objects. */
const ROWS: Work<SurveyPlan, SurveyRecord[], string> = {
  tag: WORKER_TAG,
  setup: (plan) => (records) => JSON.stringify(records.map((r) => packRow(r, plan))),
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

async function* batches(records: AsyncIterable<SurveyRecord>): AsyncGenerator<SurveyRecord[]> {
  let batch: SurveyRecord[] = []
  for await (const r of records) {
    batch.push(r)
    if (batch.length === BATCH) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}
