// Kinds of work for test/pool.test.ts, on both sides of the pool: the test imports them for the
// calling side, and the pool's workers load this file, which serves them. In a worker, Node loads
// src/threads/pool.ts itself (type stripping), its imports of src/ written `.js` as TypeScript
// writes them resolved to the `.ts` files by a resolve hook, so the two halves of the pool meet as
// they do in a bundle.
import { registerHooks } from 'node:module'
import { isMainThread } from 'node:worker_threads'

if (!isMainThread) {
  const src = new URL('../../src/', import.meta.url).href
  registerHooks({
    resolve(specifier, context, next) {
      const fromSrc = context.parentURL?.startsWith(src) === true && specifier.startsWith('.') && specifier.endsWith('.js')
      return next(fromSrc ? `${specifier.slice(0, -3)}.ts` : specifier, context)
    },
  })
}
const { serveWork } = await import('../../src/threads/pool.ts')

const sleeper = new Int32Array(new SharedArrayBuffer(4))
/** Blocks this thread for `ms`: jobs finish out of order, and a worker can be kept busy. */
function sleep(ms) {
  Atomics.wait(sleeper, 0, 0, ms)
}

/** n -> { n, square, main }, after a pause that varies with n; data.failOn throws, data.exitOn exits. */
export const SQUARES = {
  tag: 'test squares',
  setup: (data) => (n) => {
    if (n === data.failOn) throw new Error(`no square for ${n}`)
    if (n === data.exitOn) process.exit(3)
    sleep((n * 7) % 5)
    return { n, square: n * n, main: isMainThread }
  },
}

/** A job's bytes moved to the worker, summed, and a new buffer moved back. */
export const BYTES = {
  tag: 'test bytes',
  setup: () => (bytes) => {
    let sum = 0
    for (const b of bytes) sum += b
    return { sum, out: Uint8Array.of(sum & 0xff, bytes.length & 0xff) }
  },
  jobBuffers: (bytes) => [bytes.buffer],
  resultBuffers: (r) => [r.out.buffer],
}

/** Each job asks the calling thread, and adds 1 to its answer. */
export const ASKS = {
  tag: 'test asks',
  setup: (_data, ask) => async (n) => (await ask(n)) + 1,
}

/** A setup that fails, as a worker whose engine cannot load does. */
export const BROKEN = {
  tag: 'test broken',
  setup: () => {
    if (!isMainThread) throw new Error('this worker cannot start')
    return (n) => n
  },
}

serveWork([SQUARES, BYTES, ASKS, BROKEN])
