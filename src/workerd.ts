// Entry for Cloudflare Workers (the `workerd` and `worker` export conditions): Workers forbid
// compiling wasm from bytes at run time, so the .wasm file is imported as a WebAssembly.Module
// that the bundler (wrangler) uploads beside the script.

import wasmModule from '../build/robots.wasm'
import { provideWasm } from './wasm.js'

provideWasm(wasmModule)

export * from './public.js'
