// The ordered worker pool (src/threads/pool.ts) on its own, with the kinds of work of
// helpers/pool-work.mjs: results in job order whatever finishes first, the work out bounded by
// threads x inFlight (a slow consumer stops the reading), buffers moved rather than copied, the
// failures of a job, a worker or a setup surfacing as a rejection, and one thread in-process.
import { describe, expect, test } from 'vitest'
import { inOrder, type PoolOptions, type PoolStats, type Work } from '../src/threads/pool.js'
import { ASKS, BROKEN, BYTES, SQUARES } from './helpers/pool-work.mjs'

const WORKER = new URL('./helpers/pool-work.mjs', import.meta.url)

async function* numbers(count: number, pulled?: { n: number }): AsyncGenerator<number> {
  for (let n = 0; n < count; n++) {
    if (pulled !== undefined) pulled.n++
    yield n
  }
}

async function all<D, J, R>(jobs: AsyncIterable<J>, work: Work<D, J, R>, options: Partial<PoolOptions<D>> & { data: D }): Promise<R[]> {
  const out: R[] = []
  for await (const r of inOrder(jobs, work, { threads: 2, inFlight: 2, worker: WORKER, ...options })) out.push(r)
  return out
}

describe('threads/pool', () => {
  test('results come in job order whatever finishes first: 1 to 3 threads, the caller working or not', async () => {
    const want = Array.from({ length: 60 }, (_, n) => n * n)
    for (const threads of [1, 2, 3]) {
      for (const callerWorks of [false, true]) {
        const got = await all(numbers(60), SQUARES, { threads, callerWorks, data: {} })
        expect(got.map((r) => r.square), `${threads} threads, callerWorks ${callerWorks}`).toEqual(want)
        // One thread is this one; otherwise workers do the work, and the caller a share when it works too.
        if (threads === 1) expect(got.every((r) => r.main)).toBe(true)
        else expect(got.some((r) => !r.main)).toBe(true)
        if (threads > 1 && !callerWorks) expect(got.some((r) => r.main)).toBe(false)
      }
    }
  })

  test('a slow consumer holds the work out to threads x inFlight: the input is read no further ahead', async () => {
    for (const [threads, inFlight] of [[2, 2], [3, 1]] as const) {
      const stats: PoolStats = { maxOutstanding: 0, maxBuffered: 0 }
      const pulled = { n: 0 }
      let consumed = 0
      let ahead = 0
      for await (const r of inOrder(numbers(200, pulled), SQUARES, { threads, inFlight, worker: WORKER, data: {}, stats })) {
        expect(r.n).toBe(consumed++)
        ahead = Math.max(ahead, pulled.n - consumed)
        if (consumed % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 15))
      }
      expect(consumed).toBe(200)
      expect(stats.maxOutstanding).toBeGreaterThan(1)
      expect(stats.maxOutstanding).toBeLessThanOrEqual(threads * inFlight)
      expect(stats.maxBuffered).toBeLessThanOrEqual(threads * inFlight)
      expect(ahead).toBeLessThanOrEqual(threads * inFlight)
    }
  })

  test("a job's buffers move to its worker and come back to recycle; a result's move to the caller", async () => {
    const sent: Uint8Array[] = []
    async function* jobs() {
      for (let k = 1; k <= 20; k++) {
        const bytes = new Uint8Array(1000 * k).fill(1)
        sent.push(bytes)
        yield bytes
      }
    }
    const back: ArrayBuffer[] = []
    const got = await all(jobs(), BYTES, { data: null, recycle: (b) => back.push(...b) })
    expect(got.map((r) => r.sum)).toEqual(sent.map((_, i) => 1000 * (i + 1)))
    expect(got.map((r) => r.out[1])).toEqual(sent.map((_, i) => (1000 * (i + 1)) & 0xff))
    // Transferred, not copied: the sender's views are detached; every buffer came back whole.
    expect(sent.every((b) => b.byteLength === 0)).toBe(true)
    expect(back.map((b) => b.byteLength).sort((a, b) => a - b)).toEqual(sent.map((_, i) => 1000 * (i + 1)))
  })

  test("workers ask the caller's thread, which answers", async () => {
    const got = await all(numbers(30), ASKS, { data: null, answer: (n) => (n as number) * 10 })
    expect(got).toEqual(Array.from({ length: 30 }, (_, n) => n * 10 + 1))
    await expect(all(numbers(3), ASKS, { data: null })).rejects.toThrow(/answers no requests/)
  })

  test('a job that throws, a worker that exits, a setup that throws: the stream rejects with why', async () => {
    await expect(all(numbers(50), SQUARES, { data: { failOn: 17 } })).rejects.toThrow(/test squares failed: Error: no square for 17/)
    await expect(all(numbers(50), SQUARES, { data: { exitOn: 9 } })).rejects.toThrow(/test squares stopped with exit code 3/)
    await expect(all(numbers(5), BROKEN, { data: null })).rejects.toThrow(/this worker cannot start/)
    await expect(all(numbers(50), SQUARES, { threads: 1, data: { failOn: 3 } })).rejects.toThrow(/no square for 3/)
  })

  test('a consumer that stops early stops the reading', async () => {
    const pulled = { n: 0 }
    for await (const r of inOrder(numbers(1000, pulled), SQUARES, { threads: 2, inFlight: 2, worker: WORKER, data: {} })) if (r.n === 5) break
    expect(pulled.n).toBeLessThanOrEqual(6 + 4)
  })

  test('threads and inFlight are checked', async () => {
    for (const threads of [0, 1.5, NaN]) {
      await expect(inOrder(numbers(1), SQUARES, { threads, inFlight: 2, worker: WORKER, data: {} }).next()).rejects.toThrow(/threads: expected an integer >= 1/)
    }
    await expect(inOrder(numbers(1), SQUARES, { threads: 2, inFlight: 0, worker: WORKER, data: {} }).next()).rejects.toThrow(/inFlight: expected an integer >= 1/)
  })
})
