// fetchRobots: one robots.txt fetch on the platform `fetch` (Node >= 18, Workers, browsers), turned
// into an outcome as RFC 9309 2.3.1 and Google's documented handling say. The cache (cache.ts) builds on `fetchRaw`.

import { fail, NUMERIC_OPTIONS, numberOption } from '../engine/args.js'
import { classifyFetchError, fetchError } from './fetch-error.js'
import { locateRobots } from './origin.js'
import {
  DEFAULT_LIFETIMES, discard, failure, MAX_REDIRECTS, raceAbort, readFinal, resultOf, type RawFetch, type RobotsFetch,
} from './response.js'
import { platformStrictDispatcher, strictDispatcher, type Dispatcher } from './strict-decoding.js'
import { defaultUserAgent, inBrowser } from './user-agent.js'

export {
  DAY_MS, FetchResult, failureLifetime, isSuccess, noRobots, raceAbort, resultOf,
  statusOutcome, successLifetime, type Lifetimes, type RawFetch, type RobotsFetch, type RobotsOutcome,
} from './response.js'

/**
 * Options of `fetchRobots` (and of `RobotsCache`, which passes them to every fetch).
 *
 * @example
 * ```ts
 * import { fetchRobots, type FetchOptions } from 'robotstxt-wasm'
 *
 * const options: FetchOptions = { userAgent: 'MyBot/1.0 (+https://example.org/bot)', timeoutMs: 5_000, signal: AbortSignal.timeout(30_000) }
 * const site = await fetchRobots('https://example.com/', options)
 * ```
 */
export interface FetchOptions {
  /** The `fetch` to use; default `globalThis.fetch` (looked up at each fetch). */
  fetch?: typeof fetch
  /** Time limit of the whole fetch, redirects and body included, in ms; default 10,000. */
  timeoutMs?: number
  /**
   * Sent as the `User-Agent` request header. Default: `robotstxt-wasm/VERSION (+https://www.npmjs.com/package/robotstxt-wasm)`,
   * or, from `checkUrls` without a cache, `AGENT (compatible; robotstxt-wasm/VERSION; +https://www.npmjs.com/package/robotstxt-wasm)`;
   * in browsers, which name themselves, nothing is added.
   */
  userAgent?: string
  /** Aborts the fetch: the promise rejects with `signal.reason`, and nothing is cached. */
  signal?: AbortSignal
  /**
   * An undici dispatcher for every request, such as undici's `ProxyAgent` or `EnvHttpProxyAgent`
   * (a proxy) or an `Agent` with its own connection options. Given to Node's own fetch, or passed
   * on to `options.fetch` in its `init` (undici's `fetch` takes it there). Without `options.fetch`,
   * a platform whose fetch is not undici's (Bun, Deno, Workers, browsers) cannot use one: a TypeError.
   */
  dispatcher?: unknown
}

/** Validated `FetchOptions`. */
export interface FetchConfig {
  fetch: typeof fetch | undefined
  timeoutMs: number
  headers: Record<string, string>
  signal: AbortSignal | undefined
  dispatcher: Dispatcher | undefined
  /** Read a 2xx body on past the BODY_LIMIT cut, counting without keeping, up to this many bytes (the survey's `bytes`). */
  countTo?: number
}

/** True for an AbortSignal-like object. */
export function isAbortSignal(value: unknown): value is AbortSignal {
  // Duck-typed: a signal from another realm (or a polyfill) is as good as a local one.
  return typeof value === 'object' && value !== null && typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function' && typeof (value as AbortSignal).removeEventListener === 'function'
}

