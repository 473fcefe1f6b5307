// RobotsCache: one robots.txt answer per origin, kept and refreshed as RFC 9309 2.4 and Google's documented caching say:
// lifetimes from the default or Cache-Control, the last good copy through failures, the 30-day
// rule, one fetch per origin at a time, and LRU bounds on entries and kept body bytes.
//
// Invariants: #entries holds settled state only, in least-recently-used-first order (Map insertion
// order; a use re-inserts); #bytes is the sum of the kept bodies' lengths and never exceeds
// maxBytes once a store returns; #pending holds at most one fetch per origin.

import { agentTokens, fail, NUMERIC_OPTIONS, numberOption } from '../engine/args.js'
import {
  DAY_MS, FetchResult, checkOptionsObject, failureLifetime,
  fetchConfig, fetchRaw, isAbortSignal, isSuccess, noRobots, raceAbort, resultOf, successLifetime,
  type FetchConfig, type FetchOptions, type Lifetimes, type RobotsFetch, type RobotsOutcome,
} from './fetch.js'
import { FETCH_ERROR_CODES, type RobotsFetchError } from './fetch-error.js'
import { locateRobots } from './origin.js'
import { parseRobots } from '../engine/robots.js'

/**
 * One origin's cached state as plain data, for a second-level `RobotsCacheStorage`. Every field
 * is a primitive or a `Uint8Array`, so a record survives structured cloning; a JSON store must
 * encode `body` itself (base64, or as the body of a `Response` in the Workers Cache API).
 * Treat `body` as read-only: the cache shares it with the parsed robots.txt.
 *
 * @example
 * ```ts
 * import { RobotsCache, type RobotsCacheStorage, type StoredRobots } from 'robotstxt-wasm'
 *
 * // The simplest storage: records kept in a Map (a real one shares them across processes or isolates).
 * const records = new Map<string, StoredRobots>()
 * const storage: RobotsCacheStorage = {
 *   get: async (origin) => records.get(origin),
 *   put: async (origin, record) => void records.set(origin, record),
 * }
 * const cache = new RobotsCache({ storage })
 * ```
 */
export interface StoredRobots {
  /** The origin the record is for, as `RobotsFetch.origin`. */
  origin: string
  /** HTTP status of the fetch whose answer is kept; null for a network error or timeout. */
  status: number | null
  /** The answer served for the origin. */
  outcome: RobotsOutcome
  /** The robots.txt bytes (at most 512,000) when `outcome` is 'ok'; null otherwise. */
  body: Uint8Array | null
  /** When that fetch happened, ms since the epoch. */
  fetchedAt: number
  /** The record answers lookups until then; afterwards the next lookup fetches again. */
  expiresAt: number
  /** First failed fetch since the last successful one, ms since the epoch; null when reachable. */
  unreachableSince: number | null
  /**
   * True when status, outcome and body come from a successful fetch (2xx, 4xx, or a redirect
   * chain treated as 404), which keeps serving when later refreshes fail. False when they are a
   * failure's own answer (disallow-all, or allow-all after 30 days unreachable).
   */
  good: boolean
  /**
   * `RobotsFetch.url`: the response that answered, after redirects; null when none did. A record
   * written without it (by a version before these three fields) reads as null.
   */
  url?: string | null
  /** `RobotsFetch.redirects`; a record without it reads as 0. */
  redirects?: number
  /**
   * `RobotsFetch.error` of the latest fetch (which may have failed while `good` keeps an earlier
   * answer); a record without it reads as null.
   */
  error?: RobotsFetchError | null
}

/**
 * A second level behind the in-memory `RobotsCache`, shared across cache instances (e.g. the
 * Workers Cache API or KV across a Worker's requests). The cache reads it before every fetch it
 * would make (a fresh record there saves the fetch) and writes every result it keeps, awaiting
 * the write. A storage may drop records at any time; keeping a record past `expiresAt` lets a
 * failed refresh fall back to the last good copy. Storage is best effort: each call is bounded by
 * the cache's `timeoutMs` (at most 10 s), and a call that throws, rejects, hangs past that or
 * returns anything but a well-formed record for the origin is a miss (get) or ignored (put), so a
 * broken or stalled storage never fails a lookup, loses a fetched result or blocks an origin.
 *
 * @example
 * ```ts
 * import { RobotsCache, type RobotsCacheStorage } from 'robotstxt-wasm'
 *
 * // Shared by every RobotsCache of this process; a record carries its own expiry (expiresAt).
 * const shared = new Map()
 * const storage: RobotsCacheStorage = {
 *   async get(origin) { return shared.get(origin) },
 *   async put(origin, record) { shared.set(origin, record) },
 * }
 * const a = new RobotsCache({ storage })
 * const b = new RobotsCache({ storage }) // finds what a fetched, without fetching it again
 * ```
 */
