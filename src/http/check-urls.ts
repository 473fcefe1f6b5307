// checkUrls: a crawler's frontier (URLs of any mix of hosts) in, one verdict per URL out, each
// origin's robots.txt fetched once through a RobotsCache (RFC 9309 2.3-2.4: one robots.txt per
// origin) and each origin's URLs checked in batches on one compiled Matcher.
//
// Bounds, whatever the input size:
// * at most `concurrency` robots.txt lookups run at once; other new origins queue for a slot;
// * at most `maxPending` URLs are read and not yet handed out (waiting on an origin, or, in input
//   order, waiting behind one that does). At the bound, reading the input pauses;
// * compiled matchers are kept for at most MAX_READY origins (least recently used go first; the
//   RobotsCache still holds their robots.txt), origins being looked up are bounded by maxPending,
//   and the origin-prefix memo is cleared when it reaches MAX_PREFIXES.

import { agentTokens, fail } from '../engine/args.js'
import type { Matcher } from '../engine/matcher.js'
import { RobotsCache } from './cache.js'
import type { FetchErrorCode } from './fetch-error.js'
import type { RobotsFetch, RobotsOutcome } from './fetch.js'
import { robotsOrigin } from './origin.js'
import { defaultUserAgent, inBrowser } from './user-agent.js'

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

/** Origins whose compiled matcher is kept between URLs. */
const MAX_READY = 4096
/** URL prefixes (scheme://authority) whose origin is memoized. */
const MAX_PREFIXES = 65536
/** URLs read before they are classified and matched together. */
const SLAB = 1024

interface OriginState {
  origin: string
  /** Set once the lookup settled. */
  result: RobotsFetch | null
  matcher: Matcher | null
  /** URLs to check together (and their sequence numbers): read while the lookup runs or waits for
   * a slot, or gathered from one slab once it has settled. */
  urls: string[]
  seqs: number[]
}

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
  const concurrency = intOption('options.concurrency', options.concurrency, 16)
  const maxPending = intOption('options.maxPending', options.maxPending, 10_000)
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

function intOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail(name, 'an integer >= 1', value)
  return value
}

