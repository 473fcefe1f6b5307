// parseRobots and the Robots object: one parsed robots.txt, matchers compiled from it on demand.

import { agentOf, firstTokens, grownSlots, noteNamed, siteMatchers, slotKeys, slotMatcher, stringMemo, type Agent, type AgentSlots, type SiteAgents } from './agent-cache.js'
import { agentTokens, DEFAULT_MAX_BYTES, fail, NUMERIC_OPTIONS, numberOption, plainBytes, urlString } from './args.js'
import { decodeUtf8, encoder, textReader, type TextReader } from './bytes.js'
import { directivesOf, type Directive } from './directives.js'
import { preferenceIndex, preferencesFor, type PreferenceIndex, type UsagePreference } from './preferences.js'
import { Matcher, matcherLike, stringsOf, type Verdict } from './matcher.js'
import { Outline, outlineOf } from './outline.js'
import { getEngine, type Body } from './wasm.js'
import type { TableRef } from './wasm-tables.js'
import { compileAgents, compileRules, crawlDelayOf, expandBody, matrixVerdicts, scanLines, scanLinesCopied, streamCheck, streamRule, type MatrixAgent, type StreamVerdict } from './wasm-body.js'
import { lineReports, reportLines, type LineReport } from './line-report.js'
import { Builder, parsedCrawlDelay, parseWith, scanSitemaps, selectRules, type ParsedRobots } from './parse.js'
import { scanBodyTs, type LineSink } from './scanner.js'

// Defined in args.ts, which the http layer's strict decoding may import without the engine.
export { DEFAULT_MAX_BYTES }

/**
 * Options of `parseRobots`.
 *
 * @example
 * ```ts
 * import { parseRobots, type ParseOptions } from 'robotstxt-wasm'
 *
 * const options: ParseOptions = { maxBytes: 20 } // only 'User-agent: *\nDisall' is read
 * parseRobots('User-agent: *\nDisallow: /a\n', options).isAllowed('https://example.com/a', 'MyBot') // → true
 * ```
 */
export interface ParseOptions {
  /** Bytes of the body to parse (default 512,000 = 500 KiB); `Infinity` reads everything. */
  maxBytes?: number
}

/** An empty entry of a Robots' recent agents: equal to no argument (only string agents are held). */
const NO_AGENT: unique symbol = Symbol('no agent')

/** What this module's own code passes the Robots constructor: no other caller has it. */
const CONSTRUCT: unique symbol = Symbol('Robots')

/** @internal A Robots over a body already cut to size (the survey's, which cuts it itself). */
export let robotsOver!: (source: string | Uint8Array) => Robots
/**
 * A Robots over the first `n` bytes of `bytes`, copied into wasm memory and held there
 * (Engine.hold); a RangeError when wasm memory cannot grow to hold them.
 */
let robotsHeld!: (bytes: Uint8Array, n: number) => Robots
/**
 * A Robots over the UTF-8 of `s` cut at `maxBytes` bytes, encoded into wasm memory and held there
 * (Engine.holdString); null where strings are not encoded by wasm.
 */
let robotsHeldString!: (s: string, maxBytes: number) => Robots | null

/**
 * A parsed robots.txt. Create it with `parseRobots`.
 *
 * @example
 * ```ts
 * import { parseRobots } from 'robotstxt-wasm'
 *
 * const robots = parseRobots('User-agent: *\nDisallow: /cart\nCrawl-delay: 2\nSitemap: https://example.com/sitemap.xml\n')
 * robots.check('https://example.com/cart/1', 'MyBot/1.0') // → { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/cart' } }
 * robots.crawlDelay('MyBot') // → 2
 * robots.sitemaps // → [ 'https://example.com/sitemap.xml' ]
 * ```
 */