export interface RobotsCacheStorage {
  /** The record last put for `origin`, if still held. */
  get(origin: string): Promise<StoredRobots | undefined>
  /** Keeps `record` for `origin`, replacing any earlier one. */
  put(origin: string, record: StoredRobots): Promise<void>
  /**
   * Optional: called instead of `put` when a lookup that asked `get` and then fetched keeps
   * nothing (the response said `no-store` or `max-age=0`, the body is over `maxBytes`, or every
   * waiter left), and once a `get` the cache stopped waiting for (its lookup aborted, or it ran past
   * the time bound) settles: a storage that holds something for the origin while a fetch is under
   * way (the fleet lock of `redisStorage`) frees it there, rather than make others wait for it to expire.
   */
  release?(origin: string): Promise<void>
}

/**
 * Options of `RobotsCache`: the fetch options used for every fetch, plus the cache's own.
 *
 * @example
 * ```ts
 * import { RobotsCache, type RobotsCacheOptions } from 'robotstxt-wasm'
 *
 * const options: RobotsCacheOptions = {
 *   userAgent: 'MyBot/1.0 (+https://example.org/bot)',
 *   ttlMs: 6 * 3_600_000, // refetch every 6 hours unless Cache-Control says otherwise
 *   maxEntries: 50_000,
 *   maxBytes: 256 * 1024 * 1024,
 * }
 * const cache = new RobotsCache(options)
 * ```
 */
export interface RobotsCacheOptions extends FetchOptions {
  /** Lifetime of a result without `Cache-Control: max-age`, in ms; default 24 h. */
  ttlMs?: number
  /** Upper bound on a `max-age` lifetime, in ms; default 7 days. */
  maxTtlMs?: number
  /** How long a failed fetch's result is reused before fetching again, in ms; default 60 s, never more than `ttlMs`. */
  retryMs?: number
  /** Origins kept; default 10,000. The least recently used go first. */
  maxEntries?: number
  /** Bytes of robots.txt bodies kept; default 64 MiB. A larger single body is used once, not kept. */
  maxBytes?: number
  /** The clock, in ms since the epoch; default `Date.now`. Every time stamp comes from it. */
  now?: () => number
  /** A second-level store shared across caches (see `RobotsCacheStorage`). */
  storage?: RobotsCacheStorage
  /**
   * @internal The bound on each storage call, in ms (Infinity: none); default `timeoutMs`, at most
   * 10 s. For a storage that is itself bounded by a fetch timeout (a filter worker's asks to the
   * main thread's cache), which the default bound would cut short at that same timeout.
   */
  storageMs?: number
}

/**
 * Per-lookup options of `RobotsCache.get` and `RobotsCache.isAllowed`.
 *
 * @example
 * ```ts
 * import { RobotsCache, type LookupOptions } from 'robotstxt-wasm'
 *
 * const cache = new RobotsCache()
 * const options: LookupOptions = { signal: AbortSignal.timeout(2_000) } // give up on this lookup after 2 s
 * const allowed = await cache.isAllowed('https://example.com/page', 'MyBot', options)
 * ```
 */
export interface LookupOptions {
  /**
   * Rejects this lookup with `signal.reason`. The fetch it waits on is shared: it is aborted
   * (and nothing cached) only when every lookup waiting on it has been aborted.
   */
  signal?: AbortSignal
}

/** Google: after 30 days unreachable with no cached copy, "assumes that there are no crawl restrictions". */
const UNREACHABLE_ALLOW_MS = 30 * DAY_MS

/**
 * `RobotsCache.stats`: what the cache holds at the moment it is read.
 *
 * @example
 * ```ts
 * import { RobotsCache, type RobotsCacheStats } from 'robotstxt-wasm'
 *
 * const cache = new RobotsCache({ maxEntries: 1_000 })
 * const stats: RobotsCacheStats = cache.stats
 * stats // → { origins: 0, bytes: 0, bytesPerOrigin: 0, maxEntries: 1000, maxBytes: 67108864, pending: 0 }
 * ```
 */
