// The origin-lookup scheduler of checkUrls: each input to its verdict. Each origin's robots.txt is
// looked up once through the RobotsCache (RFC 9309 2.3-2.4: one robots.txt per origin), at most
// `concurrency` lookups at a time, new origins queueing for a slot; an origin's URLs gathered while
// it is looked up are checked in one batch on its compiled Matcher once it settles. Each verdict
// goes to the Release under its input's number; the Wake is signalled when a lookup settles.
//
// Bounds: compiled matchers are kept for at most MAX_READY origins (least recently used go first;
// the RobotsCache still holds their robots.txt); origins being looked up are at most the inputs
// numbered and not released (the Release's capacity); the origin-prefix memo is cleared when it
// reaches MAX_PREFIXES.

import type { Matcher } from '../engine/matcher.js'
import type { Release } from '../flow/release.js'
import type { Wake } from '../flow/wake.js'
import type { RobotsCache } from './cache.js'
import type { FetchErrorCode } from './fetch-error.js'
import type { RobotsFetch, RobotsOutcome } from './fetch.js'
import { robotsOrigin } from './origin.js'

/**
 * The verdict on one URL of the stream.
 *
 * @example
 * ```ts
 * import { checkUrls, type UrlVerdict } from 'robotstxt-wasm'
 *
 * for await (const v of checkUrls(['https://example.com/', 'mailto:a@example.com'], { agent: 'MyBot' })) {
 *   const verdict: UrlVerdict = v
 *   console.log(verdict.error ?? `${verdict.allowed} ${verdict.outcome} line ${verdict.line}`)
 * }
 * ```
 */
export interface UrlVerdict {
  /** The URL as given (a `URL` as its `href`). */
  url: string
  /** May the agent fetch it: false for an error record. */
  allowed: boolean
  /** The robots.txt line that decided, 0 when none did (or for allow-all / disallow-all). */
  line: number
  /** The origin whose robots.txt decided; null when the input was not an http(s) URL. */
  origin: string | null
  /** What that origin's robots.txt lookup gave (`fetchRobots` outcomes, RFC 9309 2.3.1); null with `error`. */
  outcome: RobotsOutcome | null
  /** Why this input could not be checked (not an http(s) URL); such a record is never allowed. */
  error?: string
  /**
   * Present when the robots.txt lookup of the URL's origin got no usable answer: the code of that
   * lookup's `RobotsFetch.error` ('refused', 'timeout', ...). The verdict is then the outcome's
   * (disallow-all; allow-all for 'redirects'), or the last good copy's rules while it serves.
   */
  fetchError?: FetchErrorCode
}

/** Origins whose compiled matcher is kept between URLs. */
const MAX_READY = 4096
/** URL prefixes (scheme://authority) whose origin is memoized. */
const MAX_PREFIXES = 65536

interface OriginState {
  origin: string
  /** Set once the lookup settled. */
  result: RobotsFetch | null
  matcher: Matcher | null
  /** URLs to check together (and their numbers): read while the lookup runs or waits for a slot,
   * or gathered from one add() once it has settled. */
  urls: string[]
  seqs: number[]
}

export class OriginLookups {
  readonly #agent: string | readonly string[]
  readonly #cache: RobotsCache
  readonly #concurrency: number
  readonly #out: Release<UrlVerdict>
  readonly #wake: Wake
  /** Settled lookups, least recently used first. */
  readonly #ready = new Map<string, OriginState>()
  /** Lookups running or queued. */
  readonly #looking = new Map<string, OriginState>()
  readonly #queue: OriginState[] = []
  readonly #prefixes = new Map<string, string>()
  #running = 0
  #failure: { error: unknown } | null = null
  /** No lookup starts once closed. */
  #closed = false
  readonly #one: string[] = ['']
  readonly #oneOut = new Int32Array(1)

  constructor(
    agent: string | readonly string[],
    cache: RobotsCache,
    concurrency: number,
    out: Release<UrlVerdict>,
    wake: Wake,
  ) {
    this.#agent = agent
    this.#cache = cache
    this.#concurrency = concurrency
    this.#out = out
    this.#wake = wake
  }

  /** What ends the stream: a lookup that rejected (an abort), or a matcher that could not be compiled. */
  get failure(): { error: unknown } | null {
    return this.#failure
  }

  /** Starts no more lookups; those running settle into the Release unread. */
  close(): void {
    this.#closed = true
    this.#queue.length = 0
  }

  /**
   * Gives each of `values` (numbered from `firstSeq`) its verdict: at once for an input that is no
   * http(s) URL and for the origins already settled (one batch each), else when its lookup settles.
   */
  add(values: readonly unknown[], firstSeq: number): void {
    const touched: OriginState[] = []
    // The cache's clock, which set expiresAt: with options.now injected, Date.now() is another time.
    const now = this.#cache.now()
    for (let k = 0; k < values.length; k++) {
      const url = urlOf(values[k])
      if (typeof url !== 'string') {
        this.#out.put(firstSeq + k, url)
        continue
      }
      let origin: string
      try {
        origin = this.#originOf(url)
      } catch (err) {
        const error = (err as Error).message
        this.#out.put(firstSeq + k, { url, allowed: false, line: 0, origin: null, outcome: null, error })
        continue
      }
      let state = this.#readyAt(origin, now)
      if (state === undefined) state = this.#lookupOf(origin)
      else if (state.urls.length === 0) touched.push(state)
      state.urls.push(url)
      state.seqs.push(firstSeq + k)
    }
    for (const state of touched) {
      this.#remember(state)
      this.#settle(state)
    }
    this.#startLookups()
  }

