// workersCacheStorage (src/http/workers-cache.ts) in Node, on a Cache double that honours max-age on an
// injected clock: records round-trip exactly, lifetimes follow expiresAt + keepMs, foreign or
// damaged entries read as misses, bad arguments throw, and two RobotsCache instances (two isolates)
// share results through it. test/workers/example.test.ts runs it on the real Workers Cache API.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RobotsCache, workersCacheStorage, type StoredRobots, type WorkersCache } from '../src/index.js'

const DAY = 24 * 60 * 60 * 1000
const PREFIX = 'https://crawler.example.com/_robots-cache/'

/** An in-memory Workers Cache: keeps what `put` gets for its Cache-Control max-age. */
class MemoryCache implements WorkersCache {
  readonly entries = new Map<string, { headers: [string, string][]; body: Uint8Array; until: number }>()
  readonly maxAges: number[] = []
  constructor(private readonly now: () => number) {}

  async match(key: string): Promise<Response | undefined> {
    const e = this.entries.get(key)
    if (e === undefined || this.now() >= e.until) return undefined
    return new Response(e.body.slice(), { headers: e.headers })
  }

  async put(key: string, response: Response): Promise<void> {
    const maxAge = /^max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '')
    if (maxAge === null) throw new Error(`uncacheable: ${response.headers.get('cache-control')}`)
    this.maxAges.push(Number(maxAge[1]))
    const body = new Uint8Array(await response.arrayBuffer())
    const headers: [string, string][] = []
    response.headers.forEach((value, name) => headers.push([name, value]))
    this.entries.set(key, { headers, body, until: this.now() + Number(maxAge[1]) * 1000 })
  }

  /** Stores a raw entry, as something else sharing the cache might. */
  raw(key: string, headers: Record<string, string>, body: Uint8Array | string = ''): void {
    this.entries.set(key, { headers: Object.entries(headers), body: typeof body === 'string' ? new TextEncoder().encode(body) : body, until: Infinity })
  }
}

function clock(start = 1_700_000_000_000) {
  const c = { t: start, now: () => c.t }
  return c
}

const T0 = 1_700_000_000_000
const records: [string, StoredRobots][] = [
  ['a good file with bytes that are not text', {
    origin: 'https://example.com', status: 200, outcome: 'ok', body: new Uint8Array([0xef, 0xbb, 0xbf, 0x55, 0x00, 0xff, 0x0d, 0x0a, 0x2f]),
    fetchedAt: T0, expiresAt: T0 + DAY, unreachableSince: null, good: true,
  }],
  ['a good empty file (not the same as no body)', {
    origin: 'http://example.com:8080', status: 200, outcome: 'ok', body: new Uint8Array(0),
    fetchedAt: T0, expiresAt: T0 + DAY, unreachableSince: null, good: true,
  }],
  ['a 404: allow-all, no body', {
    origin: 'https://xn--exmple-cua.com', status: 404, outcome: 'allow-all', body: null,
    fetchedAt: T0, expiresAt: T0 + DAY, unreachableSince: null, good: true,
  }],
  ['a network failure: disallow-all, no status, unreachable', {
    origin: 'http://[::1]:81', status: null, outcome: 'disallow-all', body: null,
    fetchedAt: T0 + 0.5, expiresAt: T0 + 60_000.25, unreachableSince: T0 - 5 * DAY, good: false,
  }],
  ['a last good copy served through failures', {
    origin: 'https://example.org', status: 200, outcome: 'ok', body: new TextEncoder().encode('User-agent: *\nDisallow: /x\n'),
    fetchedAt: T0 - 3 * DAY, expiresAt: T0 + 60_000, unreachableSince: T0 - DAY, good: true,
  }],
  ['where it came from and why the latest fetch failed (url, redirects, error; any text in the message)', {
    origin: 'https://example.net', status: 200, outcome: 'ok', body: new TextEncoder().encode('User-agent: *\nDisallow: /x\n'),
    fetchedAt: T0 - 3 * DAY, expiresAt: T0 + 3_600_000, unreachableSince: T0 - DAY, good: true,
    url: 'https://cdn.example.net/robots.txt', redirects: 2, error: { code: 'reset', message: 'connection reset (read ECONNRESET \u00e9\u4e2d\ud83d\ude00)' },
  }],
  ['a redirect chain that led nowhere: allow-all with code redirects', {
    origin: 'https://example.info', status: 301, outcome: 'allow-all', body: null,
    fetchedAt: T0, expiresAt: T0 + DAY, unreachableSince: null, good: true,
    url: 'https://example.info/r5', redirects: 5, error: { code: 'redirects', message: 'redirect chain without a robots.txt (more than 5 redirects)' },
  }],
]