export class Robots {
  /**
   * The body after the size cut. A string body too short to need a cut is kept as it is (strings
   * are immutable) and encoded straight into wasm memory when compiled; bytes are private copies,
   * made into wasm memory and held there (Engine.hold: #source is then the engine's key for them;
   * a longer string's cut UTF-8 too, where wasm encodes strings) until the engine needs the room,
   * when it hands this Robots a copy of its own. The site's first check (the one streamed check)
   * replaces it with the coded compact body (assembly/compact.ts; an ArrayBuffer, see wasm.ts
   * Body), which expands to a body that scans to the same lines, when nothing has been derived
   * from it yet. Everything else is derived on demand.
   */
  #source: Body
  /** What the views derived (created by the first view: most kept sites are only ever checked). */
  #derived: Derived | null = null
  /** Compiled matchers by agent (agent-cache.ts; created at the first check or matcher()). */
  #agents: SiteAgents | null = null
  /**
   * The string agents of the last six calls that got a matcher from the slots (each the agent
   * memo's copy, equal to it), newest first, with those matchers. A crawler checks many URLs for one
   * agent or a few, and these answer them from the Robots itself, with no memo and no slots. In a
   * crawler that switches hosts on every check, each object reached is a cache miss, and the slots
   * are two more misses, one after the other. The crawler-shaped bench checks 6.65 agents per site:
   * with one entry, 15% of its checks were answered here and the Robots path took 1.35-1.45x the
   * Matcher's time; with six, 1.17-1.25x. There are six, not the slots' sixteen, because every cached
   * site carries these fields (8 bytes each). An entry stays right after the AgentSlots evict its
   * agent, because a matcher never goes stale.
   */
  #agent0: string | typeof NO_AGENT = NO_AGENT
  #matcher0: Matcher | null = null
  #agent1: string | typeof NO_AGENT = NO_AGENT
  #matcher1: Matcher | null = null
  #agent2: string | typeof NO_AGENT = NO_AGENT
  #matcher2: Matcher | null = null
  #agent3: string | typeof NO_AGENT = NO_AGENT
  #matcher3: Matcher | null = null
  #agent4: string | typeof NO_AGENT = NO_AGENT
  #matcher4: Matcher | null = null
  #agent5: string | typeof NO_AGENT = NO_AGENT
  #matcher5: Matcher | null = null

  // Private: a Robots comes from `parseRobots`, which applies the size cut. TypeScript's `private`
  // is gone at run time, so a caller's `new Robots(...)` is refused here: its body would skip the
  // cut, and a non-body would fail later with an internal error.
  private constructor(key: typeof CONSTRUCT, source: string | Uint8Array) {
    if (key !== CONSTRUCT) fail('new Robots()', 'no direct call: a Robots comes from parseRobots(body)', key)
    this.#source = source
  }

  // The module's factories (see robotsOver): assigned here, where the constructor and #source are
  // in reach, and not statics, which any caller of the public class could reach.
  static {
    robotsOver = (source) => new Robots(CONSTRUCT, source)
    robotsHeld = (bytes, n) => {
      const r = new Robots(CONSTRUCT, EMPTY)
      r.#source = getEngine().hold(bytes, n, r, Robots.#evicted)
      return r
    }
    robotsHeldString = (s, maxBytes) => {
      const r = new Robots(CONSTRUCT, EMPTY)
      const key = getEngine().holdString(s, maxBytes, r, Robots.#evicted)
      if (key === null) return null
      r.#source = key
      return r
    }
  }

  /** The engine needs the room of this Robots' held body: `copy` is the body's own copy from now on. */
  static #evicted(r: Robots, copy: Uint8Array): void {
    r.#source = copy
  }

