// Crawlee integration: a RobotsTxtFile with the public surface of @crawlee/utils' one, answering with
// Google's verdicts (parseRobots) and the fetch outcomes of RFC 9309 2.3.1 as Google handles them
// (fetchRobots / RobotsCache), and withGoogleRobots(), which makes a crawler class look its
// robots.txt files up through it.
// Invariants: nothing here imports crawlee statically (the subpath works, and type-checks, without it);
// a crawler made by withGoogleRobots fetches each origin's robots.txt through ONE shared RobotsCache.
// The package's names come from public.ts: the build turns that import into one of `robotstxt-wasm`
// itself, so a RobotsCache made with the main entry is the very class used here. The one internal
// helper, strictDispatcher (http/), holds no state worth sharing and is bundled in.

import { fail } from '../engine/args.js'
import { fetchRobots, parseRobots, RobotsCache, robotsOrigin, type RobotsCacheOptions, type RobotsFetch } from '../public.js'
import { strictDispatcher, type Dispatcher } from '../http/strict-decoding.js'

/**
 * How `getSitemaps` filters sitemap URLs relative to the robots.txt host (Crawlee's `EnqueueStrategy` values).
 *
 * @example
 * ```ts
 * import { RobotsTxtFile, type SitemapsStrategy } from 'robotstxt-wasm/crawlee'
 *
 * const robots = RobotsTxtFile.from('https://example.com/robots.txt', 'Sitemap: https://example.com/s.xml\nSitemap: https://cdn.example.net/s.xml\n')
 * const strategy: SitemapsStrategy = 'same-hostname'
 * robots.getSitemaps({ enqueueStrategy: strategy }) // → [ 'https://example.com/s.xml' ]
 * ```
 */
export type SitemapsStrategy = 'all' | 'same-hostname' | 'same-domain' | 'same-origin'

/**
 * Options of `getSitemaps`, `parseSitemaps` and `parseUrlsFromSitemaps` (Crawlee's `RobotsTxtFileSitemapsOptions`).
 *
 * @example
 * ```ts
 * import { RobotsTxtFile, type RobotsTxtFileSitemapsOptions } from 'robotstxt-wasm/crawlee'
 *
 * const robots = RobotsTxtFile.from('https://example.com/robots.txt', 'Sitemap: https://example.com/s.xml\nSitemap: https://cdn.example.net/s.xml\n')
 * const options: RobotsTxtFileSitemapsOptions = { enqueueStrategy: 'all' }
 * robots.getSitemaps(options) // → [ 'https://example.com/s.xml', 'https://cdn.example.net/s.xml' ]
 * ```
 */
export interface RobotsTxtFileSitemapsOptions {
  /** Keep only sitemaps matching this strategy relative to the robots.txt host; default 'same-hostname'. */
  enqueueStrategy?: SitemapsStrategy
}

/**
 * The part of Crawlee's `Sitemap` this module relies on (the full object is what Crawlee returns).
 *
 * @example
 * ```ts
 * import { RobotsTxtFile, type CrawleeSitemap } from 'robotstxt-wasm/crawlee'
 *
 * const robots = await RobotsTxtFile.find('https://example.com/')
 * const sitemap: CrawleeSitemap = await robots.parseSitemaps() // loads @crawlee/utils on first use
 * console.log(sitemap.urls.length, 'pages listed')
 * ```
 */
export interface CrawleeSitemap {
  /** Every page URL the sitemaps list. */
  urls: string[]
}

/**
 * Options of `RobotsTxtFile.find`: Crawlee's (`signal`, `timeoutMillis`) plus this package's.
 *
 * @example
 * ```ts
 * import { RobotsCache } from 'robotstxt-wasm'
 * import { RobotsTxtFile, type RobotsTxtFileFindOptions } from 'robotstxt-wasm/crawlee'
 *
 * const options: RobotsTxtFileFindOptions = { cache: new RobotsCache(), userAgent: 'MyBot', signal: AbortSignal.timeout(10_000) }
 * const robots = await RobotsTxtFile.find('https://example.com/page', undefined, options)
 * robots.isAllowed('https://example.com/private') // for MyBot, the agent given
 * ```
 */
