// checkUrls: a crawler's frontier (URLs of any mix of hosts) in, one verdict per URL out. It owns
// the options and the loop that joins three parts, each with one job: the input reader
// (slab-reader.ts), the origin-lookup scheduler (origin-lookups.ts: one robots.txt lookup per
// origin, URLs matched in batches) and the release of verdicts in input order or as they come
// (flow/release.ts, the pool's too).
//
// Bounds, whatever the input size: at most `concurrency` robots.txt lookups run at once; at most
// `maxPending` URLs are read and not yet handed out (waiting on an origin, or, in input order,
// waiting behind one that does): at the bound, reading the input pauses until the consumer takes
// verdicts. The scheduler's own bounds are in origin-lookups.ts.

import { agentTokens, fail, NUMERIC_OPTIONS, numberOption } from '../engine/args.js'
import { ArrivalOrder, InputOrder, type Release } from '../flow/release.js'
import { Wake } from '../flow/wake.js'
import { RobotsCache } from './cache.js'
import { OriginLookups, type UrlVerdict } from './origin-lookups.js'
import { SlabReader } from './slab-reader.js'
import { defaultUserAgent, inBrowser } from './user-agent.js'

export type { UrlVerdict } from './origin-lookups.js'

/**
 * Options of `checkUrls`.
 *
 * @example
 * ```ts
 * import { checkUrls, RobotsCache, type CheckUrlsOptions } from 'robotstxt-wasm'
 *
 * const options: CheckUrlsOptions = {
 *   agent: 'MyBot/1.0',
 *   cache: new RobotsCache({ userAgent: 'MyBot/1.0 (+https://example.org/bot)' }),
 *   concurrency: 32, // robots.txt lookups at once
 *   ordered: false, // hand out each verdict as soon as it is known
 * }
 * for await (const v of checkUrls(['https://example.com/a', 'https://example.org/b'], options)) console.log(v.allowed, v.url)
 * ```
 */
export interface CheckUrlsOptions {
  /** The crawler's user-agent (or product tokens), as for `Robots.isAllowed`. */
  agent: string | readonly string[]
  /**
   * Where robots.txt results come from and are kept. Default: a new `RobotsCache` whose fetches send
   * `User-Agent: AGENT (compatible; robotstxt-wasm/VERSION; +https://www.npmjs.com/package/robotstxt-wasm)`,
   * AGENT being `agent` (its first string when an array).
   */
  cache?: RobotsCache
  /** Robots.txt lookups at once; default 16. */
  concurrency?: number
  /** URLs read but not yet handed out; default 10,000. */
  maxPending?: number
  /** Results in input order (default); `false` hands each out as soon as it is known. */
  ordered?: boolean
  /**
   * An undici dispatcher (a proxy) for the robots.txt fetches of the cache made when no `cache` is
   * given (see `FetchOptions.dispatcher`); with a `cache`, give it to that cache instead.
   */
  dispatcher?: unknown
}

/** URLs read before they are classified and matched together. */
const SLAB = 1024

/**
 * The verdict for every URL of `urls` (strings or `URL`s, of any hosts; an `Iterable` or an
 * `AsyncIterable`), as an `AsyncIterable`. Each origin's robots.txt is looked up once through the
 * cache; an input that is not an http(s) URL gives a record with `error` and never ends the
 * stream. The stream ends with an error only when the cache's lookups are aborted.
 *
 * @example
 * ```ts
 * import { checkUrls } from 'robotstxt-wasm'
 *
 * const frontier = ['https://example.com/', 'https://example.com/private/x', 'https://example.org/']
 * for await (const v of checkUrls(frontier, { agent: 'MyBot' })) {
 *   if (v.allowed) console.log('crawl', v.url)
 * }
 * ```
 */
export function checkUrls(
  urls: Iterable<string | URL> | AsyncIterable<string | URL>,
  options: CheckUrlsOptions,
): AsyncIterable<UrlVerdict> {
  const isIterable = urls !== null && typeof urls === 'object' &&
    (typeof (urls as Iterable<unknown>)[Symbol.iterator] === 'function' || typeof (urls as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')
  if (!isIterable || typeof urls === 'string') fail('urls', 'an Iterable or AsyncIterable of URL strings or URLs', urls)
  if (options === null || typeof options !== 'object') fail('options', 'an object with at least { agent }', options)
  // Each option read once, and an agent array copied: the agent is used long after this call, in a
  // fetch callback, where a changed or re-read agent that no longer validates threw uncaught.
  const given: unknown = options.agent
  const agent = Array.isArray(given) ? Object.freeze(Array.from(given as unknown[])) : given
  agentTokens(agent, 'options.agent')
  const givenCache = options.cache
  const dispatcher: unknown = options.dispatcher
  if (givenCache !== undefined && dispatcher !== undefined) fail('options.dispatcher', 'no dispatcher next to options.cache (give it to that RobotsCache)', dispatcher)
  // A fetch made for the agent names it, and this package: never the runtime's default User-Agent.
  const cache = givenCache ?? new RobotsCache({ userAgent: inBrowser() ? undefined : defaultUserAgent(agent as string | readonly string[]), dispatcher })
  if (!(cache instanceof RobotsCache)) fail('options.cache', 'a RobotsCache', givenCache)
  const rules = NUMERIC_OPTIONS.CheckUrlsOptions
  const concurrency = numberOption('options.concurrency', options.concurrency, rules.concurrency)
  const maxPending = numberOption('options.maxPending', options.maxPending, rules.maxPending)
  const ordered: unknown = options.ordered
  if (ordered !== undefined && typeof ordered !== 'boolean') fail('options.ordered', 'a boolean', ordered)
  const config: Config = { agent: agent as string | readonly string[], cache, concurrency, maxPending, ordered: ordered !== false }
  return { [Symbol.asyncIterator]: () => stream(urls, config) }
}

interface Config {
  agent: string | readonly string[]
  cache: RobotsCache
  concurrency: number
  maxPending: number
  ordered: boolean
}

async function* stream(urls: Iterable<string | URL> | AsyncIterable<string | URL>, c: Config): AsyncGenerator<UrlVerdict> {
  const wake = new Wake()
  const out: Release<UrlVerdict> = c.ordered ? new InputOrder(c.maxPending) : new ArrivalOrder(c.maxPending)
  const input = new SlabReader(urls, wake)
  const lookups = new OriginLookups(c.agent, c.cache, c.concurrency, out, wake)
  try {
    for (;;) {
      const failed = lookups.failure
      if (failed !== null) throw failed.error
      while (out.ready()) yield out.release()
      if (input.ended && out.outstanding === 0) return
      if (!input.ended && out.room > 0) {
        // Waits on the input, or for a lookup to settle: then the slab read so far, if any.
        const values = await input.read(Math.min(SLAB, out.room))
        if (values.length > 0) lookups.add(values, out.number(values.length))
        continue
      }
      await wake.race(null)
    }
  } finally {
    lookups.close()
    await input.close()
  }
}
