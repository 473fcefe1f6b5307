// The body side of the engine (assembly/scanner.ts, compiler.ts, stream.ts, compact.ts): a
// robots.txt body and agent tokens go into the input area, and out come line records, a compiled
// table, a Crawl-delay, or one URL's verdict with the compact body.
//
// Invariants: the body sits at the start of the input area (Engine.loadBody copies it once per
// body, so compiling more agents of one site copies nothing; a held body is there already, and a
// coded compact body is expanded there); the agent tokens follow it, 16-aligned
// with 64 bytes of slack after each; what a call hands back is a copy, or a view of wasm memory the
// caller reads before its next call.

import { MAX_LINE_BYTES, REF_BITS, REF_F_ALLOW, REF_F_HAS_ORIG, REF_LINE, REF_ORIG_LEN, REF_ORIG_PTR, REF_PAT_LEN, REF_PAT_PTR, REF_SIZE,
  SCAN_KEY_END, SCAN_KEY_START, SCAN_KIND, SCAN_LINE, SCAN_LINE_END, SCAN_LINE_START, SCAN_RECORD_SIZE, SCAN_VAL_END,
  SCAN_VAL_START } from './layout.js'
import { NAMING_TOKEN } from './args.js'
import { encoder } from './bytes.js'
import { R_ALLOW, R_END, R_LINE, R_START, RULE_STRIDE, rulePattern, type ParsedRobots } from './parse.js'
import type { LineSink } from './scanner.js'
import { align16, codedPlainLength, type Body, type Engine, type HeldBody } from './wasm.js'
import type { TableRef } from './wasm-tables.js'

/** streamCheck's answer: the verdict and the deciding line (0: no rule matched). */
export interface StreamVerdict {
  allowed: boolean
  line: number
  /** The coded compact body (wasm.ts Body), when asked for: a copy. */
  compact: ArrayBuffer | null
}

/**
 * Compiles the table of the agents `tokens` (lower-cased product tokens) for `body`, in wasm:
 * group selection and compilation in one pass over the body. Returns the table kept (Tables.keep)
 * for a Matcher to own, or the one of `like` with the same bytes.
 */
export function compileAgents(e: Engine, body: Body, tokens: readonly string[], like?: readonly TableRef[]): TableRef {
  return runCompiler(e, () => {
    const { len, agents, agentsLen } = loadBodyAndAgents(e, body, tokens)
    return e.w.compile(e.input, len, agents, agentsLen, e.scratch, e.scratchCap)
  }, like)
}

/**
 * One URL decided straight from `body` for the agents `tokens`, no table built
 * (assembly/stream.ts): the verdict and the deciding line (0: none); streamRule then gives the
 * deciding rule. Costs one scan of the body, as compiling does, but no table. With `compact`, the
 * same scan also writes the compact body (assembly/compact.ts), returned as a copy.
 */
export function streamCheck(e: Engine, body: string | Uint8Array | HeldBody, tokens: readonly string[], url: string, compact: boolean): StreamVerdict {
  const cap = typeof body === 'string' ? body.length * 3 : body.length
  // A normalized pattern (3 bytes per byte of its value) and the index.html rule derived from it,
  // then the matcher's KMP table in scratch: all bounded by the longest line the scanner keeps.
  const longest = Math.min(cap, MAX_LINE_BYTES)
  if (3 * longest > e.residentMaxPat) e.relayout(e.tableCap, e.inputCap, e.workCap, 3 * longest)
  const urlRoom = align16(url.length * 3 + 64)
  const workRoom = align16(6 * longest + 64)
  // The coded compact body is no longer than the body but for an ESC per line kept whole, then its trailer.
  const { len, agents, agentsLen, free } = loadBodyAndAgents(e, body, tokens, urlRoom + workRoom + (compact ? cap + Math.ceil(cap / MAX_LINE_BYTES) + 64 : 0))
  const urlLen = encoder.encodeInto(url, e.u8.subarray(free, free + url.length * 3)).written
  const out = compact ? free + urlRoom + workRoom : 0
  const r = e.w.streamCheck(e.input, len, agents, agentsLen, free, urlLen, free + urlRoom, out)
  // The view's slice, not ArrayBuffer's: faster (Node 24), and the view is left behind at once.
  return { allowed: (r & 1) === 1, line: r >>> 1, compact: compact ? e.u8.slice(out, out + e.w.compactFinish()).buffer : null }
}

