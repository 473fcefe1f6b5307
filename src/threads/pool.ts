// The ordered worker pool: the one way work leaves the main thread (the survey's rows, the CLI's
// --urls blocks). Jobs are numbered as they are read and results released in that order, so the
// output never depends on the thread count or on which worker was fastest.
//
// Invariants:
// * at most `threads x inFlight` jobs are out (sent and not yet released) at any time, and no job
//   is read while that many are: memory is bounded by the job size, never by the input, and a
//   consumer that stops pulling results stops the reading (backpressure);
// * a job's buffers named by `jobBuffers` move to the worker (transferred, not copied) and come back
//   once it has run: in the result when it keeps them (`resultBuffers`), else to `recycle`;
// * a worker that throws, fails a job or exits ends the stream with that error, and every worker
//   is terminated whenever the stream ends (done, failed, or abandoned by its consumer);
// * a worker may ask the caller's thread (`ask` in setup, `answer` in the options): the one
//   place for what every thread must share, such as the robots.txt fetched once per origin;
// * with one thread the work runs in-process, on the same `setup`, with no worker at all; with
//   `callerWorks`, the caller's thread is one of the N (N - 1 workers): it runs a job itself when
//   every worker has inFlight jobs, instead of waiting.
//
// A worker runs a module of the caller's (a bundle: dist/survey.js, dist/cli.js) that calls
// serveWork() with the same Work at load; workerData's tag says which Work it is to serve.

import { isMainThread, parentPort, Worker, workerData, type ResourceLimits } from 'node:worker_threads'
import { InputOrder } from '../flow/release.js'
import { SIGNALLED, Wake } from '../flow/wake.js'

/** One kind of work, known to both sides: the same object is given to inOrder() and serveWork(). */
export interface Work<D, J, R> {
  /** Names the work in workerData and in error messages. */
  readonly tag: string
  /**
   * Prepares a thread (the caller's, or a worker's with `data` structured-cloned) and returns how it
   * runs a job. `ask` sends a request to the caller's thread (PoolOptions.answer) and resolves to
   * its answer.
   */
  setup(data: D, ask: Ask): (job: J) => R | Promise<R>
  /**
   * Buffers a job hands over: transferred to its worker, unusable by the sender until they come
   * back, once the job has run: in the result when resultBuffers names them, else to `recycle`.
   */
  jobBuffers?(job: J): ArrayBuffer[]
  /** Buffers a result hands back, likewise. */
  resultBuffers?(result: R): ArrayBuffer[]
}

/** A request to the caller's thread, resolving to its answer. */
export type Ask = (request: unknown) => Promise<unknown>

/** Where and how wide the work runs. */
export interface PoolOptions<D> {
  /** 1 runs in-process; N > 1 runs on N workers (N - 1 and the caller's thread with callerWorks). */
  threads: number
  /** Jobs out per thread: more than one keeps a worker busy while its last result travels back. */
  inFlight: number
  /** The module the workers load (it must call serveWork with the same Work). */
  worker: URL
  /** What setup() gets. */
  data: D
  /**
   * The caller's thread runs jobs too, as one of `threads`: for work whose reading and writing
   * cost little next to the jobs (check --urls), so that N threads use N cores.
   */
  callerWorks?: boolean
  /** Gets a job's buffers back (jobBuffers) once it has run, to be used for another job. */
  recycle?(buffers: ArrayBuffer[]): void
  /**
   * Heap limits of each worker (Node's Worker resourceLimits). A smaller young generation than
   * V8's default keeps a worker's heap near what it holds when its jobs make many short-lived
   * objects; an old-generation limit makes a worker that passes it fail its stream.
   */
  resourceLimits?: ResourceLimits
  /** Answers the requests of `ask`; without it, a request rejects. */
  answer?(request: unknown): unknown
  /** Filled in as the pool runs: the tests of the bound read it. */
  stats?: PoolStats
}

/** The high-water marks of the pool's bounded parts. */
export interface PoolStats {
  /** Jobs sent and not yet released. */
  maxOutstanding: number
  /** Results finished and held, waiting for an earlier one or for the consumer. */
  maxBuffered: number
}

/** To a worker: a job, or the answer to one of its requests. */
type ToWorker<J> = { seq: number; job: J } | { answer: number; value?: unknown; error?: string }
/** From a worker: a job's result or failure, or a request. */
type FromWorker<R> = { seq: number; result?: R; error?: string; spent?: ArrayBuffer[] } | { ask: number; request: unknown }

/** An error as the text that crosses threads. */
function errorText(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e)
}

/** The job's buffers free once it has run: those its result does not hand on. */
function spentOf<J, R>(work: Work<never, J, R>, job: J, result: R): ArrayBuffer[] {
  const given = work.jobBuffers?.(job) ?? []
  if (given.length === 0 || work.resultBuffers === undefined) return given
  const kept = work.resultBuffers(result)
  return given.filter((b) => !kept.includes(b))
}

/** `answer` as `ask` on the caller's own thread. */
function askOf(answer: ((request: unknown) => unknown) | undefined): Ask {
  return async (request) => {
    if (answer === undefined) throw new Error('this pool answers no requests')
    return answer(request)
  }
}

interface Tagged { tag?: unknown; data?: unknown }

