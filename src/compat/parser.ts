// robots-parser 3.0.1's API (`robotsParser(url, contents)` and its `Robot` object) on top of this
// library, so code written for robots-parser switches by changing the import string.
//
// Two halves, on purpose:
// * Verdicts and matching lines are ours (Google's semantics, RFC 9309 and Google's robots.txt documentation): `isAllowed`,
//   `isDisallowed` and `getMatchingLineNumber` ask a `Robots` parsed from the same text.
// * Everything robots-parser decides outside matching is reproduced as it does it, because callers
//   depend on those conventions and none of them changes a verdict: which URLs the file answers for
//   (protocol, host and port, with its relative-URL base and port defaults), how a caller's
//   user-agent is reduced, and the crawl-delay, sitemap and host directives (its own grouping:
//   last crawl-delay wins, sitemaps kept with duplicates, the last Host lower-cased).

import { agentTokens, fail, urlString } from '../engine/args.js'
import { namedGroups } from '../engine/parse.js'
import { parseRobots, type Robots } from '../engine/robots.js'

/**
 * A parsed robots.txt with robots-parser's methods. Create it with `robotsParser(url, contents)`.
 *
 * The return types are robots-parser's own (`isDisallowed` is declared `boolean | undefined` there
 * too, although it always returns a boolean), so code typed against robots-parser compiles unchanged.
 *
 * @example
 * ```ts
 * import robotsParser, { type Robot } from 'robotstxt-wasm/compat'
 *
 * const robots: Robot = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /a\nCrawl-delay: 3\n')
 * robots.isDisallowed('https://example.com/a/b', 'MyBot') // → true
 * robots.getCrawlDelay('MyBot') // → 3
 * ```
 */
export interface Robot {
  /**
   * True when `ua` may fetch `url` (Google's verdict); `undefined` when `url` has another protocol,
   * host or port than the robots.txt URL (robots-parser's rule, see `robotsParser`).
   * `ua` is reduced as robots-parser does (lower-cased, cut at the first `/`, trimmed); a missing or
   * empty `ua` means `*`, which gets only the rules of `User-agent: *` groups.
   */
  isAllowed(url: string | URL, ua?: string): boolean | undefined
  /** Exactly `!isAllowed(url, ua)`: `true` for a URL of another origin, as in robots-parser. */
  isDisallowed(url: string | URL, ua?: string): boolean | undefined
  /**
   * True only when a group that names `ua` disallows `url`: the `*` group is not consulted, so an
   * agent no group names is never explicitly disallowed (robots-parser's main branch, for crawlers
   * such as Google's AdsBot that obey only the groups naming them). Which groups name `ua`, and how
   * their rules decide, are Google's (as in `isAllowed`). `undefined` for a URL of another origin.
   * A missing, empty or `*` agent is robots-parser's `*` key, whose own group is then the `*` group.
   *
   * @example
   * ```ts
   * import robotsParser from 'robotstxt-wasm/compat'
   *
   * const robots = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /cart\n')
   * robots.isExplicitlyDisallowed('https://example.com/cart', 'AdsBot-Google') // → true
   * robots.isExplicitlyDisallowed('https://example.com/home', 'AdsBot-Google') // → false
   * robots.isExplicitlyDisallowed('https://example.com/home', 'OtherBot') // → false
   * robots.isDisallowed('https://example.com/home', 'OtherBot') // → true
   * ```
   */
  isExplicitlyDisallowed(url: string | URL, ua: string): boolean | undefined
  /**
   * The line (from 1) of the rule that decides `url` for `ua` (Google's choice of matching line:
   * the longest match, an allow winning a tie); -1 when no rule matched or the origin differs.
   */
  getMatchingLineNumber(url: string | URL, ua?: string): number
  /**
   * robots-parser's crawl-delay for `ua`: the last `Crawl-delay` value (parsed with `Number()`) of
   * its groups, else of the `*` groups; `undefined` if there is none.
   */
  getCrawlDelay(ua?: string): number | undefined
  /** Values of all `Sitemap:` lines in file order, duplicates kept (a fresh array per call). */
  getSitemaps(): string[]
  /** The value of the last `Host:` line, lower-cased, or `null` if there is none. */
  getPreferredHost(): string | null
}

// robots-parser resolves every URL against this base, so relative URLs (and this host itself) share
// one made-up origin: a relative robots.txt URL answers for relative URLs only.
const RELATIVE_BASE = 'http://robots-relative.samclarke.com/'

