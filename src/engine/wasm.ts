// The only host files that touch WebAssembly are this one and its two stages, each a module:
//
//   wasm.ts        the instance and its memory: the layout below, growth, the views, the resident
//                  table and the body held in the input area (the Engine)
//   wasm-body.ts   a robots.txt body in: the scanner, the compiler, the streamed first check
//   wasm-urls.ts   URLs in: single checks, batches, URL lines, the CLI's verdict lines
//   wasm-tables.ts compiled tables: kept in the arena, evicted at its cap, freed with their Matchers
//
// The Engine owns the one matcher instance of the process and lays out its memory above heapBase();
// the stages move bytes in and out through its regions and never keep a view across a call that
// may grow memory. Two kinds of region:
//
//   the work area, one span that moves as a whole (nothing in it outlives a call's work):
//     [workStart, +tableCap)    the table slot: a JS-held table is copied here to be used
//     [input,     +inputCap)    URL bytes; for a batch: ends (u32 each), results, then URL bytes;
//                               for the scanner and compiler: the robots.txt body (and agent tokens)
//     [scratch,   +scratchCap)  the matcher's scratch, the scanner's records, the compiler's work area
//                               (see the ABI in assembly/index.ts); 64 bytes of slack follow
//   the table arena (arena.ts): the other bytes, in regions, up to its cap: where compiled tables
//                               live (an old work area's span past the cap stays unused)
//
// Memory ownership of compiled tables: see wasm-tables.ts.
//
// A body parsed from bytes, or from a string long enough to be cut, may be held (Engine.hold,
// holdString): its one copy is the input area's, made when it was parsed, so a site parsed and then
// checked copies its bytes once, into wasm, and allocates nothing for them. Whatever is about to
// overwrite or move the input area first hands the holder a copy (evict), so a held body is never
// lost; the engine holds at most one.

import embedded from '../../build/robots.wasm'
import type { WasmExports } from './abi.js'
import { tableMaxPattern } from './table.js'
import { Tables, TAG_USED, WASM_PAGE, type TableRef } from './wasm-tables.js'
import { base64Bytes, encoder, u32At } from './bytes.js'
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

/** UTF-16 units Engine.holdString encodes at a time. */
const HOLD_CHUNK = 16384

/** The length of the plain compact body a coded one expands to (at most 1 MiB: WASM_SCAN_MAX). */
export function codedPlainLength(coded: ArrayBuffer): number {
  return u32At(new Uint8Array(coded), coded.byteLength - CODED_TRAILER + CODED_PLAIN_LENGTH)
}

/** Rounds up to a multiple of 16; arithmetic, not bitwise, so sizes past 2^31 stay positive. */
export function align16(n: number): number {
  return Math.ceil(n / 16) * 16
}

/**
 * A byte body held in the input area (Engine.hold): the key its owner passes for it, and its length.
 * Once evicted, `copy` is the copy its owner was handed, so a key passed in a call that was under
 * way when the input area moved (a compile that grew the work area) still loads the same bytes.
 */
export interface HeldBody {
  readonly length: number
  copy?: Uint8Array
}

/**
 * A body as the engine takes it: text (encoded as UTF-8), bytes, the held body, or a coded compact
 * body (assembly/compact.ts, with its trailer: layout.ts CODED_*). An ArrayBuffer is only ever the
 * last: a site keeps it with no view object.
 */
export type Body = string | Uint8Array | HeldBody | ArrayBuffer