describe('workersCacheStorage: records round-trip through a Cache', () => {
  for (const [what, record] of records) {
    test(what, async () => {
      const c = clock(T0)
      const cache = new MemoryCache(c.now)
      const storage = workersCacheStorage(cache, { keyPrefix: PREFIX, now: c.now })
      await storage.put(record.origin, record)
      expect([...cache.entries.keys()]).toEqual([PREFIX + encodeURIComponent(record.origin)])
      expect(await storage.get(record.origin)).toEqual(record)
    })
  }

  test('origins do not share entries (scheme, port and host each count)', async () => {
    const c = clock(T0)
    const storage = workersCacheStorage(new MemoryCache(c.now), { keyPrefix: PREFIX, now: c.now })
    const base = records[0]![1]
    const origins = ['https://example.com', 'http://example.com', 'https://example.com:8443', 'https://www.example.com']
    for (const [i, origin] of origins.entries()) await storage.put(origin, { ...base, origin, status: 200 + i })
    for (const [i, origin] of origins.entries()) expect((await storage.get(origin))?.status).toBe(200 + i)
    expect(await storage.get('https://example.net')).toBeUndefined()
  })

  test('a later put replaces the record', async () => {
    const c = clock(T0)
    const storage = workersCacheStorage(new MemoryCache(c.now), { keyPrefix: PREFIX, now: c.now })
    const [, first] = records[0]!
    await storage.put(first.origin, first)
    const second: StoredRobots = { ...first, status: 203, fetchedAt: T0 + 1, expiresAt: T0 + 2 * DAY }
    await storage.put(first.origin, second)
    expect(await storage.get(first.origin)).toEqual(second)
  })

  test('keyPrefix (a string or a URL) places the keys; different prefixes are separate caches', async () => {
    const c = clock(T0)
    const cache = new MemoryCache(c.now)
    const a = workersCacheStorage(cache, { keyPrefix: new URL('/_robots/a/', 'https://crawler.example.com/check?x=1'), now: c.now })
    const b = workersCacheStorage(cache, { keyPrefix: 'https://crawler.example.com/_robots/b/', now: c.now })
    const record = { ...records[2]![1], origin: 'https://a.example' }
    await a.put(record.origin, record)
    expect([...cache.entries.keys()]).toEqual(['https://crawler.example.com/_robots/a/https%3A%2F%2Fa.example'])
    expect(await a.get(record.origin)).toEqual(record)
    expect(await b.get(record.origin)).toBeUndefined()
  })
})

describe('workersCacheStorage: entries of the previous version, and Retry-After', () => {
  test('an entry written before url, redirects and error existed is read as it is, and served with their defaults', async () => {
    const c = clock(T0)
    const cache = new MemoryCache(c.now)
    const origin = 'https://old.example'
    // The header exactly as the previous version wrote it (format 1, no url, redirects or error).
    const meta = { v: 1, origin, status: 200, outcome: 'ok', fetchedAt: T0, expiresAt: T0 + DAY, unreachableSince: null, good: true, bodyBytes: 26 }
    cache.raw(PREFIX + encodeURIComponent(origin), { 'x-robotstxt-wasm-record': JSON.stringify(meta) }, 'User-agent: *\nDisallow: /\n')
    const storage = workersCacheStorage(cache, { keyPrefix: PREFIX, now: c.now })
    const record = await storage.get(origin)
    expect(record).toMatchObject({ origin, status: 200, outcome: 'ok', good: true })
    expect(record && 'url' in record).toBe(false)
    const site = await new RobotsCache({ now: c.now, storage, fetch: (async () => { throw new Error('must not fetch') }) as unknown as typeof fetch }).get(origin)
    expect(site).toMatchObject({ status: 200, outcome: 'ok', url: null, redirects: 0, error: null })
    expect(site.isAllowed(`${origin}/x`, 'Bot')).toBe(false)
  })

  test('a 503 with Retry-After: the next isolate reuses the disallow-all until then, not 60 s', async () => {
    const c = clock(T0)
    const shared = new MemoryCache(c.now)
    let fetches = 0
    const down = (async () => {
      fetches++
      return new Response('', { status: 503, headers: { 'retry-after': '1800' } })
    }) as unknown as typeof fetch
    const isolate = () => new RobotsCache({ now: c.now, fetch: down, storage: workersCacheStorage(shared, { keyPrefix: PREFIX, now: c.now }) })
    expect(await isolate().get('https://down.example/')).toMatchObject({ outcome: 'disallow-all', expiresAt: T0 + 1_800_000 })
    c.t = T0 + 600_000
    expect(await isolate().get('https://down.example/')).toMatchObject({ outcome: 'disallow-all', fetchedAt: T0 })
    expect(fetches).toBe(1)
  })
})