export interface RobotsCacheStats {
  /** Origins with a kept answer. */
  readonly origins: number
  /** robots.txt body bytes kept, never above `maxBytes`. */
  readonly bytes: number
  /** `bytes / origins`, rounded (0 when empty). */
  readonly bytesPerOrigin: number
  /** The `maxEntries` bound the cache keeps to. */
  readonly maxEntries: number
  /** The `maxBytes` bound on `bytes`. */
  readonly maxBytes: number
  /** Fetches in flight (one per origin at most). */
  readonly pending: number
}

interface Entry {
  record: StoredRobots
  result: FetchResult
  bytes: number
}

interface Pending {
  promise: Promise<FetchResult>
  /** Lookups waiting that could still abort; the shared fetch is aborted when this drops to 0. */
  waiters: number
  controller: AbortController
}

/**
 * Robots.txt results per origin, fetched on demand and kept as RFC 9309 and Google do (RFC 9309 2.4,
 * "Caching"): 24 h by default or as `Cache-Control: max-age` says (at most `maxTtlMs`); `no-store`
 * and `max-age=0` are not reused; a failed refresh (429, 5xx, network) keeps serving the last good
 * copy, or disallows everything if there is none, and is retried after `retryMs`; after 30 days
 * unreachable with no good copy, everything is allowed. Concurrent lookups of one origin share one
 * fetch. Memory is bounded by `maxEntries` and `maxBytes` (least recently used evicted first).
 * The fetch options apply to every fetch; `options.signal` aborts the cache's fetches, pending and
 * future (use the per-lookup `signal` to abort a single lookup).
 *
 * @example
 * ```ts
 * import { RobotsCache } from 'robotstxt-wasm'
 *
 * const cache = new RobotsCache({ userAgent: 'MyBot/1.0 (+https://example.org/bot)' })
 * if (await cache.isAllowed('https://example.com/page', 'MyBot')) {
 *   const site = await cache.get('https://example.com/page') // the same lookup, from memory now
 *   console.log(site.outcome, site.robots.crawlDelay('MyBot'))
 * }
 * ```
 */
export class RobotsCache {
  readonly #config: FetchConfig
  readonly #lifetimes: Lifetimes
  readonly #maxEntries: number
  readonly #maxBytes: number
  readonly #clock: () => number
  readonly #storage: RobotsCacheStorage | undefined
  readonly #storageMs: number
  readonly #entries = new Map<string, Entry>()
  readonly #pending = new Map<string, Pending>()
  #bytes = 0

