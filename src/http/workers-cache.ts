// A RobotsCacheStorage on the Cloudflare Workers Cache API: the in-memory RobotsCache lives as long
// as one isolate, this keeps results in the data center's cache across isolates and requests.
//
// A record is one cached Response per origin, keyed by a GET URL under the caller's prefix on the
// Worker's own host: the robots.txt bytes as the body, the rest of the record as JSON in one header. Its Cache-Control max-age covers the record's
// lifetime plus `keepMs`, so a failed refresh can still fall back to the last good copy (RFC 9309 2.3-2.4 and Google's documented handling,
// "Caching"). Reading validates everything and treats anything unexpected (another format version,
// a foreign or truncated entry) as a miss: the cache then fetches, which is always safe.
//
// No Workers global is touched at import time, so the package still loads in Node; any object with
// the two Cache methods works (a browser Cache, a test double).

import { fail, NUMERIC_OPTIONS, numberOption } from '../engine/args.js'
import { isFetchError, type RobotsCacheStorage, type StoredRobots } from './cache.js'
import type { RobotsFetchError } from './fetch-error.js'
import type { RobotsOutcome } from './fetch.js'

/**
 * The methods of a Workers `Cache` that the storage uses: pass `caches.default` or the result of
 * `await caches.open(name)`. Keys are plain GET URLs.
 *
 * @example
 * ```ts
 * import { RobotsCache, workersCacheStorage, type WorkersCache } from 'robotstxt-wasm'
 *
 * // In a Worker: the data center's default cache, or a named one.
 * const cache: WorkersCache = await caches.open('robots')
 * const robots = new RobotsCache({ storage: workersCacheStorage(cache, { keyPrefix: 'https://my-worker.example.com/_robots-cache/' }) })
 * ```
 */
export interface WorkersCache {
  /** The cached response for `request`, if any. */
  match(request: string): Promise<Response | undefined>
  /** Caches `response` under `request`, for as long as its Cache-Control allows. */
  put(request: string, response: Response): Promise<void>
}

/**
 * Options of `workersCacheStorage`.
 *
 * @example
 * ```ts
 * import { RobotsCache, workersCacheStorage, type WorkersCacheStorageOptions } from 'robotstxt-wasm'
 *
 * export default {
 *   async fetch(request: Request): Promise<Response> {
 *     const options: WorkersCacheStorageOptions = { keyPrefix: new URL('/_robots-cache/', request.url), keepMs: 7 * 86_400_000 }
 *     const robots = new RobotsCache({ storage: workersCacheStorage(caches.default, options) })
 *     return Response.json({ allowed: await robots.isAllowed('https://example.com/', 'MyBot') })
 *   },
 * }
 * ```
 */
export interface WorkersCacheStorageOptions {
  /**
   * Where the cache keys start: an absolute http(s) URL on the Worker's own host name, e.g.
   * `new URL('/_robots-cache/', request.url)`; a record is kept under this plus the URL-encoded
   * origin. Required, because Cloudflare warns that cache keys on other host names (or invented
   * ones) cost DNS lookups and latency. Different prefixes keep separate caches apart.
   */
  keyPrefix: string | URL
  /**
   * How long a record stays cached after it expires, in ms, so that a failed refresh can go on
   * serving the last good copy; default 30 days. The data center's cache may drop it sooner.
   */
  keepMs?: number
  /** The clock used to turn `expiresAt` into a cache lifetime, ms since the epoch; default `Date.now`. */
  now?: () => number
}

/** The header holding the record's fields; its `v` is the format version, checked on every read. */
const META_HEADER = 'x-robotstxt-wasm-record'
const FORMAT = 1
const OUTCOMES: readonly RobotsOutcome[] = ['ok', 'allow-all', 'disallow-all']

/** The record without its body, as stored in META_HEADER. */
interface Meta {
  v: number
  origin: string
  status: number | null
  outcome: RobotsOutcome
  fetchedAt: number
  expiresAt: number
  unreachableSince: number | null
  good: boolean
  /** Length of the body, or null when the record has none (not the same as an empty body). */
  bodyBytes: number | null
  /** Added after the format's first release: absent in older entries, which read with the defaults. */
  url?: string | null
  redirects?: number
  error?: RobotsFetchError | null
}

/**
 * A `RobotsCacheStorage` that keeps `RobotsCache` results in the Cloudflare Workers Cache API, so
 * that they outlive an isolate and are shared by every isolate of the Worker in a data center.
 * Workers on `*.workers.dev` have a Cache API that stores nothing: there, only the `RobotsCache`'s
 * own memory (per isolate) applies. Errors from the Cache API propagate; `RobotsCache` treats them
 * as misses.
 *
 * @param cache `caches.default`, or a named cache from `caches.open()`.
 *
 * @example
 * ```ts
 * import { RobotsCache, workersCacheStorage } from 'robotstxt-wasm'
 *
 * let robots: RobotsCache | undefined // one per isolate
 *
 * export default {
 *   async fetch(request: Request): Promise<Response> {
 *     robots ??= new RobotsCache({
 *       userAgent: 'MyBot/1.0',
 *       storage: workersCacheStorage(caches.default, { keyPrefix: new URL('/_robots-cache/', request.url) }),
 *     })
 *     const url = new URL(request.url).searchParams.get('url') ?? 'https://example.com/'
 *     return Response.json({ allowed: await robots.isAllowed(url, 'MyBot') })
 *   },
 * }
 * ```
 */