/**
 * The deciding rule of the last streamCheck that found one: its kind and value as written (a
 * view of wasm memory, valid until the next call).
 */
export function streamRule(e: Engine): { allow: boolean; pattern: Uint8Array } {
  return { allow: e.w.streamRuleAllow() !== 0, pattern: e.u8.subarray(e.input + e.w.streamRuleStart(), e.input + e.w.streamRuleEnd()) }
}

/**
 * The Crawl-delay of `tokens` in `body`, in seconds, or undefined: the wasm compiler's group
 * selection finds the value (assembly/compiler.ts, crawlDelay), in one pass that writes nothing.
 */
export function crawlDelayOf(e: Engine, body: Body, tokens: readonly string[]): number | undefined {
  const { len, agents, agentsLen } = loadBodyAndAgents(e, body, tokens)
  const start = e.w.crawlDelay(e.input, len, agents, agentsLen)
  if (start < 0) return undefined
  // The value is ASCII digits and at most one '.', as the compiler checked.
  const at = e.input + start
  return Number(String.fromCharCode(...e.u8.subarray(at, e.input + e.w.crawlDelayEnd())))
}

/** The plain compact body of a coded one (a copy). */
export function expandBody(e: Engine, body: ArrayBuffer): Uint8Array {
  e.reserveInput(codedPlainLength(body) + 64)
  const len = e.loadBody(body)
  return e.u8.slice(e.input, e.input + len)
}

/**
 * Puts `body` in the input area (unless it is there already) followed by the agent tokens that
 * can name a group, '\n'-separated, as the compiler's entry points read them; `free` is where the
 * `extra` bytes reserved after them begin.
 */
function loadBodyAndAgents(e: Engine, body: Body, tokens: readonly string[], extra = 0): { len: number; agents: number; agentsLen: number; free: number } {
  // Room for every token; only those made of a-z - _ can equal a user-agent line's token, so only
  // they are written (one test each).
  let room = 0
  for (let k = 0; k < tokens.length; k++) room += tokens[k]!.length + 1
  // A string is encoded straight into memory: at most 3 bytes per UTF-16 unit.
  const cap = typeof body === 'string' ? body.length * 3 : body instanceof ArrayBuffer ? codedPlainLength(body) : body.length
  e.reserveInput(align16(cap + 64) + align16(room + 64) + extra)
  const len = e.loadBody(body)
  const agents = e.input + align16(cap + 64)
  const u8 = e.u8
  let o = agents
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!
    if (!NAMING_TOKEN.test(t)) continue
    if (o > agents) u8[o++] = 0x0a
    for (let i = 0; i < t.length; i++) u8[o++] = t.charCodeAt(i)
  }
  return { len, agents, agentsLen: o - agents, free: agents + align16(room + 64) }
}

/**
 * Compiles a rule list selected by the host (bodies too large to scan in wasm memory): the
 * patterns and texts as written are copied in, then compiled as `compile` does.
 */
export function compileRules(e: Engine, parsed: ParsedRobots, ruleIds: readonly number[], like?: readonly TableRef[]): TableRef {
  let patBytes = 0
  let origBytes = 0
  for (const r of ruleIds) {
    const [, ps, pe] = rulePattern(parsed, r)
    patBytes += pe - ps
    origBytes += parsed.rules[r * RULE_STRIDE + R_END]! - parsed.rules[r * RULE_STRIDE + R_START]!
  }
  const refsSize = ruleIds.length * REF_SIZE
  return runCompiler(e, () => {
    writeRefs(e, parsed, ruleIds, refsSize, patBytes, origBytes)
    return e.w.compileList(e.input, ruleIds.length, patBytes, origBytes, e.scratch, e.scratchCap)
  }, like)
}