  constructor(options?: RobotsCacheOptions) {
    checkOptionsObject(options)
    const o = options ?? {}
    this.#config = fetchConfig(o)
    const rules = NUMERIC_OPTIONS.RobotsCacheOptions
    this.#lifetimes = {
      ttlMs: numberOption('options.ttlMs', o.ttlMs, rules.ttlMs),
      maxTtlMs: numberOption('options.maxTtlMs', o.maxTtlMs, rules.maxTtlMs),
      retryMs: numberOption('options.retryMs', o.retryMs, rules.retryMs),
    }
    this.#maxEntries = numberOption('options.maxEntries', o.maxEntries, rules.maxEntries)
    this.#maxBytes = numberOption('options.maxBytes', o.maxBytes, rules.maxBytes)
    // Read once: a getter read again could install a clock never checked.
    const now: unknown = o.now
    if (now !== undefined && typeof now !== 'function') fail('options.now', 'a function returning ms since the epoch', now)
    this.#clock = (now as (() => number) | undefined) ?? Date.now
    const s = o.storage
    if (s !== undefined && (typeof s !== 'object' || s === null || typeof s.get !== 'function' || typeof s.put !== 'function')) {
      fail('options.storage', 'an object with get(origin) and put(origin, record) methods', s)
    }
    this.#storage = s
    const storageMs = numberOption('options.storageMs', o.storageMs, rules.storageMs)
    this.#storageMs = storageMs ?? Math.min(this.#config.timeoutMs, STORAGE_MAX_MS)
  }

  /**
   * The result for the origin of `url` (any URL of the site): the kept one while it has not
   * expired, else a new fetch, shared with every concurrent lookup of that origin. Rejects only
   * for bad arguments (TypeError) and aborts (`signal.reason`, of this call or of the cache's
   * `options.signal`).
   */
  async get(url: string | URL, options?: LookupOptions): Promise<RobotsFetch> {
    const { origin, robotsUrl } = locateRobots(url)
    const signal = lookupSignal(options)
    const entry = this.#entries.get(origin)
    if (entry !== undefined && this.#now() < entry.record.expiresAt) {
      this.#touch(origin, entry)
      return entry.result
    }
    return this.#join(origin, robotsUrl, signal)
  }

  /**
   * True when `agent` may fetch `url`, by the robots.txt of the URL's origin (fetched if needed):
   * the file's rules, or everything allowed / disallowed as the outcome says.
   */
  async isAllowed(url: string | URL, agent: string | readonly string[], options?: LookupOptions): Promise<boolean> {
    agentTokens(agent) // before any fetch: a bad agent must not cost a request
    const result = await this.get(url, options)
    return result.isAllowed(url, agent)
  }

  /**
   * What the cache holds now, as a fresh object: the origins kept, the robots.txt body bytes kept
   * (what `maxBytes` bounds; allow-all and disallow-all answers keep none), their mean per origin,
   * the bounds, and the fetches in flight.
   *
   * @example
   * const { origins, bytes, bytesPerOrigin } = cache.stats
   */
  get stats(): RobotsCacheStats {
    const origins = this.#entries.size
    return Object.freeze({
      origins, bytes: this.#bytes, bytesPerOrigin: origins === 0 ? 0 : Math.round(this.#bytes / origins),
      maxEntries: this.#maxEntries, maxBytes: this.#maxBytes, pending: this.#pending.size,
    })
  }

  /** @internal The cache's clock (options.now): checkUrls judges its settled lookups by it. */
  now(): number {
    return this.#now()
  }

  #now(): number {
    const t: unknown = this.#clock()
    if (typeof t !== 'number' || !Number.isFinite(t)) fail('options.now', 'a function returning a finite number of ms', t)
    return t
  }

  #join(origin: string, robotsUrl: string, signal: AbortSignal | undefined): Promise<FetchResult> {
    const cacheSignal = this.#config.signal
    if (cacheSignal?.aborted) return Promise.reject(cacheSignal.reason)
    if (signal?.aborted) return Promise.reject(signal.reason)
    let pending = this.#pending.get(origin)
    if (pending === undefined) {
      const controller = new AbortController()
      const onCacheAbort = (): void => controller.abort(cacheSignal!.reason)
      cacheSignal?.addEventListener('abort', onCacheAbort, { once: true })
      const p: Pending = { promise: undefined!, waiters: 0, controller }
      p.promise = this.#refresh(origin, robotsUrl, controller.signal).finally(() => {
        cacheSignal?.removeEventListener('abort', onCacheAbort)
        if (this.#pending.get(origin) === p) this.#pending.delete(origin)
      })
      this.#pending.set(origin, p)
      pending = p
    }
    const shared = pending
    if (signal === undefined) {
      // A waiter that cannot abort keeps the shared fetch alive for good.
      shared.waiters = Infinity
      return shared.promise
    }
    shared.waiters++
    return raceAbort(shared.promise, signal, () => {
      if (--shared.waiters === 0) {
        // Nobody is left to use the result: stop the fetch, and let the next lookup start afresh.
        if (this.#pending.get(origin) === shared) this.#pending.delete(origin)
        shared.controller.abort(signal.reason)
      }
    })
  }

  async #refresh(origin: string, robotsUrl: string, signal: AbortSignal): Promise<FetchResult> {
    // The state before this fetch: a good copy to fall back on, and since when the origin fails.
    let base = this.#entries.get(origin)
    if (this.#storage !== undefined) {
      const stored = await this.#storageGet(origin, signal)
      if (signal.aborted) throw signal.reason
      if (stored !== undefined && (base === undefined || stored.expiresAt > base.record.expiresAt)) {
        const adopted = adopt(stored)
        if (this.#now() < stored.expiresAt) {
          // Another cache instance fetched it recently.
          this.#store(origin, adopted)
          return adopted.result
        }
        base = adopted
      }
    }
    // A storage that took something for this fetch (a fleet lock) gets it back through put, or
    // through release when nothing is put.
    let put = false
    try {
      const { entry, reusable } = await this.#fetched(origin, robotsUrl, signal, base)
      if (!reusable) {
        // Not reusable (no-store, max-age=0) or too large to keep: serve it to the lookups that
        // waited, and forget the older state it supersedes.
        this.#remove(origin)
        return entry.result
      }
      this.#store(origin, entry)
      if (this.#storage !== undefined) {
        put = true
        await this.#storagePut(origin, entry.record, signal)
      }
      return entry.result
    } finally {
      if (!put && typeof this.#storage?.release === 'function') await this.#storageRelease(origin)
    }
  }

  /** What a fetch of the origin gives, given the state before it; `reusable` false when it is not to be kept. */
  async #fetched(origin: string, robotsUrl: string, signal: AbortSignal, base: Entry | undefined): Promise<{ entry: Entry; reusable: boolean }> {
    const raw = await fetchRaw(robotsUrl, this.#config, signal)
    const t = this.#now()
    if (isSuccess(raw)) {
      const result = resultOf(origin, raw, t, this.#lifetimes)
      const body = raw.outcome === 'ok' ? result.robots.bodyBytes : null
      const record: StoredRobots = {
        origin, status: raw.status, outcome: raw.outcome, body, fetchedAt: t, expiresAt: result.expiresAt, unreachableSince: null, good: true,
        url: raw.url, redirects: raw.redirects, error: raw.error,
      }
      const entry = { record, result, bytes: body?.length ?? 0 }
      return { entry, reusable: successLifetime(raw, this.#lifetimes) !== 0 && entry.bytes <= this.#maxBytes }
    }
    const since = base?.record.unreachableSince ?? t
    // The retry delay, or what a 429 or 503 asked in Retry-After: also for a good copy served in the failure's place.
    const expiresAt = t + failureLifetime(raw, this.#lifetimes)
    if (base?.record.good === true) {
      // The good copy goes on answering; the failed refresh shows in unreachableSince and error.
      const record: StoredRobots = { ...base.record, expiresAt, unreachableSince: since, error: raw.error }
      const result = resultFor(record, base.result.robots)
      return { entry: { record, result, bytes: base.bytes }, reusable: true }
    }
    const outcome: RobotsOutcome = t - since > UNREACHABLE_ALLOW_MS ? 'allow-all' : 'disallow-all'
    const record: StoredRobots = {
      origin, status: raw.status, outcome, body: null, fetchedAt: t, expiresAt, unreachableSince: since, good: false,
      url: raw.url, redirects: raw.redirects, error: raw.error,
    }
    return { entry: { record, result: resultFor(record, noRobots()), bytes: 0 }, reusable: true }
  }

  #touch(origin: string, entry: Entry): void {
    this.#entries.delete(origin)
    this.#entries.set(origin, entry)
  }

  #remove(origin: string): void {
    const old = this.#entries.get(origin)
    if (old === undefined) return
    this.#entries.delete(origin)
    this.#bytes -= old.bytes
  }

  #store(origin: string, entry: Entry): void {
    this.#remove(origin)
    if (entry.bytes > this.#maxBytes) return
    this.#entries.set(origin, entry)
    this.#bytes += entry.bytes
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      this.#remove(this.#entries.keys().next().value!)
    }
  }

  /**
   * Storage is best effort: each call gets at most the lookup's time budget (`timeoutMs`, and no
   * more than STORAGE_MAX_MS), and a call that rejects, throws, hangs past it or hands back
   * anything but a well-formed record for this origin counts as a miss (get) or as done (put).
   */
  async #storageGet(origin: string, signal: AbortSignal): Promise<StoredRobots | undefined> {
    try {
      // A get given up on (aborted, or past its time) runs on, and may take for this lookup what
      // only put or release frees (redisStorage's fleet lock), though this lookup may never
      // fetch: it is released once that get is done.
      const late = typeof this.#storage!.release === 'function' ? () => void this.#storageRelease(origin) : undefined
      const r = await settleWithin(() => this.#storage!.get(origin), this.#storageMs, signal, late)
      if (!isStoredRobots(r, origin)) return undefined
      // A record may not outlive what this cache would grant a fresh fetch.
      const latest = this.#now() + this.#lifetimes.maxTtlMs
      return r.expiresAt > latest ? { ...r, expiresAt: latest } : r
    } catch {
      return undefined
    }
  }

  async #storagePut(origin: string, record: StoredRobots, signal: AbortSignal): Promise<void> {
    // The storage gets its own copy of the body: the kept one is what this cache's verdicts read.
    const copy = { ...record, body: record.body === null ? null : record.body.slice() }
    try {
      await settleWithin(() => this.#storage!.put(origin, copy), this.#storageMs, signal)
    } catch {
      // A storage failure costs a refetch later, nothing more.
    }
  }

  async #storageRelease(origin: string): Promise<void> {
    try {
      // Not on the lookup's signal: a lookup abandoned by every waiter still frees what it held.
      await settleWithin(() => this.#storage!.release!(origin), this.#storageMs, null)
    } catch {
      // Whatever it held expires on its own.
    }
  }
}