/** Validates the FetchOptions fields of `options` (an object already checked by the caller). */
export function fetchConfig(options: FetchOptions | undefined): FetchConfig {
  // Each field read once: a getter read again could hand the fetch a value never checked (an
  // object as the signal failed inside the fetch with an internal error).
  const { fetch, timeoutMs: givenTimeout, userAgent, signal, dispatcher } = (options ?? {}) as Record<keyof FetchOptions, unknown>
  if (fetch !== undefined && typeof fetch !== 'function') fail('options.fetch', 'a fetch function', fetch)
  const timeoutMs = numberOption('options.timeoutMs', givenTimeout, NUMERIC_OPTIONS.FetchOptions.timeoutMs)
  // Identity, not gzip: an identity body is framed by Content-Length or chunking, and the client
  // rejects it when the connection drops early, so a truncated body counts as a network failure
  // (RFC 9309 2.3.1.4). A server may still compress; strict-decoding.ts then checks that the
  // encoded stream ends. (Browsers drop this header; they pick the encoding themselves.)
  const headers: Record<string, string> = { 'accept-encoding': 'identity' }
  if (userAgent !== undefined) {
    if (typeof userAgent !== 'string' || userAgent === '') fail('options.userAgent', 'a non-empty string', userAgent)
    try {
      new Headers({ 'user-agent': userAgent })
    } catch {
      fail('options.userAgent', 'a valid HTTP header value (no CR, LF or NUL)', userAgent)
    }
    headers['user-agent'] = userAgent
  } else if (!inBrowser()) {
    headers['user-agent'] = defaultUserAgent()
  }
  if (signal !== undefined && !isAbortSignal(signal)) fail('options.signal', 'an AbortSignal', signal)
  if (dispatcher !== undefined) {
    if (dispatcher === null || typeof dispatcher !== 'object' || typeof (dispatcher as Dispatcher).dispatch !== 'function') {
      fail('options.dispatcher', 'an undici dispatcher (an object with a dispatch method, such as undici\'s ProxyAgent)', dispatcher)
    }
    if (fetch === undefined && !platformFetchIsUndici()) {
      fail('options.dispatcher', 'no dispatcher on this platform, whose fetch is not undici\'s; pass options.fetch that takes one', dispatcher)
    }
  }
  return { fetch: fetch as typeof globalThis.fetch | undefined, timeoutMs, headers, signal, dispatcher: dispatcher as Dispatcher | undefined }
}

/** Node's fetch is undici's, and takes a `dispatcher` in its init; Bun's, Deno's, Workers' and browsers' ignore it. */
function platformFetchIsUndici(): boolean {
  const p = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process
  return typeof p?.versions?.undici === 'string'
}

/** An options argument must be an object or undefined. */
export function checkOptionsObject(options: unknown): void {
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
}

/** The time limit's abort reason: a timeout, not the caller's abort. */
class FetchTimeout extends Error {
  constructor(ms: number) {
    super(`robots.txt fetch timed out after ${ms} ms`)
  }
}

/**
 * Fetches the robots.txt at `robotsUrl`. Resolves with the outcome in every case but one: an
 * abort through `signal` rejects with `signal.reason`. The timeout covers redirects and the body.
 * The result says what answered (`url`, `redirects`, `status`) or why nothing did (`error`).
 */
