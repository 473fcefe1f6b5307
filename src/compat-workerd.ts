// Entry of `robotstxt-wasm/compat` for Cloudflare Workers (the `workerd` and `worker` conditions):
// src/engine/wasm.ts's .wasm import is built as an import of dist/robots.wasm (a WebAssembly.Module), as
// for workerd.ts.

export { default, type Robot } from './compat/parser.js'