export class Engine {
  readonly w: WasmExports
  readonly base: number
  u8: Uint8Array
  i32: Int32Array
  u32: Uint32Array
  /** The input area as a view, for encodeInto without a subarray per call. */
  inView: Uint8Array
  /** The work area's span: [workStart, workEnd); it extends to the end of memory when nothing lies above it. */
  workStart: number
  workEnd: number
  tableCap = 4096
  inputCap = 16384
  input = 0
  scratch = 0
  /** Scratch the compiler asked for (compileNeeded); the matcher's own need is derived in relayout. */
  workCap = 0
  scratchCap = 0
  /** The body the input area holds: compiling more agents of one site copies it once. */
  inputBody: Body | null = null
  inputBodyLen = 0
  /** The owner of the held body (then inputBody is its key) and what hands it its copy. */
  heldOwner: object | null = null
  heldRelease: ((owner: object, copy: Uint8Array) => void) | null = null
  /** The table useTable last pointed the matcher at: an arena address, or the JS-held table in the slot. */
  current: TableRef | null = null
  /** Scratch is sized for patterns up to this length: every arena table's, and the slot's. */
  residentMaxPat = 0
  /** The compiled tables: the arena they live in, their eviction and their release (wasm-tables.ts). */
  readonly tables: Tables
  /** A Buffer over wasm memory where the runtime has one (Node): batches then go in as UTF-16. */
  utf16: Utf16Writer | null = null
  /**
   * Batches through UTF-16 when Buffer exists, else through TextEncoder (tests switch it). Not on
   * Deno, whose Buffer writes UTF-16 slowly: 743 ns per URL of a 1,000-URL batch there against 202
   * through TextEncoder (Deno 2.9.6, 2026-11-24).
   */
  utf16Batches = NodeBuffer !== undefined && !('Deno' in globalThis)
  /**
   * String bodies through UTF-16 as well (Buffer, then the wasm transcoder): the corpus' 2,454
   * files (4.75 KB on average) went in at 1.8 µs each through TextEncoder.encodeInto, at 0.7 µs
   * this way (0.5 the Buffer write; Node 24, 2026-11-25). Tests switch it too.
   */
  utf16Bodies = this.utf16Batches

  constructor(w: WasmExports) {
    this.w = w
    this.base = w.heapBase()
    this.u8 = new Uint8Array(w.memory.buffer)
    this.i32 = new Int32Array(w.memory.buffer)
    this.u32 = new Uint32Array(w.memory.buffer)
    this.inView = this.u8
    this.workStart = this.base
    this.workEnd = w.memory.buffer.byteLength
    this.tables = new Tables(this)
    this.relayout()
  }

  /**
   * Places the table slot, input and scratch in the work area (moving it to the end of memory when
   * it must grow and the arena lies above it), grows memory to fit, then commits the capacities
   * and rebuilds the views. All or nothing: when memory cannot grow that far, the engine is left
   * exactly as it was and the one call that asked fails with a RangeError, so every later call, on
   * every matcher, still works.
   */
  relayout(tableCap = this.tableCap, inputCap = this.inputCap, workCap = this.workCap, maxPat = this.residentMaxPat): void {
    const have = this.w.memory.buffer.byteLength
    const span = (start: number) => align16(start + tableCap + inputCap + 64) + Math.max(3 * inputCap + 16 + 4 * maxPat + 16, workCap) + 64 - start
    let start = this.workStart
    // Blocked by the arena above: the work area moves past it.
    const moves = start + span(start) > this.workEnd && this.workEnd < have
    if (moves) start = have
    const needed = start + span(start)
    if (needed > have) {
      try {
        this.w.memory.grow(Math.ceil((needed - have) / WASM_PAGE))
      } catch (err) {
        throw new RangeError(`robotstxt-wasm: this call needs ${needed} bytes of WebAssembly memory and the runtime refused to grow past ${have}; the engine is unchanged`, { cause: err })
      }
    }
    // Growing keeps memory's contents: a held body stays valid unless the input area moves (and
    // it is copied out before the old work area can become arena).
    if (this.heldOwner !== null && start + tableCap !== this.input) this.evict()
    this.tableCap = tableCap
    this.inputCap = inputCap
    this.workCap = workCap
    this.residentMaxPat = maxPat
    if (this.heldOwner === null) this.inputBody = null
    this.refreshViews()
    if (moves) {
      this.tables.arena!.addRegion(this.workStart, this.workEnd)
      this.workStart = start
      // The slot moved, and the old one is arena now: a JS-held current table is copied to the new
      // one at once, since the caller may have made it current before asking for room.
      if (this.current !== null && typeof this.current === 'object') {
        this.u8.set(this.current, start)
        this.w.useTable(start)
      }
    }
    if (needed > this.workEnd || moves) this.workEnd = this.w.memory.buffer.byteLength
    this.input = start + tableCap
    this.scratch = align16(this.input + inputCap + 64)
    this.scratchCap = Math.max(3 * inputCap + 16 + 4 * maxPat + 16, workCap)
    this.inView = this.u8.subarray(this.input, this.input + this.inputCap)
    this.w.useScratch(this.scratch)
  }

