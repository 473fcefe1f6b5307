// fetchRobots: one robots.txt fetch on the platform `fetch` (Node >= 18, Workers, browsers), turned
// into an outcome as RFC 9309 2.3.1 and Google's documented handling say. The cache (cache.ts) builds on `fetchRaw`.

import { agentTokens, fail } from '../engine/args.js'
import { concatBytes } from '../engine/bytes.js'
import { locateRobots } from './origin.js'
import { platformStrictDispatcher } from './strict-decoding.js'
import { DEFAULT_MAX_BYTES, parseRobots, type Robots } from '../engine/robots.js'

/**
 * What a fetch means for crawling (RFC 9309 2.3.1 and Google's documented handling).
 *
 * @example
 * ```ts
 * import { fetchRobots, type RobotsOutcome } from 'robotstxt-wasm'
 *
 * const { outcome }: { outcome: RobotsOutcome } = await fetchRobots('https://example.com/')
 * if (outcome === 'disallow-all') console.log('server error or unreachable: crawl nothing there for now')
 * ```
 */
export type RobotsOutcome = 'ok' | 'allow-all' | 'disallow-all'

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
  /** Sent as the `User-Agent` request header. */
  userAgent?: string
  /** Aborts the fetch: the promise rejects with `signal.reason`, and nothing is cached. */
  signal?: AbortSignal
}

/**
 * The result of fetching one origin's robots.txt.
 *
 * @example
 * ```ts
 * import { fetchRobots, type RobotsFetch } from 'robotstxt-wasm'
 *
 * const site: RobotsFetch = await fetchRobots('https://example.com/page')
 * console.log(site.origin, site.status, site.outcome, new Date(site.expiresAt))
 * if (site.isAllowed('https://example.com/page', 'MyBot')) console.log('may fetch')
 * ```
 */
export interface RobotsFetch {
  /** `scheme://host[:port]`: default port dropped, host lower-case and in punycode. */
  readonly origin: string
  /** Final HTTP status; null on a network error, a timeout or a truncated body. */
  readonly status: number | null
  /** How the fetch decides crawling: follow `robots`, allow everything, or disallow everything. */
  readonly outcome: RobotsOutcome
  /** The parsed file when `outcome` is 'ok'; otherwise an empty `Robots`. */
  readonly robots: Robots
  /** Time of the fetch, ms since the epoch. */
  readonly fetchedAt: number
  /** Reuse this result until then (24 h default, `Cache-Control: max-age`, or the retry delay). */
  readonly expiresAt: number
  /** Start of the current run of failed fetches of this origin (ms since the epoch); null when reachable. */
  readonly unreachableSince: number | null
  /**
   * True when `agent` may fetch `url` under this result: the rules for 'ok', true for
   * 'allow-all', false for 'disallow-all'. `url` must be on `origin` (else a TypeError), and
   * `agent` is checked as `Robots.isAllowed` checks it, whatever the outcome.
   */
  isAllowed(url: string | URL, agent: string | readonly string[]): boolean
}

/** Redirects followed before a chain counts as 404 (RFC 9309 2.3.1.2: at least five). */
const MAX_REDIRECTS = 5
/** Decoded body bytes read (Google: 500 KiB); the rest of the response is cancelled. */
const BODY_LIMIT = DEFAULT_MAX_BYTES
const DEFAULT_TIMEOUT_MS = 10_000
/** One day in ms. */
export const DAY_MS = 86_400_000
/** Default lifetime of a result without max-age (RFC 9309 2.4: "SHOULD NOT" cache beyond 24 h). */
export const DEFAULT_TTL_MS = DAY_MS
/** Default cap on a max-age lifetime. */
export const DEFAULT_MAX_TTL_MS = 7 * DAY_MS
/** Default reuse of a failed fetch's result before retrying. */
export const DEFAULT_RETRY_MS = 60_000

/** Validated `FetchOptions`. */
export interface FetchConfig {
  fetch: typeof fetch | undefined
  timeoutMs: number
  headers: Record<string, string>
  signal: AbortSignal | undefined
  /** Read a 2xx body on past the BODY_LIMIT cut, counting without keeping, up to this many bytes (the survey's `bytes`). */
  countTo?: number
}

/** What one fetch found, before any caching decision. */
export interface RawFetch {
  status: number | null
  outcome: RobotsOutcome
  /** The bytes read (at most BODY_LIMIT) when outcome is 'ok'. */
  body: Uint8Array | null
  /** Outcome 'ok': the body's decoded size, counted up to the config's countTo (else up to BODY_LIMIT). */
  size?: number
  /** `Cache-Control: max-age` of the final response, in ms; undefined when absent or invalid. */
  maxAgeMs: number | undefined
  /** `Cache-Control: no-store` on the final response. */
  noStore: boolean
}