export interface RobotsTxtFileFindOptions {
  /** Aborts the fetch: `find` rejects with `signal.reason`. */
  signal?: AbortSignal
  /** Time limit of the whole fetch in ms; default (also for 0, as in Crawlee) 10,000. Ignored when `cache` is given (the cache's own applies). */
  timeoutMillis?: number
  /** Look the file up through this cache (shared fetches, expiry, fallback to the last good copy). */
  cache?: RobotsCache
  /** The `fetch` to use (e.g. one that goes through your own proxy); ignored when `cache` is given. */
  fetch?: typeof fetch
  /** The agent `isAllowed` uses when called without one or with Crawlee's placeholder `*`; also sent as the User-Agent (unless `cache` is given). */
  userAgent?: string
}

/**
 * Options of `withGoogleRobots`: the shared cache (or the options to build it) and the crawler's agent.
 *
 * @example
 * ```ts
 * import { CheerioCrawler } from 'crawlee'
 * import { withGoogleRobots, type GoogleRobotsOptions } from 'robotstxt-wasm/crawlee'
 *
 * const options: GoogleRobotsOptions = { userAgent: 'MyBot/1.0 (+https://example.org/bot)', ttlMs: 3_600_000 }
 * const GoogleCheerioCrawler = withGoogleRobots(CheerioCrawler, options)
 * ```
 */
export interface GoogleRobotsOptions extends RobotsCacheOptions {
  /** The cache shared by the crawl; default a new `RobotsCache` built from the other options. */
  cache?: RobotsCache
}

/**
 * A class of crawler with Crawlee 3.x's protected robots.txt lookup.
 *
 * @example
 * ```ts
 * import { PlaywrightCrawler } from 'crawlee'
 * import { withGoogleRobots, type CrawlerClass } from 'robotstxt-wasm/crawlee'
 *
 * // Any Crawlee 3.x crawler class: Cheerio, Playwright, Puppeteer, Http, Basic.
 * function googleRobots<C extends CrawlerClass>(Crawler: C): C {
 *   return withGoogleRobots(Crawler, { userAgent: 'MyBot/1.0 (+https://example.org/bot)' })
 * }
 * const GooglePlaywrightCrawler = googleRobots(PlaywrightCrawler)
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CrawlerClass = abstract new (...args: any[]) => object

/** The agent Crawlee passes when the crawler declares none (`respectRobotsTxtFile: true`). */
const CRAWLEE_ANY_AGENT = '*'

/**
 * Crawlee's ways of naming no agent: its placeholder, and the empty one it hands on from
 * `respectRobotsTxtFile: { userAgent: '' }` (robots-parser reads both as `*`).
 */
function noAgent(agent: string | undefined): boolean {
  return agent === undefined || agent === CRAWLEE_ANY_AGENT || agent === ''
}

/**
 * A robots.txt file with the public surface of Crawlee's `RobotsTxtFile` (`@crawlee/utils`), whose
 * verdicts are Google's (RFC 9309 and Google's matcher) and whose fetch follows Google's rules: a
 * 5xx, a 429, a timeout or a network error disallows everything; any other 4xx allows everything;
 * up to 5 redirects; at most 500 KiB read.
 *
 * @example
 * ```ts
 * import { RobotsTxtFile } from 'robotstxt-wasm/crawlee'
 *
 * const robots = RobotsTxtFile.from('https://example.com/robots.txt', 'User-agent: *\nDisallow: /a/\nAllow: /a/index.html\n')
 * robots.isAllowed('https://example.com/a/', 'MyBot') // → true
 * robots.isAllowed('https://example.com/a/b', 'MyBot') // → false
 * ```
 */
export class RobotsTxtFile {
  readonly #url: string
  readonly #result: RobotsFetch
  readonly #proxyUrl: string | undefined
  readonly #agent: string | undefined

