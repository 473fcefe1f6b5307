// Entry of `robotstxt-wasm/compat` for Cloudflare Workers (the `workerd` and `worker` conditions):
// the .wasm file is imported as a WebAssembly.Module, as in workerd.ts.

import wasmModule from '../build/robots.wasm'
import { provideWasm } from './wasm.js'

provideWasm(wasmModule)

export { default, type Robot } from './compat-parser.js'