/** Serves jobs when this thread is a worker started by inOrder() for one of `works`; false otherwise. */
export function serveWork(works: readonly Work<never, never, unknown>[]): boolean {
  const wd = workerData as Tagged | null
  if (isMainThread || parentPort === null || wd === null || typeof wd !== 'object') return false
  const work = works.find((w) => w.tag === wd.tag) as Work<unknown, unknown, unknown> | undefined
  if (work === undefined) return false
  const port = parentPort
  const asked = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>()
  let asks = 0
  const ask: Ask = (request) => new Promise((resolve, reject) => {
    const id = asks++
    asked.set(id, { resolve, reject })
    port.postMessage({ ask: id, request } satisfies FromWorker<never>)
  })
  // A setup that throws is an uncaught error of the worker: the pool's 'error' event reports it.
  const run = work.setup(wd.data, ask)
  port.on('message', (m: ToWorker<unknown>) => {
    if ('answer' in m) {
      const waiter = asked.get(m.answer)!
      asked.delete(m.answer)
      if (m.error !== undefined) waiter.reject(new Error(m.error))
      else waiter.resolve(m.value)
      return
    }
    const { seq, job } = m
    const reply = (result: unknown): void => {
      const spent = spentOf(work, job, result)
      port.postMessage({ seq, result, spent } satisfies FromWorker<unknown>, [...(work.resultBuffers?.(result) ?? []), ...spent])
    }
    const failed = (e: unknown): void => port.postMessage({ seq, error: errorText(e) } satisfies FromWorker<unknown>)
    try {
      const result = run(job)
      if (result instanceof Promise) result.then(reply, failed)
      else reply(result)
    } catch (e) {
      failed(e)
    }
  })
  return true
}

/**
 * The results of `jobs`, in job order, computed on `options.threads` threads. Ends with the
 * first error of any worker; ending the iteration early terminates the workers.
 */
export async function* inOrder<D, J, R>(jobs: AsyncIterable<J>, work: Work<D, J, R>, options: PoolOptions<D>): AsyncGenerator<R> {
  const { threads, inFlight, stats } = options
  if (!Number.isInteger(threads) || threads < 1) throw new TypeError(`threads: expected an integer >= 1, got ${String(threads)}`)
  if (!Number.isInteger(inFlight) || inFlight < 1) throw new TypeError(`inFlight: expected an integer >= 1, got ${String(inFlight)}`)
  const ask = askOf(options.answer)
  if (threads === 1) {
    const run = work.setup(options.data, ask)
    for await (const job of jobs) {
      const result = await run(job)
      options.recycle?.(spentOf(work, job, result))
      yield result
    }
    return
  }

  const local = options.callerWorks === true ? work.setup(options.data, ask) : null
  const execArgv = workerExecArgv()
  const workers = Array.from({ length: local === null ? threads : threads - 1 }, () => new Worker(options.worker, { workerData: { tag: work.tag, data: options.data }, execArgv, resourceLimits: options.resourceLimits }))
  const load = new Map<Worker, number>(workers.map((w) => [w, 0]))
  // Bounds the jobs out (sent and not yet released), results held waiting for an earlier one included.
  const order = new InputOrder<R>(threads * inFlight)
  const wake = new Wake()
  let failure: Error | null = null
  let closing = false
  for (const w of workers) {
    w.on('message', (m: FromWorker<R>) => {
      if ('ask' in m) {
        ask(m.request).then(
          (value) => w.postMessage({ answer: m.ask, value } satisfies ToWorker<J>),
          (e: unknown) => w.postMessage({ answer: m.ask, error: errorText(e) } satisfies ToWorker<J>),
        )
        return
      }
      load.set(w, load.get(w)! - 1)
      if (m.error !== undefined) failure ??= new Error(`${work.tag} failed: ${m.error}`)
      else {
        order.put(m.seq, m.result as R)
        if (m.spent !== undefined && m.spent.length > 0) options.recycle?.(m.spent)
      }
      wake.signal()
    })
    w.on('error', (e) => {
      failure ??= e instanceof Error ? e : new Error(`${work.tag} failed: ${String(e)}`)
      wake.signal()
    })
    w.on('exit', (code) => {
      if (!closing) failure ??= new Error(`${work.tag} stopped with exit code ${code}`)
      wake.signal()
    })
  }
  const it = jobs[Symbol.asyncIterator]()
  /** A read under way: kept across events, since an iterator's next() must not be called again before it settles. */
  let reading: Promise<IteratorResult<J>> | null = null
  let ended = false
  try {
    for (;;) {
      if (failure !== null) throw failure
      while (order.ready()) {
        yield order.release()
        if (failure !== null) throw failure
      }
      if (ended && order.outstanding === 0) return
      if (stats !== undefined) stats.maxBuffered = Math.max(stats.maxBuffered, order.held)
      if (!ended && reading === null && order.room > 0) reading = it.next()
      // The next message, error or exit of any worker, or the read's step.
      const step = await wake.race(reading)
      if (step === SIGNALLED) continue
      reading = null
      if (step.done === true) {
        ended = true
        continue
      }
      // The least loaded worker: a slow job does not hold the others back.
      let target = workers[0]!
      for (const w of workers) if (load.get(w)! < load.get(target)!) target = w
      const job = step.value
      const seq = order.number(1)
      if (stats !== undefined) stats.maxOutstanding = Math.max(stats.maxOutstanding, order.outstanding)
      if (local !== null && load.get(target)! >= inFlight) {
        const result = await local(job)
        order.put(seq, result)
        options.recycle?.(spentOf(work, job, result))
        continue
      }
      load.set(target, load.get(target)! + 1)
      target.postMessage({ seq, job } satisfies ToWorker<J>, work.jobBuffers?.(job) ?? [])
    }
  } finally {
    closing = true
    // A read still under way (stdin waiting for input) is not awaited: it may never settle.
    if (reading === null) await it.return?.()
    else void reading.then(() => it.return?.(), () => undefined)
    await Promise.all(workers.map((w) => w.terminate()))
  }
}

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
