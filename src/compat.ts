// Entry of `robotstxt-wasm/compat` for Node (ESM and CommonJS) and bundlers: robots-parser's API
// (see compat/parser.ts). src/engine/wasm.ts's .wasm import is built as embedded bytes, as for the main entry.

export { default, type Robot } from './compat/parser.js'