async function* stream(urls: Iterable<string | URL> | AsyncIterable<string | URL>, c: Config): AsyncGenerator<UrlVerdict> {
  const isAsync = typeof (urls as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  const input: Iterator<unknown> | AsyncIterator<unknown> = isAsync
    ? (urls as AsyncIterable<unknown>)[Symbol.asyncIterator]()
    : (urls as Iterable<unknown>)[Symbol.iterator]()

  const ready = new Map<string, OriginState>() // settled lookups, least recently used first
  const looking = new Map<string, OriginState>() // lookups running or queued
  const queue: OriginState[] = []
  const prefixes = new Map<string, string>()
  let running = 0
  let failure: { error: unknown } | null = null

  // Results not yet handed out: by sequence number when ordered, else in completion order.
  const done = new Map<number, UrlVerdict>()
  const fifo: UrlVerdict[] = []
  let nextOut = 0
  let fifoHead = 0
  let read = 0
  let handedOut = 0
  let inputDone = false
  // The input's next() threw: the iteration is over, and its return() is not called.
  let inputFailed = false
  // The consumer left (or the stream ended): no lookup starts after this.
  let closed = false

  // One wait at a time, each on a fresh promise that `signal` (a lookup settled or failed, or the
  // event loop turned while a slab waits) resolves. Never Promise.race on a promise that outlives
  // the wait: a race leaves a reaction on each promise it is given until that promise settles, so
  // racing every read against one long-pending promise (few origins: no lookup settles for
  // millions of reads; an input that never yields to the event loop: no stall) held every read's
  // result. A signal with no wait under way is dropped: each wait follows a look at its state.
  let wake: (() => void) | null = null
  const signal = (): void => {
    const w = wake
    wake = null
    w?.()
  }
  const woken = (): Promise<void> => new Promise((r) => (wake = r))
  /** The step of `next`, or undefined when signalled first; `next` gets one reaction per wait. */
  const stepOrSignal = (next: Promise<IteratorResult<unknown>>): Promise<IteratorResult<unknown> | undefined> =>
    new Promise((resolve, reject) => {
      wake = () => resolve(undefined)
      next.then(resolve, (err: unknown) => {
        inputFailed = true
        reject(err)
      })
    })
  /** The input's next(); one that throws ends the iteration, and is not asked to return(). */
  const pull = (): IteratorResult<unknown> | Promise<IteratorResult<unknown>> => {
    try {
      return input.next()
    } catch (err) {
      inputFailed = true
      throw err
    }
  }
  // An async input that has to wait on I/O lets the event loop reach setImmediate: the slab read
  // so far is matched then, instead of waiting for a full slab. One setImmediate at a time, however
  // many slabs start before the loop turns.
  let armed = false
  let turned = false
  let slabWaiting = false
  const arm = (): void => {
    turned = false
    if (armed) return
    armed = true
    later(() => {
      armed = false
      turned = true
      if (slabWaiting) signal()
    })
  }

  const finish = (seq: number, v: UrlVerdict): void => {
    if (c.ordered) done.set(seq, v)
    else fifo.push(v)
  }

  // The origin is a function of `scheme://authority` alone, so it is memoized by that prefix (cut
  // where the path, query or fragment starts; '\\' starts the path of http(s) URLs too).
  const originOf = (url: string): string => {
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
    let o = prefixes.get(prefix)
    if (o === undefined) {
      o = robotsOrigin(prefix)
      if (prefixes.size >= MAX_PREFIXES) prefixes.clear()
      prefixes.set(prefix, o)
    }
    return o
  }

  const one: string[] = ['']
  const oneOut = new Int32Array(1)
  /** Checks the gathered URLs of a settled origin in one batch and empties the gathering. */
  const settle = (state: OriginState): void => {
    const r = state.result!
    const { urls, seqs } = state
    // A failed lookup's verdicts carry its code (the field is absent otherwise: one object shape for the common case).
    const fetchError = r.error?.code
    const verdict = (url: string, allowed: boolean, line: number): UrlVerdict => fetchError === undefined
      ? { url, allowed, line, origin: state.origin, outcome: r.outcome }
      : { url, allowed, line, origin: state.origin, outcome: r.outcome, fetchError }
    if (state.matcher === null) {
      const allowed = r.outcome === 'allow-all'
      for (let k = 0; k < urls.length; k++) finish(seqs[k]!, verdict(urls[k]!, allowed, 0))
    } else {
      let lines: Int32Array = oneOut
      if (urls.length === 1) {
        one[0] = urls[0]!
        state.matcher.checkMany(one, oneOut)
      } else lines = state.matcher.checkMany(urls)
      for (let k = 0; k < urls.length; k++) {
        const v = lines[k]!
        finish(seqs[k]!, verdict(urls[k]!, v >= 0, v < 0 ? -v : v))
      }
    }
    state.urls = []
    state.seqs = []
  }

  const startLookups = (): void => {
    while (!closed && running < c.concurrency && queue.length > 0) {
      const state = queue.shift()!
      running++
      c.cache.get(state.origin + '/').then((result) => {
        running--
        try {
          state.result = result
          state.matcher = result.outcome === 'ok' ? result.robots.matcher(c.agent) : null
          looking.delete(state.origin)
          remember(state)
          settle(state)
          startLookups()
        } catch (error) {
          // A matcher that cannot be compiled (wasm memory that cannot grow) ends the stream with
          // its error, as a failed lookup does: thrown here, it was an unhandled rejection and the
          // stream waited for ever.
          failure ??= { error }
        }
        signal()
      }, (error: unknown) => {
        running--
        failure ??= { error }
        signal()
      })
    }
  }

  const remember = (state: OriginState): void => {
    ready.delete(state.origin)
    ready.set(state.origin, state)
    if (ready.size > MAX_READY) ready.delete(ready.keys().next().value!)
  }

  /** Classifies a slab of inputs: verdicts now for settled origins (one batch each), else a wait. */
  const classify = (urls: string[], firstSeq: number): void => {
    const touched: OriginState[] = []
    // The cache's clock, which set expiresAt: with options.now injected, Date.now() is another time.
    const now = c.cache.now()
    for (let k = 0; k < urls.length; k++) {
      const url = urls[k]!
      if (url === SKIP) continue
      let origin: string
      try {
        origin = originOf(url)
      } catch (err) {
        finish(firstSeq + k, { url, allowed: false, line: 0, origin: null, outcome: null, error: (err as Error).message })
        continue
      }
      let state = ready.get(origin)
      if (state !== undefined && now < state.result!.expiresAt) {
        if (state.urls.length === 0) touched.push(state)
      } else {
        state = looking.get(origin)
        if (state === undefined) {
          state = { origin, result: null, matcher: null, urls: [], seqs: [] }
          looking.set(origin, state)
          queue.push(state)
        }
      }
      state.urls.push(url)
      state.seqs.push(firstSeq + k)
    }
    for (const state of touched) {
      remember(state)
      settle(state)
    }
    startLookups()
  }

  /** The URL string of an input, or the error record of an input that is neither string nor URL. */
  const urlOf = (value: unknown): string | UrlVerdict => {
    if (typeof value === 'string') return value
    if (value instanceof URL) return value.href
    const shown = value === null || typeof value !== 'object' ? String(value as string) : Object.prototype.toString.call(value)
    return { url: shown, allowed: false, line: 0, origin: null, outcome: null, error: 'expected a URL string or a URL object' }
  }

  /** Reads up to a slab of inputs without passing maxPending; false once the input is done. */
  const readSlab = async (): Promise<void> => {
    const slab: string[] = []
    const firstSeq = read
    const room = Math.min(SLAB, c.maxPending - (read - handedOut))
    if (isAsync) arm()
    while (slab.length < room) {
      let step: IteratorResult<unknown>
      if (isAsync) {
        if (turned && slab.length > 0) break
        const next = pull() as Promise<IteratorResult<unknown>>
        slabWaiting = slab.length > 0
        const first = await stepOrSignal(next)
        slabWaiting = false
        if (first === undefined) {
          // The input is slow, or a lookup settled: match what was read, and let the caller hand
          // out results while it keeps waiting on this same `next` (never call next() twice).
          classify(slab, firstSeq)
          pendingNext = next
          return
        }
        step = first as IteratorResult<unknown>
      } else {
        step = pull() as IteratorResult<unknown>
      }
      if (step.done === true) {
        inputDone = true
        break
      }
      const it = urlOf(step.value)
      if (typeof it !== 'string') {
        // Kept in the slab as a placeholder so sequence numbers stay positional; classify skips it.
        finish(read, it)
        slab.push(SKIP)
      } else slab.push(it)
      read++
    }
    classify(slab, firstSeq)
  }
  let pendingNext: Promise<IteratorResult<unknown>> | null = null

  try {
    for (;;) {
      // Set by a lookup's callback, which TypeScript's flow analysis does not see.
      const failed = failure as { error: unknown } | null
      if (failed !== null) throw failed.error
      // Hand out what is ready.
      if (c.ordered) {
        while (done.has(nextOut)) {
          const v = done.get(nextOut)!
          done.delete(nextOut++)
          handedOut++
          yield v
        }
      } else {
        while (fifoHead < fifo.length) {
          const v = fifo[fifoHead++]!
          handedOut++
          if (fifoHead === fifo.length) {
            fifo.length = 0
            fifoHead = 0
          }
          yield v
        }
      }
      if (inputDone && handedOut === read) return
      if (!inputDone && read - handedOut < c.maxPending) {
        if (pendingNext !== null) {
          // A read that was interrupted: wait for it, or for a result to hand out.
          const p = pendingNext
          const first = await stepOrSignal(p)
          if (first === undefined) continue
          pendingNext = null
          const step = first as IteratorResult<unknown>
          if (step.done === true) inputDone = true
          else {
            const it = urlOf(step.value)
            if (typeof it === 'string') classify([it], read)
            else finish(read, it)
            read++
          }
          continue
        }
        await readSlab()
        continue
      }
      await woken()
    }
  } finally {
    closed = true
    queue.length = 0
    if (!inputDone && !inputFailed) {
      const it = input as AsyncIterator<unknown>
      // With a next() still pending, an async generator's return() waits for it to settle, which an
      // input waiting on something that never comes never does: the return is then not awaited.
      if (pendingNext === null) await it.return?.()
      else void Promise.resolve(it.return?.()).catch(() => {})
    }
  }
}

/** After pending I/O: setImmediate where it exists (Node, Bun, Deno), else a zero timeout. */
const later: (f: () => void) => void = typeof setImmediate === 'function' ? (f) => void setImmediate(f) : (f) => void setTimeout(f, 0)

/** A slab placeholder for an input already answered with an error (compared by identity). */
const SKIP = new String('') as unknown as string
