// parseRobots and the Robots object: one parsed robots.txt, matchers compiled from it on demand.

import { agentTokens, fail, maxBytesOption } from './args.js'
import { encoder } from './bytes.js'
import { directivesOf, preferencesFor, type Directive, type UsagePreference } from './directives.js'
import { Matcher, type Verdict } from './matcher.js'
import { getEngine } from './wasm.js'
import { parsedCrawlDelay, parseWith, reportLines, scanBodyTs, scanSitemaps, selectRules, type LineReport, type LineSink, type ParsedRobots } from './parse.js'

/** Google's documented limit: only the first 500 KiB of a robots.txt are read. */
export const DEFAULT_MAX_BYTES = 512_000

/** Options of `parseRobots`. */
export interface ParseOptions {
  /** Bytes of the body to parse (default 512,000 = 500 KiB); `Infinity` reads everything. */
  maxBytes?: number
}

const MATCHER_CACHE = 16

/** A parsed robots.txt. Create it with `parseRobots`. */
export class Robots {
  /**
   * The body after the size cut. A string body too short to need a cut is kept as it is (strings
   * are immutable) and encoded straight into wasm memory when compiled; bytes are private copies.
   * Everything else is derived on demand.
   */
  readonly #source: string | Uint8Array
  #bytes: Uint8Array | null = null
  #parsed: ParsedRobots | null = null
  readonly #matchers = new Map<string, Matcher>()
  #lines: readonly LineReport[] | null = null
  #sitemaps: readonly string[] | null = null
  #directives: readonly Directive[] | null = null

  // Private: a Robots comes from `parseRobots`, which applies the size cut.
  private constructor(source: string | Uint8Array) {
    this.#source = source
  }

  /** @internal A Robots over a body already cut to size. */
  static fromBody(source: string | Uint8Array): Robots {
    return new Robots(source)
  }

  /** The body as UTF-8 bytes. */
  get #body(): Uint8Array {
    if (this.#bytes === null) this.#bytes = typeof this.#source === 'string' ? encoder.encode(this.#source) : this.#source
    return this.#bytes
  }