/** Protocol, host name and port of a URL as robots-parser compares them; null when unparsable. */
interface Origin {
  protocol: string
  hostname: string
  port: string
}

function originOf(url: string): Origin | null {
  let u: URL
  try {
    u = new URL(url, RELATIVE_BASE)
  } catch {
    return null
  }
  // robots-parser fills in a port when the URL shows none: 443 for https, 80 for every other scheme.
  // The URL parser keeps a scheme's default port as '' (and ignores setting it), so for http and
  // https this only equates the default port written out or not; other schemes end up with '80',
  // so a missing port, their default and 80 are one (`ftp://h`, `ftp://h:21`, `ftp://h:80`).
  if (u.port === '') u.port = u.protocol === 'https:' ? '443' : '80'
  return { protocol: u.protocol, hostname: u.hostname, port: u.port }
}

/**
 * The robots.txt URL as robots-parser reads it: `undefined` and `null` become the relative URLs
 * "undefined" and "null" (robots-parser hands them to `new URL(url, base)`, which stringifies), so
 * the file answers for relative URLs only; strings and `URL`s as given; anything else is a TypeError.
 */
function robotsUrlString(url: unknown): string {
  return url === undefined || url === null ? String(url) : urlString(url)
}

function sameOrigin(a: Origin | null, b: Origin | null): boolean {
  // An unparsable URL has no origin. (robots-parser compares two unparsable URLs as equal and then
  // throws a TypeError on the missing path; compat answers as for any other origin.)
  if (a === null || b === null) return false
  return a.protocol === b.protocol && a.hostname === b.hostname && a.port === b.port
}

/** robots-parser's user-agent reduction: lower-cased, cut at the first '/', trimmed. */
function reduceAgent(ua: string): string {
  const lower = ua.toLowerCase()
  const slash = lower.indexOf('/')
  return (slash < 0 ? lower : lower.slice(0, slash)).trim()
}

/** The caller's agent as robots-parser keys it: a missing or empty one is `*`. */
function callerAgent(ua: unknown): string {
  if (ua === undefined || ua === null || ua === '') return '*'
  if (typeof ua !== 'string') fail('ua', 'a user-agent string or undefined', ua)
  return reduceAgent(ua)
}

/** What robots-parser reports besides verdicts, gathered the way it parses the file. */
interface Directives {
  /** Agents that some allow, disallow or crawl-delay line applied to, with their last numeric delay. */
  agents: Map<string, number | undefined>
  sitemaps: string[]
  host: string | null
}

/**
 * robots-parser's reading of the lines it knows, kept only for crawl-delay, sitemaps and host:
 * every `\r\n`, `\r` or `\n` ends a line; a line is used only when it has a ':' (text from '#' is
 * dropped first); key and value are trimmed with `String.prototype.trim`; keys are compared
 * lower-cased and exactly. A user-agent line after any other directive starts a new group. An agent
 * gets an entry as soon as an allow, disallow or crawl-delay line applies to it, and an entry shadows
 * the `*` groups even without a delay (so `getCrawlDelay` does not fall back then).
 */
function scanDirectives(text: string): Directives {
  const out: Directives = { agents: new Map(), sitemaps: [], host: null }
  let current: string[] = []
  let afterOther = true
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#')
    const line = hash < 0 ? raw : raw.slice(0, hash)
    const colon = line.indexOf(':')
    if (colon < 0) continue
    const key = line.slice(0, colon).trim().toLowerCase()
    if (key === '') continue
    const value = line.slice(colon + 1).trim()
    switch (key) {
      case 'user-agent':
        if (afterOther) current = []
        if (value !== '') current.push(reduceAgent(value))
        break
      case 'allow':
      case 'disallow':
        for (const a of current) if (!out.agents.has(a)) out.agents.set(a, undefined)
        break
      case 'crawl-delay': {
        // Number('') is 0, so an empty value sets a delay of 0, as in robots-parser.
        const delay = Number(value)
        for (const a of current) {
          if (!Number.isNaN(delay)) out.agents.set(a, delay)
          else if (!out.agents.has(a)) out.agents.set(a, undefined)
        }
        break
      }
      case 'sitemap':
        if (value !== '') out.sitemaps.push(value)
        break
      case 'host':
        if (value !== '') out.host = value.toLowerCase()
        break
    }
    afterOther = key !== 'user-agent'
  }
  return out
}

class CompatRobot implements Robot {
  readonly #origin: Origin | null
  readonly #robots: Robots
  readonly #directives: Directives