/** Lifetimes used to turn a RawFetch into an expiry. */
export interface Lifetimes {
  ttlMs: number
  maxTtlMs: number
  retryMs: number
}

/** True for outcomes that stand for a reachable server (2xx, 4xx, a redirect chain taken as 404). */
export function isSuccess(raw: RawFetch): boolean {
  return raw.outcome !== 'disallow-all'
}

/** How long a successful result may be reused: max-age (capped) if given, else the default. */
export function successLifetime(raw: RawFetch, l: Lifetimes): number {
  if (raw.noStore) return 0
  return raw.maxAgeMs === undefined ? l.ttlMs : Math.min(raw.maxAgeMs, l.maxTtlMs)
}

/** A failure's result is reused for the retry delay, never longer than the default lifetime. */
export function failureLifetime(l: Lifetimes): number {
  return Math.min(l.retryMs, l.ttlMs)
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
  const { fetch, timeoutMs: givenTimeout, userAgent, signal } = (options ?? {}) as Record<keyof FetchOptions, unknown>
  if (fetch !== undefined && typeof fetch !== 'function') fail('options.fetch', 'a fetch function', fetch)
  const timeoutMs = givenTimeout ?? DEFAULT_TIMEOUT_MS
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs <= 0) fail('options.timeoutMs', 'a number > 0 (ms) or Infinity', givenTimeout)
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
  }
  if (signal !== undefined && !isAbortSignal(signal)) fail('options.signal', 'an AbortSignal', signal)
  return { fetch: fetch as typeof globalThis.fetch | undefined, timeoutMs, headers, signal }
}

/** An options argument must be an object or undefined. */
export function checkOptionsObject(options: unknown): void {
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
}

/**
 * Fetches the robots.txt at `robotsUrl`. Resolves with the outcome in every case but one: an
 * abort through `signal` rejects with `signal.reason`. The timeout covers redirects and the body.
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
  const timer = config.timeoutMs > 0x7fffffff ? undefined : setTimeout(() => controller.abort(new Error('robots.txt fetch timed out')), config.timeoutMs)
  try {
    return await follow(robotsUrl, doFetch, config.headers, controller.signal, config.countTo ?? BODY_LIMIT)
  } catch (e) {
    if (signal?.aborted) throw signal.reason
    // Network and DNS errors, resets, the timeout, truncated or unreadable bodies: all mean the
    // server could not be reached properly, so crawling stops until a retry (RFC 9309 2.3-2.4 and Google's documented handling).
    return failure(null)
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

function failure(status: number | null): RawFetch {
  return { status, outcome: 'disallow-all', body: null, maxAgeMs: undefined, noStore: false }
}

function allowAll(status: number): RawFetch {
  return { status, outcome: 'allow-all', body: null, maxAgeMs: undefined, noStore: false }
}

async function follow(start: string, doFetch: typeof fetch, headers: Record<string, string>, signal: AbortSignal, countTo: number): Promise<RawFetch> {
  let url = start
  const visited = new Set([start])
  // The platform's fetch gets a dispatcher that rejects cut encoded bodies (undici only; other
  // platforms ignore the option). A caller's own fetch may carry its own dispatcher: left alone.
  const dispatcher = doFetch === globalThis.fetch ? platformStrictDispatcher() : null
  for (let hop = 0; ; hop++) {
    const init: RequestInit & { dispatcher?: object } = { method: 'GET', headers, redirect: 'manual', signal }
    if (dispatcher !== null) init.dispatcher = dispatcher
    // Called with globalThis as `this`: browsers reject a detached window.fetch otherwise. The
    // race makes the time limit hold even for a fetch that ignores its signal.
    let res = await raceAbort(Reflect.apply(doFetch, globalThis, [url, init]) as Promise<Response>, signal)
    if (res.type === 'opaqueredirect') {
      // Browsers hide manual redirects; their own redirect handling (and hop limit) takes over.
      discard(res)
      res = await raceAbort(Reflect.apply(doFetch, globalThis, [url, { ...init, redirect: 'follow' }]) as Promise<Response>, signal)
    }
    const status = res.status
    const decision = statusOutcome(status)
    if (decision === 'ok') {
      const { body, size } = await readLimited(res, BODY_LIMIT, signal, countTo)
      return { status, outcome: 'ok', body, size, ...cacheControl(res.headers.get('cache-control')) }
    }
    discard(res)
    if (decision === 'redirect') {
      const next = redirectTarget(res.headers.get('location'), url)
      // RFC 9309 2.3.1.2: a chain that does not end in a robots.txt within the hop limit is
      // handled as a 404; so is a loop or a redirect that leads nowhere fetchable.
      if (next === null || hop >= MAX_REDIRECTS || visited.has(next)) return { ...allowAll(status), ...cacheControl(res.headers.get('cache-control')) }
      visited.add(next)
      url = next
      continue
    }
    if (decision === 'allow-all') return { ...allowAll(status), ...cacheControl(res.headers.get('cache-control')) }
    return failure(status >= 100 ? status : null)
  }
}

/**
 * What a final HTTP status means for crawling (RFC 9309 2.3.1; Google's documented handling): 2xx
 * the body decides, 3xx is a redirect to follow, 4xx other than 429 allows everything, and 429,
 * 5xx and anything else (status 0 is a network error) disallow everything. The fetch and the
 * survey of archived responses both decide through this one function.
 */
