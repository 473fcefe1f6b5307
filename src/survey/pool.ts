// Rows on worker threads. The calling thread reads the inputs and hands records out in batches; each
// worker computes the rows of a batch and sends them back; rows leave in input order whatever the
// thread count, because batches are numbered and released in sequence. At most IN_FLIGHT batches
// per worker are out at any time, so memory is bounded by the batch size, never by the input: a slow
// consumer stops the reading.
//
// The workers run the survey chunk itself (dist/survey.js), which starts serving batches when it is
// loaded as a worker with WORKER_TAG in its workerData. From the unbundled source (tests), the
// workers run the built chunk.

import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import type { SurveyPlan } from './plan.js'
import { expandRow, packRow, type PackedRow, type SurveyRecord } from './row.js'
import type { SurveyRow } from './types.js'

export const WORKER_TAG = 'robotstxt-wasm survey worker'
/** Records per batch: enough to amortise a message, small enough to keep the threads even. */
export const BATCH = 64
/** Batches out per worker. */
export const IN_FLIGHT = 2

declare const __SURVEY_CHUNK__: boolean | undefined

function workerFile(): URL {
  return typeof __SURVEY_CHUNK__ === 'boolean' ? new URL(import.meta.url) : new URL('../../dist/survey.js', import.meta.url)
}

interface Job { seq: number; records: SurveyRecord[] }
/** A batch's packed rows (row.ts) as one JSON text: cheaper to pass between threads than a structured clone of many small objects. */
interface Done { seq: number; rows?: string; error?: string }

/** Serves batches when this module runs as a survey worker; returns false on any other thread. */
export function serveIfWorker(): boolean {
  const data = workerData as { tag?: string; plan?: SurveyPlan } | null
  if (isMainThread || parentPort === null || data?.tag !== WORKER_TAG || data.plan === undefined) return false
  const plan = data.plan
  const port = parentPort
  port.on('message', (job: Job) => {
    try {
      port.postMessage({ seq: job.seq, rows: JSON.stringify(job.records.map((r) => packRow(r, plan))) } satisfies Done)
    } catch (e) {
      port.postMessage({ seq: job.seq, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies Done)
    }
  })
  return true
}

/** Counts of the pool's bounded parts, for the tests of the bound. */
export interface PoolStats { maxOutstanding: number; maxBuffered: number }

/**
 * The parent's Node flags that a worker takes. Not --input-type: it is for -e and stdin code, and a
 * worker started with it cannot load its file (`node --input-type=module -e ...` callers). Not the
 * V8 and process-wide ones (--expose-gc, --max-old-space-size, ...): Worker throws on them, and V8's
 * flags apply to every thread of the process anyway. Those are found by trying them, once each,
 * only when the whole list is refused.
 */
function workerExecArgv(): string[] {
  const flags = process.execArgv.filter((a) => !a.startsWith('--input-type'))
  if (flags.length === 0 || workerTakes(flags)) return flags
  return flags.filter((f) => workerTakes([f]))
}

function workerTakes(execArgv: string[]): boolean {
  try {
    void new Worker('', { eval: true, execArgv }).terminate()
    return true
  } catch {
    return false
  }
}

/** The rows of `records` computed on `plan.threads` workers, in input order. */
export async function* pooledRows(records: AsyncIterable<SurveyRecord>, plan: SurveyPlan, stats?: PoolStats): AsyncGenerator<SurveyRow> {
  const execArgv = workerExecArgv()
  const workers = Array.from({ length: plan.threads }, () => new Worker(workerFile(), { workerData: { tag: WORKER_TAG, plan }, execArgv }))
  const load = new Map<Worker, number>(workers.map((w) => [w, 0]))
  const done = new Map<number, PackedRow[]>()
  let failure: Error | null = null
  let wake: (() => void) | null = null
  const notify = (): void => {
    const w = wake
    wake = null
    w?.()
  }
  for (const w of workers) {
    w.on('message', (m: Done) => {
      load.set(w, load.get(w)! - 1)
      if (m.error !== undefined) failure ??= new Error(`survey worker failed: ${m.error}`)
      else done.set(m.seq, JSON.parse(m.rows!) as PackedRow[])
      notify()
    })
    w.on('error', (e) => {
      failure ??= e
      notify()
    })
    w.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`survey worker exited with code ${code}`)
      notify()
    })
  }
  const waitEvent = (): Promise<void> => new Promise((resolve) => { wake = resolve })
  const it = records[Symbol.asyncIterator]()
  let sent = 0
  let next = 0
  let ended = false
  const capacity = plan.threads * IN_FLIGHT
  try {
    for (;;) {
      if (failure !== null) throw failure
      // Release finished batches in sequence.
      while (done.has(next)) {
        const rows = done.get(next)!
        done.delete(next)
        next++
        for (const row of rows) yield expandRow(row, plan)
      }
      if (ended && next === sent) return
      if (!ended && sent - next < capacity) {
        const batch: SurveyRecord[] = []
        while (batch.length < BATCH) {
          const r = await it.next()
          if (r.done === true) {
            ended = true
            break
          }
          batch.push(r.value)
        }
        if (batch.length > 0) {
          // The least loaded worker: a slow batch does not hold the others back.
          let target = workers[0]!
          for (const w of workers) if (load.get(w)! < load.get(target)!) target = w
          load.set(target, load.get(target)! + 1)
          target.postMessage({ seq: sent++, records: batch } satisfies Job)
          if (stats !== undefined) stats.maxOutstanding = Math.max(stats.maxOutstanding, sent - next)
        }
        continue
      }
      if (stats !== undefined) stats.maxBuffered = Math.max(stats.maxBuffered, done.size)
      await waitEvent()
    }
  } finally {
    await it.return?.()
    await Promise.all(workers.map((w) => w.terminate()))
  }
}
