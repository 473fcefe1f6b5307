// Crawlee integration: a RobotsTxtFile with the public surface of @crawlee/utils' one, answering with
// Google's verdicts (parseRobots) and the fetch outcomes of RFC 9309 2.3.1 as Google handles them
// (fetchRobots / RobotsCache), and withGoogleRobots(), which makes a crawler class look its
// robots.txt files up through it.
// Invariants: nothing here imports crawlee statically (the subpath works, and type-checks, without it);
// a crawler made by withGoogleRobots fetches each origin's robots.txt through ONE shared RobotsCache;
// such a crawler never fetches a page while its origin's robots.txt is unavailable (a request of such
// an origin is held and tried again after the retry time, a bounded number of times, then skipped).
// The package's names come from public.ts: the build turns that import into one of `robotstxt-wasm`
// itself, so a RobotsCache made with the main entry is the very class used here. The one internal
// helper, strictDispatcher (http/), holds no state worth sharing and is bundled in.

import { createRequire } from 'node:module'
import { fail, NUMERIC_OPTIONS, numberOption } from '../engine/args.js'
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
  /**
   * How many more fetches of an unavailable robots.txt (429, 5xx, a timeout, a network error) a
   * request of its origin waits for, each at the retry time the failed fetch set (`retryMs`, or a
   * `Retry-After`), before it is skipped as disallowed; default 3, 0 skips at once.
   */
  unavailableRetries?: number
  /** The longest wait for such a retry, in ms: a retry time further away skips the request at once; default 10 minutes. */
  maxUnavailableWaitMs?: number
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

/**
 * The crawler's RobotsTxtFile for a lookup's result; `admitUnavailable` makes it admit the origin's
 * URLs while the file is unavailable (the crawler holds them when they are dequeued).
 */