/** Upper bound on one storage call, whatever the fetch timeout (which may be Infinity). */
const STORAGE_MAX_MS = 10_000

/**
 * Calls `call` and waits for it at most `ms`, or until `signal` aborts: the value, or undefined
 * when time ran out first. A synchronous throw or a rejection rejects. The timer is cleared as soon
 * as either side settles, so a storage that never settles leaves nothing behind but its promise.
 * `late` runs when a call given up on settles after all. A call that outlives the lookup's own
 * signal passes null, not a signal that never aborts: making one at import cost every process's
 * start 0.2-0.4 ms (Node's first AbortController loads its event-target machinery).
 */
function settleWithin<T>(call: () => Promise<T>, ms: number, signal: AbortSignal | null, late?: () => void): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    let gaveUp = false
    const done = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (gaveUp) late?.()
    }
    const onAbort = (): void => {
      done()
      gaveUp = true
      resolve(undefined)
    }
    // setTimeout fires at once for a delay past 2^31 - 1 ms.
    const timer = ms > 0x7fffffff ? undefined : setTimeout(onAbort, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
    let p: Promise<T>
    try {
      p = Promise.resolve(call())
    } catch (err) {
      done()
      reject(err)
      return
    }
    p.then(
      (v) => {
        done()
        resolve(v)
      },
      (err: unknown) => {
        done()
        reject(err)
      },
    )
  })
}

