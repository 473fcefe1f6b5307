// Matcher: the compiled rules of one (robots.txt, agent) pair, checked in WebAssembly.

import { fail, plainBytes, plainView, urlString } from './args.js'
import { decodeUtf8 } from './bytes.js'
import { tableRule, tableRuleCounts, tableRuleLine } from './table.js'
import { getEngine } from './wasm.js'
import type { TableRef } from './wasm-tables.js'
import { checkBatch, checkUrl, checkVerdictLines, lineVerdicts, type VerdictLines } from './wasm-urls.js'

/**
 * The answer for one URL.
 *
 * @example
 * ```ts
 * import { parseRobots, type Verdict } from 'robotstxt-wasm'
 *
 * const verdict: Verdict = parseRobots('User-agent: *\nAllow: /a\nDisallow: /\n').check('https://example.com/a/b', 'MyBot')
 * verdict // → { allowed: true, line: 2, rule: { kind: 'allow', pattern: '/a' } }
 * ```
 */
export interface Verdict {
  /** May the agent fetch the URL. */
  allowed: boolean
  /** The matching line (RFC 9309 2.2.2; Google's RobotsMatcher), 0 if no rule matched. */
  line: number
  /** The rule written on that line, when there is one: its kind and pattern as written. */
  rule?: {
    /** `allow` or `disallow`. */
    kind: 'allow' | 'disallow'
    /** The pattern after the colon, as written. */
    pattern: string
  }
}

/** What this module's own code passes the Matcher constructor: no other caller has it. */
const CONSTRUCT: unique symbol = Symbol('Matcher')

/** @internal A Matcher over a compiled table (src/engine/table.ts), which it then owns. */
export let matcherOver!: (table: TableRef) => Matcher
/**
 * @internal A Matcher over the table `compile(like)` returns, given the tables of `others`: a
 * site's agents often fall to the same groups, and when the compiled table has the same bytes as
 * one of theirs, `compile` returns that one (Tables.keep) and the new Matcher shares it. One
 * table for them all keeps fewer bytes for a crawler's caches to hold.
 */
export let matcherLike!: (compile: (like: readonly TableRef[]) => TableRef, others: readonly (Matcher | null)[]) => Matcher

/**
 * The rules that apply to one agent of one robots.txt, compiled for the WebAssembly matcher.
 * Create it once per (site, agent) with `robots.matcher(agent)` and check any number of URLs.
 * It holds only its compiled table (a few dozen bytes per rule, in WebAssembly memory while there is
 * room); dropping it frees everything.
 *
 * @example
 * ```ts
 * import { parseRobots } from 'robotstxt-wasm'
 *
 * const matcher = parseRobots('User-agent: *\nDisallow: /private/\n').matcher('MyBot')
 * matcher.isAllowed('https://example.com/private/a') // → false
 * matcher.isAllowedMany(['https://example.com/', 'https://example.com/private/b']) // → Uint8Array(2) [ 1, 0 ]
 * matcher.checkLines(new TextEncoder().encode('/a\n/private/c\n')) // → Int32Array(2) [ 0, -2 ]
 * ```
 */
export class Matcher {
  /** Its table in the engine's arena (freed when its owner is collected), or held in JS memory. */
  readonly #table: TableRef

  // Private: matchers come from `Robots.matcher(agent)`. TypeScript's `private` is gone at run
  // time, and a table reference is a wasm address every check writes through, so a caller's
  // `new Matcher(n)` is refused here rather than let it write into other matchers' tables.
  private constructor(key: typeof CONSTRUCT, table: TableRef) {
    if (key !== CONSTRUCT) fail('new Matcher()', 'no direct call: a Matcher comes from robots.matcher(agent)', key)
    this.#table = table
  }