  constructor(url: string, contents: string) {
    this.#origin = originOf(url)
    this.#robots = parseRobots(contents)
    this.#directives = scanDirectives(contents)
  }

  isAllowed(url: string | URL, ua?: string): boolean | undefined {
    const s = urlString(url)
    const agent = callerAgent(ua)
    if (!sameOrigin(originOf(s), this.#origin)) return undefined
    return this.#robots.isAllowed(s, tokenFor(agent))
  }

  isDisallowed(url: string | URL, ua?: string): boolean | undefined {
    return !this.isAllowed(url, ua)
  }

  isExplicitlyDisallowed(url: string | URL, ua: string): boolean | undefined {
    const s = urlString(url)
    const agent = callerAgent(ua)
    if (!sameOrigin(originOf(s), this.#origin)) return undefined
    // robots-parser looks the reduced agent up as a key: `*` finds the `*` group itself, and an
    // agent reduced to nothing ("/1.0") finds no group (Google's token of a user-agent line is
    // never empty).
    if (agent === '') return false
    if (agent !== '*' && namedGroups(this.#robots.parsed, agentTokens(agent)).length === 0) return false
    // A named agent is decided by its groups only (RFC 9309 2.2.1), so the verdict is isAllowed's.
    return !this.#robots.isAllowed(s, agent)
  }

  getMatchingLineNumber(url: string | URL, ua?: string): number {
    const s = urlString(url)
    const agent = callerAgent(ua)
    if (!sameOrigin(originOf(s), this.#origin)) return -1
    const { line } = this.#robots.check(s, tokenFor(agent))
    return line > 0 ? line : -1
  }

  getCrawlDelay(ua?: string): number | undefined {
    const { agents } = this.#directives
    const agent = callerAgent(ua)
    return agents.has(agent) ? agents.get(agent) : agents.get('*')
  }

  getSitemaps(): string[] {
    return this.#directives.sitemaps.slice()
  }

  getPreferredHost(): string | null {
    return this.#directives.host
  }
}

/**
 * The agent handed to our matcher. robots-parser's reduction can leave nothing (`"/1.0"`); it then
 * looks up an empty key that only an odd `User-agent: /x` line creates, which no Google token ever
 * equals, so `*` (global rules only) is the same answer without an empty agent's TypeError.
 */
function tokenFor(agent: string): string {
  return agent === '' ? '*' : agent
}

/**
 * A drop-in for robots-parser 3.0.1: parses `contents`, the robots.txt found at `url`, and returns
 * an object with robots-parser's methods. Verdicts and matching lines follow Google's robots.txt
 * semantics (this library's); URL-origin checks, user-agent reduction, crawl-delay, sitemaps and
 * host follow robots-parser exactly. See docs/migrating-from-robots-parser.md for every
 * difference.
 *
 * `url` decides which URLs the file answers for: those with the same protocol, host name and port
 * (a missing port counts as 443 for https and 80 otherwise; relative URLs resolve against one
 * made-up host, so a relative `url` answers for relative URLs). A `url` robots-parser accepts never
 * throws: `undefined`, `null` and text that is no absolute URL (`'null'`, `':/wom/test/'`) are
 * relative, so `isAllowed` answers `undefined` for every absolute URL while `getSitemaps`,
 * `getPreferredHost` and `getCrawlDelay` read the file as usual. `contents` may be `undefined` or
 * `null` for an empty file. Any other type of either argument is a `TypeError`.
 *
 * @example
 * ```ts
 * import robotsParser from 'robotstxt-wasm/compat' // was: from 'robots-parser'
 *
 * const robots = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /a/\nAllow: /a/index.html\n')
 * robots.isAllowed('https://example.com/a/', 'MyBot/1.0') // → true
 * robots.isAllowed('https://other.example/a/', 'MyBot/1.0') // → undefined
 * robots.getMatchingLineNumber('https://example.com/a/x', 'MyBot') // → 2
 *
 * // A robots.txt URL that is none (undefined, null, 'null'): no verdicts, but the file is still read
 * const unknown = robotsParser('null', 'Sitemap: https://example.com/s.xml\n')
 * unknown.isAllowed('https://example.com/a/') // → undefined
 * unknown.getSitemaps() // → [ 'https://example.com/s.xml' ]
 * ```
 */
export default function robotsParser(url: string | URL, contents: string): Robot {
  const u = robotsUrlString(url)
  const text: unknown = contents
  if (text !== undefined && text !== null && typeof text !== 'string') fail('contents', 'the robots.txt text as a string', text)
  return new CompatRobot(u, text ?? '')
}
