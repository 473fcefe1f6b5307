// Entry for Node (ESM and CommonJS) and bundlers: the wasm bytes are embedded in the bundle and
// instantiated synchronously on first use, so no extra file and no top-level await are needed.

import wasmBytes from '../build/robots.wasm'
import { provideWasm } from './wasm.js'

provideWasm(wasmBytes)

export * from './public.js'