describe('workersCacheStorage: cache lifetime = expiresAt + keepMs', () => {
  test('default keepMs is 30 days past expiry; the entry is gone after that', async () => {
    const c = clock(T0)
    const cache = new MemoryCache(c.now)
    const storage = workersCacheStorage(cache, { keyPrefix: PREFIX, now: c.now })
    const record = { ...records[0]![1], expiresAt: T0 + DAY }
    await storage.put(record.origin, record)
    expect(cache.maxAges).toEqual([(DAY + 30 * DAY) / 1000])
    c.t = T0 + 31 * DAY - 1
    expect(await storage.get(record.origin)).toEqual(record) // expired, still there to fall back on
    c.t = T0 + 31 * DAY
    expect(await storage.get(record.origin)).toBeUndefined()
  })

  test('keepMs 0 keeps the record until expiresAt, rounded up to whole seconds', async () => {
    const c = clock(T0)
    const cache = new MemoryCache(c.now)
    const storage = workersCacheStorage(cache, { keyPrefix: PREFIX, keepMs: 0, now: c.now })
    await storage.put('https://example.com', { ...records[0]![1], expiresAt: T0 + 60_000.5 })
    expect(cache.maxAges).toEqual([61])
  })

  test('a record already past expiresAt + keepMs is still written (for one second), replacing the old one', async () => {
    const c = clock(T0)
    const cache = new MemoryCache(c.now)
    const storage = workersCacheStorage(cache, { keyPrefix: PREFIX, keepMs: 1000, now: c.now })
    await storage.put('https://example.com', { ...records[0]![1], expiresAt: T0 - DAY })
    expect(cache.maxAges).toEqual([1])
  })
})

describe('workersCacheStorage: entries it did not write read as misses', () => {
  const origin = 'https://example.com'
  const key = PREFIX + encodeURIComponent(origin)
  const meta = { v: 1, origin, status: 200, outcome: 'ok', fetchedAt: T0, expiresAt: T0 + DAY, unreachableSince: null, good: true, bodyBytes: 3 }
  const cases: [string, Record<string, string>, string][] = [
    ['no record header', {}, 'abc'],
    ['a header that is not JSON', { 'x-robotstxt-wasm-record': '{v:1' }, 'abc'],
    ['JSON that is not an object', { 'x-robotstxt-wasm-record': '[1]' }, 'abc'],
    ['another format version', { 'x-robotstxt-wasm-record': JSON.stringify({ ...meta, v: 2 }) }, 'abc'],
    ['a record for another origin', { 'x-robotstxt-wasm-record': JSON.stringify({ ...meta, origin: 'https://example.net' }) }, 'abc'],
    ['a body cut short', { 'x-robotstxt-wasm-record': JSON.stringify(meta) }, 'ab'],
    ['an unknown outcome', { 'x-robotstxt-wasm-record': JSON.stringify({ ...meta, outcome: 'maybe' }) }, 'abc'],
    ['a status that is not an HTTP status', { 'x-robotstxt-wasm-record': JSON.stringify({ ...meta, status: 20 }) }, 'abc'],
    ['a time that is not a number', { 'x-robotstxt-wasm-record': JSON.stringify({ ...meta, expiresAt: '2030' }) }, 'abc'],
    ['good that is not a boolean', { 'x-robotstxt-wasm-record': JSON.stringify({ ...meta, good: 1 }) }, 'abc'],
    ['a negative body length', { 'x-robotstxt-wasm-record': JSON.stringify({ ...meta, bodyBytes: -1 }) }, 'abc'],
  ]
  for (const [what, headers, body] of cases) {
    test(what, async () => {
      const cache = new MemoryCache(() => T0)
      cache.raw(key, headers, body)
      expect(await workersCacheStorage(cache, { keyPrefix: PREFIX }).get(origin)).toBeUndefined()
    })
  }

  test('control: the same entry written well is read', async () => {
    const cache = new MemoryCache(() => T0)
    cache.raw(key, { 'x-robotstxt-wasm-record': JSON.stringify(meta) }, 'abc')
    expect((await workersCacheStorage(cache, { keyPrefix: PREFIX }).get(origin))?.body).toEqual(new TextEncoder().encode('abc'))
  })
})

