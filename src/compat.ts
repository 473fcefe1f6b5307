// Entry of `robotstxt-wasm/compat` for Node (ESM and CommonJS) and bundlers: robots-parser's API
// (see compat-parser.ts) with the wasm bytes embedded, like the package's main entry.

import wasmBytes from '../build/robots.wasm'
import { provideWasm } from './wasm.js'

provideWasm(wasmBytes)

export { default, type Robot } from './compat-parser.js'
