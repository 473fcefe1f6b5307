// RobotsCache against real HTTP servers on loopback, with an injected clock (no sleeping for
// lifetimes). Each case names its source: crawling.md (docs/crawling.md, the documented handling), rfc9309
// 2.4 (caching) and 2.3.1.4 (unreachable), google (Search Central's documented handling).

import { afterAll, describe, expect, it } from 'vitest'
import { RobotsCache, type RobotsCacheStorage, type StoredRobots } from '../src/index.js'
import { closeAll, reply, serve, type Handler } from './helpers/server.js'

afterAll(closeAll)

const RULES = 'User-agent: *\nDisallow: /private\n'
const T0 = 1_700_000_000_000
const SEC = 1000
const HOUR = 3600 * SEC
const DAY = 24 * HOUR

/** A settable clock for `now`. */
function clock(start = T0): { now: () => number; set: (t: number) => void } {
  let t = start
  return { now: () => t, set: (v) => void (t = v) }
}

/** A handler that holds every response until `release()`. */
function gated(inner: Handler): { handler: Handler; release: () => void } {
  const held: (() => void)[] = []
  let open = false
  return {
    handler: (req, res) => (open ? inner(req, res) : held.push(() => inner(req, res))),
    release: () => {
      open = true
      for (const h of held.splice(0)) h()
    },
  }
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5))
}

describe('sharing and time stamps (crawling.md)', () => {
  it('crawling.md: 20 concurrent lookups of one origin make exactly one request', async () => {
    const gate = gated(reply(200, RULES))
    const s = await serve(gate.handler)
    const cache = new RobotsCache()
    const first = Array.from({ length: 10 }, (_, i) => cache.get(`${s.origin}/page${i}`))
    await until(() => s.requests.length === 1)
    const late = Array.from({ length: 10 }, (_, i) => cache.isAllowed(`${s.origin}/private/${i}`, 'Bot'))
    gate.release()
    const results = await Promise.all(first)
    expect(new Set(results).size).toBe(1)
    expect(await Promise.all(late)).toEqual(Array(10).fill(false))
    expect(s.count()).toBe(1)
  })

  it('crawling.md: with now injected, fetchedAt and expiresAt come from now()', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const r = await new RobotsCache({ now: c.now }).get(s.origin)
    expect(r).toMatchObject({ origin: s.origin, status: 200, outcome: 'ok', fetchedAt: T0, expiresAt: T0 + DAY, unreachableSince: null })
  })

  it('the result every caller of an origin shares is frozen: one caller cannot change another\'s answers', async () => {
    // Found by review, 2026-11-29: a caller's `site.outcome = 'allow-all'` made the cache allow
    // everything on that origin for every later caller.
    const s = await serve(reply(200, 'User-agent: *\nDisallow: /private\n'))
    const cache = new RobotsCache()
    const site = await cache.get(s.origin)
    expect(Object.isFrozen(site)).toBe(true)
    expect(() => Object.assign(site, { outcome: 'allow-all' })).toThrow(TypeError)
    expect(() => Object.assign(site, { isAllowed: () => true })).toThrow(TypeError)
    expect(await cache.isAllowed(`${s.origin}/private/x`, 'bot')).toBe(false)
    expect(await cache.get(s.origin)).toBe(site)
  })

  it('crawling.md: a bad agent is a TypeError before any request', async () => {
    const s = await serve(reply(200, RULES))
    const cache = new RobotsCache()
    await expect(cache.isAllowed(s.origin, '')).rejects.toThrow(TypeError)
    await expect(cache.get('ftp://example.com/')).rejects.toThrow(/url: expected an absolute http/)
    expect(s.requests).toHaveLength(0)
  })

  it('crawling.md: fetch options apply to the cache\'s fetches (userAgent, timeoutMs)', async () => {
    const s = await serve(() => {}) // never answers
    const cache = new RobotsCache({ userAgent: 'CacheBot/1.0', timeoutMs: 200 })
    expect(await cache.get(s.origin)).toMatchObject({ status: null, outcome: 'disallow-all' })
    expect(s.headers[0]!['user-agent']).toBe('CacheBot/1.0')
  })
})