/** The RobotsFetch of a record, with its parsed robots.txt. */
function resultFor(record: StoredRobots, robots: FetchResult['robots']): FetchResult {
  return new FetchResult({
    origin: record.origin, status: record.status, outcome: record.outcome, robots, fetchedAt: record.fetchedAt,
    expiresAt: record.expiresAt, unreachableSince: record.unreachableSince,
    url: record.url ?? null, redirects: record.redirects ?? 0, error: record.error ?? null,
  })
}

/** A stored record as an entry; the body is copied into the parsed robots.txt, which owns it. */
function adopt(stored: StoredRobots): Entry {
  const robots = stored.outcome === 'ok' ? parseRobots(stored.body ?? new Uint8Array(0)) : noRobots()
  const body = stored.outcome === 'ok' ? robots.bodyBytes : null
  // Fields a record of an earlier version lacks are given their defaults here, once.
  const record: StoredRobots = { ...stored, body, url: stored.url ?? null, redirects: stored.redirects ?? 0, error: stored.error ?? null }
  return { record, result: resultFor(record, robots), bytes: body?.length ?? 0 }
}

/**
 * A storage hands back whatever it holds: anything that is not a well-formed record is a miss. The
 * fields added after the first version (url, redirects, error) may be absent.
 */
function isStoredRobots(r: unknown, origin: string): r is StoredRobots {
  if (typeof r !== 'object' || r === null) return false
  const s = r as Record<string, unknown>
  const time = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v)
  return s.origin === origin &&
    (s.status === null || (typeof s.status === 'number' && Number.isInteger(s.status))) &&
    (s.outcome === 'ok' || s.outcome === 'allow-all' || s.outcome === 'disallow-all') &&
    (s.outcome === 'ok' ? s.body instanceof Uint8Array : s.body === null || s.body === undefined) &&
    time(s.fetchedAt) && time(s.expiresAt) &&
    (s.unreachableSince === null || time(s.unreachableSince)) &&
    typeof s.good === 'boolean' &&
    (s.url === undefined || s.url === null || typeof s.url === 'string') &&
    (s.redirects === undefined || (typeof s.redirects === 'number' && Number.isInteger(s.redirects) && s.redirects >= 0)) &&
    (s.error === undefined || s.error === null || isFetchError(s.error))
}

/** A `RobotsFetchError` as a storage hands it back. */
export function isFetchError(e: unknown): e is RobotsFetchError {
  if (typeof e !== 'object' || e === null) return false
  const { code, message } = e as Record<string, unknown>
  return FETCH_ERROR_CODES.includes(code as RobotsFetchError['code']) && typeof message === 'string'
}

function lookupSignal(options: LookupOptions | undefined): AbortSignal | undefined {
  checkOptionsObject(options)
  const signal = options?.signal
  if (signal !== undefined && !isAbortSignal(signal)) fail('options.signal', 'an AbortSignal', signal)
  return signal
}