export function statusOutcome(status: number): RobotsOutcome | 'redirect' {
  if (status >= 200 && status < 300) return 'ok'
  if (status >= 300 && status < 400) return 'redirect'
  if (status === 429 || (status >= 500 && status < 600)) return 'disallow-all'
  if (status >= 400 && status < 500) return 'allow-all'
  return 'disallow-all'
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

/** Lets go of a response body we will not read, so the connection is released. */
function discard(res: Response): void {
  if (res.body !== null && !res.bodyUsed) res.body.cancel().catch(noop)
}

function noop(): void {}

/**
 * Rejects with the signal's reason as soon as it aborts, whatever `p` does; `onAborted` then runs
 * (the cache uses it to give up a shared fetch nobody waits for any more).
 */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal, onAborted?: () => void): Promise<T> {
  if (signal.aborted) {
    p.catch(noop)
    onAborted?.()
    return Promise.reject(signal.reason)
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason)
      onAborted?.()
    }
    signal.addEventListener('abort', onAbort, { once: true })
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}

/**
 * Reads at most `limit` decoded bytes of the body, then cancels the stream: a larger, endless or
 * decompression-bomb body costs at most `limit` bytes plus one chunk. With `countTo` above
 * `limit`, the bytes past the cut are read and counted, not kept, up to `countTo` (`size`). A
 * stream error (reset, truncation) rejects.
 */
async function readLimited(res: Response, limit: number, signal: AbortSignal, countTo = limit): Promise<{ body: Uint8Array; size: number }> {
  const stream = res.body
  if (stream === null) return { body: new Uint8Array(0), size: 0 }
  if (typeof stream.getReader !== 'function') {
    // A fetch without streams: nothing bounds the read, but the cut still holds.
    const all = new Uint8Array(await raceAbort(res.arrayBuffer(), signal))
    return { body: all.subarray(0, Math.min(all.length, limit)), size: Math.min(all.length, Math.max(countTo, limit)) }
  }
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  let seen = 0
  let finished = false
  try {
    while (seen < Math.max(countTo, limit)) {
      const { done, value } = await raceAbort(reader.read(), signal)
      if (done) {
        finished = true
        break
      }
      if (!(value instanceof Uint8Array)) throw new TypeError('response body chunk is not a Uint8Array')
      seen += value.length
      if (total >= limit) continue
      const take = Math.min(value.length, limit - total)
      chunks.push(take === value.length ? value : value.subarray(0, take))
      total += take
    }
  } finally {
    // Not awaited: cancelling a stalled stream may itself stall, and the result is already known.
    if (!finished) reader.cancel().catch(noop)
  }
  if (finished && seen < declaredLength(res)) throw new Error('robots.txt body shorter than its Content-Length')
  return { body: concatBytes(chunks, total), size: Math.min(seen, Math.max(countTo, limit)) }
}

/**
 * The Content-Length of an unencoded body (0 when absent, invalid or when the body is encoded, whose
 * decoded length it does not give). A client that hands over fewer bytes was lenient about a
 * connection that dropped early: the body is truncated.
 */
function declaredLength(res: Response): number {
  const encoding = res.headers.get('content-encoding')
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return 0
  const length = res.headers.get('content-length')
  return length !== null && /^[0-9]+$/.test(length.trim()) ? Number(length) : 0
}

/**
 * The directives of a Cache-Control header that matter here (RFC 9309 2.4 and Google's documented caching): `max-age`
 * (the first one; a quoted number is accepted, anything else ignored) and `no-store`. Expires,
 * no-cache and s-maxage are ignored on purpose.
 */
