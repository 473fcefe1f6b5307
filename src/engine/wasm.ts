// The only host file that touches WebAssembly. It owns the one matcher instance of the process,
// lays out its memory above heapBase() and moves bytes in and out:
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
import {
  REF_BITS, REF_F_ALLOW, REF_F_HAS_ORIG, REF_LINE, REF_ORIG_LEN, REF_ORIG_PTR, REF_PAT_LEN, REF_PAT_PTR, REF_SIZE,
  SCAN_KEY_END, SCAN_KEY_START, SCAN_KIND, SCAN_LINE, SCAN_LINE_END, SCAN_LINE_START, SCAN_RECORD_SIZE, SCAN_VAL_END,
  SCAN_VAL_START, LINE_BOUNDS_SIZE, VERDICT_LINE_OVERHEAD,
} from './layout.js'
import { R_ALLOW, R_END, R_LINE, R_START, RULE_STRIDE, rulePattern, type LineSink, type ParsedRobots } from './parse.js'

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
interface Utf16Writer {
  write(s: string, offset: number, length: number, encoding: 'utf16le'): number
}
const NodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBuffer): Utf16Writer } }).Buffer

const PAGE = 65536
const AGENT_TOKEN = /^[a-z_-]+$/
const BATCH_URLS = 1024
const SMALL_BATCH = 8
/** Bytes of URL lines per wasm call (about 1,600 typical URLs); a longer line makes its own chunk. */
const LINES_CHUNK = 65536
/**
 * Bytes after a chunk of `len` bytes of lines that the line exports use: the verdicts. Scratch,
 * three times the input area and so over 15 bytes per byte of the chunk, holds a path normalized
 * from ill-formed UTF-8 (at most 9 bytes per byte).
 */
function linesRoom(len: number): number {
  return align16(4 * (len + 1) + 64)
}

/** Bytes for a chunk's marks: a chunk of `len` bytes holds at most len + 1 lines (one per byte, plus a last one without '\n'). */
function marksRoom(len: number): number {
  return align16(len + 1 + 16)
}

/** Bytes the verdict-line exports use after a chunk of `len` bytes of lines and its marks: the stage, then the output. */
function verdictsRoom(len: number): number {
  return verdictsStage(len) + 3 * len + VERDICT_LINE_OVERHEAD * (len + 1) + 64
}

/** The stage's share of verdictsRoom: 3 bytes per byte, for lines repaired from ill-formed UTF-8. */
function verdictsStage(len: number): number {
  return align16(3 * len + 64)
}

/** Output lines of `robotstxt check --urls`, with their count and how many were disallowed. */
export interface VerdictLines {
  out: Uint8Array
  lines: number
  disallowed: number
  /** Output lines whose URL holds a control character (C0, DEL, C1, bidi): the CLI escapes them. */
  controls: number
}

/** `a`, or when it has fewer than `need` items an array of its kind, twice as long at least, holding its first `keep`. */
function withRoom<T extends Int32Array | Uint32Array | Uint8Array>(a: T, keep: number, need: number): T {
  if (need <= a.length) return a
  const grown = new (a.constructor as new (n: number) => T)(Math.max(need, 2 * a.length))
  grown.set(a.subarray(0, keep) as ArrayLike<number>)
  return grown
}