  /** Growing detaches the old ArrayBuffer: views are always rebuilt after it, never kept stale. */
  refreshViews(): void {
    if (this.u8.buffer === this.w.memory.buffer) return
    this.u8 = new Uint8Array(this.w.memory.buffer)
    this.i32 = new Int32Array(this.w.memory.buffer)
    this.u32 = new Uint32Array(this.w.memory.buffer)
    this.inView = this.u8.subarray(this.input, this.input + this.inputCap)
    this.utf16 = null
    if (this.tables.arena !== null) this.tables.arena.mem = this.u32
  }

  /** Size of the wasm linear memory (it only grows: to the largest table and input seen). */
  get memoryBytes(): number {
    return this.w.memory.buffer.byteLength
  }

  /** Makes `table` the matcher's current rule set, copying a JS-held one in unless it is there already. */
  use(table: TableRef): void {
    if (table === this.current) return
    if (typeof table === 'number') {
      // An evicted table's copy stands in for it (looked up only once a table was evicted).
      if (this.tables.evictedCount !== 0) {
        const copy = this.tables.evictedCopy(table)
        if (copy !== undefined) return this.use(copy)
      }
      // The tag word before the table, on the line the matcher reads first: marked used.
      const tag = (table >>> 2) - 1
      if (this.u32[tag] !== TAG_USED) this.u32[tag] = TAG_USED
      this.w.useTable(table)
      this.current = table
      return
    }
    const maxPat = tableMaxPattern(table)
    if (table.length > this.tableCap || maxPat > this.residentMaxPat) {
      const tableCap = table.length > this.tableCap ? align16(table.length + (table.length >> 1)) : this.tableCap
      this.relayout(tableCap, this.inputCap, this.workCap, Math.max(this.residentMaxPat, maxPat))
    }
    this.u8.set(table, this.workStart)
    this.w.useTable(this.workStart)
    this.current = table
  }

  /**
   * Puts a body at the start of the input area unless it is already there; returns its length in
   * bytes. The caller has reserved room (3 bytes per UTF-16 unit for a string, the plain length
   * for a coded compact body, which goes in through scratch and is expanded into place).
   */
  loadBody(body: Body): number {
    if (this.inputBody !== body) {
      this.clearInput()
      if (typeof body === 'string') this.inputBodyLen = this.encodeBody(body)
      else if (body instanceof ArrayBuffer) {
        const coded = body.byteLength - CODED_TRAILER
        this.u8.set(new Uint8Array(body, 0, coded), this.scratch)
        this.inputBodyLen = this.w.expandCompact(this.scratch, coded, this.input)
      } else {
        // A held body is in the input area until evicted, and then has its copy.
        const bytes = body instanceof Uint8Array ? body : body.copy
        if (bytes === undefined) throw new Error('robotstxt-wasm: internal error: a held body was lost')
        this.u8.set(bytes, this.input)
        this.inputBodyLen = bytes.length
      }
      this.inputBody = body
    }
    return this.inputBodyLen
  }