function cacheControl(value: string | null): { maxAgeMs: number | undefined; noStore: boolean } {
  let maxAgeMs: number | undefined
  let noStore = false
  if (value === null) return { maxAgeMs, noStore }
  for (const part of value.split(',')) {
    const eq = part.indexOf('=')
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase()
    if (name === 'no-store') noStore = true
    else if (name === 'max-age' && maxAgeMs === undefined && eq >= 0) {
      let arg = part.slice(eq + 1).trim()
      if (arg.length >= 2 && arg.startsWith('"') && arg.endsWith('"')) arg = arg.slice(1, -1)
      if (/^[0-9]+$/.test(arg)) maxAgeMs = Number(arg) * 1000
    }
  }
  return { maxAgeMs, noStore }
}

let emptyRobots: Robots | undefined

/** The empty `Robots` every allow-all and disallow-all result carries. */
export function noRobots(): Robots {
  return (emptyRobots ??= parseRobots(new Uint8Array(0)))
}

/** A `RobotsFetch` as plain fields plus the outcome-aware `isAllowed`. */
export class FetchResult implements RobotsFetch {
  constructor(
    readonly origin: string,
    readonly status: number | null,
    readonly outcome: RobotsOutcome,
    readonly robots: Robots,
    readonly fetchedAt: number,
    readonly expiresAt: number,
    readonly unreachableSince: number | null,
  ) {
    // Frozen: RobotsCache hands one result to every caller of an origin, so a caller's write
    // (outcome = 'allow-all', an isAllowed of its own) would change every other caller's answers.
    // The Robots is shared the same way (and the empty one by every allow-all and disallow-all
    // result); freezing it leaves its private state, which is all it has, writable.
    Object.freeze(robots)
    Object.freeze(this)
  }

  /** See `RobotsFetch.isAllowed`. */
  isAllowed(url: string | URL, agent: string | readonly string[]): boolean {
    if (locateRobots(url).origin !== this.origin) fail('url', `a URL on ${this.origin} (this robots.txt governs only its own origin)`, url instanceof URL ? url.href : url)
    if (this.outcome === 'ok') return this.robots.isAllowed(url, agent)
    agentTokens(agent)
    return this.outcome === 'allow-all'
  }
}

/** Builds the result of a fresh fetch, with no history: a failure is simply disallow-all. */
export function resultOf(origin: string, raw: RawFetch, fetchedAt: number, l: Lifetimes): FetchResult {
  const robots = raw.outcome === 'ok' ? parseRobots(raw.body ?? new Uint8Array(0)) : noRobots()
  const ok = isSuccess(raw)
  const lifetime = ok ? successLifetime(raw, l) : failureLifetime(l)
  return new FetchResult(origin, raw.status, raw.outcome, robots, fetchedAt, fetchedAt + lifetime, ok ? null : fetchedAt)
}

/**
 * Fetches the robots.txt that governs `url` (any URL of the site: its origin's `/robots.txt` is
 * fetched) and decides what it means for crawling, as RFC 9309 and Google do:
 *
 * - 2xx: the body is parsed (any content type; at most 500 KiB of decoded bytes are read).
 * - 3xx: followed, up to 5 redirects and across hosts; more, a loop or a missing Location is
 *   handled as a 404. The rules then apply to the original origin.
 * - 4xx other than 429: allow-all. 429, 5xx, network errors and timeouts: disallow-all.
 *
 * It never rejects for a server's behaviour, only for bad arguments (TypeError) and for an abort
 * through `options.signal` (with `signal.reason`). `expiresAt` follows `Cache-Control: max-age`
 * (capped at 7 days), else 24 h; failures expire after 60 s. Use `RobotsCache` to keep results.
 *
 * @example
 * ```ts
 * import { fetchRobots } from 'robotstxt-wasm'
 *
 * const site = await fetchRobots('https://example.com/any/page', { userAgent: 'MyBot/1.0' })
 * if (site.outcome === 'ok') console.log(site.robots.sitemaps)
 * site.isAllowed('https://example.com/any/page', 'MyBot')
 * ```
 */
export async function fetchRobots(url: string | URL, options?: FetchOptions): Promise<RobotsFetch> {
  const { origin, robotsUrl } = locateRobots(url)
  checkOptionsObject(options)
  const config = fetchConfig(options)
  const raw = await fetchRaw(robotsUrl, config, config.signal)
  return resultOf(origin, raw, Date.now(), { ttlMs: DEFAULT_TTL_MS, maxTtlMs: DEFAULT_MAX_TTL_MS, retryMs: DEFAULT_RETRY_MS })
}
