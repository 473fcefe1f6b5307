// The only host files that touch WebAssembly are this one and its two stages, each a module:
//
//   wasm.ts        the instance and its memory: the layout below, growth, the views, the resident
//                  table and the body held in the input area (the Engine)
//   wasm-body.ts   a robots.txt body in: the scanner, the compiler, the streamed first check
//   wasm-urls.ts   URLs in: single checks, batches, URL lines, the CLI's verdict lines
//
// The Engine owns the one matcher instance of the process and lays out its memory above heapBase();
// the stages move bytes in and out through its regions and never keep a view across a call that
// may grow memory:
//
//   [heapBase, +tableCap)     the resident table: the compiled rules of the Matcher used last
//   [input,    +inputCap)     URL bytes; for a batch: ends (u32 each), results, then URL bytes;
//                             for the scanner and compiler: the robots.txt body (and agent tokens)
//   [scratch,  +scratchCap)   the matcher's scratch, the scanner's records, the compiler's work area
//                             (see the ABI in assembly/index.ts); 64 bytes of slack follow
//
// Memory ownership: compiled tables live in JS-owned Uint8Arrays held by their Matcher, so a dropped
// Matcher is plain garbage. A table is copied into wasm memory when its Matcher is used and is not
// already resident (an identity check, so repeated use of one Matcher copies nothing). wasm memory
// therefore holds at most one table, and grows only to fit the largest table, URL batch, body and
// compiler work area seen (the last sized by the rules a body actually has).

import embedded from '../../build/robots.wasm'
import type { WasmExports } from './abi.js'
import { tableMaxPattern } from './table.js'
import { base64Bytes, encoder } from './bytes.js'
import { CODED_PLAIN_LENGTH, CODED_TRAILER } from './layout.js'

// The build decides what the .wasm import is (scripts/build.mjs): the bytes as a base64 string,
// embedded in the bundle, for Node and bundlers; a WebAssembly.Module imported from
// dist/robots.wasm for workerd. Importing it here, where it is used, keeps the package free of
// import-time side effects ("sideEffects": false holds: a bundler may drop any unused module
// without breaking the wasm). The string is decoded at first use, natively where the runtime can:
// a JS base64 loop over ~21 KB of text, cold, cost 1-5 ms of every process's start.
const source: unknown = embedded
let engine: Engine | null = null

function wasmModule(src: unknown): WebAssembly.Module {
  if (src instanceof WebAssembly.Module) return src
  if (typeof src === 'string') return new WebAssembly.Module(base64Bytes(src) as Uint8Array<ArrayBuffer>)
  throw new Error('robotstxt-wasm: the build provided no wasm bytes or module')
}

/** The process-wide engine, instantiated synchronously on first use. */
export function getEngine(): Engine {
  if (engine === null) {
    const module = wasmModule(source)
    const instance = new WebAssembly.Instance(module, {})
    engine = new Engine(instance.exports as unknown as WasmExports)
  }
  return engine
}

// Node's Buffer writes any string as UTF-16LE with one copy (a widening copy for one-byte strings);
// the wasm transcodes each URL to UTF-8 while checking. TextEncoder takes a slow path on one-byte
// strings that are not ASCII ("straße"), which a batch of real URLs nearly always holds somewhere.
export interface Utf16Writer {
  write(s: string, offset: number, length: number, encoding: 'utf16le'): number
}
export const NodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBuffer): Utf16Writer } }).Buffer

const PAGE = 65536

/**
 * A body as the engine takes it: text (encoded as UTF-8), bytes, or a coded compact body
 * (assembly/compact.ts, with its trailer: layout.ts CODED_*). An ArrayBuffer is only ever the
 * last: a site keeps it with no view object.
 */
export type Body = string | Uint8Array | ArrayBuffer

/** The length of the plain compact body a coded one expands to (at most 1 MiB: WASM_SCAN_MAX). */
export function codedPlainLength(coded: ArrayBuffer): number {
  const t = new Uint8Array(coded, coded.byteLength - CODED_TRAILER + CODED_PLAIN_LENGTH, 4)
  return t[0]! | (t[1]! << 8) | (t[2]! << 16) | (t[3]! << 24)
}

/** Rounds up to a multiple of 16; arithmetic, not bitwise, so sizes past 2^31 stay positive. */
export function align16(n: number): number {
  return Math.ceil(n / 16) * 16
}

export class Engine {
  readonly w: WasmExports
  readonly base: number
  u8: Uint8Array
  i32: Int32Array
  u32: Uint32Array
  /** The input area as a view, for encodeInto without a subarray per call. */
  inView: Uint8Array
  tableCap = 4096
  inputCap = 16384
  input = 0
  scratch = 0
  /** Scratch the compiler asked for (compileNeeded); the matcher's own need is derived in relayout. */
  workCap = 0
  scratchCap = 0
  /** The body (bytes or string) the input area holds: compiling more agents of one site copies it once. */
  inputBody: Body | null = null
  inputBodyLen = 0
  resident: Uint8Array | null = null
  residentMaxPat = 0
  /** A Buffer over wasm memory where the runtime has one (Node): batches then go in as UTF-16. */
  utf16: Utf16Writer | null = null
  /**
   * Batches through UTF-16 when Buffer exists, else through TextEncoder (tests switch it). Not on
   * Deno, whose Buffer writes UTF-16 slowly: 743 ns per URL of a 1,000-URL batch there against 202
   * through TextEncoder (Deno 2.9.6, 2026-11-24).
   */
  utf16Batches = NodeBuffer !== undefined && !('Deno' in globalThis)