/** compileList's refs for `ruleIds`, then their patterns and texts, at the start of the input area. */
function writeRefs(e: Engine, parsed: ParsedRobots, ruleIds: readonly number[], refsSize: number, patBytes: number, origBytes: number): void {
  e.reserveInput(refsSize + patBytes + origBytes + 64)
  const u8 = e.u8
  const u32 = e.u32
  const refs = e.input
  e.clearInput()
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
}

/**
 * Runs a compiler entry point, `run`, which puts its input in the input area and compiles (the
 * work area read from e.scratch/scratchCap at each call), and keeps its table (Tables.keep),
 * unless one of `like` holds the same.
 * The work area is sized from the actual rules: when the compiler says it is too small, it is
 * grown to what the compiler counted, once, and `run` runs again from its input: growing may move
 * the whole work area past the table arena.
 */
function runCompiler(e: Engine, compile: () => number, like?: readonly TableRef[]): TableRef {
  let size = compile()
  if (size === 0) {
    e.reserveWork(e.w.compileNeeded())
    size = compile()
    if (size === 0) throw new Error('robotstxt-wasm: internal error: the compiler asked for more work area twice')
  }
  return e.tables.keep(e.w.compiledTable(), size, like)
}

/**
 * Runs the wasm line scanner over `body` and hands every line's record to `sink`, in order.
 * Records go to scratch a bounded number at a time; the sink never calls into wasm, so the views
 * stay valid while it reads them.
 */
export function scanLines(e: Engine, body: Uint8Array, sink: LineSink): void {
  e.reserveInput(body.length + 16)
  e.w.scanStart(e.input, e.loadBody(body))
  const cap = Math.floor((3 * e.inputCap) / SCAN_RECORD_SIZE)
  for (;;) {
    const n = e.w.scan(e.scratch, cap)
    if (n === 0) break
    feed(sink, e.u32, e.scratch >> 2, n)
  }
}

/** Hands `count` records, from word `at` of `w`, to `sink`: as one batch when it takes them so. */
function feed(sink: LineSink, w: Uint32Array, at: number, count: number): void {
  if (sink.records !== undefined) {
    sink.records(w, at, count)
    return
  }
  for (let r = 0; r < count; r++, at += SCAN_RECORD_SIZE / 4) {
    sink.line(
      w[at + SCAN_LINE / 4]!, w[at + SCAN_KIND / 4]!, w[at + SCAN_LINE_START / 4]!, w[at + SCAN_LINE_END / 4]!,
      w[at + SCAN_KEY_START / 4]!, w[at + SCAN_KEY_END / 4]!, w[at + SCAN_VAL_START / 4]!, w[at + SCAN_VAL_END / 4]!,
    )
  }
}

/** Records per batch of scanLinesCopied: a copy of 64 KiB, small next to the lines it stands for. */
const COPIED_BATCH = 2048

/**
 * scanLines for a sink that may call into wasm itself (a caller's callback: a check, a compile),
 * which would overwrite the body, the records and the scanner's place. Each batch of records is
 * copied out before the sink sees it, and the next batch resumes the scan where this one ended,
 * loading the body again if another call replaced it.
 */
export function scanLinesCopied(e: Engine, body: Uint8Array, sink: LineSink): void {
  let pos = 0
  let line = 0
  // This call's own: a sink that starts another such scan gets another.
  const w = new Uint32Array(COPIED_BATCH * (SCAN_RECORD_SIZE / 4))
  for (;;) {
    e.reserveInput(body.length + 16)
    e.w.scanResume(e.input, e.loadBody(body), pos, line)
    const cap = Math.min(COPIED_BATCH, Math.floor((3 * e.inputCap) / SCAN_RECORD_SIZE))
    const n = e.w.scan(e.scratch, cap)
    if (n === 0) return
    const at = e.scratch >> 2
    w.set(e.u32.subarray(at, at + n * (SCAN_RECORD_SIZE / 4)))
    pos = e.w.scanPosition()
    line = w[(n - 1) * (SCAN_RECORD_SIZE / 4) + SCAN_LINE / 4]!
    feed(sink, w, 0, n)
    if (pos < 0) return
  }
}