  /**
   * `body` as UTF-8 at the start of the input area, byte for byte what TextEncoder writes; its
   * length. Through UTF-16 the units are staged in scratch, which holds nothing between calls (the
   * caller reserved 3 bytes of input area per unit, which makes at least 9 of scratch: 2 fit).
   */
  encodeBody(body: string): number {
    if (!this.utf16Bodies) return encoder.encodeInto(body, this.inView).written
    if (this.utf16 === null) this.utf16 = NodeBuffer!.from(this.w.memory.buffer)
    this.utf16.write(body, this.scratch, 2 * body.length, 'utf16le')
    return this.w.utf16ToUtf8(this.scratch, 0, body.length, this.input)
  }

  /**
   * Copies the first `n` of `bytes` into the input area and holds them there for `owner`, whose
   * body they are: the returned key stands for them in every call, with no copy, until the area is
   * needed for something else; `release` then gets the owner a copy, before anything is overwritten.
   */
  hold<T extends object>(bytes: Uint8Array, n: number, owner: T, release: (owner: T, copy: Uint8Array) => void): HeldBody {
    this.reserveInput(align16(n + 64))
    this.clearInput()
    this.u8.set(n === bytes.length ? bytes : bytes.subarray(0, n), this.input)
    return this.#held(n, owner, release)
  }

  /**
   * hold for the UTF-8 of a string cut at `maxBytes` bytes (even inside a character), encoded
   * straight into the input area; null where strings do not go in as UTF-16 (the caller then
   * encodes it itself). Only the units that can reach the cut are encoded (each is at least a
   * byte), a chunk at a time, so the input area needs the cut and one chunk, not 3 bytes a unit
   * (which would triple again in scratch).
   */
  holdString<T extends object>(s: string, maxBytes: number, owner: T, release: (owner: T, copy: Uint8Array) => void): HeldBody | null {
    if (!this.utf16Bodies) return null
    // One unit past the cut keeps a surrogate pair that straddles it whole.
    const units = Math.min(s.length, maxBytes + 1)
    // A chunk is at most HOLD_CHUNK + 1 units of at most 3 bytes; scratch, at least 3 bytes per
    // byte of input area, takes the 2 bytes per unit staged.
    this.reserveInput(align16(maxBytes + 3 * HOLD_CHUNK + 64))
    this.clearInput()
    if (this.utf16 === null) this.utf16 = NodeBuffer!.from(this.w.memory.buffer)
    this.utf16.write(s, this.scratch, 2 * units, 'utf16le')
    let written = 0
    for (let i = 0; i < units && written < maxBytes;) {
      let end = Math.min(units, i + HOLD_CHUNK)
      // A pair is never split between chunks (each half would become U+FFFD).
      if (end < units && (s.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++
      written += this.w.utf16ToUtf8(this.scratch, i, end, this.input + written)
      i = end
    }
    return this.#held(Math.min(written, maxBytes), owner, release)
  }

  #held<T extends object>(n: number, owner: T, release: (owner: T, copy: Uint8Array) => void): HeldBody {
    const key: HeldBody = { length: n }
    this.inputBody = key
    this.inputBodyLen = n
    this.heldOwner = owner
    this.heldRelease = release as (owner: object, copy: Uint8Array) => void
    return key
  }

  /** The owner of the held body gives it up (it keeps something else): the area needs no copy out. */
  unhold(owner: object): void {
    if (this.heldOwner === owner) {
      this.heldOwner = null
      this.inputBody = null
    }
  }

  /** Hands the held body's owner its copy; the input area then holds nothing reusable. */
  evict(): void {
    const owner = this.heldOwner
    if (owner === null) return
    const key = this.inputBody as HeldBody
    this.heldOwner = null
    this.inputBody = null
    // From the buffer itself: relayout evicts after growing, before its views are rebuilt.
    key.copy = new Uint8Array(this.w.memory.buffer, this.input, this.inputBodyLen).slice()
    this.heldRelease!(owner, key.copy)
  }

  /** Before the input area is overwritten: the held body, if any, is copied out, and no body is kept. */
  clearInput(): void {
    if (this.heldOwner !== null) this.evict()
    this.inputBody = null
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