describe('lifetimes (crawling.md, rfc9309 2.4, google)', () => {
  it('rfc9309 2.4: 24 h by default; expiry is not stale-while-revalidate', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    const r1 = await cache.get(s.origin)
    c.set(T0 + DAY - 1)
    expect(await cache.get(`${s.origin}/other`)).toBe(r1)
    expect(s.count()).toBe(1)
    s.handle(reply(200, 'User-agent: *\nDisallow: /\n'))
    c.set(T0 + DAY)
    const r2 = await cache.get(s.origin)
    expect(s.count()).toBe(2)
    expect(r2).toMatchObject({ fetchedAt: T0 + DAY, expiresAt: T0 + 2 * DAY })
    expect(r2.isAllowed(`${s.origin}/x`, 'Bot')).toBe(false)
  })

  it('google: a shorter max-age shortens the lifetime', async () => {
    const s = await serve(reply(200, RULES, { 'cache-control': 'public, max-age=60' }))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    expect((await cache.get(s.origin)).expiresAt).toBe(T0 + 60 * SEC)
    c.set(T0 + 60 * SEC - 1)
    await cache.get(s.origin)
    expect(s.count()).toBe(1)
    c.set(T0 + 60 * SEC)
    await cache.get(s.origin)
    expect(s.count()).toBe(2)
  })

  it('google: a longer max-age lengthens the lifetime', async () => {
    const s = await serve(reply(200, RULES, { 'cache-control': 'max-age=172800' }))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    await cache.get(s.origin)
    c.set(T0 + 2 * DAY - 1)
    await cache.get(s.origin)
    expect(s.count()).toBe(1)
    c.set(T0 + 2 * DAY)
    await cache.get(s.origin)
    expect(s.count()).toBe(2)
  })

  it('crawling.md: max-age is capped by maxTtlMs (7 days by default)', async () => {
    const s = await serve(reply(200, RULES, { 'cache-control': 'max-age=31536000' }))
    const c = clock()
    expect((await new RobotsCache({ now: c.now }).get(s.origin)).expiresAt).toBe(T0 + 7 * DAY)
    expect((await new RobotsCache({ now: c.now, maxTtlMs: 3 * DAY }).get(s.origin)).expiresAt).toBe(T0 + 3 * DAY)
  })

  it('crawling.md: Expires, no-cache, s-maxage and invalid max-age are ignored; ttlMs is the default', async () => {
    const s = await serve(reply(200, RULES, { 'cache-control': 'no-cache, s-maxage=5, max-age=abc', expires: 'Thu, 01 Jan 1970 00:00:00 GMT' }))
    const c = clock()
    expect((await new RobotsCache({ now: c.now, ttlMs: HOUR }).get(s.origin)).expiresAt).toBe(T0 + HOUR)
  })

  for (const cc of ['no-store', 'max-age=0', 'private, No-Store, max-age=600']) {
    it(`crawling.md: Cache-Control "${cc}" means no reuse, though waiting lookups share the result`, async () => {
      const gate = gated(reply(200, RULES, { 'cache-control': cc }))
      const s = await serve(gate.handler)
      const c = clock()
      const cache = new RobotsCache({ now: c.now })
      const waiting = [cache.get(s.origin), cache.get(s.origin), cache.get(s.origin)]
      await until(() => s.requests.length === 1)
      gate.release()
      const [a, b, d] = await Promise.all(waiting)
      expect(a).toBe(b)
      expect(a).toBe(d)
      expect(a!.outcome).toBe('ok')
      expect(a!.expiresAt).toBe(T0)
      expect(s.count()).toBe(1)
      await cache.get(s.origin)
      expect(s.count()).toBe(2)
    })
  }

  it('crawling.md: a no-store success replaces the good copy (a later failure has none to fall back on)', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    await cache.get(s.origin)
    c.set(T0 + DAY)
    s.handle(reply(200, 'User-agent: *\nAllow: /\n', { 'cache-control': 'no-store' }))
    await cache.get(s.origin)
    s.handle(reply(503))
    expect(await cache.get(s.origin)).toMatchObject({ outcome: 'disallow-all', status: 503 })
  })

  it('rfc9309 2.3.1.3: a 4xx (allow-all) is cached like a success', async () => {
    const s = await serve(reply(404))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    expect(await cache.get(s.origin)).toMatchObject({ status: 404, outcome: 'allow-all', expiresAt: T0 + DAY })
    c.set(T0 + DAY - 1)
    expect(await cache.isAllowed(`${s.origin}/anything`, 'Bot')).toBe(true)
    expect(s.count()).toBe(1)
    // And it is a good copy: a later server error keeps allowing.
    s.handle(reply(500))
    c.set(T0 + DAY)
    expect(await cache.get(s.origin)).toMatchObject({ status: 404, outcome: 'allow-all', unreachableSince: T0 + DAY })
  })
})