  // The module's factories (matcherOver, matcherLike): assigned here, where the constructor and
  // #table are in reach, and not statics, which any caller of the public class could reach with a
  // table of its own making.
  static {
    matcherOver = (table) => {
      const m = new Matcher(CONSTRUCT, table)
      getEngine().tables.track(m, table)
      return m
    }
    matcherLike = (compile, others) => {
      const like: TableRef[] = []
      for (const o of others) if (o !== null) like.push(o.#table)
      const table = compile(like)
      for (const o of others) if (o !== null && o.#table === table) return o.sharing()
      return matcherOver(table)
    }
  }

  /** @internal A new Matcher over this one's table, which is freed when both are collected. */
  sharing(): Matcher {
    return new Matcher.#Shared(CONSTRUCT, this.#table, Matcher.#Shared.ownerOf(this))
  }

  /**
   * A Matcher over a table another Matcher owns (the one registered to free it: Tables.track),
   * holding that owner so that the table lives as long as any Matcher over it: one registration per
   * table rather than one per Matcher (a registration, and its weak cell for the collector to trace,
   * cost the field benchmark 3-4% of its time: 6.6 agents a site, three in four sharing a table). A
   * class of its own, so that an owner, the Matcher a crawler keeps per site, carries no such field.
   */
  static readonly #Shared = class SharedMatcher extends Matcher {
    // Shown as what it is to its users, a Matcher (util.inspect, constructor.name).
    static {
      Object.defineProperty(this, 'name', { value: 'Matcher' })
    }

    readonly #owner: Matcher

    // The key too: a shared Matcher's constructor is reachable as its `constructor`.
    constructor(key: typeof CONSTRUCT, table: TableRef, owner: Matcher) {
      super(key, table)
      this.#owner = owner
    }

    /** The Matcher that owns `m`'s table: `m` itself unless it shares one. */
    static ownerOf(m: Matcher): Matcher {
      return #owner in m ? m.#owner : m
    }
  }

  /** @internal Allow and disallow rules with a non-empty pattern in the groups compiled here. */
  ruleCounts(): { allows: number; disallows: number } {
    return tableRuleCounts(getEngine().tables.bytes(this.#table))
  }

  /** True when the agent may fetch `url` (a string or a `URL`). */
  isAllowed(url: string | URL): boolean {
    const s = typeof url === 'string' ? url : urlString(url)
    const engine = getEngine()
    engine.use(this.#table)
    return (checkUrl(engine, s) & 1) === 1
  }

  /** The verdict with the matching line and rule. */
  check(url: string | URL): Verdict {
    const s = typeof url === 'string' ? url : urlString(url)
    const engine = getEngine()
    engine.use(this.#table)
    return this.#verdict(checkUrl(engine, s))
  }

  /**
   * Checks many URLs with a bounded number of wasm calls (1,024 URLs per call). Returns `out`
   * (allocated when not given): 1 where allowed, 0 where disallowed, in input order.
   */
  isAllowedMany(urls: readonly (string | URL)[], out?: Uint8Array): Uint8Array {
    const strings = stringsOf(urls)
    out ??= new Uint8Array(strings.length)
    const view = outView(out, Uint8Array, strings.length, 'a Uint8Array')
    const engine = getEngine()
    engine.use(this.#table)
    checkBatch(engine, strings, 0, strings.length, null, view)
    return out
  }

  /**
   * Batch form of `check` that stays in numbers: `out[i]` is the matching line when URL i is
   * allowed, minus the matching line when it is disallowed (a disallow always has a line >= 1).
   */
  checkMany(urls: readonly (string | URL)[], out?: Int32Array): Int32Array {
    const strings = stringsOf(urls)
    out ??= new Int32Array(strings.length)
    const view = outView(out, Int32Array, strings.length, 'an Int32Array')
    const engine = getEngine()
    engine.use(this.#table)
    checkBatch(engine, strings, 0, strings.length, view, null)
    this.#toLines(view, strings.length)
    return out
  }

  /**
   * Checks URLs given as UTF-8 bytes, one per line: lines end with '\n', a '\r' before it is
   * dropped, a last line without '\n' counts, and an empty line is the empty URL. Returns `out`
   * (allocated when not given) with one byte per line, 1 allowed and 0 not. Each verdict is that
   * of `isAllowed` on the line decoded by `new TextDecoder('utf-8', { ignoreBOM: true })`
   * (ill-formed UTF-8 becomes U+FFFD; a BOM starting a line is kept, as Google's matcher reads the
   * bytes, where a default TextDecoder drops it), yet nothing is decoded to a string: this is the
   * path for streams and files. An `out` shorter than
   * the line count throws a TypeError (it may then hold the first verdicts).
   */
  isAllowedLines(bytes: Uint8Array, out?: Uint8Array): Uint8Array {
    if (!(bytes instanceof Uint8Array)) fail('bytes', 'a Uint8Array of UTF-8 URLs, one per line', bytes)
    const into = out instanceof Uint8Array ? plainView(out, Uint8Array, 'out') : undefined
    const verdicts = this.#lineVerdicts(plainBytes(bytes, 'bytes'), false, into)
    if (out === undefined) return verdicts
    // Written in place when it was long enough (a view of its start); when too short it may hold
    // the first verdicts.
    if (!(out instanceof Uint8Array) || into!.length < verdicts.length) fail('out', `a Uint8Array of length >= ${verdicts.length} (the lines in bytes)`, out)
    return out
  }

  /** The engine's line verdicts for `bytes` against this matcher. */
  #lineVerdicts(bytes: Uint8Array, wide: true, into: Int32Array | undefined): Int32Array
  #lineVerdicts(bytes: Uint8Array, wide: false, into: Uint8Array | undefined): Uint8Array
  #lineVerdicts(bytes: Uint8Array, wide: boolean, into: Int32Array | Uint8Array | undefined): Int32Array | Uint8Array {
    const engine = getEngine()
    engine.use(this.#table)
    return wide ? lineVerdicts(engine, bytes, true, into as Int32Array | undefined) : lineVerdicts(engine, bytes, false, into as Uint8Array | undefined)
  }

  /**
   * @internal The output lines of `robotstxt check --urls` for the URL lines of `bytes`, checked
   * against this matcher in the pass that writes them (Engine.checkVerdictLines); `marks` flags
   * lines the caller rejected (VERDICT_* in layout.ts); the output goes into `into` when it fits.
   */
  verdictLines(bytes: Uint8Array, marks: Uint8Array | null, into?: Uint8Array): VerdictLines {
    const engine = getEngine()
    engine.use(this.#table)
    return checkVerdictLines(engine, bytes, marks, into)
  }

  /**
   * `isAllowedLines` that stays in numbers, as `checkMany`: `out[i]` is the matching line when line
   * i is allowed, minus it when disallowed.
   */
  checkLines(bytes: Uint8Array, out?: Int32Array): Int32Array {
    if (!(bytes instanceof Uint8Array)) fail('bytes', 'a Uint8Array of UTF-8 URLs, one per line', bytes)
    const into = out instanceof Int32Array ? plainView(out, Int32Array, 'out') : undefined
    const verdicts = this.#lineVerdicts(plainBytes(bytes, 'bytes'), true, into)
    const n = verdicts.length
    if (out === undefined) return this.#toLines(verdicts, n)
    if (!(out instanceof Int32Array) || into!.length < n) fail('out', `an Int32Array of length >= ${n} (the lines in bytes)`, out)
    this.#toLines(into!, n)
    return out
  }

  /** Turns check()'s numbers out[0, n) into signed line numbers in place. */
  #toLines(out: Int32Array, n: number): Int32Array {
    const table = getEngine().tables.bytes(this.#table)
    for (let i = 0; i < n; i++) {
      const r = out[i]!
      const line = r >>> 1 === 0 ? 0 : tableRuleLine(table, (r >>> 1) - 1)
      out[i] = r & 1 ? line : -line
    }
    return out
  }

  #verdict(r: number): Verdict {
    const allowed = (r & 1) === 1
    const idx = (r >>> 1) - 1
    if (idx < 0) return { allowed, line: 0 }
    const rule = tableRule(getEngine().tables.bytes(this.#table), idx)
    return { allowed, line: rule.line, rule: { kind: rule.allow ? 'allow' : 'disallow', pattern: decodeUtf8(rule.pattern) } }
  }
}

/**
 * The URLs as strings, each element read exactly once and all of them before any wasm state is
 * touched: a getter, Proxy or URL subclass that checks URLs on another matcher mid-read then
 * cannot disturb this batch, and the batch never sees an element change between two reads.
 */
export function stringsOf(urls: unknown): string[] {
  if (!Array.isArray(urls)) fail('urls', 'an array of strings or URLs', urls)
  const n = urls.length
  const strings = new Array<string>(n)
  for (let k = 0; k < n; k++) {
    const u: unknown = urls[k]
    strings[k] = typeof u === 'string' ? u : urlString(u, `urls[${k}]`)
  }
  return strings
}

/**
 * A caller's `out` for `n` results as a plain view of its memory (args.ts plainView), judged by
 * its real length; a TypeError naming `what` (its type) when it is not one or is too short.
 */
function outView<T extends Uint8Array | Int32Array>(out: unknown, type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; prototype: T }, n: number, what: string): T {
  if (!(out instanceof type)) fail('out', `${what} of length >= ${n}`, out)
  const view = plainView(out as T, type, 'out')
  if (view.length < n) fail('out', `${what} of length >= ${n}`, out)
  return view
}