  private constructor(url: string, result: RobotsFetch, proxyUrl: string | undefined, agent: string | undefined) {
    this.#url = url
    this.#result = result
    this.#proxyUrl = proxyUrl
    this.#agent = agent
  }

  /**
   * Fetches the robots.txt of `url`'s origin (outcomes as in RFC 9309 2.3.1). Rejects only for a URL that is not
   * http(s), a bad argument, or an abort through `options.signal`.
   * @param url any URL of the site
   * @param proxyUrl fetch through this HTTP(S) proxy (needs the `undici` package, or pass `options.fetch`); also used for sitemaps
   * @param options `signal`, `timeoutMillis`, and this package's `cache`, `fetch` and `userAgent`
   */
  static async find(url: string, proxyUrl?: string, options?: RobotsTxtFileFindOptions): Promise<RobotsTxtFile> {
    if (proxyUrl !== undefined && (typeof proxyUrl !== 'string' || proxyUrl === '')) fail('proxyUrl', 'a proxy URL string or undefined', proxyUrl)
    if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
    const o = options ?? {}
    const agent = checkAgent(o.userAgent, 'options.userAgent')
    const robotsUrl = robotsTxtUrl(url)
    if (o.cache !== undefined) {
      if (!(o.cache instanceof RobotsCache)) fail('options.cache', 'a RobotsCache', o.cache)
      return new RobotsTxtFile(robotsUrl, await o.cache.get(url, { signal: o.signal }), proxyUrl, agent)
    }
    // Crawlee hands a timeoutMillis on only when truthy: 0 is none given, so the default applies.
    const t: unknown = o.timeoutMillis
    if (t !== undefined && t !== 0 && (typeof t !== 'number' || Number.isNaN(t) || t < 0)) fail('options.timeoutMillis', 'a number of ms > 0, or 0 or undefined for the default', t)
    const doFetch = o.fetch ?? (proxyUrl === undefined ? undefined : await proxyFetch(proxyUrl))
    const result = await fetchRobots(url, { fetch: doFetch, signal: o.signal, timeoutMs: t === 0 ? undefined : o.timeoutMillis, userAgent: agent })
    return new RobotsTxtFile(robotsUrl, result, proxyUrl, agent)
  }

  /**
   * A robots.txt given as text, nothing fetched.
   * @param url the URL of the robots.txt (its origin is the one the rules govern)
   * @param content the file's text
   * @param proxyUrl used by the sitemap methods
   */
  static from(url: string, content: string, proxyUrl?: string): RobotsTxtFile {
    if (typeof content !== 'string') fail('content', 'the robots.txt text as a string', content)
    const robotsUrl = robotsTxtUrl(url)
    const origin = robotsOrigin(url)
    const robots = parseRobots(content)
    const now = Date.now()
    const result: RobotsFetch = {
      origin, status: 200, outcome: 'ok', robots, fetchedAt: now, expiresAt: Infinity, unreachableSince: null, url: robotsUrl, redirects: 0, error: null,
      isAllowed: (u, a) => robots.isAllowed(u, a),
    }
    return new RobotsTxtFile(robotsUrl, result, proxyUrl, undefined)
  }

  /** What the fetch found: 'ok' (rules apply), 'allow-all' (4xx, no file) or 'disallow-all' (5xx, 429, network). */
  get outcome(): RobotsFetch['outcome'] {
    return this.#result.outcome
  }