/** The buffers of `parts` as one (the one itself when there is only one). */
function joinParts(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

/**
 * Encoding the joined string equals encoding each string on its own when no surrogate pair forms
 * across a boundary: a string ending in a high surrogate followed, past any empty strings, by one
 * starting with a low surrogate. (Encoded apart, each lone half is U+FFFD, as `check` encodes it.)
 */
function joinedBoundariesHold(urls: readonly string[], start: number, count: number): boolean {
  let endsHigh = false
  for (let k = start; k < start + count; k++) {
    const u = urls[k]!
    if (u.length === 0) continue
    if (endsHigh && (u.charCodeAt(0) & 0xfc00) === 0xdc00) return false
    endsHigh = (u.charCodeAt(u.length - 1) & 0xfc00) === 0xd800
  }
  return true
}

/**
 * The batch urls[start, start + count) as one string, with its length and its longest URL's, in
 * UTF-16 units. Appending lets V8 build a rope that the one copy into memory flattens: 4-5 ns per
 * URL cheaper than slice + join on 1,000 URLs.
 */
function join(urls: readonly string[], start: number, count: number): { joined: string; chars: number; longest: number } {
  let joined = ''
  let chars = 0
  let longest = 0
  for (let k = start; k < start + count; k++) {
    const u = urls[k]!
    chars += u.length
    if (u.length > longest) longest = u.length
    joined += u
  }
  return { joined, chars, longest }
}

/** Rounds up to a multiple of 16; arithmetic, not bitwise, so sizes past 2^31 stay positive. */
function align16(n: number): number {
  return Math.ceil(n / 16) * 16
}

export class Engine {
  private readonly w: WasmExports
  private readonly base: number
  private u8: Uint8Array
  private i32: Int32Array
  private u32: Uint32Array
  /** The input area as a view, for encodeInto without a subarray per call. */
  private inView: Uint8Array
  private tableCap = 4096
  private inputCap = 16384
  private input = 0
  private scratch = 0
  /** Scratch the compiler asked for (compileNeeded); the matcher's own need is derived in relayout. */
  private workCap = 0
  private scratchCap = 0
  /** The body (bytes or string) the input area holds: compiling more agents of one site copies it once. */
  private inputBody: Uint8Array | string | null = null
  private inputBodyLen = 0
  private resident: Uint8Array | null = null
  private residentMaxPat = 0
  /** A Buffer over wasm memory where the runtime has one (Node): batches then go in as UTF-16. */
  private utf16: Utf16Writer | null = null
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
  private relayout(tableCap = this.tableCap, inputCap = this.inputCap, workCap = this.workCap, maxPat = this.residentMaxPat): void {
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
   * bytes. The caller has reserved room (3 bytes per UTF-16 unit for a string).
   */
  private loadBody(body: Uint8Array | string): number {
    if (this.inputBody !== body) {
      if (typeof body === 'string') this.inputBodyLen = encoder.encodeInto(body, this.inView).written
      else {
        this.u8.set(body, this.input)
        this.inputBodyLen = body.length
      }
      this.inputBody = body
    }
    return this.inputBodyLen
  }

  /** Scratch of at least `bytes` bytes for the compiler's work area. */
  private reserveWork(bytes: number): void {
    if (bytes > this.workCap) this.relayout(this.tableCap, this.inputCap, align16(Math.max(bytes, this.workCap * 2)))
  }

  /**
   * Compiles the table of the agents `tokens` (lower-cased product tokens) for `body`, in wasm:
   * group selection and compilation in one pass over the body. Returns a JS-owned copy.
   */
  compile(body: Uint8Array | string, tokens: readonly string[]): Uint8Array {
    const { len, agents, agentsLen } = this.loadBodyAndAgents(body, tokens)
    return this.runCompiler(() => this.w.compile(this.input, len, agents, agentsLen, this.scratch, this.scratchCap))
  }

  /**
   * The Crawl-delay of `tokens` in `body`, in seconds, or undefined: the wasm compiler's group
   * selection finds the value (assembly/compiler.ts, crawlDelay), in one pass that writes nothing.
   */
  crawlDelay(body: Uint8Array | string, tokens: readonly string[]): number | undefined {
    const { len, agents, agentsLen } = this.loadBodyAndAgents(body, tokens)
    const start = this.w.crawlDelay(this.input, len, agents, agentsLen)
    if (start < 0) return undefined
    // The value is ASCII digits and at most one '.', as the compiler checked.
    const at = this.input + start
    return Number(String.fromCharCode(...this.u8.subarray(at, this.input + this.w.crawlDelayEnd())))
  }

  /**
   * Puts `body` in the input area (unless it is there already) followed by the agent tokens that
   * can name a group, '\n'-separated, as the compiler's entry points read them.
   */
  private loadBodyAndAgents(body: Uint8Array | string, tokens: readonly string[]): { len: number; agents: number; agentsLen: number } {
    // Only tokens made of a-z - _ can equal a user-agent line's token; others name no group.
    let agentsLen = 0
    for (const t of tokens) if (AGENT_TOKEN.test(t)) agentsLen += t.length + 1
    // A string is encoded straight into memory: at most 3 bytes per UTF-16 unit.
    const cap = typeof body === 'string' ? body.length * 3 : body.length
    this.reserveInput(cap + 64 + agentsLen + 64)
    const len = this.loadBody(body)
    const agents = this.input + align16(cap + 64)
    const u8 = this.u8
    let o = agents
    for (const t of tokens) {
      if (!AGENT_TOKEN.test(t)) continue
      if (o > agents) u8[o++] = 0x0a
      for (let i = 0; i < t.length; i++) u8[o++] = t.charCodeAt(i)
    }
    return { len, agents, agentsLen: o - agents }
  }

  /**
   * Compiles a rule list selected by the host (bodies too large to scan in wasm memory): the
   * patterns and texts as written are copied in, then compiled as `compile` does.
   */
  compileList(parsed: ParsedRobots, ruleIds: readonly number[]): Uint8Array {
    let patBytes = 0
    let origBytes = 0
    for (const r of ruleIds) {
      const [, ps, pe] = rulePattern(parsed, r)
      patBytes += pe - ps
      origBytes += parsed.rules[r * RULE_STRIDE + R_END]! - parsed.rules[r * RULE_STRIDE + R_START]!
    }
    const refsSize = ruleIds.length * REF_SIZE
    this.reserveInput(refsSize + patBytes + origBytes + 64)
    const u8 = this.u8
    const u32 = this.u32
    const refs = this.input
    this.inputBody = null
    let o = refs + refsSize
    for (let i = 0; i < ruleIds.length; i++) {
      const r = ruleIds[i]!
      const base = r * RULE_STRIDE
      const [pat, ps, pe] = rulePattern(parsed, r)
      const ref = (refs + i * REF_SIZE) >> 2
      u8.set(pat.subarray(ps, pe), o)
      u32[ref + REF_PAT_PTR / 4] = o
      u32[ref + REF_PAT_LEN / 4] = pe - ps
      o += pe - ps
      const os = parsed.rules[base + R_START]!
      const oe = parsed.rules[base + R_END]!
      u8.set(parsed.body.subarray(os, oe), o)
      u32[ref + REF_ORIG_PTR / 4] = o
      u32[ref + REF_ORIG_LEN / 4] = oe - os
      o += oe - os
      u32[ref + REF_LINE / 4] = parsed.rules[base + R_LINE]!
      u32[ref + REF_BITS / 4] = (parsed.rules[base + R_ALLOW] === 1 ? REF_F_ALLOW : 0) | (pat !== parsed.body ? REF_F_HAS_ORIG : 0)
    }
    return this.runCompiler(() => this.w.compileList(refs, ruleIds.length, patBytes, origBytes, this.scratch, this.scratchCap))
  }

  /**
   * Runs a compiler entry point (which reads the work area from this.scratch/scratchCap at each
   * call) and returns a JS-owned copy of its table. The work area is sized from the actual rules:
   * when the compiler says it is too small, it is grown to what the compiler counted, once.
   * Growing moves neither the input area nor what it holds, which stay valid for the second call.
   */
  private runCompiler(compile: () => number): Uint8Array {
    let size = compile()
    if (size === 0) {
      this.reserveWork(this.w.compileNeeded())
      size = compile()
      if (size === 0) throw new Error('robotstxt-wasm: internal error: the compiler asked for more work area twice')
    }
    const at = this.w.compiledTable()
    return this.u8.slice(at, at + size)
  }

  /** Input area of at least `bytes` bytes (URL bytes are at most 3 per UTF-16 unit). */
  private reserveInput(bytes: number): void {
    if (bytes > this.inputCap) this.growInput(bytes)
  }

  /** Kept apart from reserveInput, which the single check inlines: this is the cold path. */
  private growInput(bytes: number): void {
    try {
      // Doubling keeps growth amortized; when the doubled size is refused, the exact size may not be.
      this.relayout(this.tableCap, align16(Math.max(bytes, this.inputCap * 2)))
    } catch (err) {
      if (align16(bytes) >= this.inputCap * 2) throw err
      this.relayout(this.tableCap, align16(bytes))
    }
  }

  /**
   * Runs the wasm line scanner over `body` and hands every line's record to `sink`, in order.
   * Records go to scratch a bounded number at a time; the sink never calls into wasm, so the views
   * stay valid while it reads them.
   */
  scan(body: Uint8Array, sink: LineSink): void {
    this.reserveInput(body.length + 16)
    this.w.scanStart(this.input, this.loadBody(body))
    const cap = Math.floor((3 * this.inputCap) / SCAN_RECORD_SIZE)
    for (;;) {
      const n = this.w.scan(this.scratch, cap)
      if (n === 0) break
      const w = this.u32
      for (let r = 0, at = this.scratch >> 2; r < n; r++, at += SCAN_RECORD_SIZE / 4) {
        sink.line(
          w[at + SCAN_LINE / 4]!, w[at + SCAN_KIND / 4]!, w[at + SCAN_LINE_START / 4]!, w[at + SCAN_LINE_END / 4]!,
          w[at + SCAN_KEY_START / 4]!, w[at + SCAN_KEY_END / 4]!, w[at + SCAN_VAL_START / 4]!, w[at + SCAN_VAL_END / 4]!,
        )
      }
    }
  }

  /** check() on the current table for one URL string. */
  check(url: string): number {
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    if (url.length * 3 > this.inputCap) this.reserveInput(url.length * 3)
    this.inputBody = null
    return this.w.check(this.input, encoder.encodeInto(url, this.inView).written)
  }

  /**
   * Runs a batch on the current table: check()'s number per URL into `results` (Int32Array), or
   * the allowed byte per URL into `bytes`. `urls` are strings already.
   */
  many(urls: readonly string[], from: number, to: number, results: Int32Array | null, bytes: Uint8Array | null): void {
    // A few URLs cost less one call each than the batch set-up (join, copy, views).
    if (to - from <= SMALL_BATCH) {
      for (let k = from; k < to; k++) {
        const r = this.check(urls[k]!)
        if (bytes !== null) bytes[k] = r & 1
        else results![k] = r
      }
      return
    }
    if (this.utf16Batches && NodeBuffer !== undefined) {
      this.many16(urls, from, to, results, bytes)
      return
    }
    for (let start = from; start < to; start += BATCH_URLS) {
      const count = Math.min(BATCH_URLS, to - start)
      const { joined, chars } = join(urls, start, count)
      const head = count * 8
      this.reserveInput(head + chars * 3)
      this.inputBody = null
      const ends = this.input
      const out = ends + count * 4
      const data = ends + head
      const u8 = this.u8
      // One encodeInto for the whole batch; when it is all ASCII (bytes == UTF-16 units) the
      // boundaries are the string lengths, otherwise each URL is encoded on its own.
      const { written } = encoder.encodeInto(joined, u8.subarray(data, data + this.inputCap - head))
      const endsView = this.i32
      let e = 0
      if (written === chars) {
        for (let k = 0; k < count; k++) {
          e += urls[start + k]!.length
          endsView[(ends >> 2) + k] = e
        }
      } else if (joinedBoundariesHold(urls, start, count)) {
        // Some URL is non-ASCII: the joined bytes are still right; wasm turns the ends, in UTF-16
        // units, into byte offsets.
        for (let k = 0; k < count; k++) {
          e += urls[start + k]!.length
          endsView[(ends >> 2) + k] = e
        }
        this.w.unitEndsToByteEnds(ends, data, count)
      } else {
        for (let k = 0; k < count; k++) {
          e += encoder.encodeInto(urls[start + k]!, u8.subarray(data + e, data + this.inputCap - head)).written
          endsView[(ends >> 2) + k] = e
        }
      }
      if (bytes !== null) {
        this.w.allowedMany(ends, data, count, out)
        bytes.set(this.u8.subarray(out, out + count), start)
      } else {
        this.w.checkMany(ends, data, count, out)
        results!.set(this.i32.subarray(out >> 2, (out >> 2) + count), start)
      }
    }
  }
  /**
   * The verdict of every line of `data` (a URL as UTF-8 per line): check()'s number (`wide`) or the
   * allowed byte, one per line, into `into` while it has room, else into a new array that grows by
   * doubling. Returns exactly the verdicts: a view of `into`'s start when they all fitted, else an
   * array of their own (and `into` may hold the first ones). Each chunk is copied into memory once.
   */
  lineVerdicts(data: Uint8Array, wide: true, into: Int32Array | undefined): Int32Array
  lineVerdicts(data: Uint8Array, wide: false, into: Uint8Array | undefined): Uint8Array
  lineVerdicts(data: Uint8Array, wide: boolean, into: Int32Array | Uint8Array | undefined): Int32Array | Uint8Array {
    let got: Int32Array | Uint8Array = into ?? (wide ? new Int32Array(0) : new Uint8Array(0))
    let k = 0
    this.eachChunk(data, linesRoom, (at, len, out) => {
      const n = wide ? this.w.checkLines(at, len, out) : this.w.allowedLines(at, len, out)
      got = withRoom(got, k, k + n)
      got.set(wide ? this.i32.subarray(out >> 2, (out >> 2) + n) : this.u8.subarray(out, out + n), k)
      k += n
    })
    if (got === into) return got.subarray(0, k)
    return k === got.length ? got : got.slice(0, k)
  }

  /**
   * Each line of `data` as the line exports split it (assembly/url.ts lineBounds): LINE_BOUNDS_SIZE
   * bytes per line, its start at LINE_START and the end of its text at LINE_END, as offsets into
   * `data`.
   */
  lineBounds(data: Uint8Array): Uint32Array {
    let got = new Uint32Array(0)
    let k = 0
    let base = 0
    const perLine = LINE_BOUNDS_SIZE / 4
    this.eachChunk(data, (len) => align16(LINE_BOUNDS_SIZE * (len + 1) + 16), (at, len, out) => {
      const n = this.w.lineBounds(at, len, base, out) * perLine
      got = withRoom(got, k, k + n)
      got.set(this.u32.subarray(out >> 2, (out >> 2) + n), k)
      k += n
      base += len
    })
    return got.subarray(0, k)
  }

  /**
   * The output lines of `robotstxt check --urls` for the URL lines of `data` (assembly/verdicts.ts),
   * each with `code` (the matching line when allowed, ~line when disallowed: a fetched robots.txt
   * that allows or disallows everything); `marks` has one VERDICT_* per line or is null. Returns
   * the output, as a new buffer of exactly its size, the number of lines and how many were
   * disallowed (lines marked rejected not counted).
   */
  verdictLines(data: Uint8Array, code: number, marks: Uint8Array | null): VerdictLines {
    return this.verdictChunks(data, marks, (at, len, marksAt, stage, out) => this.w.verdictLines(at, len, code, marksAt, out, stage))
  }

  /**
   * verdictLines with each line's code computed against the current table (use() it first), in the
   * pass that writes the output (assembly/verdicts.ts, checkVerdictLines).
   */
  checkVerdictLines(data: Uint8Array, marks: Uint8Array | null): VerdictLines {
    return this.verdictChunks(data, marks, (at, len, marksAt, stage, out) => this.w.checkVerdictLines(at, len, marksAt, out, stage))
  }

  /**
   * The chunk loop of the two verdict-line entry points: places each chunk's marks (when given),
   * lays out its stage and output (verdictsRoom), lets `write` run the wasm export over it (the
   * bytes written back) and collects the output and counts.
   */
  private verdictChunks(
    data: Uint8Array, marks: Uint8Array | null,
    write: (at: number, len: number, marksAt: number, stage: number, out: number) => number,
  ): VerdictLines {
    const parts: Uint8Array[] = []
    let lines = 0
    let disallowed = 0
    let controls = 0
    this.eachChunk(data, (len) => marksRoom(len) + verdictsRoom(len), (at, len, free) => {
      if (marks !== null) this.u8.set(marks.subarray(lines, lines + len + 1), free)
      const stage = free + marksRoom(len)
      const out = stage + verdictsStage(len)
      const written = write(at, len, marks === null ? 0 : free, stage, out)
      parts.push(this.u8.slice(out, out + written))
      lines += this.w.verdictLinesSeen()
      disallowed += this.w.verdictDisallowed()
      controls += this.w.verdictControls()
    })
    return { out: joinParts(parts), lines, disallowed, controls }
  }

  /**
   * Hands `data` to `step` in chunks of whole lines, each copied into the input area; `free` is
   * where, after the chunk and its slack, the `room(len)` bytes the step needs begin. A chunk ends
   * after a '\n' (or at the end of data), so a line is never split; a line longer than LINES_CHUNK
   * is a chunk of its own. The input area then holds no body a later call could reuse.
   */
  private eachChunk(data: Uint8Array, room: (len: number) => number, step: (at: number, len: number, free: number) => void): void {
    const total = data.length
    for (let p = 0; p < total || (p === 0 && total === 0);) {
      let q = Math.min(p + LINES_CHUNK, total)
      if (q < total) {
        const nl = data.lastIndexOf(0x0a, q - 1)
        if (nl >= p) q = nl + 1
        else {
          const next = data.indexOf(0x0a, q)
          q = next < 0 ? total : next + 1
        }
      }
      const len = q - p
      const freeOff = align16(len + 64)
      this.reserveInput(freeOff + room(len))
      this.inputBody = null
      this.u8.set(data.subarray(p, q), this.input)
      step(this.input, len, this.input + freeOff)
      if (total === 0) break
      p = q
    }
  }

  /**
   * `many` through UTF-16: the joined URLs are written with one Buffer copy; ends are in code
   * units, and wasm transcodes each URL into a staging area of 3 bytes per unit of the longest.
   */
  private many16(urls: readonly string[], from: number, to: number, results: Int32Array | null, bytes: Uint8Array | null): void {
    for (let start = from; start < to; start += BATCH_URLS) {
      const count = Math.min(BATCH_URLS, to - start)
      const { joined, chars, longest } = join(urls, start, count)
      const head = count * 8
      const unitsOff = align16(head)
      const stageOff = align16(unitsOff + 2 * chars + 64)
      this.reserveInput(stageOff + 3 * longest)
      this.inputBody = null
      if (this.utf16 === null) this.utf16 = NodeBuffer!.from(this.w.memory.buffer)
      const ends = this.input
      const out = ends + count * 4
      this.utf16.write(joined, this.input + unitsOff, 2 * chars, 'utf16le')
      const endsView = this.i32
      let e = 0
      for (let k = 0; k < count; k++) {
        e += urls[start + k]!.length
        endsView[(ends >> 2) + k] = e
      }
      if (bytes !== null) {
        this.w.allowedMany16(ends, this.input + unitsOff, count, out, this.input + stageOff)
        bytes.set(this.u8.subarray(out, out + count), start)
      } else {
        this.w.checkMany16(ends, this.input + unitsOff, count, out, this.input + stageOff)
        results!.set(this.i32.subarray(out >> 2, (out >> 2) + count), start)
      }
    }
  }
}