describe('workersCacheStorage: arguments', () => {
  const cache = new MemoryCache(() => T0)
  test.each([
    ['no cache', undefined],
    ['null', null],
    ['a string', 'caches.default'],
    ['an object without put', { match: async () => undefined }],
  ])('cache: %s is a TypeError naming the parameter', (_, bad) => {
    expect(() => workersCacheStorage(bad as never, { keyPrefix: PREFIX })).toThrow(TypeError)
    expect(() => workersCacheStorage(bad as never, { keyPrefix: PREFIX })).toThrow(/^cache: expected a Workers Cache/)
  })

  test.each([
    ['options', undefined, /^options: expected an object with keyPrefix, got undefined/],
    ['options', 'not an object', /^options: expected an object with keyPrefix/],
    ['options.keyPrefix', {}, /^options\.keyPrefix: expected an absolute http: or https: URL on the Worker's host/],
    ['options.keyPrefix', { keyPrefix: 'robots/' }, /^options\.keyPrefix: expected an absolute http: or https: URL/],
    ['options.keyPrefix', { keyPrefix: 'ftp://example.com/' }, /^options\.keyPrefix: /],
    ['options.keyPrefix', { keyPrefix: 'https://example.com/?k=' }, /^options\.keyPrefix: /],
    ['options.keyPrefix', { keyPrefix: new URL('https://example.com/#k') }, /^options\.keyPrefix: .*got the string "https:\/\/example\.com\/#k"/],
    ['options.keyPrefix', { keyPrefix: 42 }, /^options\.keyPrefix: /],
    ['options.keepMs', { keyPrefix: PREFIX, keepMs: -1 }, /^options\.keepMs: expected a finite number of ms >= 0/],
    ['options.keepMs', { keyPrefix: PREFIX, keepMs: Infinity }, /^options\.keepMs: /],
    ['options.keepMs', { keyPrefix: PREFIX, keepMs: '1000' }, /^options\.keepMs: /],
    ['options.now', { keyPrefix: PREFIX, now: 5 }, /^options\.now: expected a function/],
  ])('%s: %j is a TypeError', (_, options, message) => {
    expect(() => workersCacheStorage(cache, options as never)).toThrow(TypeError)
    expect(() => workersCacheStorage(cache, options as never)).toThrow(message)
  })

  test('it never reads the global `caches` (absent in Node; the package must load anywhere)', async () => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'caches')
    Object.defineProperty(globalThis, 'caches', { configurable: true, get: () => { throw new Error('caches read') } })
    try {
      const c = clock(T0)
      const storage = workersCacheStorage(new MemoryCache(c.now), { keyPrefix: PREFIX, now: c.now })
      await storage.put(records[0]![1].origin, records[0]![1])
      expect(await storage.get(records[0]![1].origin)).toEqual(records[0]![1])
    } finally {
      if (had) Object.defineProperty(globalThis, 'caches', had)
      else delete (globalThis as { caches?: unknown }).caches
    }
  })
})

describe('workersCacheStorage behind RobotsCache: two isolates share results', () => {
  let server: http.Server
  let origin: string
  let status = 200
  let requests = 0
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/robots.txt') requests++
      res.writeHead(req.url === '/robots.txt' ? status : 404, { 'content-type': 'text/plain' })
      res.end(status === 200 ? 'User-agent: *\nDisallow: /private\n' : '')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  })

  test('the second cache answers from the stored record, then falls back to it when a refresh gets a 503', async () => {
    const c = clock(T0)
    const shared = new MemoryCache(c.now)
    const isolate = () => new RobotsCache({ now: c.now, storage: workersCacheStorage(shared, { keyPrefix: PREFIX, now: c.now }) })

    const first = await isolate().get(`${origin}/`)
    expect(first).toMatchObject({ origin, status: 200, outcome: 'ok' })
    expect(requests).toBe(1)

    const second = await isolate().get(`${origin}/private/x`)
    expect(requests).toBe(1)
    expect(second).toMatchObject({ origin, status: 200, outcome: 'ok', fetchedAt: T0 })
    expect(second.robots.check(`${origin}/private/x`, 'AnyBot')).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' } })

    // A day later the record has expired but is still kept; the site now fails.
    c.t = T0 + DAY + 1
    status = 503
    const third = await isolate().get(`${origin}/private/x`)
    expect(requests).toBe(2)
    expect(third).toMatchObject({ outcome: 'ok', status: 200, unreachableSince: T0 + DAY + 1 })
    expect(third.isAllowed(`${origin}/private/x`, 'AnyBot')).toBe(false)
    expect(third.isAllowed(`${origin}/open`, 'AnyBot')).toBe(true)
  })
})