describe('failures (crawling.md, rfc9309 2.3.1.4, google)', () => {
  it('google: a 5xx refresh keeps the last good copy, retried after retryMs', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    await cache.get(s.origin)
    s.handle(reply(503, 'User-agent: *\nAllow: /\n'))
    c.set(T0 + 3 * DAY) // a good copy of any age
    const r = await cache.get(s.origin)
    expect(r).toMatchObject({ outcome: 'ok', status: 200, fetchedAt: T0, unreachableSince: T0 + 3 * DAY, expiresAt: T0 + 3 * DAY + 60 * SEC })
    expect(r.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
    expect(r.isAllowed(`${s.origin}/public`, 'Bot')).toBe(true)
    expect(s.count()).toBe(2)
    c.set(T0 + 3 * DAY + 60 * SEC - 1)
    await cache.get(s.origin)
    expect(s.count()).toBe(2)
    c.set(T0 + 3 * DAY + 60 * SEC)
    expect(await cache.get(s.origin)).toMatchObject({ outcome: 'ok', unreachableSince: T0 + 3 * DAY })
    expect(s.count()).toBe(3)
    // Recovery: a fresh success clears the unreachable state.
    s.handle(reply(200, 'User-agent: *\nDisallow: /\n'))
    c.set(T0 + 4 * DAY)
    const back = await cache.get(s.origin)
    expect(back).toMatchObject({ outcome: 'ok', fetchedAt: T0 + 4 * DAY, unreachableSince: null })
    expect(back.isAllowed(`${s.origin}/public`, 'Bot')).toBe(false)
  })

  for (const [label, handler] of [
    ['429', reply(429)],
    ['a reset connection', ((req) => req.socket.destroy()) as Handler],
  ] as const) {
    it(`google: ${label} after a good copy keeps the good copy`, async () => {
      const s = await serve(reply(200, RULES))
      const c = clock()
      const cache = new RobotsCache({ now: c.now })
      await cache.get(s.origin)
      s.handle(handler)
      c.set(T0 + DAY)
      const r = await cache.get(s.origin)
      expect(r).toMatchObject({ outcome: 'ok', status: 200, unreachableSince: T0 + DAY })
      expect(await cache.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
    })
  }

  it('rfc9309 2.3.1.4: a 5xx with no good copy disallows everything; retryMs never exceeds ttlMs', async () => {
    const s = await serve(reply(500))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    expect(await cache.get(s.origin)).toMatchObject({ status: 500, outcome: 'disallow-all', fetchedAt: T0, expiresAt: T0 + 60 * SEC, unreachableSince: T0 })
    expect(await cache.isAllowed(`${s.origin}/`, 'Bot')).toBe(false)
    expect(s.count()).toBe(1)
    const short = new RobotsCache({ now: c.now, ttlMs: 10 * SEC, retryMs: 60 * SEC })
    expect((await short.get(s.origin)).expiresAt).toBe(T0 + 10 * SEC)
    const custom = new RobotsCache({ now: c.now, retryMs: 5 * SEC })
    expect((await custom.get(s.origin)).expiresAt).toBe(T0 + 5 * SEC)
  })

  it('google: after more than 30 days unreachable with no good copy, everything is allowed', async () => {
    const s = await serve(reply(503))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    expect(await cache.get(s.origin)).toMatchObject({ outcome: 'disallow-all', unreachableSince: T0 })
    for (const day of [1, 10, 29]) {
      c.set(T0 + day * DAY)
      expect(await cache.get(s.origin)).toMatchObject({ outcome: 'disallow-all', unreachableSince: T0 })
    }
    c.set(T0 + 30 * DAY)
    expect((await cache.get(s.origin)).outcome).toBe('disallow-all') // exactly 30 days: not more
    c.set(T0 + 30 * DAY + 60 * SEC)
    const r = await cache.get(s.origin)
    expect(r).toMatchObject({ outcome: 'allow-all', status: 503, unreachableSince: T0 })
    expect(r.isAllowed(`${s.origin}/anything`, 'Bot')).toBe(true)
    // A success ends the unreachable run; a later failure falls back to that good copy again.
    s.handle(reply(200, RULES))
    c.set(T0 + 31 * DAY)
    expect(await cache.get(s.origin)).toMatchObject({ outcome: 'ok', unreachableSince: null })
    s.handle(reply(503))
    c.set(T0 + 32 * DAY)
    expect(await cache.get(s.origin)).toMatchObject({ outcome: 'ok', status: 200, unreachableSince: T0 + 32 * DAY })
  })

  it('google: with a good copy, even 40 days unreachable keeps serving it', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    await cache.get(s.origin)
    s.handle(reply(502))
    c.set(T0 + DAY)
    await cache.get(s.origin)
    c.set(T0 + 41 * DAY)
    const r = await cache.get(s.origin)
    expect(r).toMatchObject({ outcome: 'ok', unreachableSince: T0 + DAY })
    expect(r.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
  })
})

describe('Retry-After and why a refresh failed', () => {
  it('a 503 asking Retry-After 1 h with no good copy: disallow-all reused for that hour, then fetched again', async () => {
    const s = await serve(reply(503, '', { 'retry-after': '3600' }))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    expect(await cache.get(s.origin)).toMatchObject({ outcome: 'disallow-all', status: 503, expiresAt: T0 + HOUR, error: null })
    c.set(T0 + HOUR - 1)
    await cache.get(s.origin)
    expect(s.count()).toBe(1)
    c.set(T0 + HOUR)
    await cache.get(s.origin)
    expect(s.count()).toBe(2)
  })

  it('a 429 with Retry-After while a good copy serves: the copy serves until then; a reset refresh says why', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const cache = new RobotsCache({ now: c.now })
    await cache.get(s.origin)
    s.handle(reply(429, '', { 'retry-after': '600' }))
    c.set(T0 + DAY)
    const r = await cache.get(s.origin)
    expect(r).toMatchObject({ outcome: 'ok', status: 200, url: `${s.origin}/robots.txt`, unreachableSince: T0 + DAY, expiresAt: T0 + DAY + 600 * SEC, error: null })
    expect(r.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
    s.handle((req) => req.socket.destroy())
    c.set(T0 + DAY + 600 * SEC)
    const again = await cache.get(s.origin)
    expect(again).toMatchObject({ outcome: 'ok', status: 200, unreachableSince: T0 + DAY, expiresAt: T0 + DAY + 660 * SEC })
    expect(again.error?.code).toBe('reset')
  })

  it('Retry-After is bounded by ttlMs as the retry delay is', async () => {
    const s = await serve(reply(503, '', { 'retry-after': '86400' }))
    const c = clock()
    expect(await new RobotsCache({ now: c.now, ttlMs: 2 * HOUR }).get(s.origin)).toMatchObject({ expiresAt: T0 + 2 * HOUR })
  })
})

describe('bounds (crawling.md)', () => {
  it('crawling.md: maxEntries evicts the least recently used origin', async () => {
    const [a, b, d] = [await serve(reply(200, RULES)), await serve(reply(200, RULES)), await serve(reply(200, RULES))]
    const cache = new RobotsCache({ maxEntries: 2 })
    await cache.get(a.origin)
    await cache.get(b.origin)
    await cache.get(a.origin) // a is now the most recently used
    await cache.get(d.origin) // evicts b
    await cache.get(a.origin)
    await cache.get(d.origin)
    expect([a.count(), b.count(), d.count()]).toEqual([1, 1, 1])
    await cache.get(b.origin)
    expect(b.count()).toBe(2)
  })

  it('crawling.md: maxBytes bounds the kept bodies, least recently used evicted first', async () => {
    const body = RULES + '#'.repeat(400 - RULES.length) // 400 bytes each
    const [a, b, d] = [await serve(reply(200, body)), await serve(reply(200, body)), await serve(reply(200, body))]
    const cache = new RobotsCache({ maxBytes: 1000 })
    await cache.get(a.origin)
    await cache.get(b.origin)
    await cache.get(a.origin)
    await cache.get(d.origin) // 1,200 bytes: b goes
    await cache.get(a.origin)
    await cache.get(d.origin)
    expect([a.count(), b.count(), d.count()]).toEqual([1, 1, 1])
    await cache.get(b.origin)
    expect(b.count()).toBe(2)
  })

  it('stats: origins, kept body bytes and their mean per origin, within the bounds after every store', async () => {
    const body = RULES + '#'.repeat(400 - RULES.length)
    const servers = [await serve(reply(200, body)), await serve(reply(200, body)), await serve(reply(404)), await serve(reply(200, body))]
    const cache = new RobotsCache({ maxBytes: 1000, maxEntries: 3 })
    expect(cache.stats).toEqual({ origins: 0, bytes: 0, bytesPerOrigin: 0, maxEntries: 3, maxBytes: 1000, pending: 0 })
    const seen: { origins: number; bytes: number; bytesPerOrigin: number }[] = []
    for (const s of servers) {
      await cache.get(s.origin)
      const { origins, bytes, bytesPerOrigin } = cache.stats
      seen.push({ origins, bytes, bytesPerOrigin })
    }
    // The 404 keeps no body; the fourth 400-byte body pushes out the least recently used one.
    expect(seen).toEqual([
      { origins: 1, bytes: 400, bytesPerOrigin: 400 },
      { origins: 2, bytes: 800, bytesPerOrigin: 400 },
      { origins: 3, bytes: 800, bytesPerOrigin: 267 },
      { origins: 3, bytes: 800, bytesPerOrigin: 267 },
    ])
    const stats = cache.stats
    expect(Object.isFrozen(stats)).toBe(true)
    expect(cache.stats).not.toBe(stats)
  })

  it('crawling.md: a body larger than maxBytes is used for that lookup and not kept', async () => {
    const big = RULES + '#'.repeat(5000)
    const small = await serve(reply(200, RULES))
    const s = await serve(reply(200, big))
    const cache = new RobotsCache({ maxBytes: 1000 })
    await cache.get(small.origin)
    const r = await cache.get(s.origin)
    expect(r.outcome).toBe('ok')
    expect(r.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
    await cache.get(s.origin)
    expect(s.count()).toBe(2)
    await cache.get(small.origin) // the small entry was not pushed out by the big body
    expect(small.count()).toBe(1)
  })

  it('crawling.md: allow-all and disallow-all entries cost no body bytes (maxBytes 0)', async () => {
    const a = await serve(reply(404))
    const b = await serve(reply(200, RULES))
    const cache = new RobotsCache({ maxBytes: 0 })
    await cache.get(a.origin)
    await cache.get(a.origin)
    await cache.get(b.origin)
    await cache.get(b.origin)
    expect([a.count(), b.count()]).toEqual([1, 2])
  })
})

describe('abort (crawling.md)', () => {
  it('crawling.md: an aborted lookup rejects with signal.reason, stops its fetch, and nothing is cached', async () => {
    let firstClosed = false
    const s = await serve((req, res) => {
      if (s.requests.length > 1) return reply(200, RULES)(req, res)
      res.on('close', () => void (firstClosed = true)) // the first request never gets an answer
    })
    const cache = new RobotsCache()
    const controller = new AbortController()
    const p = cache.get(s.origin, { signal: controller.signal })
    await until(() => s.requests.length === 1)
    const reason = new Error('stop')
    controller.abort(reason)
    await expect(p).rejects.toBe(reason)
    await until(() => firstClosed) // the shared fetch was aborted: its last waiter left
    expect((await cache.get(s.origin)).outcome).toBe('ok')
    expect(s.count()).toBe(2)
    await cache.get(s.origin)
    expect(s.count()).toBe(2)
  })

  it('crawling.md: a shared fetch survives one waiter aborting', async () => {
    const gate = gated(reply(200, RULES))
    const s = await serve(gate.handler)
    const cache = new RobotsCache()
    const controller = new AbortController()
    const aborted = cache.get(s.origin, { signal: controller.signal })
    const other = cache.get(s.origin)
    await until(() => s.requests.length === 1)
    controller.abort('mine only')
    await expect(aborted).rejects.toBe('mine only')
    gate.release()
    expect((await other).outcome).toBe('ok')
    expect(s.count()).toBe(1)
  })

  it('crawling.md: the cache-wide signal aborts its fetches and later lookups', async () => {
    const s = await serve(() => {})
    const controller = new AbortController()
    const cache = new RobotsCache({ signal: controller.signal })
    const p = cache.get(s.origin)
    await until(() => s.requests.length === 1)
    controller.abort('shutdown')
    await expect(p).rejects.toBe('shutdown')
    await expect(cache.get(s.origin)).rejects.toBe('shutdown')
  })
})

describe('second-level storage (RobotsCacheStorage)', () => {
  function mapStorage(): RobotsCacheStorage & { map: Map<string, StoredRobots> } {
    const map = new Map<string, StoredRobots>()
    return {
      map,
      get: async (origin) => structuredClone(map.get(origin)),
      put: async (origin, record) => void map.set(origin, structuredClone(record)),
    }
  }

  it('a record kept by one cache saves another cache the fetch', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const storage = mapStorage()
    await new RobotsCache({ now: c.now, storage }).get(s.origin)
    expect(storage.map.get(s.origin)).toMatchObject({
      origin: s.origin, status: 200, outcome: 'ok', fetchedAt: T0, expiresAt: T0 + DAY, unreachableSince: null, good: true,
    })
    expect(new TextDecoder().decode(storage.map.get(s.origin)!.body!)).toBe(RULES)
    c.set(T0 + HOUR)
    const second = new RobotsCache({ now: c.now, storage })
    const r = await second.get(s.origin)
    expect(r).toMatchObject({ outcome: 'ok', fetchedAt: T0 })
    expect(r.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
    expect(s.count()).toBe(1)
  })

  it('google: a stored good copy serves a new cache instance through a failure', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const storage = mapStorage()
    await new RobotsCache({ now: c.now, storage }).get(s.origin)
    s.handle(reply(503))
    c.set(T0 + 2 * DAY)
    const r = await new RobotsCache({ now: c.now, storage }).get(s.origin)
    expect(r).toMatchObject({ outcome: 'ok', status: 200, unreachableSince: T0 + 2 * DAY })
    expect(storage.map.get(s.origin)).toMatchObject({ good: true, unreachableSince: T0 + 2 * DAY, expiresAt: T0 + 2 * DAY + 60 * SEC })
  })

  it('url, redirects and error are stored and read back; a record of an earlier version (without them) still serves', async () => {
    const target = await serve(reply(200, RULES))
    const s = await serve(reply(301, '', { location: `${target.origin}/robots.txt` }))
    const c = clock()
    const storage = mapStorage()
    await new RobotsCache({ now: c.now, storage }).get(s.origin)
    expect(storage.map.get(s.origin)).toMatchObject({ url: `${target.origin}/robots.txt`, redirects: 1, error: null })
    const again = await new RobotsCache({ now: c.now, storage }).get(s.origin)
    expect(again).toMatchObject({ url: `${target.origin}/robots.txt`, redirects: 1, error: null })
    // As the previous version wrote it: no url, redirects or error.
    const { url: _u, redirects: _r, error: _e, ...old } = storage.map.get(s.origin)!
    storage.map.set(s.origin, old)
    const fromOld = await new RobotsCache({ now: c.now, storage }).get(s.origin)
    expect(fromOld).toMatchObject({ outcome: 'ok', status: 200, url: null, redirects: 0, error: null })
    expect(fromOld.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
    expect(s.count() + target.count()).toBe(2)
  })

  it('a failure\'s error code is stored with the record', async () => {
    const s = await serve(reply(200, RULES))
    const port = s.port
    await s.close()
    const storage = mapStorage()
    await new RobotsCache({ storage }).get(`http://127.0.0.1:${port}/`)
    expect(storage.map.get(`http://127.0.0.1:${port}`)?.error?.code).toBe('refused')
    const adopted = await new RobotsCache({ storage }).get(`http://127.0.0.1:${port}/`)
    expect(adopted.error?.code).toBe('refused')
  })

  it('a stored error with an unknown code is not a record (a miss: the cache fetches)', async () => {
    const s = await serve(reply(200, RULES))
    const storage = mapStorage()
    storage.map.set(s.origin, {
      origin: s.origin, status: 200, outcome: 'ok', body: new TextEncoder().encode('User-agent: *\nDisallow: /\n'), fetchedAt: Date.now(),
      expiresAt: Date.now() + HOUR, unreachableSince: null, good: true, error: { code: 'gremlins', message: 'x' } as unknown as null,
    })
    const r = await new RobotsCache({ storage }).get(s.origin)
    expect(r.isAllowed(`${s.origin}/public`, 'Bot')).toBe(true)
    expect(s.count()).toBe(1)
  })

  it('a throwing or malformed storage is ignored', async () => {
    const s = await serve(reply(200, RULES))
    const broken: RobotsCacheStorage = {
      get: async () => {
        throw new Error('down')
      },
      put: async () => {
        throw new Error('down')
      },
    }
    expect((await new RobotsCache({ storage: broken }).get(s.origin)).outcome).toBe('ok')
    const junk = { get: async () => ({ origin: s.origin, outcome: 'ok' }), put: async () => {} } as unknown as RobotsCacheStorage
    expect((await new RobotsCache({ storage: junk }).get(s.origin)).outcome).toBe('ok')
    expect(s.count()).toBe(2)
  })
})

describe('hardening 3: storage is best effort, bounded by the lookup time budget', () => {
  const never = <T>(): Promise<T> => new Promise<T>(() => {})

  it('a get that never settles: the lookup fetches after timeoutMs, and other origins are not held up', async () => {
    const a = await serve(reply(200, RULES))
    const b = await serve(reply(200, 'User-agent: *\nAllow: /\n'))
    const puts: string[] = []
    const storage: RobotsCacheStorage = { get: () => never(), put: async (origin) => void puts.push(origin) }
    const cache = new RobotsCache({ storage, timeoutMs: 300 })
    const t = performance.now()
    const [ra, rb] = await Promise.all([cache.get(a.origin), cache.get(b.origin)])
    const ms = performance.now() - t
    expect([ra.outcome, rb.outcome]).toEqual(['ok', 'ok'])
    expect(ra.isAllowed(`${a.origin}/private`, 'Bot')).toBe(false)
    expect(puts.sort()).toEqual([a.origin, b.origin].sort())
    // Both waited one budget in parallel, not one after the other, and not forever.
    expect(ms).toBeGreaterThanOrEqual(290)
    expect(ms).toBeLessThan(5_000)
  })

  it('a put that never settles: the lookup resolves with the fetched result, which is kept', async () => {
    const s = await serve(reply(200, RULES))
    const storage: RobotsCacheStorage = { get: async () => undefined, put: () => never() }
    const cache = new RobotsCache({ storage, timeoutMs: 200 })
    const r = await cache.get(s.origin)
    expect(r).toMatchObject({ status: 200, outcome: 'ok' })
    expect(await cache.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
    expect(s.count()).toBe(1)
  })

  it('with timeoutMs Infinity a hung storage still costs at most 10 s, and an abort ends the wait at once', async () => {
    const s = await serve(reply(200, RULES))
    const cache = new RobotsCache({ storage: { get: () => never(), put: () => never() }, timeoutMs: Infinity })
    const controller = new AbortController()
    const pending = cache.get(s.origin, { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('stop')), 50)
    await expect(pending).rejects.toThrow('stop')
    expect(s.count()).toBe(0)
  })

  it('a storage that throws synchronously, rejects, or returns garbage never fails a lookup', async () => {
    const s = await serve(reply(200, RULES))
    const throwing = {
      get: () => {
        throw new Error('sync get')
      },
      put: () => {
        throw new Error('sync put')
      },
    } as unknown as RobotsCacheStorage
    const hostile = new Proxy({}, { get: () => { throw new Error('trap') } })
    const garbage: unknown[] = [
      42, 'record', hostile, { origin: 'https://other.example', outcome: 'ok', body: new Uint8Array(0) },
      { origin: s.origin, status: 200, outcome: 'ok', body: 'not bytes', fetchedAt: 0, expiresAt: Infinity, unreachableSince: null, good: true },
    ]
    const storages: RobotsCacheStorage[] = [throwing, ...garbage.map((g) => ({ get: async () => g, put: async () => {} }) as unknown as RobotsCacheStorage)]
    for (const storage of storages) {
      const r = await new RobotsCache({ storage }).get(s.origin)
      expect(r.outcome).toBe('ok')
      expect(r.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
    }
    expect(s.count()).toBe(storages.length)
  })

  it('a stored record that claims to live for ever is kept no longer than maxTtlMs', async () => {
    const s = await serve(reply(200, RULES))
    const c = clock()
    const forever: StoredRobots = {
      origin: s.origin, status: 200, outcome: 'ok', body: new TextEncoder().encode('User-agent: *\nDisallow: /\n'),
      fetchedAt: T0, expiresAt: T0 + 1000 * DAY, unreachableSince: null, good: true,
    }
    const cache = new RobotsCache({ now: c.now, maxTtlMs: DAY, storage: { get: async () => forever, put: async () => {} } })
    expect((await cache.get(s.origin)).expiresAt).toBe(T0 + DAY)
    c.set(T0 + DAY + 1)
    expect(await cache.isAllowed(`${s.origin}/x`, 'Bot')).toBe(false) // the storage still answers
  })

  it('the storage gets its own copy of the body: writing to it changes no verdict', async () => {
    const s = await serve(reply(200, RULES))
    let kept: StoredRobots | undefined
    const cache = new RobotsCache({ storage: { get: async () => undefined, put: async (_o, r) => void (kept = r) } })
    await cache.get(s.origin)
    kept!.body!.fill(0x20)
    expect(await cache.isAllowed(`${s.origin}/private`, 'Bot')).toBe(false)
  })
})

describe('options (docs/api.md)', () => {
  it('bad options are TypeErrors naming the option', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ttlMs: -1 }, /options\.ttlMs/],
      [{ ttlMs: Infinity }, /options\.ttlMs/],
      [{ maxTtlMs: 'x' }, /options\.maxTtlMs/],
      [{ retryMs: Number.NaN }, /options\.retryMs/],
      [{ maxEntries: 1.5 }, /options\.maxEntries/],
      [{ maxBytes: -1 }, /options\.maxBytes/],
      [{ now: 5 }, /options\.now/],
      [{ storage: { get: async () => undefined } }, /options\.storage/],
      [{ timeoutMs: 0 }, /options\.timeoutMs/],
      [{ userAgent: 7 }, /options\.userAgent/],
      [{ fetch: {} }, /options\.fetch/],
      [{ signal: 'x' }, /options\.signal/],
    ]
    for (const [options, message] of bad) expect(() => new RobotsCache(options as never)).toThrow(message)
    expect(() => new RobotsCache('x' as never)).toThrow(TypeError)
  })

  it('a now() that returns a non-number is a TypeError at lookup', async () => {
    const cache = new RobotsCache({ now: (() => 'soon') as unknown as () => number, fetch: (async () => new Response(RULES)) as unknown as typeof fetch })
    await expect(cache.get('https://example.com/')).rejects.toThrow(/options\.now/)
  })
})
