// The body side of the engine (assembly/scanner.ts, compiler.ts, stream.ts, compact.ts, matrix.ts):
// a robots.txt body and agent tokens go into the input area, and out come line records, a compiled
// table, a Crawl-delay, one URL's verdict with the compact body, or many agents' verdicts on many
// URLs.
//
// Invariants: the body sits at the start of the input area (Engine.loadBody copies it once per
// body, so compiling more agents of one site copies nothing; a held body is there already, and a
// coded compact body is expanded there); the agent tokens follow it, 16-aligned
// with 64 bytes of slack after each; what a call hands back is a copy, or a view of wasm memory the
// caller reads before its next call.

import { MAX_LINE_BYTES, MGROUP_ALLOWS, MGROUP_DISALLOWS, MGROUP_LINE, MGROUP_MASK, MREC_BITS, MREC_F_GLOBAL, MREC_F_GROUP, MREC_F_NAMES,
  MRULE_SIZE, MTOKEN_AGENT, MTOKEN_HASH, MTOKEN_LEN, MTOKEN_SIZE, MTOKEN_START, REF_BITS, REF_F_ALLOW, REF_F_HAS_ORIG, REF_LINE, REF_ORIG_LEN, REF_ORIG_PTR, REF_PAT_LEN, REF_PAT_PTR, REF_SIZE,
  SCAN_KEY_END, SCAN_KEY_START, SCAN_KIND, SCAN_LINE, SCAN_LINE_END, SCAN_LINE_START, SCAN_RECORD_SIZE, SCAN_VAL_END,
  SCAN_VAL_START } from './layout.js'
import { namingHash } from './args.js'
import { encoder } from './bytes.js'
import { R_ALLOW, R_END, R_LINE, R_START, RULE_STRIDE, rulePattern, type ParsedRobots } from './parse.js'
import type { LineSink } from './scanner.js'
import { align16, codedPlainLength, type Body, type Engine } from './wasm.js'
import type { TableRef } from './wasm-tables.js'
import { encodeUrls } from './wasm-urls.js'

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

/** The most bytes `body` takes in the input area: 3 per UTF-16 unit of a string, a coded compact body's plain length. */
function bodyCap(body: Body): number {
  return typeof body === 'string' ? body.length * 3 : body instanceof ArrayBuffer ? codedPlainLength(body) : body.length
}

/**
 * One URL decided straight from `body` for the agents `tokens`, no table built
 * (assembly/stream.ts): the verdict and the deciding line (0: none); streamRule then gives the
 * deciding rule. Costs one scan of the body, as compiling does, but no table. With `compact`, the
 * same scan also writes the compact body (assembly/compact.ts), returned as a copy; a coded
 * compact body is streamed as the plain one it expands to, and is not compacted again.
 */