  /** The body is small enough (every body under the default limit is) for the wasm passes. */
  get #inWasm(): boolean {
    const src = this.#source
    return (typeof src === 'string' ? src.length * 3 : src.length) <= WASM_SCAN_MAX
  }

  /** True when `agent` may fetch `url`. Caches the compiled matcher of the last few agents. */
  isAllowed(url: string | URL, agent: string | readonly string[]): boolean {
    return this.#cachedMatcher(agent).isAllowed(url)
  }

  /** The verdict with its matching line and rule (RFC 9309 2.2.2; the per-line report). */
  check(url: string | URL, agent: string | readonly string[]): Verdict {
    return this.#cachedMatcher(agent).check(url)
  }

  /**
   * Selects the groups that apply to `agent` (a user-agent string, reduced to its product token,
   * or several agents whose groups merge) and compiles their rules. Keep one per (site, agent).
   */
  matcher(agent: string | readonly string[]): Matcher {
    return Matcher.fromTable(this.#compile(agentTokens(agent)))
  }

  /** The compiled table of validated product tokens. */
  #compile(tokens: readonly string[]): Uint8Array {
    const engine = getEngine()
    // Small enough bodies (every body under the default limit) are selected and compiled in one
    // wasm pass; larger ones through the TS parser's selection.
    if (this.#inWasm) return engine.compile(this.#source, tokens)
    return engine.compileList(this.parsed, selectRules(this.parsed, tokens).rules)
  }

  /** Sitemap URLs in file order, exact duplicates dropped. */
  get sitemaps(): readonly string[] {
    if (this.#parsed !== null) return this.#parsed.sitemaps
    this.#sitemaps ??= scanSitemaps(this.#body, scannerFor(this.#body))
    return this.#sitemaps
  }

  /**
   * Crawl-delay in seconds for `agent`: the first valid value in the groups that name it, or, when
   * none does, in the global groups; `undefined` if there is none. Google ignores it; Bing and
   * Yandex honour it. A call costs one wasm pass over the body, as compiling a matcher does (the
   * groups are decided by the compiler's group logic, so both always agree on which groups apply),
   * or a lookup once the parsed form exists (its group index is the same selection's twin).
   */
  crawlDelay(agent: string | readonly string[]): number | undefined {
    const tokens = agentTokens(agent)
    // The parsed form is the wasm pass's twin, for bodies too large to place in wasm memory and
    // whenever it is built already (then a lookup in it is cheaper than a pass over the body).
    if (this.#inWasm && this.#parsed === null) return getEngine().crawlDelay(this.#source, tokens)
    return parsedCrawlDelay(this.parsed, tokens)
  }

  /** The per-line report: for each line, its kind, key, value and group; computed on first access. */
  get lines(): readonly LineReport[] {
    if (this.#lines === null) this.#lines = reportLines(this.#body, scannerFor(this.#body))
    return this.#lines
  }

  /**
   * Every line that is not allow, disallow, user-agent or sitemap (Crawl-delay, Host, Clean-param,
   * Content-Signal, Content-Usage, unknown keys), in file order, with the group it stands in and
   * that group's agents. Google ignores these lines for matching.
   */
  get directives(): readonly Directive[] {
    if (this.#directives === null) this.#directives = directivesOf(this.lines, this.parsed)
    return this.#directives
  }

  /**
   * The AI usage preferences that apply to `agent`, by category (`search`, `ai-train`, `train-ai`,
   * ...): from Cloudflare's `Content-Signal` and the IETF AIPREF `Content-Usage` lines of the groups
   * naming the agent, else of the global groups, else the file-wide lines. Malformed members are
   * skipped (lint reports them); unknown categories are kept.
   */
  usagePreferences(agent: string | readonly string[]): Record<string, UsagePreference> {
    return preferencesFor(this.directives, this.parsed, agentTokens(agent))
  }

  /** @internal The parsed form (groups, rules, sitemaps, indexes), built on first use. */
  get parsed(): ParsedRobots {
    if (this.#parsed === null) this.#parsed = parseBytes(this.#body)
    return this.#parsed
  }

  /** @internal Feeds every line's scan record to `sink` (the lint checks that need line bounds). */
  scanLines(sink: LineSink): void {
    const body = this.#body
    scannerFor(body)(body, sink)
  }

  /** @internal The matcher cache's keys, least recently used first. */
  get matcherKeys(): string[] {
    return [...this.#matchers.keys()]
  }

  /**
   * The matcher of `agent` from a least-recently-used cache of MATCHER_CACHE entries. The agent is
   * validated on every call, and the key is the JSON of its product tokens: the matcher depends
   * on nothing else, and JSON cannot confuse `'a\nb'` with `['a', 'b']`.
   */
  #cachedMatcher(agent: string | readonly string[]): Matcher {
    const tokens = agentTokens(agent)
    const key = JSON.stringify(tokens)
    let m = this.#matchers.get(key)
    if (m === undefined) {
      m = Matcher.fromTable(this.#compile(tokens))
      if (this.#matchers.size >= MATCHER_CACHE) this.#matchers.delete(this.#matchers.keys().next().value!)
    } else {
      // Map iteration follows insertion order: re-inserting makes this the most recent entry.
      this.#matchers.delete(key)
    }
    this.#matchers.set(key, m)
    return m
  }
}

/**
 * Parses a robots.txt body (a string, encoded as UTF-8, or raw bytes). Never throws on content:
 * malformed files are parsed as well as they can be, exactly as Google's parser does.
 */
export function parseRobots(body: string | Uint8Array, options?: ParseOptions): Robots {
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
  const maxBytes = maxBytesOption(options?.maxBytes, DEFAULT_MAX_BYTES)
  let bytes: Uint8Array
  if (typeof body === 'string') {
    // Short enough that no cut can apply: keep the string, encode it when compiling.
    if (body.length * 3 <= maxBytes) return Robots.fromBody(body)
    bytes = encodeCut(body, maxBytes)
  }
  else if (body instanceof Uint8Array) bytes = copyPrefix(body, maxBytes)
  else return fail('body', 'a string or a Uint8Array', body)
  return Robots.fromBody(bytes)
}

/**
 * A private copy of the first `maxBytes` bytes: the caller may reuse its buffer (stream readers
 * do), and a small file must not pin a large pooled buffer. Not `body.slice`: on a Node Buffer
 * that is a view.
 */
function copyPrefix(body: Uint8Array, maxBytes: number): Uint8Array {
  // The copy constructor: one allocation and copy, cheaper than allocating then set().
  return new Uint8Array(body.subarray(0, Math.min(body.length, maxBytes)))
}

/** Bodies up to this size are scanned in wasm; larger ones (only possible with a raised maxBytes) by
 * the scanner's TypeScript twin, so wasm memory never grows past a few MiB for a body. */
const WASM_SCAN_MAX = 1 << 20

function wasmScan(body: Uint8Array, sink: LineSink): void {
  getEngine().scan(body, sink)
}

/** The scanner for a body: the wasm one, or its TypeScript twin for bodies over WASM_SCAN_MAX. */
function scannerFor(body: Uint8Array): (body: Uint8Array, sink: LineSink) => void {
  return body.length > WASM_SCAN_MAX ? scanBodyTs : wasmScan
}

/** @internal Parses bytes already cut to size. */
export function parseBytes(bytes: Uint8Array): ParsedRobots {
  return parseWith(bytes, scannerFor(bytes))
}

/**
 * UTF-8 of `s` (a string that may be longer than `maxBytes` bytes), cut at exactly `maxBytes` bytes,
 * even inside a character, without encoding the rest.
 */
function encodeCut(s: string, maxBytes: number): Uint8Array {
  // encodeInto never splits a character, so 3 bytes of slack guarantee at least maxBytes are written
  // whenever the string is longer; the exact cut is then taken from them.
  const buf = new Uint8Array(Math.min(maxBytes + 3, s.length * 3))
  const n = Math.min(encoder.encodeInto(s, buf).written, maxBytes)
  // The Robots keeps these bytes: do not let it retain much unused capacity.
  return n < buf.length - (buf.length >> 2) ? buf.slice(0, n) : buf.subarray(0, n)
}