  get #views(): Derived {
    this.#derived ??= new Derived()
    return this.#derived
  }

  /** The body as UTF-8 bytes. */
  get #body(): Uint8Array {
    const d = this.#views
    if (d.bytes === null) {
      if (isHeld(this.#source)) getEngine().evict()
      const src = this.#source as string | Uint8Array | ArrayBuffer
      d.bytes = typeof src === 'string' ? encoder.encode(src) : src instanceof ArrayBuffer ? expandBody(getEngine(), src) : src
    }
    return d.bytes
  }

  /** The source string when the body is its encoding (no cut): text can then be sliced from it. */
  get #sourceText(): string | undefined {
    return typeof this.#source === 'string' ? this.#source : undefined
  }

  /** The body is small enough (every body under the default limit is) for the wasm passes. */
  get #inWasm(): boolean {
    const src = this.#source
    // A coded compact body comes only from a body that was in wasm.
    return src instanceof ArrayBuffer || (typeof src === 'string' ? src.length * 3 : src.length) <= WASM_SCAN_MAX
  }

  /**
   * True when `agent` may fetch `url`. The site's first check is decided straight from the body
   * (no table: a site checked once costs one scan, which also compacts the body); an agent checked
   * again, and any other agent, gets a compiled matcher, cached for the last few agents. Agents that
   * no group names share one matcher, compiled for the first of them (agent-cache.ts). So a body is
   * scanned at most once more than the agents it is checked for, and usually far less.
   */
  isAllowed(url: string | URL, agent: string | readonly string[]): boolean {
    // The URL's text first: a URL object's href getter may call back into this Robots, and must
    // not do so between #cachedMatcher choosing the streamed first check and the stream itself.
    const s = typeof url === 'string' ? url : urlString(url)
    const m = this.#recent(agent) ?? this.#cachedMatcher(agent)
    return m !== null ? m.isAllowed(s) : this.#stream(s).allowed
  }

  /**
   * The verdict with its matching line and rule (RFC 9309 2.2.2; the per-line report). Token-exact,
   * as Google's library is: `check(url, 'Googlebot-Image')` reads only the groups naming that token
   * (or `*`); `crawlerTokens('Googlebot-Image')` is the agent argument for the crawler as it
   * behaves (its own group, else Googlebot's).
   */
  check(url: string | URL, agent: string | readonly string[]): Verdict {
    const s = typeof url === 'string' ? url : urlString(url)
    const m = this.#recent(agent) ?? this.#cachedMatcher(agent)
    if (m !== null) return m.check(s)
    const v = this.#stream(s)
    if (v.line === 0) return { allowed: v.allowed, line: v.line }
    const rule = streamRule(getEngine())
    return { allowed: v.allowed, line: v.line, rule: { kind: rule.allow ? 'allow' : 'disallow', pattern: decodeUtf8(rule.pattern) } }
  }

  /**
   * Every agent on every URL, from one pass over the body: `result[a * urls.length + u]` is the
   * verdict of `agents[a]` on `urls[u]`, encoded as `Matcher.checkMany` encodes it: the matching
   * line when allowed, minus the matching line when disallowed, 0 when no rule matched (allowed).
   * An agent is a user-agent string or an array of them whose groups merge, as for `isAllowed`
   * (a crawler preset's tokens: `crawlerTokens(name)`). No matcher is compiled and nothing is
   * kept: the call for "which of these crawlers may fetch these pages?", where compiling a table
   * per agent would cost more than the checks. The result is a fresh array.
   *
   * @example
   * ```ts
   * import { crawlerTokens, parseRobots } from 'robotstxt-wasm'
   *
   * const robots = parseRobots('User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n')
   * const urls = ['https://example.com/', 'https://example.com/private/a']
   * robots.checkMatrix(urls, ['MyBot', 'GPTBot', crawlerTokens('Googlebot-Image')]) // → Int32Array(6) [ 0, -2, -5, -5, 0, -2 ]
   * ```
   */
  checkMatrix(urls: readonly (string | URL)[], agents: readonly (string | readonly string[])[]): Int32Array {
    const strings = stringsOf(urls)
    const tokens = agentList(agents)
    const out = new Int32Array(tokens.length * strings.length)
    if (strings.length === 0 || tokens.length === 0) return out
    this.#matrix(tokens, strings, out, undefined)
    return out
  }

  /**
   * @internal checkMatrix for agents given as their product tokens (agentTokens' form), with what
   * applies to each agent; null for a body too large for the wasm pass.
   */
  matrixOf(tokens: readonly (readonly string[])[], urls: readonly string[]): { verdicts: Int32Array; agents: MatrixAgent[] } | null {
    if (!this.#inWasm) return null
    const verdicts = new Int32Array(tokens.length * urls.length)
    const agents = new Array<MatrixAgent>(tokens.length)
    this.#matrix(tokens, urls, verdicts, agents)
    return { verdicts, agents }
  }

  /** The matrix pass over the body (wasm-body.ts matrixVerdicts), or a matcher per agent for a body too large for it. */
  #matrix(tokens: readonly (readonly string[])[], urls: readonly string[], out: Int32Array, agents: MatrixAgent[] | undefined): void {
    if (this.#inWasm) return matrixVerdicts(getEngine(), this.#source, tokens, urls, out, agents)
    for (let a = 0; a < tokens.length; a++) out.set(this.matcher(tokens[a]!).checkMany(urls), a * urls.length)
  }

  /**
   * The site's first check, decided in one wasm scan of the body (wasm-body.ts streamCheck), which
   * also compacts the body. Runs once per Robots, right after #cachedMatcher answered null (its
   * first slots hold the agent's tokens, validated).
   */
  #stream(s: string): StreamVerdict {
    const src = this.#source
    if (src instanceof ArrayBuffer) throw new Error('robotstxt-wasm: internal error: a Robots streams only its first check')
    // Offsets into the body (the parsed form, its UTF-8 copy) must keep meaning what they meant.
    const compact = this.#derived === null
    const engine = getEngine()
    const v = streamCheck(engine, src, firstTokens(this.#agents!), s, compact)
    if (v.compact !== null) {
      // The held body, if it was this one, is still in the input area until the next call.
      engine.unhold(this)
      this.#source = v.compact
    }
    return v
  }

  /**
   * Selects the groups that apply to `agent` (a user-agent string, reduced to its product token,
   * or several agents whose groups merge) and compiles their rules. Keep one per (site, agent).
   * Each call returns a new Matcher; the rules are compiled once per agent (the site's matcher
   * cache, as `isAllowed` uses it) and one compiled table serves every agent with the same rules.
   */
  matcher(agent: string | readonly string[]): Matcher {
    const a = agentOf(agent)
    const slots = (this.#agents = grownSlots(this.#agents))
    const before = siteMatchers(slots)
    const m = slotMatcher(slots, a, Robots.#compileShared, this)
    // A matcher the cache held already goes out as a new Matcher over its table; one compiled by
    // this call goes out as it is (the cache holds it too: Matchers never change).
    return before.includes(m) ? m.sharing() : m
  }

  /** A matcher for `tokens`, over the table of one of the site's matchers when the rules are the same. */
  static #compileShared(site: Robots, tokens: readonly string[]): Matcher {
    return matcherLike((like) => site.#compile(tokens, like), siteMatchers(site.#agents as AgentSlots))
  }

  /**
   * The compiled table of validated product tokens, or the one of `like` with the same bytes. A
   * wasm compile also tells the site's slots the body's named-token signature.
   */
  #compile(tokens: readonly string[], like: readonly TableRef[]): TableRef {
    const engine = getEngine()
    // Small enough bodies (every body under the default limit) are selected and compiled in one
    // wasm pass; larger ones through the TS parser's selection.
    if (!this.#inWasm) return compileRules(engine, this.parsed, selectRules(this.parsed, tokens).rules, like)
    const table = compileAgents(engine, this.#source, tokens, like)
    noteNamed(this.#agents as AgentSlots, engine.w.namedSignature)
    return table
  }

  /** Sitemap URLs in file order, exact duplicates dropped; a frozen array. */
  get sitemaps(): readonly string[] {
    // The parsed form's list is frozen when it is built.
    const d = this.#views
    if (d.parsed !== null) return d.parsed.sitemaps
    d.sitemaps ??= Object.freeze(scanSitemaps(this.#body, scannerFor(this.#body), this.#sourceText))
    return d.sitemaps
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
    if (this.#inWasm && this.#derived?.parsed == null) return crawlDelayOf(getEngine(), this.#source, tokens)
    return parsedCrawlDelay(this.parsed, tokens)
  }

  /**
   * The per-line report: for each line, its kind, key, value and group. Computed on first access
   * and kept, frozen (the array and every report), so it costs an object per line for as long as
   * the Robots lives: on half a million empty lines, many times a matcher's compile (the worst
   * shapes of bench/hostile.mjs). `forEachLine` gives the same reports without keeping them.
   */
  get lines(): readonly LineReport[] {
    const d = this.#views
    if (d.lines === null) {
      d.lines = lineReports(this.#body, scannerFor(this.#body), this.#sourceText)
    }
    return d.lines
  }

  /**
   * Calls `callback` with each line's report, in order, as `lines` has them: each a fresh object,
   * none kept, so the cost is one scan and short-lived objects. The callback may use this Robots
   * (and any other) freely; what it throws ends the walk and is thrown from here.
   */
  forEachLine(callback: (report: LineReport) => void): void {
    if (typeof callback !== 'function') fail('callback', 'a function', callback)
    // The callback may call into wasm (a check, a compile), which would overwrite the body, the
    // records and the scanner's place of a wasm scan in progress: the wasm scan for it copies each
    // batch of records out and resumes where it stopped.
    const body = this.#body
    reportLines(body, body.length > WASM_SCAN_MAX ? scanBodyTs : wasmScanCopied, callback, this.#sourceText)
  }

  /**
   * Every line that is not allow, disallow, user-agent or sitemap (Crawl-delay, Host, Clean-param,
   * Content-Signal, Content-Usage, unknown keys), in file order, with the group it stands in and
   * that group's agents. Google ignores these lines for matching. Frozen: the array, each
   * directive and its agents.
   */
  get directives(): readonly Directive[] {
    const d = this.#views
    d.directives ??= directivesOf(this.#body, this.#outline(), this.#reader())
    return d.directives
  }

  /**
   * The AI usage preferences that apply to `agent`, by category (`search`, `ai-train`, `train-ai`,
   * ...): from Cloudflare's `Content-Signal` and the IETF AIPREF `Content-Usage` lines of the groups
   * naming the agent, else of the global groups, else the file-wide lines. Malformed members are
   * skipped (lint reports them); unknown categories are kept. Each call returns a fresh record
   * without prototype (`Object.create(null)`): every category, `constructor` too, is an own data
   * property, and changing the record changes no later answer.
   */
  usagePreferences(agent: string | readonly string[]): Record<string, UsagePreference> {
    const tokens = agentTokens(agent)
    const d = this.#views
    d.preferences ??= preferenceIndex(this.#body, this.#outline(), this.#reader())
    return preferencesFor(d.preferences, tokens)
  }

  /**
   * @internal Feeds every line's scan record of the body to `sink` (which must not call into wasm),
   * and builds, from that same scan, the parsed form and the usage preference index when they are
   * not built yet: a reader of every line (lint) then costs no scan of its own.
   */
  scanWith(sink: LineSink): void {
    const body = this.#body
    const d = this.#views
    const builder = d.parsed === null ? new Builder(body, this.#sourceText) : null
    const outline = d.preferences === null ? new Outline() : null
    scannerFor(body)(body, {
      line(line, kindFlags, lineStart, lineEnd, keyStart, keyEnd, valStart, valEnd) {
        builder?.line(line, kindFlags, lineStart, lineEnd, keyStart, keyEnd, valStart, valEnd)
        outline?.line(line, kindFlags, lineStart, lineEnd, keyStart, keyEnd, valStart, valEnd)
        sink.line(line, kindFlags, lineStart, lineEnd, keyStart, keyEnd, valStart, valEnd)
      },
    })
    if (builder !== null) d.parsed = builder.finish()
    if (outline !== null) d.preferences = preferenceIndex(body, outline, this.#reader())
  }

  /** One scan's records of the user-agent and other-key lines: what directives and preferences read. */
  #outline(): Outline {
    return outlineOf(this.#body, scannerFor(this.#body))
  }

  #reader(): TextReader {
    return textReader(this.#body, this.#sourceText)
  }

  /**
   * @internal The body's bytes, without parsing them: the text as sent until the first check,
   * the compact body after it (both scan to the same lines). Read-only: it is the Robots' own.
   */
  get bodyBytes(): Uint8Array {
    return this.#body
  }

  /** @internal The parsed form (groups, rules, sitemaps, indexes), built on first use. */
  get parsed(): ParsedRobots {
    const d = this.#views
    if (d.parsed === null) d.parsed = parseBytes(this.#body)
    return d.parsed
  }

  /** @internal The matcher cache's keys (agents checked at least once), least recently used first. */
  get matcherKeys(): string[] {
    return this.#agents === null ? [] : slotKeys(this.#agents)
  }

  /**
   * The agent's matcher from the site's AgentSlots, or null for the site's first check, which the
   * caller streams (a body too large for the wasm scan compiles at once instead).
   */
  #cachedMatcher(agent: string | readonly string[]): Matcher | null {
    let a: Agent
    let key: string | null = null
    if (typeof agent === 'string') {
      const memo = stringMemo(agent)
      a = memo.agent
      key = memo.key
    } else a = agentOf(agent)
    if (this.#agents === null) {
      // Held alone until the site compiles (agent-cache.ts SiteAgents).
      this.#agents = a
      if (this.#inWasm) return null
    }
    const slots = (this.#agents = grownSlots(this.#agents))
    const m = slotMatcher(slots, a, Robots.#compileShared, this)
    if (key !== null) {
      // The memo's copy: comparing the next call's agent with it reads no other caller's string.
      this.#agent5 = this.#agent4
      this.#matcher5 = this.#matcher4
      this.#agent4 = this.#agent3
      this.#matcher4 = this.#matcher3
      this.#agent3 = this.#agent2
      this.#matcher3 = this.#matcher2
      this.#agent2 = this.#agent1
      this.#matcher2 = this.#matcher1
      this.#agent1 = this.#agent0
      this.#matcher1 = this.#matcher0
      this.#agent0 = key
      this.#matcher0 = m
    }
    return m
  }

  /**
   * The matcher of a string agent among the last six that got one (no token parsing, no memo, no
   * lookup), or null, and then #cachedMatcher validates the agent.
   */
  #recent(agent: string | readonly string[]): Matcher | null {
    if (agent === this.#agent0) return this.#matcher0
    if (agent === this.#agent1) return this.#matcher1
    if (agent === this.#agent2) return this.#matcher2
    if (agent === this.#agent3) return this.#matcher3
    if (agent === this.#agent4) return this.#matcher4
    if (agent === this.#agent5) return this.#matcher5
    return null
  }
}

/** A Robots' views, kept once derived; apart from the Robots, which a crawler keeps per site. */
class Derived {
  /** The body's UTF-8 (the source itself when that is bytes): offsets below point into it. */
  bytes: Uint8Array | null = null
  parsed: ParsedRobots | null = null
  lines: readonly LineReport[] | null = null
  sitemaps: readonly string[] | null = null
  directives: readonly Directive[] | null = null
  preferences: PreferenceIndex | null = null
}

/**
 * Parses a robots.txt body (a string, encoded as UTF-8, or raw bytes). Never throws on content:
 * malformed files are parsed as well as they can be, exactly as Google's parser does.
 *
 * @example
 * ```ts
 * import { parseRobots } from 'robotstxt-wasm'
 *
 * const robots = parseRobots('User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /\n')
 * robots.isAllowed('https://example.com/private/a', 'MyBot/1.0') // → false
 * robots.isAllowed('https://example.com/private/a', 'Googlebot/2.1') // → true
 * ```
 */
export function parseRobots(body: string | Uint8Array, options?: ParseOptions): Robots {
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
  // Our input rules, docs/semantics.md "Our three input rules": a number >= 1, rounded down, or Infinity.
  const maxBytes = numberOption('options.maxBytes', options?.maxBytes, NUMERIC_OPTIONS.ParseOptions.maxBytes)
  let bytes: Uint8Array
  if (typeof body === 'string') {
    // Short enough that no cut can apply: keep the string, encode it when compiling.
    if (body.length * 3 <= maxBytes) return robotsOver(body)
    if (maxBytes <= WASM_SCAN_MAX) {
      try {
        const held = robotsHeldString(body, maxBytes)
        if (held !== null) return held
      } catch (err) {
        if (!(err instanceof RangeError)) throw err
      }
    }
    bytes = encodeCut(body, maxBytes)
  }
  else if (body instanceof Uint8Array) {
    body = plainBytes(body, 'body')
    const n = Math.min(body.length, maxBytes)
    if (n <= WASM_SCAN_MAX) {
      try {
        return robotsHeld(body, n)
      } catch (err) {
        // Content never throws: when wasm memory cannot hold the body, the Robots keeps it in JS.
        if (!(err instanceof RangeError)) throw err
      }
    }
    bytes = copyPrefix(body, maxBytes)
  }
  else return fail('body', 'a string or a Uint8Array', body)
  return robotsOver(bytes)
}

const EMPTY = new Uint8Array(0)

/**
 * checkMatrix's agents as product tokens, each element read once (a TypeError naming
 * `agents[i]` for a bad one), before any wasm state is touched. A string's tokens come from the
 * agent memo, as isAllowed's do: a caller passing its crawlers' strings call after call parses
 * each once.
 */
function agentList(agents: unknown): (readonly string[])[] {
  if (!Array.isArray(agents)) fail('agents', 'an array of user-agent strings or arrays of them', agents)
  const n = agents.length
  const out = new Array<readonly string[]>(n)
  for (let i = 0; i < n; i++) {
    const a: unknown = agents[i]
    out[i] = typeof a === 'string' ? stringMemo(a, `agents[${i}]`).agent.tokens : agentTokens(a, `agents[${i}]`)
  }
  return out
}

/** Whether a Robots' source is the engine's key for its held body. */
function isHeld(src: Body): boolean {
  return typeof src !== 'string' && !(src instanceof Uint8Array) && !(src instanceof ArrayBuffer)
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
  scanLines(getEngine(), body, sink)
}

function wasmScanCopied(body: Uint8Array, sink: LineSink): void {
  scanLinesCopied(getEngine(), body, sink)
}

/** The scanner for a body: the wasm one, or its TypeScript twin for bodies over WASM_SCAN_MAX. */
function scannerFor(body: Uint8Array): (body: Uint8Array, sink: LineSink) => void {
  return body.length > WASM_SCAN_MAX ? scanBodyTs : wasmScan
}

/**
 * Feeds every line's scan record of `body` to `sink`, offsets into `body` (the lint checks that
 * need line bounds read the bytes they were given, not a Robots' body, which may be compact).
 */
export function scanBodyLines(body: Uint8Array, sink: LineSink): void {
  scannerFor(body)(body, sink)
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