  /** The origin's settled state while its result is fresh at `now`. */
  #readyAt(origin: string, now: number): OriginState | undefined {
    const state = this.#ready.get(origin)
    return state !== undefined && now < state.result!.expiresAt ? state : undefined
  }

  /** The origin's lookup, running or queued; a new one joins the queue. */
  #lookupOf(origin: string): OriginState {
    let state = this.#looking.get(origin)
    if (state === undefined) {
      state = { origin, result: null, matcher: null, urls: [], seqs: [] }
      this.#looking.set(origin, state)
      this.#queue.push(state)
    }
    return state
  }

  // The origin is a function of `scheme://authority` alone, so it is memoized by that prefix (cut
  // where the path, query or fragment starts; '\\' starts the path of http(s) URLs too).
  #originOf(url: string): string {
    const s = url.indexOf('://')
    if (s < 1 || s > 16) return robotsOrigin(url)
    let e = s + 3
    for (; e < url.length; e++) {
      const c = url.charCodeAt(e)
      if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x5c) break
    }
    // No authority before the first '/', '\', '?' or '#' ("http:///host/x", "http://\host/x"): the
    // URL parser finds the host further on, so the whole URL is parsed.
    if (e === s + 3) return robotsOrigin(url)
    const prefix = url.slice(0, e)
    let o = this.#prefixes.get(prefix)
    if (o === undefined) {
      o = robotsOrigin(prefix)
      if (this.#prefixes.size >= MAX_PREFIXES) this.#prefixes.clear()
      this.#prefixes.set(prefix, o)
    }
    return o
  }

  #startLookups(): void {
    while (!this.#closed && this.#running < this.#concurrency && this.#queue.length > 0) {
      const state = this.#queue.shift()!
      this.#running++
      this.#cache.get(state.origin + '/').then((result) => this.#settled(state, result), (error: unknown) => {
        this.#running--
        this.#failure ??= { error }
        this.#wake.signal()
      })
    }
  }

  #settled(state: OriginState, result: RobotsFetch): void {
    this.#running--
    try {
      state.result = result
      state.matcher = result.outcome === 'ok' ? result.robots.matcher(this.#agent) : null
      this.#looking.delete(state.origin)
      this.#remember(state)
      this.#settle(state)
      this.#startLookups()
    } catch (error) {
      // A matcher that cannot be compiled (wasm memory that cannot grow) ends the stream with its
      // error, as a failed lookup does: thrown here, it was an unhandled rejection and the stream
      // waited for ever.
      this.#failure ??= { error }
    }
    this.#wake.signal()
  }

  #remember(state: OriginState): void {
    this.#ready.delete(state.origin)
    this.#ready.set(state.origin, state)
    if (this.#ready.size > MAX_READY) this.#ready.delete(this.#ready.keys().next().value!)
  }

  /** Checks the gathered URLs of a settled origin in one batch and empties the gathering. */
  #settle(state: OriginState): void {
    const r = state.result!
    const { urls, seqs } = state
    // A failed lookup's verdicts carry its code (the field is absent otherwise: one object shape for the common case).
    const fetchError = r.error?.code
    const verdict = (url: string, allowed: boolean, line: number): UrlVerdict => fetchError === undefined
      ? { url, allowed, line, origin: state.origin, outcome: r.outcome }
      : { url, allowed, line, origin: state.origin, outcome: r.outcome, fetchError }
    if (state.matcher === null) {
      const allowed = r.outcome === 'allow-all'
      for (let k = 0; k < urls.length; k++) this.#out.put(seqs[k]!, verdict(urls[k]!, allowed, 0))
    } else {
      const lines = this.#check(state.matcher, urls)
      for (let k = 0; k < urls.length; k++) {
        const v = lines[k]!
        this.#out.put(seqs[k]!, verdict(urls[k]!, v >= 0, v < 0 ? -v : v))
      }
    }
    state.urls = []
    state.seqs = []
  }

  /** checkMany's ±line verdicts; a lone URL (the common case past a slab's first) allocates nothing. */
  #check(matcher: Matcher, urls: string[]): Int32Array {
    if (urls.length !== 1) return matcher.checkMany(urls)
    this.#one[0] = urls[0]!
    matcher.checkMany(this.#one, this.#oneOut)
    return this.#oneOut
  }
}

/** The URL string of an input, or the error record of an input that is neither string nor URL. */
function urlOf(value: unknown): string | UrlVerdict {
  if (typeof value === 'string') return value
  if (value instanceof URL) return value.href
  const shown = value === null || typeof value !== 'object'
    ? String(value as string)
    : Object.prototype.toString.call(value)
  const error = 'expected a URL string or a URL object'
  return { url: shown, allowed: false, line: 0, origin: null, outcome: null, error }
}
