// Preloaded with `node --import` by test/cli-threads.test.ts: on worker threads only, the wasm
// engine cannot be instantiated, as on a thread that ran out of memory. The main thread is untouched.
import { isMainThread } from 'node:worker_threads'

if (!isMainThread) {
  WebAssembly.Instance = function Instance() {
    throw new Error('no wasm on this worker (test/helpers/break-workers.mjs)')
  }
}