let fileOf!: (url: string, result: RobotsFetch, agent: string | undefined, admitUnavailable: boolean) => RobotsTxtFile

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
  /** Admit the origin's URLs while its robots.txt is unavailable (a crawler that holds them at dequeue). */
  readonly #admitUnavailable: boolean

  private constructor(url: string, result: RobotsFetch, proxyUrl: string | undefined, agent: string | undefined, admitUnavailable = false) {
    this.#url = url
    this.#result = result
    this.#proxyUrl = proxyUrl
    this.#agent = agent
    this.#admitUnavailable = admitUnavailable
  }

  // The crawler's factory (see fileOf): a static block, so that no caller of the public class reaches it.
  static {
    fileOf = (url, result, agent, admitUnavailable) => new RobotsTxtFile(robotsTxtUrl(url), result, undefined, agent, admitUnavailable)
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
    const timeoutRule = NUMERIC_OPTIONS.RobotsTxtFileFindOptions.timeoutMillis
    const timeoutMs = numberOption('options.timeoutMillis', o.timeoutMillis, timeoutRule)
    const doFetch = o.fetch ?? (proxyUrl === undefined ? undefined : await proxyFetch(proxyUrl))
    const result = await fetchRobots(url, { fetch: doFetch, signal: o.signal, timeoutMs, userAgent: agent })
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
    if (this.#admitUnavailable && unavailable(this.#result)) return true
    return this.#result.isAllowed(url, agent)
  }

  /**
   * The sitemap URLs the file lists, kept when they match `options.enqueueStrategy` relative to the
   * robots.txt host (default 'same-hostname'; 'all' keeps every http(s) one). Other schemes are dropped.
   * 'same-domain' compares registrable domains as Crawlee does: the public-suffix list through `tldts`
   * (the library Crawlee uses, installed with it), ICANN suffixes only, so `www.example.co.uk` and
   * `other.co.uk` differ while `alice.github.io` and `bob.github.io` (a private suffix) are one
   * domain; a host with no registrable domain (an IP address, `localhost`) must have the same origin.
   * A trailing dot on a host name is ignored by the other strategies, as in Crawlee.
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
 * A request whose origin's robots.txt is unavailable (429, 5xx, a timeout, a network error, with no
 * good copy cached) is not dropped: it is enqueued, and held when Crawlee dequeues it, as Crawlee
 * holds one for `sameDomainDelaySecs`, until the retry time the failed fetch set (`expiresAt`); then
 * the robots.txt is fetched again. After `unavailableRetries` more failures (default 3), or when the
 * retry time is more than `maxUnavailableWaitMs` away (default 10 minutes), its requests are skipped
 * as Crawlee skips a disallowed one (`onSkippedRequest` with reason 'robotsTxt'), so a site down for
 * good ends the run. No page is fetched while its robots.txt is unavailable.
 *
 * @example
 * ```ts
 * import { CheerioCrawler } from 'crawlee'
 * import { withGoogleRobots } from 'robotstxt-wasm/crawlee'
 *
 * const crawler = new (withGoogleRobots(CheerioCrawler, { unavailableRetries: 2 }))({
 *   respectRobotsTxtFile: { userAgent: 'MyBot' }, // the group of MyBot, as Google selects it
 *   async requestHandler({ enqueueLinks }) { await enqueueLinks() },
 * })
 * await crawler.run(['https://example.com/'])
 * ```
 */
export function withGoogleRobots<C extends CrawlerClass>(CrawlerClass: C, options?: GoogleRobotsOptions): C {
  if (typeof CrawlerClass !== 'function') fail('CrawlerClass', 'a Crawlee crawler class', CrawlerClass)
  const base = CrawlerClass.prototype as CrawleeHooks
  if (typeof base.getRobotsTxtFileForUrl !== 'function') {
    fail('CrawlerClass', 'a crawler class with getRobotsTxtFileForUrl (Crawlee >= 3.13.1)', CrawlerClass)
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
  const { cache: given, unavailableRetries, maxUnavailableWaitMs, ...cacheOptions } = options ?? {}
  if (given !== undefined && !(given instanceof RobotsCache)) fail('options.cache', 'a RobotsCache', given)
  // From the copy: a getter read again could give the crawl an agent the cache was not built with.
  const declared = checkAgent(cacheOptions.userAgent, 'options.userAgent')
  const rules = NUMERIC_OPTIONS.GoogleRobotsOptions
  const retries = numberOption('options.unavailableRetries', unavailableRetries, rules.unavailableRetries)
  const maxWait = numberOption('options.maxUnavailableWaitMs', maxUnavailableWaitMs, rules.maxUnavailableWaitMs)
  const cache = given ?? new RobotsCache(cacheOptions)
  const origins = new OriginStates()
  // Holding needs Crawlee's dequeue hook (delayRequest, called just before its robots.txt check of
  // a dequeued request): without it every check is the strict one, and an unavailable file drops.
  const holds = typeof base.delayRequest === 'function' && typeof base.isAllowedBasedOnRobotsTxtFile === 'function'

  // @ts-expect-error TS2545: a mixin over an abstract constructor type; C's own constructor is inherited.
  class GoogleRobotsCrawler extends CrawlerClass {
    /** The result delayRequest judged a dequeued request by, for the robots.txt check that follows it. */
    #judged: { url: string; result: RobotsFetch } | null = null
    /** Results looked up for held requests (by unique key), each used once, at the request's next dequeue. */
    readonly #lookedUp = new Map<string, RobotsFetch>()

    /** The agent for the crawl, or null when the crawler does not respect robots.txt. */
    #agent(): string | undefined | null {
      const respect = (this as { respectRobotsTxtFile?: boolean | { userAgent?: string } }).respectRobotsTxtFile
      if (!respect) return null
      return typeof respect === 'object' && typeof respect.userAgent === 'string' && respect.userAgent !== '' ? respect.userAgent : declared
    }

    async getRobotsTxtFileForUrl(url: string): Promise<RobotsTxtFile | undefined> {
      const agent = this.#agent()
      if (agent === null) return undefined
      const result = await lookup(url)
      if (result === undefined) return undefined
      return fileOf(url, result, agent, holds)
    }

    // Crawlee asks this before a URL is enqueued (addRequests) and of each dequeued request, just
    // after delayRequest: only the second may let a page be fetched, so only it is strict.
    async isAllowedBasedOnRobotsTxtFile(url: string): Promise<boolean> {
      const judged = this.#judged
      this.#judged = null
      const agent = this.#agent()
      if (agent === null) return true
      // A file's isAllowed without an agent takes the file's own, the crawl's agent.
      if (judged !== null && judged.url === url) return fileOf(url, judged.result, agent, false).isAllowed(url)
      const file = await this.getRobotsTxtFileForUrl(url)
      return file === undefined || file.isAllowed(url)
    }

    delayRequest(request: QueuedRequest, source: RequestSource): boolean {
      if (base.delayRequest?.call(this, request, source) === true) return true
      if (!holds || this.#agent() === null) return false
      let origin: string
      try {
        origin = robotsOrigin(request.url)
      } catch {
        return false // not http(s): Crawlee's own lookup leaves it unfiltered too
      }
      const now = cache.now()
      const result = this.#lookedUp.get(request.uniqueKey) ?? origins.fresh(origin, now)
      this.#lookedUp.delete(request.uniqueKey)
      if (result === undefined) {
        // Not known, or expired: look the file up first, then hand the request back to the queue.
        this.#hold(request, source, 0)
        return true
      }
      const wait = result.expiresAt - now
      if (unavailable(result) && origins.failures(origin) <= retries && wait <= maxWait) {
        origins.logOnce(origin, result, () => this.#warn(`robots.txt of ${origin} unavailable (${why(result)}): its requests wait for a fetch at ${new Date(result.expiresAt).toISOString()} (retry ${origins.failures(origin)} of ${retries})`))
        this.#hold(request, source, Math.max(wait, 1))
        return true
      }
      if (unavailable(result)) {
        const reason = wait > maxWait ? `its retry time is more than maxUnavailableWaitMs (${maxWait} ms) away` : `${origins.failures(origin)} fetches failed`
        origins.logOnce(origin, result, () => this.#warn(`robots.txt of ${origin} unavailable (${why(result)}): ${reason}, so its requests are skipped`))
      }
      this.#judged = { url: request.url, result }
      return false
    }

    /**
     * Hands `request` back to the queue after `ms` (at most HOLD_STEP_MS at a time, then it is
     * held again at its next dequeue); when the wait is over, its robots.txt is looked up first,
     * and that result is what its next dequeue is judged by.
     */
    #hold(request: QueuedRequest, source: RequestSource, ms: number): void {
      const step = Math.min(ms, HOLD_STEP_MS)
      const timer = setTimeout(() => {
        void (async () => {
          if (step === ms) {
            const result = await lookup(request.url)
            if (result !== undefined) this.#lookedUp.set(request.uniqueKey, result)
          }
          await source.reclaimRequest(request, { forefront: request.userData?.__crawlee?.forefront })
        })().catch((e: unknown) => this.#warn(`could not hand ${request.url} back to the request queue: ${String(e)}`))
      }, step)
      // The crawler's own timers keep the process alive while it runs; these must not after it stops.
      ;(timer as { unref?: () => void }).unref?.()
    }

    #warn(message: string): void {
      (this as { log?: { warning?: (m: string) => void } }).log?.warning?.(message)
    }
  }

  /** The origin's robots.txt through the shared cache, noted for the hold decisions; undefined for a URL that is not http(s). */
  async function lookup(url: string): Promise<RobotsFetch | undefined> {
    let result: RobotsFetch
    try {
      result = await cache.get(url)
    } catch {
      // Not an http(s) URL (or not a URL): Crawlee's own lookup also leaves such URLs unfiltered.
      return undefined
    }
    origins.observe(result)
    return result
  }

  Object.defineProperty(GoogleRobotsCrawler, 'name', { value: `GoogleRobots${CrawlerClass.name}` })
  return GoogleRobotsCrawler as unknown as C
}

/** The parts of Crawlee's BasicCrawler the subclass builds on (protected there). */
interface CrawleeHooks {
  getRobotsTxtFileForUrl?: unknown
  isAllowedBasedOnRobotsTxtFile?: unknown
  delayRequest?: (this: unknown, request: QueuedRequest, source: RequestSource) => boolean
}

/** The part of Crawlee's `Request` a hold uses. */
interface QueuedRequest {
  uniqueKey: string
  url: string
  userData?: { __crawlee?: { forefront?: boolean } }
}

/** The part of Crawlee's request queue (or request manager) a hold uses. */
interface RequestSource {
  reclaimRequest(request: QueuedRequest, options?: { forefront?: boolean }): Promise<unknown>
}

/**
 * The longest a held request stays out of the queue at a time. Crawlee's request queue locks a
 * dequeued request for max(requestHandlerTimeoutSecs + 5, 60) s and hands it out again once the
 * lock expires, so a longer wait is made of several holds, each ending with the request back in
 * the queue.
 */
const HOLD_STEP_MS = 30_000
/** Origins whose state is kept; the least recently observed go first (a dropped one is looked up again). */
const MAX_ORIGIN_STATES = 10_000

/** A fetch that found no usable robots.txt and no good copy to fall back on. */
function unavailable(result: RobotsFetch): boolean {
  return result.outcome === 'disallow-all'
}

function why(result: RobotsFetch): string {
  return result.status === null ? 'no response' : `status ${result.status}`
}

/**
 * Per origin, the last robots.txt result a crawler of the subclass saw and how many fetches in a
 * row found it unavailable (each distinct result counts once), and the last failure logged.
 */
class OriginStates {
  readonly #states = new Map<string, { result: RobotsFetch; failures: number; logged: RobotsFetch | null }>()

  observe(result: RobotsFetch): void {
    const prev = this.#states.get(result.origin)
    if (prev?.result === result) return
    const failures = !unavailable(result) ? 0 : prev !== undefined && unavailable(prev.result) ? prev.failures + 1 : 1
    this.#states.delete(result.origin)
    this.#states.set(result.origin, { result, failures, logged: prev?.logged ?? null })
    if (this.#states.size > MAX_ORIGIN_STATES) this.#states.delete(this.#states.keys().next().value!)
  }

  /** The origin's last result while it is still valid at `now`. */
  fresh(origin: string, now: number): RobotsFetch | undefined {
    const state = this.#states.get(origin)
    return state !== undefined && now < state.result.expiresAt ? state.result : undefined
  }

  /** Fetches in a row that found the origin's robots.txt unavailable (0 after a good one). */
  failures(origin: string): number {
    return this.#states.get(origin)?.failures ?? 0
  }

  /** Runs `log` once per failed result of the origin. */
  logOnce(origin: string, result: RobotsFetch, log: () => void): void {
    const state = this.#states.get(origin)
    if (state === undefined || state.logged === result) return
    state.logged = result
    log()
  }
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

/** tldts' `getDomain`, as Crawlee calls it. */
type GetDomain = (hostname: string, options: { mixedInputs: boolean }) => string | null

/** tldts once loaded (null: not found); undefined until the first 'same-domain' asks for it. */
let tldtsGetDomain: GetDomain | null | undefined

/**
 * tldts, loaded on first use and synchronously (`getSitemaps` is synchronous in Crawlee too): from
 * this package's place (an install with crawlee has it, and it is an optional peer of this entry),
 * else from where crawlee's own packages find theirs.
 */
function loadGetDomain(): GetDomain | null {
  const here = createRequire(typeof __filename === 'string' ? __filename : import.meta.url)
  for (const via of [null, '@crawlee/utils', 'crawlee', '@crawlee/basic']) {
    try {
      const from = via === null ? here : createRequire(here.resolve(via))
      const tldts = from('tldts') as { getDomain?: unknown }
      if (typeof tldts.getDomain === 'function') return tldts.getDomain as GetDomain
    } catch {
      // Not installed there: try the next place.
    }
  }
  return null
}

/**
 * Crawlee's 'same-domain' (`matchesEnqueueStrategy` in @crawlee/utils): the registrable domains of
 * both hosts by the public-suffix list, with tldts' defaults (ICANN section; private suffixes such
 * as github.io are not boundaries); a host without one (an IP address) must have the same origin.
 */
function sameDomain(u: URL, base: URL): boolean {
  if (tldtsGetDomain === undefined) tldtsGetDomain = loadGetDomain()
  if (tldtsGetDomain === null) {
    throw new Error("robotstxt-wasm/crawlee: getSitemaps({ enqueueStrategy: 'same-domain' }) needs the tldts package, which crawlee installs (npm install crawlee, or tldts)")
  }
  const domain = tldtsGetDomain(base.hostname, { mixedInputs: false })
  if (domain === null || domain === '') return u.origin === base.origin
  return domain === tldtsGetDomain(u.hostname, { mixedInputs: false })
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