  constructor(w: WasmExports) {
    this.w = w
    this.base = w.heapBase()
    this.u8 = new Uint8Array(w.memory.buffer)
    this.i32 = new Int32Array(w.memory.buffer)
    this.u32 = new Uint32Array(w.memory.buffer)
    this.inView = this.u8
    this.relayout()
  }

  /**
   * Places input and scratch after a table area of `tableCap` bytes, grows memory to fit, then
   * commits the capacities and rebuilds the views. All or nothing: when memory cannot grow that
   * far, the engine is left exactly as it was and the one call that asked fails with a RangeError,
   * so every later call, on every matcher, still works.
   */
  relayout(tableCap = this.tableCap, inputCap = this.inputCap, workCap = this.workCap, maxPat = this.residentMaxPat): void {
    const input = this.base + tableCap
    const scratch = align16(input + inputCap + 64)
    // 64 bytes of slack after every region the matcher reads with 16-byte vector loads (ABI).
    const scratchCap = Math.max(3 * inputCap + 16 + 4 * maxPat + 16, workCap)
    const needed = scratch + scratchCap + 64
    const have = this.w.memory.buffer.byteLength
    if (needed > have) {
      try {
        this.w.memory.grow(Math.ceil((needed - have) / PAGE))
      } catch (err) {
        throw new RangeError(`robotstxt-wasm: this call needs ${needed} bytes of WebAssembly memory and the runtime refused to grow past ${have}; the engine is unchanged`, { cause: err })
      }
    }
    this.tableCap = tableCap
    this.inputCap = inputCap
    this.workCap = workCap
    this.residentMaxPat = maxPat
    this.inputBody = null
    this.input = input
    this.scratch = scratch
    this.scratchCap = scratchCap
    // Growing detaches the old ArrayBuffer: views are always rebuilt here, never kept stale.
    if (this.u8.buffer !== this.w.memory.buffer) {
      this.u8 = new Uint8Array(this.w.memory.buffer)
      this.i32 = new Int32Array(this.w.memory.buffer)
      this.u32 = new Uint32Array(this.w.memory.buffer)
      this.utf16 = null
    }
    this.inView = this.u8.subarray(this.input, this.input + this.inputCap)
    this.w.useScratch(this.scratch)
  }

  /** Size of the wasm linear memory (it only grows: to the largest table and input seen). */
  get memoryBytes(): number {
    return this.w.memory.buffer.byteLength
  }

  /** Makes `table` the matcher's current rule set, copying it in unless it already is. */
  use(table: Uint8Array): void {
    if (table === this.resident) return
    const maxPat = tableMaxPattern(table)
    if (table.length > this.tableCap || maxPat > this.residentMaxPat) {
      const tableCap = table.length > this.tableCap ? align16(table.length + (table.length >> 1)) : this.tableCap
      this.relayout(tableCap, this.inputCap, this.workCap, Math.max(this.residentMaxPat, maxPat))
    }
    this.u8.set(table, this.base)
    this.w.useTable(this.base)
    this.resident = table
  }

  /**
   * Puts a body at the start of the input area unless it is already there; returns its length in
   * bytes. The caller has reserved room (3 bytes per UTF-16 unit for a string, the plain length
   * for a coded compact body, which goes in through scratch and is expanded into place).
   */
  loadBody(body: Body): number {
    if (this.inputBody !== body) {
      if (typeof body === 'string') this.inputBodyLen = encoder.encodeInto(body, this.inView).written
      else if (body instanceof ArrayBuffer) {
        const coded = body.byteLength - CODED_TRAILER
        this.u8.set(new Uint8Array(body, 0, coded), this.scratch)
        this.inputBodyLen = this.w.expandCompact(this.scratch, coded, this.input)
      } else {
        this.u8.set(body, this.input)
        this.inputBodyLen = body.length
      }
      this.inputBody = body
    }
    return this.inputBodyLen
  }

  /** Scratch of at least `bytes` bytes for the compiler's work area. */
  reserveWork(bytes: number): void {
    if (bytes > this.workCap) this.relayout(this.tableCap, this.inputCap, align16(Math.max(bytes, this.workCap * 2)))
  }

  /** Input area of at least `bytes` bytes (URL bytes are at most 3 per UTF-16 unit). */
  reserveInput(bytes: number): void {
    if (bytes > this.inputCap) this.growInput(bytes)
  }

  /** Kept apart from reserveInput, which the single check inlines: this is the cold path. */
  growInput(bytes: number): void {
    try {
      // Doubling keeps growth amortized; when the doubled size is refused, the exact size may not be.
      this.relayout(this.tableCap, align16(Math.max(bytes, this.inputCap * 2)))
    } catch (err) {
      if (align16(bytes) >= this.inputCap * 2) throw err
      this.relayout(this.tableCap, align16(bytes))
    }
  }

}