  /**
   * True when `userAgent` may fetch `url`, as Google decides. `userAgent` is a product token or a
   * full User-Agent string; omitted, `*` or '' (Crawlee's "no agent"), the agent given to `find` (or by
   * `withGoogleRobots`) is used, else the `*` group. A URL of another origin is allowed (this file
   * does not govern it), as in Crawlee.
   */
  isAllowed(url: string, userAgent?: string): boolean {
    const agent = noAgent(userAgent) ? (this.#agent ?? CRAWLEE_ANY_AGENT) : userAgent!
    let origin: string
    try {
      origin = robotsOrigin(url)
    } catch {
      return true
    }
    if (origin !== this.#result.origin) return true
    return this.#result.isAllowed(url, agent)
  }

  /**
   * The sitemap URLs the file lists, kept when they match `options.enqueueStrategy` relative to the
   * robots.txt host (default 'same-hostname'; 'all' keeps every http(s) one). Other schemes are dropped.
   * 'same-domain' compares the last two host labels (Crawlee uses the public-suffix list there), or
   * the origins for an IP address; a trailing dot on a host name is ignored, as in Crawlee.
   */
  getSitemaps(options?: RobotsTxtFileSitemapsOptions): string[] {
    const strategy = options?.enqueueStrategy ?? 'same-hostname'
    if (!['all', 'same-hostname', 'same-domain', 'same-origin'].includes(strategy)) {
      fail('options.enqueueStrategy', "'all', 'same-hostname', 'same-domain' or 'same-origin'", strategy)
    }
    const base = new URL(this.#url)
    const kept: string[] = []
    for (const s of this.#result.robots.sitemaps) {
      let u: URL
      try {
        u = new URL(s)
      } catch {
        continue
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') continue
      if (strategy === 'same-hostname' && hostName(u) !== hostName(base)) continue
      if (strategy === 'same-origin' && (u.protocol !== base.protocol || hostName(u) !== hostName(base) || u.port !== base.port)) continue
      if (strategy === 'same-domain' && !sameDomain(u, base)) continue
      kept.push(s)
    }
    return kept
  }

  /** Loads every sitemap `getSitemaps(options)` lists with Crawlee's `Sitemap` (needs `@crawlee/utils`). */
  async parseSitemaps(options?: RobotsTxtFileSitemapsOptions): Promise<CrawleeSitemap> {
    const urls = this.getSitemaps(options)
    let utils: { Sitemap?: { load(urls: string[], proxyUrl?: string, options?: object): Promise<CrawleeSitemap> } }
    try {
      utils = await import('@crawlee/utils')
    } catch {
      throw new Error('robotstxt-wasm/crawlee: parseSitemaps() and parseUrlsFromSitemaps() need the @crawlee/utils package (npm install @crawlee/utils, or crawlee)')
    }
    if (typeof utils.Sitemap?.load !== 'function') throw new Error('robotstxt-wasm/crawlee: this @crawlee/utils has no Sitemap.load')
    return utils.Sitemap.load(urls, this.#proxyUrl, options)
  }

  /** Every page URL of the listed sitemaps: `(await parseSitemaps(options)).urls`. */
  async parseUrlsFromSitemaps(options?: RobotsTxtFileSitemapsOptions): Promise<string[]> {
    return (await this.parseSitemaps(options)).urls
  }
}

/**
 * A subclass of `CrawlerClass` (any Crawlee 3.x crawler: `CheerioCrawler`, `PlaywrightCrawler`, ...)
 * whose `respectRobotsTxtFile` uses Google's verdicts and fetch outcomes, through one `RobotsCache`
 * shared by every instance of the subclass (24 h expiry, retries after failures, optional `storage`).
 * The agent is `respectRobotsTxtFile.userAgent` when the crawler sets one, else `options.userAgent`
 * (also sent as the robots.txt request's User-Agent), else the `*` group.
 *
 * @example
 * ```ts
 * import { CheerioCrawler } from 'crawlee'
 * import { withGoogleRobots } from 'robotstxt-wasm/crawlee'
 *
 * const crawler = new (withGoogleRobots(CheerioCrawler))({
 *   respectRobotsTxtFile: { userAgent: 'MyBot' }, // the group of MyBot, as Google selects it
 *   async requestHandler({ enqueueLinks }) { await enqueueLinks() },
 * })
 * await crawler.run(['https://example.com/'])
 * ```
 */
export function withGoogleRobots<C extends CrawlerClass>(CrawlerClass: C, options?: GoogleRobotsOptions): C {
  if (typeof CrawlerClass !== 'function') fail('CrawlerClass', 'a Crawlee crawler class', CrawlerClass)
  if (typeof (CrawlerClass.prototype as { getRobotsTxtFileForUrl?: unknown }).getRobotsTxtFileForUrl !== 'function') {
    fail('CrawlerClass', 'a crawler class with getRobotsTxtFileForUrl (Crawlee >= 3.13.1)', CrawlerClass)
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
  const { cache: given, ...cacheOptions } = options ?? {}
  if (given !== undefined && !(given instanceof RobotsCache)) fail('options.cache', 'a RobotsCache', given)
  // From the copy: a getter read again could give the crawl an agent the cache was not built with.
  const declared = checkAgent(cacheOptions.userAgent, 'options.userAgent')
  const cache = given ?? new RobotsCache(cacheOptions)

  // @ts-expect-error TS2545: a mixin over an abstract constructor type; C's own constructor is inherited.
  class GoogleRobotsCrawler extends CrawlerClass {
    async getRobotsTxtFileForUrl(url: string): Promise<RobotsTxtFile | undefined> {
      const respect = (this as { respectRobotsTxtFile?: boolean | { userAgent?: string } }).respectRobotsTxtFile
      if (!respect) return undefined
      const agent = typeof respect === 'object' && typeof respect.userAgent === 'string' && respect.userAgent !== '' ? respect.userAgent : declared
      try {
        return await RobotsTxtFile.find(url, undefined, { cache, userAgent: agent })
      } catch {
        // Not an http(s) URL (or not a URL): Crawlee's own lookup also leaves such URLs unfiltered.
        return undefined
      }
    }
  }
  Object.defineProperty(GoogleRobotsCrawler, 'name', { value: `GoogleRobots${CrawlerClass.name}` })
  return GoogleRobotsCrawler as unknown as C
}

/** The robots.txt URL of `url`'s origin (robotsOrigin validates the URL: http(s) only). */
function robotsTxtUrl(url: string): string {
  return `${robotsOrigin(url)}/robots.txt`
}

function checkAgent(agent: unknown, param: string): string | undefined {
  if (agent !== undefined && (typeof agent !== 'string' || agent === '')) fail(param, 'a non-empty user-agent string or undefined', agent)
  return agent
}

/** The host name without the trailing dot of a fully qualified name: `example.com.` is `example.com`. */
function hostName(u: URL): string {
  return u.hostname.endsWith('.') ? u.hostname.slice(0, -1) : u.hostname
}

/**
 * Crawlee's 'same-domain': the same registrable domain, approximated by the last two labels; an IP
 * address has no domain, and its last labels ("0.1") say nothing, so its origin must match.
 */
function sameDomain(u: URL, base: URL): boolean {
  const host = hostName(base)
  // The URL parser writes an IPv4 host in dotted decimal and an IPv6 one in brackets.
  if (host.startsWith('[') || /^[0-9]+(\.[0-9]+){3}$/.test(host)) return u.origin === base.origin
  const lastLabels = (h: string): string => h.split('.').slice(-2).join('.')
  return lastLabels(hostName(u)) === lastLabels(host)
}

/** A fetch that goes through `proxyUrl`, built on undici (Node's own fetch has no proxy option). */
async function proxyFetch(proxyUrl: string): Promise<typeof fetch> {
  let undici: { ProxyAgent: new (url: string) => unknown; fetch: (url: string, init: object) => Promise<Response> }
  try {
    undici = await import('undici') as unknown as typeof undici
  } catch {
    throw new Error('robotstxt-wasm/crawlee: RobotsTxtFile.find(url, proxyUrl) needs the undici package (npm install undici), or options.fetch')
  }
  const proxy = new undici.ProxyAgent(proxyUrl) as Dispatcher
  // undici decodes a compressed body leniently; the strict wrapper makes a cut one fail.
  const dispatcher = strictDispatcher(proxy) ?? proxy
  return ((url: string, init: RequestInit) => undici.fetch(url, { ...init, dispatcher })) as unknown as typeof fetch
}