export function streamCheck(e: Engine, body: Body, tokens: readonly string[], url: string, compact: boolean): StreamVerdict {
  compact &&= !(body instanceof ArrayBuffer)
  const cap = bodyCap(body)
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
  const cap = bodyCap(body)
  e.reserveInput(align16(cap + 64) + align16(room + 64) + extra)
  const len = e.loadBody(body)
  const agents = e.input + align16(cap + 64)
  const u8 = e.u8
  let o = agents
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!
    if (namingHash(t) === -1) continue
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

/**
 * Agents per matrix pass. A group record holds a bit per agent of its pass, so a pass's work area
 * stays within a small multiple of the body however many agents a call names; more agents take a
 * pass per MATRIX_AGENTS (the crawler presets are fewer).
 */
const MATRIX_AGENTS = 256
/** URLs per matrixCheck call: their bytes and verdicts share the input area with the body. */
const MATRIX_URLS = 1024

/** What the groups of a body select for each agent of a matrix pass (agentSetVerdicts' counts). */
export interface MatrixAgent {
  /** Some group names one of the agent's tokens (RFC 9309 2.2.1). */
  named: boolean
  /** Allow and disallow lines, in the groups that apply, whose pattern can match (non-empty, starting with '/' or '*'). */
  allows: number
  disallows: number
  /** Equal for two agents exactly when the same groups apply to them: '*' for the global ones. */
  selection: string
}

/**
 * Every agent's verdict on every URL from one scan of `body` per MATRIX_AGENTS agents
 * (assembly/matrix.ts): `out[a * urls.length + u]` is agent a (its lower-cased product tokens) on
 * urls[u], the deciding line when allowed, minus it when disallowed, 0 when no rule matched.
 * With `groups`, also what applies to each agent, into groups[a].
 */
export function matrixVerdicts(e: Engine, body: Body, agents: readonly (readonly string[])[], urls: readonly string[], out: Int32Array, groups?: MatrixAgent[]): void {
  if (agents.length <= MATRIX_AGENTS) return matrixPass(e, body, agents, urls, out, 0, groups)
  for (let a0 = 0; a0 < agents.length; a0 += MATRIX_AGENTS) matrixPass(e, body, agents.slice(a0, a0 + MATRIX_AGENTS), urls, out, a0, groups)
}

/**
 * One pass for at most MATRIX_AGENTS agents, their rows written from out[a0 * urls.length]. The
 * input area holds, in order: the body, the tokens (bytes, then an MTOKEN_* entry per agent and
 * naming token), the pass's work area, the bests, then a chunk of URLs (ends, UTF-8) and their
 * verdicts. It is reserved whole before the body goes in: the records point into the body and the
 * work area, so nothing may move between the scan and the last check.
 */
function matrixPass(e: Engine, body: Body, agents: readonly (readonly string[])[], urls: readonly string[], out: Int32Array, a0: number, groups?: MatrixAgent[]): void {
  const n = agents.length
  const u = urls.length
  const cap = bodyCap(body)
  // A normalized pattern (3 bytes per byte of its value) and the matcher's KMP table for it in
  // scratch, as for the streamed check.
  const longest = Math.min(cap, MAX_LINE_BYTES)
  if (3 * longest > e.residentMaxPat) e.relayout(e.tableCap, e.inputCap, e.workCap, 3 * longest)
  const bodyRoom = align16(cap + 64)
  const tokenRoom = align16(tokenBytes(agents) + 64)
  const bestRoom = align16(16 * (n + 1) + 64)
  // The chunks of URLs, each its ends, its UTF-8 (3 bytes per unit at most) and its verdicts.
  const chunks: number[] = []
  let urlRoom = 0
  for (let start = 0; start < u; start += MATRIX_URLS) {
    const count = Math.min(MATRIX_URLS, u - start)
    let chars = 0
    for (let k = start; k < start + count; k++) chars += urls[k]!.length
    chunks.push(chars)
    urlRoom = Math.max(urlRoom, align16(4 * count + 64) + align16(3 * chars + 64) + align16(4 * count * n + 64))
  }
  // A first guess at the work area, grown to what the scan counted when it is too small.
  let workCap = align16(4 * cap + 4096)
  let end = 0
  let work = 0
  for (let attempt = 0; end === 0; attempt++) {
    if (attempt === 2) throw new Error('robotstxt-wasm: internal error: the matrix pass asked for more work area twice')
    e.reserveInput(bodyRoom + tokenRoom + workCap + bestRoom + urlRoom)
    const len = e.loadBody(body)
    const table = e.input + bodyRoom
    const count = writeTokens(e, agents, table)
    work = table + tokenRoom
    end = e.w.matrixScan(e.input, len, table, count, n, work, workCap)
    if (end === 0) workCap = align16(e.w.matrixNeeded())
  }
  if (groups !== undefined) matrixGroups(e, work, end, n, groups, a0)
  const best = work + workCap
  const urlsAt = best + bestRoom
  for (let c = 0; c < chunks.length; c++) {
    const start = c * MATRIX_URLS
    const count = Math.min(MATRIX_URLS, u - start)
    const data = urlsAt + align16(4 * count + 64)
    const verdicts = data + align16(3 * chunks[c]! + 64)
    encodeUrls(e, urls, start, count, urlsAt, data, 3 * chunks[c]!)
    e.w.matrixCheck(urlsAt, data, count, count, verdicts, best)
    const v = verdicts >> 2
    // One chunk: the rows are laid out as the result's.
    if (count === u) out.set(e.i32.subarray(v, v + n * u), a0 * u)
    else for (let a = 0; a < n; a++) out.set(e.i32.subarray(v + a * count, v + (a + 1) * count), (a0 + a) * u + start)
  }
}

/**
 * The agents of the last pass and, once two passes in a row had the same, their token block and
 * its entry count: a survey or a test passes the same token arrays for every body (the agent
 * memo's and agentSetVerdicts' arrays, which nothing changes once made), and then writes the block
 * with one copy. A caller whose agents change at every call keeps nothing.
 */
let lastAgents: readonly (readonly string[])[] = []
let keep = false
let kept: Uint8Array | null = null
let keptCount = 0

/** The bytes of `agents`' token block (writeTokens), from the one kept for them when there is one. */
function tokenBytes(agents: readonly (readonly string[])[]): number {
  let same = agents.length === lastAgents.length
  for (let a = 0; a < agents.length && same; a++) same = agents[a] === lastAgents[a]
  if (!same) {
    lastAgents = agents
    kept = null
  }
  keep = same && kept === null
  if (kept !== null) return kept.length
  let size = 0
  for (let a = 0; a < agents.length; a++) {
    const list = agents[a]!
    for (let k = 0; k < list.length; k++) size += MTOKEN_SIZE + list[k]!.length
  }
  return size
}

/**
 * Writes the agents' tokens that can name a group at `at` as matrixScan reads them (after
 * tokenBytes for the same agents): an MTOKEN_* entry per agent and token, then the tokens' bytes;
 * returns the number of entries.
 */
function writeTokens(e: Engine, agents: readonly (readonly string[])[], at: number): number {
  const u8 = e.u8
  if (kept !== null) {
    u8.set(kept, at)
    return keptCount
  }
  const u32 = e.u32
  let count = 0
  for (let a = 0; a < agents.length; a++) {
    const list = agents[a]!
    for (let k = 0; k < list.length; k++) if (namingHash(list[k]!) !== -1) count++
  }
  let o = count * MTOKEN_SIZE
  let entry = at >> 2
  for (let a = 0; a < agents.length; a++) {
    const list = agents[a]!
    for (let k = 0; k < list.length; k++) {
      const t = list[k]!
      const h = namingHash(t)
      if (h === -1) continue
      u32[entry + MTOKEN_HASH / 4] = h
      u32[entry + MTOKEN_START / 4] = o
      u32[entry + MTOKEN_LEN / 4] = t.length
      u32[entry + MTOKEN_AGENT / 4] = a
      entry += MTOKEN_SIZE / 4
      // Tokens of a-z - _ only: a unit is a byte.
      for (let i = 0; i < t.length; i++) u8[at + o++] = t.charCodeAt(i)
    }
  }
  if (keep) {
    kept = u8.slice(at, at + o)
    keptCount = count
  }
  return count
}

/** What applies to each agent of the last matrixScan (records [work, end)), into groups[a0 + a]. */
function matrixGroups(e: Engine, work: number, end: number, n: number, groups: MatrixAgent[], a0: number): void {
  const u32 = e.u32
  const words = Math.ceil(n / 32)
  const allows = new Array<number>(n).fill(0)
  const disallows = new Array<number>(n).fill(0)
  const keys = new Array<string>(n).fill('')
  let globalAllows = 0
  let globalDisallows = 0
  for (let r = e.w.matrixFirstRecord(); r < end;) {
    const bits = u32[(r + MREC_BITS) >> 2]!
    if ((bits & MREC_F_GROUP) === 0) {
      r += MRULE_SIZE
      continue
    }
    const ga = u32[(r + MGROUP_ALLOWS) >> 2]!
    const gd = u32[(r + MGROUP_DISALLOWS) >> 2]!
    if (bits & MREC_F_GLOBAL) {
      globalAllows += ga
      globalDisallows += gd
    }
    if ((bits & MREC_F_NAMES) === 0) {
      r += MGROUP_MASK
      continue
    }
    const line = u32[(r + MGROUP_LINE) >> 2]!
    for (let w = 0; w < words; w++) {
      let m = u32[((r + MGROUP_MASK) >> 2) + w]!
      while (m !== 0) {
        const a = w * 32 + (31 - Math.clz32(m & -m))
        m &= m - 1
        allows[a]! += ga
        disallows[a]! += gd
        keys[a] += `${line},`
      }
    }
    r += MGROUP_MASK + 4 * words
  }
  for (let a = 0; a < n; a++) {
    const named = ((u32[(work >> 2) + (a >>> 5)]! >>> (a & 31)) & 1) === 1
    groups[a0 + a] = named
      ? { named, allows: allows[a]!, disallows: disallows[a]!, selection: keys[a]! }
      : { named, allows: globalAllows, disallows: globalDisallows, selection: '*' }
  }
}
