// What one robots.txt response means for crawling, whoever fetched it: the status rules (RFC 9309
// 2.3.1 and Google's documented handling), the 500 KiB cut, the lifetime (Cache-Control max-age,
// Retry-After), and the `RobotsFetch` built from them. `fetchRobots` (fetch.ts) follows redirects
// and hands its final response here; `robotsFromResponse` hands over a response the caller
// fetched. There is no other copy of these rules: the cache (cache.ts) and the survey build on them.

import { agentTokens, fail, NUMERIC_OPTIONS, numberOption } from '../engine/args.js'
import { concatBytes } from '../engine/bytes.js'
import { DEFAULT_MAX_BYTES, parseRobots, type Robots } from '../engine/robots.js'
import { BodyError, classifyFetchError, CodedError, fetchError, type RobotsFetchError } from './fetch-error.js'
import { locateRobots } from './origin.js'

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
 * The result of fetching one origin's robots.txt.
 *
 * @example
 * ```ts
 * import { fetchRobots, type RobotsFetch } from 'robotstxt-wasm'
 *
 * const site: RobotsFetch = await fetchRobots('https://example.com/page')
 * console.log(site.origin, site.status, site.outcome, new Date(site.expiresAt))
 * if (site.error !== null) console.log(`no robots.txt: ${site.error.message}`)
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
  /**
   * Reuse this result until then: 24 h by default or as `Cache-Control: max-age` says; after a
   * failure, the retry delay (60 s by default), or what a 429 or 503 asked in `Retry-After`
   * (at least the retry delay, at most 24 h).
   */
  readonly expiresAt: number
  /** Start of the current run of failed fetches of this origin (ms since the epoch); null when reachable. */
  readonly unreachableSince: number | null
  /**
   * The URL of the response whose status decided (and whose body was parsed, for 'ok'), after the
   * redirects followed; null when no response arrived (`status` null). The rules still apply to
   * `origin`, wherever the file came from (RFC 9309 2.3.1.2).
   */
  readonly url: string | null
  /** Redirects followed to reach `url`. Where the platform follows them itself (browsers), 1 when it did. */
  readonly redirects: number
  /**
   * Why the fetch got no usable answer, or null when a response decided (any status, 5xx
   * included: see `status`). Non-null with `status` null for network failures, timeouts and cut
   * bodies; with code 'redirects' (and outcome 'allow-all') for a redirect chain that led nowhere.
   */
  readonly error: RobotsFetchError | null
  /**
   * True when `agent` may fetch `url` under this result: the rules for 'ok', true for
   * 'allow-all', false for 'disallow-all'. `url` must be on `origin` (else a TypeError), and
   * `agent` is checked as `Robots.isAllowed` checks it, whatever the outcome.
   */
  isAllowed(url: string | URL, agent: string | readonly string[]): boolean
}

/**
 * A response handed to `robotsFromResponse`: a WHATWG `Response`, or its parts.
 *
 * @example
 * ```ts
 * import { robotsFromResponse, type RobotsResponse } from 'robotstxt-wasm'
 *
 * const response: RobotsResponse = { status: 200, headers: { 'cache-control': 'max-age=3600' }, body: 'User-agent: *\nDisallow: /private/\n' }
 * const site = await robotsFromResponse('https://example.com/', response)
 * ```
 */
export type RobotsResponse = Response | {
  /** The HTTP status. */
  status: number
  /** The response headers (Cache-Control, Retry-After, Content-Length and Content-Encoding are read). */
  headers?: HeadersInit
  /** The decoded body: text, bytes or a stream of bytes; absent or null for none. */
  body?: string | Uint8Array | ReadableStream<Uint8Array> | null
}

/**
 * Options of `robotsFromResponse`: the clock and the lifetimes a `RobotsCache` would use.
 *
 * @example
 * ```ts
 * import { robotsFromResponse, type RobotsFromResponseOptions } from 'robotstxt-wasm'
 *
 * const options: RobotsFromResponseOptions = { now: Date.parse('2026-12-07T10:00:00Z'), ttlMs: 6 * 3_600_000 }
 * const site = await robotsFromResponse('https://example.com/', { status: 404 }, options)
 * ```
 */
export interface RobotsFromResponseOptions {
  /** When the response arrived, ms since the epoch; default `Date.now()`. */
  now?: number
  /** Lifetime without `Cache-Control: max-age`, in ms; default 24 h. */
  ttlMs?: number
  /** Upper bound on a `max-age` lifetime, in ms; default 7 days. */
  maxTtlMs?: number
  /** Reuse of a failure's result, in ms; default 60 s (a `Retry-After` may lengthen it, up to 24 h). */
  retryMs?: number
}

/** Redirects followed before a chain counts as 404 (RFC 9309 2.3.1.2: at least five). */
export const MAX_REDIRECTS = 5
/** Decoded body bytes read (Google: 500 KiB); the rest of the response is cancelled. */
export const BODY_LIMIT = DEFAULT_MAX_BYTES
/** One day in ms. */
export const DAY_MS = 86_400_000
/** Default lifetime of a result without max-age (RFC 9309 2.4: "SHOULD NOT" cache beyond 24 h). */
export const DEFAULT_TTL_MS = NUMERIC_OPTIONS.RobotsCacheOptions.ttlMs.default
/** Default cap on a max-age lifetime. */
export const DEFAULT_MAX_TTL_MS = NUMERIC_OPTIONS.RobotsCacheOptions.maxTtlMs.default
/** Default reuse of a failed fetch's result before retrying. */
export const DEFAULT_RETRY_MS = NUMERIC_OPTIONS.RobotsCacheOptions.retryMs.default
/** The longest a Retry-After holds a failure: RFC 9309 2.4's bound on caching a robots.txt answer. */
const MAX_RETRY_AFTER_MS = DAY_MS

/** What one fetch found, before any caching decision. */
export interface RawFetch {
  status: number | null
  outcome: RobotsOutcome
  /** The bytes read (at most BODY_LIMIT) when outcome is 'ok'. */
  body: Uint8Array | null
  /** Outcome 'ok': the body's decoded size, counted past the cut up to the read's `countTo` (else at most BODY_LIMIT). */
  size?: number
  /** `Cache-Control: max-age` of the final response, in ms; undefined when absent or invalid. */
  maxAgeMs: number | undefined
  /** `Cache-Control: no-store` on the final response. */
  noStore: boolean
  /** `Retry-After` of a final 429 or 503, in ms from the response; undefined otherwise. */
  retryAfterMs: number | undefined
  /** The final response's URL; null when none arrived. */
  url: string | null
  /** Redirects followed. */
  redirects: number
  error: RobotsFetchError | null
}

/** Lifetimes used to turn a RawFetch into an expiry. */
export interface Lifetimes {
  ttlMs: number
  maxTtlMs: number
  retryMs: number
}

/** The default lifetimes (fetchRobots, robotsFromResponse without options). */
export const DEFAULT_LIFETIMES: Lifetimes = Object.freeze({ ttlMs: DEFAULT_TTL_MS, maxTtlMs: DEFAULT_MAX_TTL_MS, retryMs: DEFAULT_RETRY_MS })

/**
 * What an HTTP status means for crawling, as RFC 9309 2.3.1 and Google's documentation say: 2xx
 * `'ok'` (the body is the robots.txt); 4xx other than 429 `'allow-all'` (no robots.txt: 401 and
 * 403 included); 429 and 5xx `'disallow-all'` (server error: crawl nothing for now, retry later).
 * A 3xx is `'allow-all'`: `fetchRobots` follows redirects and decides on the response it lands
 * on, so a 3xx that reaches this rule is a redirect chain that led to no robots.txt, which RFC
 * 9309 2.3.1.2 and Google handle as a 404. Any other status (1xx, 0 for a response without one,
 * 600 and above) is `'disallow-all'`, as a failure is. The rule `fetchRobots`, `RobotsCache`,
 * `robotsFromResponse` and the survey decide by; use it to cache the same way elsewhere.
 *
 * @example
 * ```ts
 * import { statusOutcome } from 'robotstxt-wasm'
 *
 * statusOutcome(200) // → 'ok'
 * statusOutcome(403) // → 'allow-all'
 * statusOutcome(429) // → 'disallow-all'
 * statusOutcome(503) // → 'disallow-all'
 * statusOutcome(301) // → 'allow-all'
 * ```
 */
export function statusOutcome(status: number): RobotsOutcome {
  if (typeof status !== 'number' || !Number.isInteger(status)) fail('status', 'an integer HTTP status code', status)
  if (status >= 200 && status < 300) return 'ok'
  if (status === 429) return 'disallow-all'
  if (status >= 300 && status < 500) return 'allow-all'
  return 'disallow-all'
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

/**
 * A failure's result is reused for the retry delay, never longer than the default lifetime; a
 * Retry-After lengthens it, up to 24 h (and never past the default lifetime either).
 */
export function failureLifetime(raw: RawFetch | null, l: Lifetimes): number {
  const base = Math.min(l.retryMs, l.ttlMs)
  const asked = raw?.retryAfterMs
  return asked === undefined ? base : Math.max(base, Math.min(asked, MAX_RETRY_AFTER_MS, l.ttlMs))
}

/** Where a response came from: its URL and the redirects followed to it. */
export interface Hop {
  url: string
  redirects: number
}

/** The parts of a response this module reads: a `Response`, or one made of a caller's parts. */
export interface ResponseParts {
  status: number
  headers: Headers
  body: ReadableStream<Uint8Array> | null
  /** The whole body, when the caller handed over bytes. */
  whole?: Uint8Array
  arrayBuffer?: () => Promise<ArrayBuffer>
}

/** A network failure: disallow-all, no status, no URL. */
export function failure(error: RobotsFetchError, redirects = 0): RawFetch {
  return { status: null, outcome: 'disallow-all', body: null, maxAgeMs: undefined, noStore: false, retryAfterMs: undefined, url: null, redirects, error }
}

/** How a final response is read: `redirectError` explains a 3xx that ends the chain; `countTo` bytes of a 2xx body are counted (the survey's size before the cut). */
export interface FinalRead {
  redirectError?: RobotsFetchError
  countTo?: number
}

/**
 * The RawFetch of a final response (not a redirect to follow): status rules, the body read up to
 * the limit, Cache-Control and Retry-After. A body that fails to read throws a BodyError;
 * everything else is an outcome.
 */
export async function readFinal(res: ResponseParts, at: Hop, signal: AbortSignal | undefined, read: FinalRead = {}): Promise<RawFetch> {
  const status = res.status
  const outcome = statusOutcome(status)
  const common = { url: at.url, redirects: at.redirects, retryAfterMs: undefined, error: null }
  if (outcome === 'ok') {
    let body: { bytes: Uint8Array; size: number }
    try {
      body = await readLimited(res, BODY_LIMIT, signal, read.countTo ?? BODY_LIMIT)
    } catch (e) {
      throw new BodyError(e)
    }
    return { ...common, status, outcome, body: body.bytes, size: body.size, ...cacheControl(res.headers.get('cache-control')) }
  }
  discard(res)
  if (status >= 300 && status < 400) {
    return { ...common, status, outcome, body: null, ...cacheControl(res.headers.get('cache-control')), error: read.redirectError ?? UNFOLLOWED }
  }
  if (outcome === 'allow-all') return { ...common, status, outcome, body: null, ...cacheControl(res.headers.get('cache-control')) }
  if (status < 100) return failure(fetchError('other', `a response without an HTTP status (${status})`), at.redirects)
  const retryAfterMs = status === 429 || status === 503 ? retryAfter(res.headers.get('retry-after'), res.headers.get('date')) : undefined
  return { ...common, status, outcome, body: null, maxAgeMs: undefined, noStore: false, retryAfterMs }
}

const UNFOLLOWED = fetchError('redirects', 'a redirect that was not followed')

/** Lets go of a response body we will not read, so the connection is released. */
export function discard(res: { body: ReadableStream<Uint8Array> | null; bodyUsed?: boolean }): void {
  if (res.body !== null && res.bodyUsed !== true && typeof res.body.cancel === 'function') res.body.cancel().catch(noop)
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

/** `p`, raced against `signal` when there is one. */
function raced<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return signal === undefined ? p : raceAbort(p, signal)
}

/**
 * Reads at most `limit` decoded bytes of the body, then cancels the stream: a larger, endless or
 * decompression-bomb body costs at most `limit` bytes plus one chunk. With `countTo` above
 * `limit`, the bytes past the cut are read and counted, not kept, up to `countTo` (`size`). A
 * stream error (reset, truncation) rejects, and so does a body shorter than its Content-Length.
 */
async function readLimited(res: ResponseParts, limit: number, signal: AbortSignal | undefined, countTo: number): Promise<{ bytes: Uint8Array; size: number }> {
  const upTo = Math.max(countTo, limit)
  let read: { bytes: Uint8Array; size: number; finished: boolean }
  if (res.whole !== undefined) read = { bytes: res.whole.slice(0, limit), size: Math.min(res.whole.length, upTo), finished: true }
  else if (res.body === null) read = { bytes: new Uint8Array(0), size: 0, finished: true }
  else if (typeof res.body.getReader !== 'function') {
    // A fetch without streams: nothing bounds the read, but the cut still holds.
    const all = new Uint8Array(await raced(res.arrayBuffer!(), signal))
    return { bytes: all.subarray(0, Math.min(all.length, limit)), size: Math.min(all.length, upTo) }
  } else {
    read = await readStream(res.body, limit, upTo, signal)
  }
  const declared = declaredLength(res.headers)
  if (read.finished && read.size < Math.min(declared, upTo)) {
    throw new CodedError('truncated', `body of ${read.size} bytes, shorter than its Content-Length of ${declared}`)
  }
  return { bytes: read.bytes, size: read.size }
}

/**
 * Up to `limit` bytes of `stream`, and its length counted up to `upTo`; `finished` when its end
 * came first (else the rest is cancelled).
 */
async function readStream(stream: ReadableStream<Uint8Array>, limit: number, upTo: number, signal: AbortSignal | undefined): Promise<{ bytes: Uint8Array; size: number; finished: boolean }> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  let seen = 0
  let finished = false
  try {
    while (seen < upTo) {
      const { done, value } = await raced(reader.read(), signal)
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
  return { bytes: concatBytes(chunks, total), size: Math.min(seen, upTo), finished }
}

/**
 * The Content-Length of an unencoded body (0 when absent, invalid or when the body is encoded, whose
 * decoded length it does not give). A client that hands over fewer bytes was lenient about a
 * connection that dropped early: the body is truncated.
 */
function declaredLength(headers: Headers): number {
  const encoding = headers.get('content-encoding')
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return 0
  const length = headers.get('content-length')
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

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
/** IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT". */
const IMF_DATE = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/
/** The obsolete RFC 850 form: "Sunday, 06-Nov-94 08:49:37 GMT". */
const RFC850_DATE = /^[a-z]+, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/
/** The obsolete asctime form: "Sun Nov  6 08:49:37 1994". */
const ASCTIME_DATE = /^[a-z]{3} ([a-z]{3}) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/

/** An HTTP-date (RFC 9110 5.6.7, all three forms a recipient must accept) in ms since the epoch, or NaN. */
export function httpDate(value: string): number {
  const v = value.trim().toLowerCase()
  let m = IMF_DATE.exec(v)
  if (m !== null) return utc(Number(m[3]), m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!)
  m = RFC850_DATE.exec(v)
  if (m !== null) {
    // A two-digit year more than 50 years ahead is in the past century (RFC 9110 5.6.7).
    const yy = Number(m[3])
    const now = new Date().getUTCFullYear()
    let year = Math.floor(now / 100) * 100 + yy
    if (year > now + 50) year -= 100
    return utc(year, m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!)
  }
  m = ASCTIME_DATE.exec(v)
  if (m !== null) return utc(Number(m[6]), m[1]!, Number(m[2]), m[3]!, m[4]!, m[5]!)
  return NaN
}

function utc(year: number, month: string, day: number, h: string, m: string, s: string): number {
  const mon = MONTHS.indexOf(month)
  if (mon < 0 || day < 1 || day > 31 || Number(h) > 23 || Number(m) > 59 || Number(s) > 60) return NaN
  return Date.UTC(year, mon, day, Number(h), Number(m), Number(s))
}

/**
 * `Retry-After` in ms from the response (RFC 9110 10.2.3): delay-seconds, or an HTTP-date taken
 * relative to the response's own `Date` header (so a skewed clock here does not matter), or to
 * now without one. Undefined when absent or invalid; 0 for a date in the past.
 */
function retryAfter(value: string | null, date: string | null): number | undefined {
  if (value === null) return undefined
  const v = value.trim()
  if (/^[0-9]+$/.test(v)) return Math.min(Number(v) * 1000, Number.MAX_SAFE_INTEGER)
  const at = httpDate(v)
  if (Number.isNaN(at)) return undefined
  const sent = date === null ? NaN : httpDate(date)
  return Math.max(0, at - (Number.isNaN(sent) ? Date.now() : sent))
}

let emptyRobots: Robots | undefined

/** The empty `Robots` every allow-all and disallow-all result carries. */
export function noRobots(): Robots {
  return (emptyRobots ??= parseRobots(new Uint8Array(0)))
}

/** The fields of a `RobotsFetch`. */
export interface FetchFields {
  origin: string
  status: number | null
  outcome: RobotsOutcome
  robots: Robots
  fetchedAt: number
  expiresAt: number
  unreachableSince: number | null
  url: string | null
  redirects: number
  error: RobotsFetchError | null
}

/** A `RobotsFetch` as plain fields plus the outcome-aware `isAllowed`. */
export class FetchResult implements RobotsFetch {
  readonly origin: string
  readonly status: number | null
  readonly outcome: RobotsOutcome
  readonly robots: Robots
  readonly fetchedAt: number
  readonly expiresAt: number
  readonly unreachableSince: number | null
  readonly url: string | null
  readonly redirects: number
  readonly error: RobotsFetchError | null

  constructor(f: FetchFields) {
    this.origin = f.origin
    this.status = f.status
    this.outcome = f.outcome
    this.robots = f.robots
    this.fetchedAt = f.fetchedAt
    this.expiresAt = f.expiresAt
    this.unreachableSince = f.unreachableSince
    this.url = f.url
    this.redirects = f.redirects
    this.error = f.error === null ? null : Object.isFrozen(f.error) ? f.error : Object.freeze({ code: f.error.code, message: f.error.message })
    // Frozen: RobotsCache hands one result to every caller of an origin, so a caller's write
    // (outcome = 'allow-all', an isAllowed of its own) would change every other caller's answers.
    // The Robots is shared the same way (and the empty one by every allow-all and disallow-all
    // result); freezing it leaves its private state, which is all it has, writable.
    Object.freeze(this.robots)
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
  const lifetime = ok ? successLifetime(raw, l) : failureLifetime(raw, l)
  return new FetchResult({
    origin, status: raw.status, outcome: raw.outcome, robots, fetchedAt, expiresAt: fetchedAt + lifetime,
    unreachableSince: ok ? null : fetchedAt, url: raw.url, redirects: raw.redirects, error: raw.error,
  })
}

/**
 * The `RobotsFetch` for a robots.txt response the caller fetched itself (with its own client,
 * proxy, retries or cache), decided by the same rules `fetchRobots` applies to the response it
 * lands on: the status (`statusOutcome`), at most 500 KiB of the body, `Cache-Control: max-age`
 * and `Retry-After` for `expiresAt`, a body shorter than its `Content-Length` as a truncated
 * response. `url` is any URL of the site: the rules apply to its origin (RFC 9309 2.3.1.2: even
 * when the client followed redirects elsewhere). Follow redirects first: a 3xx handed in is a
 * chain that led to no robots.txt, which RFC 9309 2.3.1.2 handles as a 404 (allow-all, with
 * error code 'redirects'). `RobotsFetch.url` is the response's own `url` when it has one, else
 * the origin's /robots.txt. Rejects only for bad arguments (a TypeError); a body that fails to
 * read is an outcome (disallow-all, with `error`).
 *
 * @example
 * ```ts
 * import { robotsFromResponse } from 'robotstxt-wasm'
 *
 * // What your own HTTP client got for https://example.com/robots.txt (a WHATWG Response works too).
 * const site = await robotsFromResponse('https://example.com/', {
 *   status: 200, headers: { 'cache-control': 'max-age=3600' }, body: 'User-agent: *\nDisallow: /private/\n',
 * })
 * site.isAllowed('https://example.com/private/x', 'MyBot') // → false
 * site.expiresAt - site.fetchedAt // → 3600000
 *
 * const down = await robotsFromResponse('https://example.com/', { status: 503, headers: { 'retry-after': '7200' } })
 * down.outcome // → 'disallow-all'
 * down.expiresAt - down.fetchedAt // → 7200000
 * ```
 */
export async function robotsFromResponse(url: string | URL, response: RobotsResponse, options?: RobotsFromResponseOptions): Promise<RobotsFetch> {
  const { origin, robotsUrl } = locateRobots(url)
  const parts = responseParts(response)
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
  const { now: givenNow, ttlMs, maxTtlMs, retryMs } = (options ?? {}) as Record<keyof RobotsFromResponseOptions, unknown>
  const rules = NUMERIC_OPTIONS.RobotsFromResponseOptions
  const now = numberOption('options.now', givenNow, rules.now) ?? Date.now()
  const lifetimes: Lifetimes = {
    ttlMs: numberOption('options.ttlMs', ttlMs, rules.ttlMs),
    maxTtlMs: numberOption('options.maxTtlMs', maxTtlMs, rules.maxTtlMs),
    retryMs: numberOption('options.retryMs', retryMs, rules.retryMs),
  }
  const r = response as { url?: unknown; redirected?: unknown }
  const at: Hop = { url: typeof r.url === 'string' && r.url !== '' ? r.url : robotsUrl, redirects: r.redirected === true ? 1 : 0 }
  let raw: RawFetch
  try {
    raw = await readFinal(parts, at, undefined)
  } catch (e) {
    raw = failure(classifyFetchError(e, false), at.redirects)
  }
  return resultOf(origin, raw, now, lifetimes)
}

/** A WHATWG Response (from any realm) as it is, or a caller's parts checked and made into one. */
function responseParts(response: unknown): ResponseParts {
  if (response === null || typeof response !== 'object') fail('response', 'a Response or { status, headers?, body? }', response)
  const r = response as Record<string, unknown>
  // Duck-typed: a Response of the undici package or of another realm is as good as a global one.
  const isResponse = typeof r.arrayBuffer === 'function' && typeof (r.headers as Headers | undefined)?.get === 'function' && 'body' in r
  if (typeof r.status !== 'number' || !Number.isInteger(r.status) || r.status < 0 || r.status > 999) fail('response.status', 'an integer HTTP status code', r.status)
  if (isResponse) {
    if (r.bodyUsed === true) fail('response', 'a Response whose body has not been read', 'a used Response')
    return response as ResponseParts
  }
  let headers: Headers
  try {
    headers = new Headers(r.headers as HeadersInit | undefined)
  } catch {
    return fail('response.headers', 'HeadersInit (an object, an array of [name, value] pairs, or a Headers)', r.headers)
  }
  const body = r.body
  if (body === undefined || body === null) return { status: r.status, headers, body: null, whole: new Uint8Array(0) }
  if (typeof body === 'string') return { status: r.status, headers, body: null, whole: new TextEncoder().encode(body) }
  if (body instanceof Uint8Array) return { status: r.status, headers, body: null, whole: body }
  if (typeof (body as ReadableStream).getReader === 'function') return { status: r.status, headers, body: body as ReadableStream<Uint8Array> }
  return fail('response.body', 'a string, a Uint8Array, a ReadableStream of bytes, or null', body)
}