export function workersCacheStorage(cache: WorkersCache, options: WorkersCacheStorageOptions): RobotsCacheStorage {
  if (typeof cache !== 'object' || cache === null || typeof cache.match !== 'function' || typeof cache.put !== 'function') {
    fail('cache', 'a Workers Cache such as caches.default (an object with match and put methods)', cache)
  }
  if (typeof options !== 'object' || options === null) fail('options', 'an object with keyPrefix', options)
  const prefix = keyPrefixOption(options.keyPrefix)
  const keepMs = numberOption('options.keepMs', options.keepMs, NUMERIC_OPTIONS.WorkersCacheStorageOptions.keepMs)
  const now = options.now ?? Date.now
  if (typeof now !== 'function') fail('options.now', 'a function returning ms since the epoch', now)
  const keyOf = (origin: string) => prefix + encodeURIComponent(origin)

  return {
    async get(origin: string): Promise<StoredRobots | undefined> {
      const res = await cache.match(keyOf(origin))
      if (res === undefined) return undefined
      const meta = parseMeta(res.headers.get(META_HEADER))
      const usable = meta !== null && meta.origin === origin
      if (!usable || meta.bodyBytes === null) {
        // Release the unread body (the response holds I/O resources until it is consumed).
        await res.body?.cancel()
        return usable ? toRecord(meta, null) : undefined
      }
      const body = new Uint8Array(await res.arrayBuffer())
      // A body of another length than written is not this record's (or was cut short).
      return body.length === meta.bodyBytes ? toRecord(meta, body) : undefined
    },

    async put(origin: string, record: StoredRobots): Promise<void> {
      const meta: Meta = {
        v: FORMAT,
        origin: record.origin,
        status: record.status,
        outcome: record.outcome,
        fetchedAt: record.fetchedAt,
        expiresAt: record.expiresAt,
        unreachableSince: record.unreachableSince,
        good: record.good,
        bodyBytes: record.body === null ? null : record.body.length,
      }
      // Written when the record has them, so that a record round-trips as it was put.
      if (record.url !== undefined) meta.url = record.url
      if (record.redirects !== undefined) meta.redirects = record.redirects
      if (record.error !== undefined) meta.error = record.error === null ? null : { code: record.error.code, message: record.error.message }
      // At least one second, so that the write always replaces an earlier record.
      const seconds = Math.max(1, Math.ceil((record.expiresAt + keepMs - now()) / 1000))
      const response = new Response(bodyInit(record.body), {
        headers: {
          'content-type': 'application/octet-stream',
          'cache-control': `max-age=${seconds}`,
          [META_HEADER]: asciiJson(meta),
        },
      })
      await cache.put(keyOf(origin), response)
    },
  }
}

/** JSON with every character past ASCII escaped: a header value holds bytes, and an error message may hold any text. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function keyPrefixOption(value: unknown): string {
  let url: URL | null = value instanceof URL ? value : null
  if (typeof value === 'string') {
    try {
      url = new URL(value)
    } catch {
      url = null
    }
  }
  // A query or fragment would swallow the origin appended to the prefix.
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    fail('options.keyPrefix', "an absolute http: or https: URL on the Worker's host, without query or fragment", value instanceof URL ? value.href : value)
  }
  return url.href
}

/** A Response body from the record's bytes; those on a SharedArrayBuffer are copied (not a BodyInit). */
function bodyInit(body: Uint8Array | null): Uint8Array<ArrayBuffer> | null {
  if (body === null) return null
  return body.buffer instanceof ArrayBuffer ? (body as Uint8Array<ArrayBuffer>) : body.slice()
}

function isTime(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v)
}

/** The stored metadata if it is a well-formed record of this format; null otherwise. */
function parseMeta(header: string | null): Meta | null {
  if (header === null) return null
  let m: unknown
  try {
    m = JSON.parse(header)
  } catch {
    return null
  }
  if (typeof m !== 'object' || m === null) return null
  const r = m as Record<string, unknown>
  const ok =
    r.v === FORMAT &&
    typeof r.origin === 'string' &&
    (r.status === null || (Number.isInteger(r.status) && (r.status as number) >= 100 && (r.status as number) <= 999)) &&
    OUTCOMES.includes(r.outcome as RobotsOutcome) &&
    isTime(r.fetchedAt) &&
    isTime(r.expiresAt) &&
    (r.unreachableSince === null || isTime(r.unreachableSince)) &&
    typeof r.good === 'boolean' &&
    (r.bodyBytes === null || (Number.isInteger(r.bodyBytes) && (r.bodyBytes as number) >= 0)) &&
    (r.url === undefined || r.url === null || typeof r.url === 'string') &&
    (r.redirects === undefined || (Number.isInteger(r.redirects) && (r.redirects as number) >= 0)) &&
    (r.error === undefined || r.error === null || isFetchError(r.error))
  return ok ? (r as unknown as Meta) : null
}

function toRecord(meta: Meta, body: Uint8Array | null): StoredRobots {
  const record: StoredRobots = {
    origin: meta.origin,
    status: meta.status,
    outcome: meta.outcome,
    body,
    fetchedAt: meta.fetchedAt,
    expiresAt: meta.expiresAt,
    unreachableSince: meta.unreachableSince,
    good: meta.good,
  }
  if (meta.url !== undefined) record.url = meta.url
  if (meta.redirects !== undefined) record.redirects = meta.redirects
  if (meta.error !== undefined) record.error = meta.error === null ? null : { code: meta.error.code, message: meta.error.message }
  return record
}