export async function fetchRaw(robotsUrl: string, config: FetchConfig, signal: AbortSignal | undefined): Promise<RawFetch> {
  if (signal?.aborted) throw signal.reason
  const doFetch = config.fetch ?? globalThis.fetch
  if (typeof doFetch !== 'function') fail('options.fetch', 'a fetch function (this platform has no global fetch)', doFetch)
  // One controller aborts whatever is in flight, for the caller's signal and for the timeout alike.
  const controller = new AbortController()
  const onAbort = (): void => controller.abort(signal!.reason)
  signal?.addEventListener('abort', onAbort, { once: true })
  // Beyond 2^31-1 ms timers fire at once (Node, browsers): such a limit is as good as none.
  const timer = config.timeoutMs > 0x7fffffff ? undefined : setTimeout(() => controller.abort(new FetchTimeout(config.timeoutMs)), config.timeoutMs)
  const hops = { followed: 0 }
  try {
    return await follow(robotsUrl, doFetch, config, controller.signal, hops)
  } catch (e) {
    if (signal?.aborted) throw signal.reason
    // Network and DNS errors, resets, the timeout, truncated or unreadable bodies: all mean the
    // server could not be reached properly, so crawling stops until a retry (RFC 9309 2.3-2.4 and Google's documented handling).
    const timedOut = controller.signal.aborted && controller.signal.reason instanceof FetchTimeout
    return failure(classifyFetchError(timedOut ? controller.signal.reason : e, timedOut), hops.followed)
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

async function follow(start: string, doFetch: typeof fetch, config: FetchConfig, signal: AbortSignal, hops: { followed: number }): Promise<RawFetch> {
  let url = start
  const visited = new Set([start])
  // The platform's fetch gets a dispatcher that rejects cut encoded bodies (undici only; other
  // platforms ignore the option), over the caller's dispatcher when there is one; so does a
  // caller's own fetch given a dispatcher (undici's fetch: the same decoding, the same check).
  const dispatcher = config.dispatcher !== undefined
    ? strictDispatcher(config.dispatcher) ?? config.dispatcher
    : doFetch === globalThis.fetch ? platformStrictDispatcher() ?? undefined : undefined
  for (let hop = 0; ; hop++) {
    hops.followed = hop
    const init: RequestInit & { dispatcher?: object } = { method: 'GET', headers: config.headers, redirect: 'manual', signal }
    if (dispatcher !== undefined) init.dispatcher = dispatcher
    let res = await request(doFetch, url, init, signal)
    if (res.type === 'opaqueredirect') {
      // Browsers hide manual redirects; their own redirect handling (and hop limit) takes over.
      discard(res)
      res = await raceAbort(Reflect.apply(doFetch, globalThis, [url, { ...init, redirect: 'follow' }]) as Promise<Response>, signal)
      const redirected = res.redirected ? 1 : 0
      return readFinal(res, { url: res.url !== '' ? res.url : url, redirects: hop + redirected }, signal, { countTo: config.countTo })
    }
    const status = res.status
    if (status < 300 || status >= 400) return readFinal(res, { url, redirects: hop }, signal, { countTo: config.countTo })
    const location = res.headers.get('location')
    const next = redirectTarget(location, url)
    // RFC 9309 2.3.1.2: a chain that does not end in a robots.txt within the hop limit is
    // handled as a 404; so is a loop or a redirect that leads nowhere fetchable.
    const why = next === null
      ? fetchError('redirects', location === null ? `${status} without a Location` : `${status} to ${JSON.stringify(location.slice(0, 200))}, not an http(s) URL`)
      : hop >= MAX_REDIRECTS ? fetchError('redirects', `more than ${MAX_REDIRECTS} redirects`)
      : visited.has(next) ? fetchError('redirects', `a redirect loop back to ${next}`)
      : null
    if (why !== null) return readFinal(res, { url, redirects: hop }, signal, { redirectError: why })
    discard(res)
    visited.add(next!)
    url = next!
  }
}

/**
 * One request. Called with globalThis as `this`: browsers reject a detached window.fetch otherwise.
 * The race makes the time limit hold even for a fetch that ignores its signal. A connection reset
 * before any response is tried once more: a kept-alive connection the server closed while idle
 * fails the next request sent on it, which never reached the server (HTTP clients resend such an
 * idempotent request, RFC 9110 9.2.2).
 */
async function request(doFetch: typeof fetch, url: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
  try {
    return await raceAbort(Reflect.apply(doFetch, globalThis, [url, init]) as Promise<Response>, signal)
  } catch (e) {
    if (signal.aborted || classifyFetchError(e, false).code !== 'reset') throw e
    return raceAbort(Reflect.apply(doFetch, globalThis, [url, init]) as Promise<Response>, signal)
  }
}

/** The absolute http(s) URL a Location header points to (fragment dropped), or null. */
function redirectTarget(location: string | null, base: string): string | null {
  if (location === null) return null
  let target: URL
  try {
    target = new URL(location, base)
  } catch {
    return null
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null
  target.hash = ''
  return target.href
}

/**
 * Fetches the robots.txt that governs `url` (any URL of the site: its origin's `/robots.txt` is
 * fetched) and decides what it means for crawling, as RFC 9309 and Google do:
 *
 * - 2xx: the body is parsed (any content type; at most 500 KiB of decoded bytes are read).
 * - 3xx: followed, up to 5 redirects and across hosts; more, a loop or a missing Location is
 *   handled as a 404 (with `error.code` 'redirects'). The rules then apply to the original origin.
 * - 4xx other than 429: allow-all. 429, 5xx, network errors and timeouts: disallow-all.
 *
 * The final response is decided by `robotsFromResponse`'s rules (one implementation). It never
 * rejects for a server's behaviour, only for bad arguments (TypeError) and for an abort through
 * `options.signal` (with `signal.reason`). `url` and `redirects` say where the file came from,
 * `error` why a fetch got no answer. `expiresAt` follows `Cache-Control: max-age` (capped at 7
 * days), else 24 h; failures expire after 60 s, or as a 429's or 503's `Retry-After` asks (up to
 * 24 h). Use `RobotsCache` to keep results.
 *
 * @example
 * ```ts
 * import { fetchRobots } from 'robotstxt-wasm'
 *
 * const site = await fetchRobots('https://example.com/any/page', { userAgent: 'MyBot/1.0 (+https://example.org/bot)' })
 * if (site.outcome === 'ok') console.log(site.robots.sitemaps, 'from', site.url)
 * else if (site.error !== null) console.log(site.error.code, site.error.message)
 * site.isAllowed('https://example.com/any/page', 'MyBot')
 * ```
 */
export async function fetchRobots(url: string | URL, options?: FetchOptions): Promise<RobotsFetch> {
  const { origin, robotsUrl } = locateRobots(url)
  checkOptionsObject(options)
  const config = fetchConfig(options)
  const raw = await fetchRaw(robotsUrl, config, config.signal)
  return resultOf(origin, raw, Date.now(), DEFAULT_LIFETIMES)
}
