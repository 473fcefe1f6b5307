// redisStorage against a real redis-server (Debian's, started here on a free port): the clients
// people use, fleet-wide single flight across processes, a dead lock holder, and Redis going away.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type http from 'node:http'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Redis as IoRedis } from 'ioredis'
import { Redis as IoValkey } from 'iovalkey'
import { createClient as createClient6, RESP_TYPES } from 'redis'
import { createClient as createClient4 } from 'redis4'
import { createClient as createClient5 } from 'redis5'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RobotsCache, redisStorage, type StoredRobots } from '../src/index.js'
import { ensureDist, ROOT } from './helpers/dist.js'
import { ensureRedis, freePort, startRedis, type RedisServer } from './helpers/redis.js'
import { closeAll, serve, type TestServer } from './helpers/server.js'

const redis = ensureRedis()
const ROBOTS = 'User-agent: *\nDisallow: /private\n'

interface Client {
  quit(): Promise<unknown>
  get(key: string): Promise<string | null>
  keys(pattern: string): Promise<string[]>
}

/** Each client library, connected to `url`. */
const CLIENTS: [string, (url: string) => Promise<Client & object>][] = [
  ['node-redis 4', async (url) => { const c = createClient4({ url }); c.on('error', () => {}); await c.connect(); return c as unknown as Client }],
  ['node-redis 5', async (url) => { const c = createClient5({ url }); c.on('error', () => {}); await c.connect(); return c as unknown as Client }],
  ['node-redis 6', async (url) => { const c = createClient6({ url }); c.on('error', () => {}); await c.connect(); return c as unknown as Client }],
  ['ioredis', async (url) => { const c = new IoRedis(url, { lazyConnect: true }); c.on('error', () => {}); await c.connect(); return c as unknown as Client }],
  ['iovalkey', async (url) => { const c = new IoValkey(url, { lazyConnect: true }); c.on('error', () => {}); await c.connect(); return c as unknown as Client }],
]

/** Robots.txt for every 127.a.b.c origin of one port; the Host header tells them apart. */
let web: TestServer
let port = 0
const fetches = new Map<string, number>()
const hang = new Set<string>()
const noStore = new Set<string>()
let delayMs = 0

function origin(i: number): string {
  return `http://127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}:${port}`
}

let server: RedisServer | null = null
let tmp = ''

beforeAll(async () => {
  web = await serve((req: http.IncomingMessage, res: http.ServerResponse) => {
    const host = req.headers.host ?? ''
    fetches.set(host, (fetches.get(host) ?? 0) + 1)
    if (hang.has(host)) return // never answered: a fetch that a killed process leaves behind
    const headers = { 'content-type': 'text/plain', ...(noStore.has(host) ? { 'cache-control': 'no-store' } : {}) }
    setTimeout(() => res.writeHead(200, headers).end(ROBOTS), delayMs)
  }, '0.0.0.0')
  port = web.port
  tmp = mkdtempSync(join(tmpdir(), 'robotstxt-redis-'))
  if (redis.path !== null) server = await startRedis(redis.path)
  ensureDist()
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await closeAll()
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
})

const record = (o: string, expiresAt: number): StoredRobots => ({
  origin: o, status: 200, outcome: 'ok', body: new TextEncoder().encode(ROBOTS), fetchedAt: Date.now(), expiresAt, unreachableSince: null, good: true,
})

describe.skipIf(redis.path === null)(`redis: the clients people use (${redis.path === null ? `SKIPPED: ${redis.reason}` : 'real redis-server'})`, () => {
  for (const [name, connect] of CLIENTS) {
    test(`${name}: a record round-trips; a miss takes the fleet lock; put releases it`, async () => {
      const client = await connect(server!.url)
      try {
        const prefix = `rt:${name}:`
        const storage = redisStorage(client, { prefix, lockMs: 5_000 })
        const o = 'https://roundtrip.example'
        expect(await storage.get(o)).toBeUndefined()
        expect(await client.get(`${prefix}lock:${o}`)).toMatch(/./) // this process now refreshes it
        const r = record(o, Date.now() + 60_000)
        await storage.put(o, r)
        expect(await client.get(`${prefix}lock:${o}`)).toBeNull()
        const back = await storage.get(o)
        expect({ ...back, body: Array.from(back!.body!) }).toEqual({ ...r, body: Array.from(r.body!) })
        // A record for another origin under this key is not handed out.
        expect(await redisStorage(client, { prefix: `${prefix}x` }).get('https://other.example')).toBeUndefined()
      } finally {
        await client.quit()
      }
    })
  }

  test('two caches on two connections, one origin asked at once by both: one fetch', async () => {
    fetches.clear()
    delayMs = 150
    const [a, b] = [await CLIENTS[1]![1](server!.url), await CLIENTS[3]![1](server!.url)]
    try {
      const caches = [a, b].map((c) => new RobotsCache({ storage: redisStorage(c, { prefix: 'pair:' }) }))
      const results = await Promise.all([caches[0]!.get(origin(900) + '/'), caches[1]!.get(origin(900) + '/')])
      expect(results.map((r) => r.outcome)).toEqual(['ok', 'ok'])
      expect(results[1]!.isAllowed(origin(900) + '/private/x', 'bot')).toBe(false)
      expect(fetches.get(origin(900).slice(7))).toBe(1)
    } finally {
      delayMs = 0
      await a.quit()
      await b.quit()
    }
  })

  test('an expired record: one process refreshes it for the fleet, and the new record replaces it', async () => {
    fetches.clear()
    delayMs = 150
    const o = origin(910)
    const [a, b] = [await CLIENTS[1]![1](server!.url), await CLIENTS[4]![1](server!.url)]
    try {
      const stale = { ...record(o, Date.now() - 1000), fetchedAt: Date.now() - 90_000_000 }
      await redisStorage(a, { prefix: 'exp:' }).put(o, stale)
      const caches = [a, b].map((c) => new RobotsCache({ storage: redisStorage(c, { prefix: 'exp:' }) }))
      const results = await Promise.all(caches.map((c) => c.get(o + '/')))
      expect(results.map((r) => r.outcome)).toEqual(['ok', 'ok'])
      expect(fetches.get(o.slice(7))).toBe(1)
      const stored = JSON.parse((await a.get(`exp:${o}`))!) as { fetchedAt: number; expiresAt: number }
      expect(stored.expiresAt).toBeGreaterThan(Date.now())
      expect(stored.fetchedAt).toBeGreaterThan(stale.fetchedAt)
    } finally {
      delayMs = 0
      await a.quit()
      await b.quit()
    }
  })

  test('a result the cache does not keep (no-store) releases the fleet lock: the next lookup does not wait lockMs', async () => {
    // Found by review, 2026-11-29: the lock was released only by put, which a no-store result
    // never reaches, so every later lookup of the origin, in any process, waited the lock out.
    const o = origin(920)
    noStore.add(o.slice(7))
    const [a, b] = [await CLIENTS[1]![1](server!.url), await CLIENTS[3]![1](server!.url)]
    try {
      const storage = redisStorage(a, { prefix: 'nostore:', lockMs: 5_000 })
      const cache = new RobotsCache({ storage })
      expect((await cache.get(o + '/')).outcome).toBe('ok')
      expect(await a.get(`nostore:lock:${o}`)).toBeNull()
      const other = new RobotsCache({ storage: redisStorage(b, { prefix: 'nostore:', lockMs: 5_000 }) })
      const started = performance.now()
      await Promise.all([cache.get(o + '/'), other.get(o + '/')])
      expect(performance.now() - started).toBeLessThan(2_500)
      expect(await a.get(`nostore:${o}`)).toBeNull()
    } finally {
      noStore.delete(o.slice(7))
      await a.quit()
      await b.quit()
    }
  })

  test('a lookup aborted while its storage get runs leaves no fleet lock: the next lookup does not wait lockMs', async () => {
    // Found by review: the cache stops waiting for an aborted lookup's get, but the get runs on,
    // takes the fleet lock for the fetch it expects, and nobody fetched, put or released: every
    // process's next lookup of the origin waited the lock out.
    const o = origin(930)
    const [a, b] = [await CLIENTS[2]![1](server!.url), await CLIENTS[3]![1](server!.url)]
    try {
      const cache = new RobotsCache({ storage: redisStorage(a, { prefix: 'abort:', lockMs: 5_000 }) })
      const controller = new AbortController()
      const lookup = cache.get(o + '/', { signal: controller.signal })
      controller.abort(new Error('the caller left'))
      await expect(lookup).rejects.toThrow('the caller left')
      // The abandoned get's three commands (a read, the lock, a read) take a millisecond or two here.
      await new Promise((r) => setTimeout(r, 200))
      const other = new RobotsCache({ storage: redisStorage(b, { prefix: 'abort:', lockMs: 5_000 }) })
      const started = performance.now()
      expect((await other.get(o + '/')).outcome).toBe('ok')
      expect(performance.now() - started).toBeLessThan(2_500)
    } finally {
      await a.quit()
      await b.quit()
    }
  })

  test('a node-redis client that maps replies to Buffers takes and frees the fleet lock like any other', async () => {
    // Found by review: the lock's SET NX reply came back as the bytes of "OK", read as "not taken";
    // the lookup then waited lockMs for a lock it held, and nothing released it after the fetch.
    const c = await createClient6({ url: server!.url, RESP: 3 }).connect()
    try {
      const buffers = c.withTypeMapping({ [RESP_TYPES.SIMPLE_STRING]: Buffer, [RESP_TYPES.BLOB_STRING]: Buffer })
      const o = origin(940)
      const cache = new RobotsCache({ storage: redisStorage(buffers, { prefix: 'bytes:', lockMs: 5_000 }) })
      const started = performance.now()
      expect((await cache.get(o + '/')).outcome).toBe('ok')
      expect(performance.now() - started).toBeLessThan(2_500)
      expect(await c.get(`bytes:lock:${o}`)).toBeNull()
      const again = new RobotsCache({ storage: redisStorage(buffers, { prefix: 'bytes:', lockMs: 5_000 }) })
      expect((await again.get(o + '/')).isAllowed(o + '/private/x', 'bot')).toBe(false)
    } finally {
      await c.quit()
    }
  })

  test('url, redirects, error and a Retry-After expiry round-trip; a record the previous version wrote still serves', async () => {
    const client = await CLIENTS[2]![1](server!.url)
    try {
      const storage = redisStorage(client, { prefix: 'fields:' })
      const o = 'https://fields.example'
      const r: StoredRobots = {
        ...record(o, Date.now() + 3_600_000), url: 'https://cdn.fields.example/robots.txt', redirects: 2,
        error: { code: 'timeout', message: 'timed out (robots.txt fetch timed out after 10000 ms)' },
      }
      await storage.put(o, r)
      const back = await storage.get(o)
      expect({ ...back, body: Array.from(back!.body!) }).toEqual({ ...r, body: Array.from(r.body!) })
      const site = await new RobotsCache({ storage }).get(o + '/')
      expect(site).toMatchObject({ url: r.url, redirects: 2, error: r.error, expiresAt: r.expiresAt })
      // As the previous version encoded a record: no url, redirects or error.
      const old = { origin: 'https://old.example', status: 200, outcome: 'ok', body: Buffer.from(ROBOTS).toString('base64'), fetchedAt: Date.now(), expiresAt: Date.now() + 60_000, unreachableSince: null, good: true }
      await (client as unknown as { set(k: string, v: string): Promise<unknown> }).set('fields:https://old.example', JSON.stringify(old))
      const fromOld = await new RobotsCache({ storage, fetch: (async () => { throw new Error('must not fetch') }) as unknown as typeof fetch }).get('https://old.example/')
      expect(fromOld).toMatchObject({ outcome: 'ok', status: 200, url: null, redirects: 0, error: null })
      expect(fromOld.isAllowed('https://old.example/private/x', 'bot')).toBe(false)
    } finally {
      await client.quit()
    }
  })

  test('a 503 with Retry-After: the record keeps it, and another cache of the fleet does not fetch again before then', async () => {
    const down = await serve((_req, res) => void res.writeHead(503, { 'retry-after': '1800' }).end())
    const [a, b] = [await CLIENTS[2]![1](server!.url), await CLIENTS[3]![1](server!.url)]
    try {
      const first = await new RobotsCache({ storage: redisStorage(a, { prefix: 'retry:' }) }).get(down.origin)
      expect(first).toMatchObject({ status: 503, outcome: 'disallow-all', expiresAt: first.fetchedAt + 1_800_000 })
      const stored = JSON.parse((await a.get(`retry:${down.origin}`))!) as { expiresAt: number }
      expect(stored.expiresAt).toBe(first.expiresAt)
      // Past the 60 s retry default, within the 30 minutes asked: still the stored answer.
      const later = Date.now() + 120_000
      const other = await new RobotsCache({ storage: redisStorage(b, { prefix: 'retry:' }), now: () => later }).get(down.origin)
      expect(other).toMatchObject({ outcome: 'disallow-all', fetchedAt: first.fetchedAt })
      expect(down.count()).toBe(1)
    } finally {
      await a.quit()
      await b.quit()
    }
  })

  test('a client without call or sendCommand is a TypeError; so are bad options', () => {
    expect(() => redisStorage({})).toThrow(/client.*Redis or Valkey client/)
    expect(() => redisStorage(null)).toThrow(TypeError)
    const fake = { call: async () => null }
    expect(() => redisStorage(fake, { lockMs: 0 })).toThrow(/lockMs/)
    expect(() => redisStorage(fake, { ttlMs: 1.5 })).toThrow(/ttlMs/)
    expect(() => redisStorage(fake, { prefix: 3 as unknown as string })).toThrow(/prefix/)
  })
})

/** Starts a fleet process; resolves its summary line when it ends. */
function fleetProcess(url: string, lockMs: number, originsFile: string, seed: number): { child: ChildProcessWithoutNullStreams; done: Promise<{ outcomes: Record<string, number> }> } {
  const child = spawn(process.execPath, [join(ROOT, 'test', 'helpers', 'fleet-child.mjs'), url, String(lockMs), originsFile, String(seed)], { cwd: ROOT })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  const done = new Promise<{ outcomes: Record<string, number> }>((resolve, reject) => {
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? ''
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as { outcomes: Record<string, number> })
      else reject(new Error(`fleet process exited ${code}: ${err || out}`))
    })
  })
  return { child, done }
}

describe.skipIf(redis.path === null)(`redis: a crawler fleet (${redis.path === null ? `SKIPPED: ${redis.reason}` : 'real redis-server, real processes'})`, () => {
  test('4 processes x 1,000 origins: each origin fetched exactly once across the fleet', async () => {
    fetches.clear()
    delayMs = 20
    const origins = Array.from({ length: 1000 }, (_, i) => origin(i))
    const file = join(tmp, 'origins.json')
    writeFileSync(file, JSON.stringify(origins))
    const t0 = performance.now()
    const fleet = [1, 2, 3, 4].map((seed) => fleetProcess(server!.url, 10_000, file, seed))
    const summaries = await Promise.all(fleet.map((f) => f.done))
    delayMs = 0
    const ms = performance.now() - t0
    for (const s of summaries) expect(s.outcomes).toEqual({ ok: 1000 })
    expect(fetches.size).toBe(1000)
    const twice = [...fetches].filter(([, n]) => n !== 1)
    expect(twice).toEqual([])
    console.log(`fleet: 4 processes x 1,000 origins in ${ms.toFixed(0)} ms, ${[...fetches.values()].reduce((a, b) => a + b, 0)} robots.txt fetches`)
  }, 120_000)

  test('the lock holder is killed mid-fetch: another process takes over within lockMs', async () => {
    fetches.clear()
    const lockMs = 1500
    const o = origin(1100) // outside the fleet test's origins, so nothing is stored for it yet
    hang.add(o.slice(7))
    const file = join(tmp, 'one.json')
    writeFileSync(file, JSON.stringify([o]))
    const holder = fleetProcess(server!.url, lockMs, file, 7)
    holder.done.catch(() => {})
    const watcher = await CLIENTS[1]![1](server!.url)
    try {
      // Wait until the holder has taken the lock and its fetch has reached the server.
      for (let i = 0; i < 200 && fetches.get(o.slice(7)) !== 1; i++) await new Promise((r) => setTimeout(r, 25))
      expect(await watcher.get(`robotstxt:lock:${o}`)).toMatch(/./)
      holder.child.kill('SIGKILL')
      const killedAt = performance.now()
      hang.delete(o.slice(7))
      const other = new RobotsCache({ storage: redisStorage(watcher, { lockMs }) })
      const result = await other.get(o + '/')
      const waited = performance.now() - killedAt
      expect(result.outcome).toBe('ok')
      expect(fetches.get(o.slice(7))).toBe(2)
      expect(waited).toBeGreaterThan(lockMs / 2) // the dead holder's lock was respected until it expired
      expect(waited).toBeLessThan(lockMs + 1000)
      console.log(`dead lock holder: the next process fetched ${waited.toFixed(0)} ms after the kill (lockMs ${lockMs})`)
    } finally {
      await watcher.quit()
    }
  }, 30_000)

  test('Redis stopped mid-run: every lookup still succeeds, each through its own fetch', async () => {
    fetches.clear()
    const own = await startRedis(redis.path!)
    const client = await CLIENTS[1]![1](own.url)
    const cache = new RobotsCache({ storage: redisStorage(client), timeoutMs: 5_000 })
    const outcomes: string[] = []
    const t0 = performance.now()
    for (let i = 0; i < 100; i++) {
      if (i === 50) await own.stop(true)
      outcomes.push((await cache.get(origin(400 + i) + '/')).outcome)
    }
    const ms = performance.now() - t0
    expect(outcomes).toEqual(Array(100).fill('ok'))
    expect(fetches.size).toBe(100)
    // The circuit opens at the first failed command: the outage costs one bounded wait, not one per lookup.
    expect(ms).toBeLessThan(8_000)
    console.log(`redis outage: 100 lookups (50 after the kill) in ${ms.toFixed(0)} ms`)
    // quit() would wait for a server that is gone: drop the connection instead.
    ;(client as unknown as { destroy(): void }).destroy()
  }, 60_000)
})

/** Waits until `cond` holds, polling every 20 ms for at most `ms`; false when it never did. */
async function eventually(cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await cond()) return true
    await new Promise((r) => setTimeout(r, 20))
  }
  return false
}

/** A client of each family as a user makes it (offline queue on, no special options), connect() not awaited. */
const LAZY_CLIENTS: [string, (url: string) => { client: object; ready(): boolean; close(): void }][] = [
  ['node-redis 6', (url) => {
    const c = createClient6({ url })
    c.on('error', () => {})
    c.connect().catch(() => {})
    return { client: c, ready: () => c.isReady, close: () => c.destroy() }
  }],
  ['ioredis', (url) => {
    const c = new IoRedis(url, { retryStrategy: () => 100 })
    c.on('error', () => {})
    return { client: c, ready: () => c.status === 'ready', close: () => c.disconnect() }
  }],
]

describe.skipIf(redis.path === null)(`redis: down at start, gone and back (${redis.path === null ? `SKIPPED: ${redis.reason}` : 'real redis-server, started and killed here'})`, () => {
  for (const [name, make] of LAZY_CLIENTS) {
    test(`${name}: Redis down at start costs no wait; once it is up, the same client shares records again`, async () => {
      const port = await freePort()
      const { client, ready, close } = make(`redis://127.0.0.1:${port}`)
      let up: RedisServer | null = null
      try {
        const cache = new RobotsCache({ storage: redisStorage(client, { prefix: 'late:' }) })
        const t0 = performance.now()
        for (let i = 0; i < 20; i++) expect((await cache.get(origin(1200 + i) + '/')).outcome).toBe('ok')
        // Nothing waits for the missing Redis: no command bound (2 s) is ever reached.
        expect(performance.now() - t0).toBeLessThan(1_500)
        up = await startRedis(redis.path!, port)
        expect(await eventually(ready)).toBe(true)
        expect((await cache.get(origin(1230) + '/')).outcome).toBe('ok')
        const watcher = await CLIENTS[2]![1](up.url)
        try {
          expect(await watcher.get(`late:${origin(1230)}`)).toMatch(/"outcome":"ok"/)
          expect(await watcher.get(`late:${origin(1200)}`)).toBeNull()
        } finally {
          await watcher.quit()
        }
      } finally {
        close()
        await up?.stop()
      }
    }, 60_000)
  }

  test('node-redis: Redis killed mid-run and restarted on its port: lookups go on, then records are shared again', async () => {
    const port = await freePort()
    let server1: RedisServer | null = await startRedis(redis.path!, port)
    const { client, ready, close } = LAZY_CLIENTS[0]![1](server1.url)
    let server2: RedisServer | null = null
    try {
      expect(await eventually(ready)).toBe(true)
      const cache = new RobotsCache({ storage: redisStorage(client, { prefix: 'back:' }) })
      expect((await cache.get(origin(1300) + '/')).outcome).toBe('ok')
      await server1.stop(true)
      server1 = null
      const t0 = performance.now()
      for (let i = 1; i <= 10; i++) expect((await cache.get(origin(1300 + i) + '/')).outcome).toBe('ok')
      expect(performance.now() - t0).toBeLessThan(3_000)
      server2 = await startRedis(redis.path!, port)
      expect(await eventually(ready)).toBe(true)
      // The circuit a failed command opened closes after OUTAGE_MS (5 s) at most.
      const watcher = await CLIENTS[2]![1](server2.url)
      try {
        let i = 20
        const shared = await eventually(async () => {
          const o = origin(1300 + i++)
          await cache.get(o + '/')
          return (await watcher.get(`back:${o}`)) !== null
        }, 8_000)
        expect(shared).toBe(true)
      } finally {
        await watcher.quit()
      }
    } finally {
      close()
      await server1?.stop()
      await server2?.stop()
    }
  }, 60_000)
})

/** examples/redis-fleet in a fresh directory, its dependencies linked from this checkout. */
function installFleet(): string {
  const dir = mkdtempSync(join(tmpdir(), 'example-redis-fleet-'))
  cpSync(join(ROOT, 'examples', 'redis-fleet'), dir, { recursive: true })
  for (const [dep, from] of [['robotstxt-wasm', ROOT], ['redis', join(ROOT, 'node_modules', 'redis')]] as const) {
    const link = join(dir, 'node_modules', dep)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(from, link, 'dir')
  }
  return dir
}

function runFleet(dir: string, args: string[], env: Record<string, string>): { done: Promise<{ code: number; stdout: string; stderr: string }> } {
  return {
    done: new Promise((resolve) => {
      execFile(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
      })
    }),
  }
}

describe.skipIf(redis.path === null)(`examples/redis-fleet without its Redis (${redis.path === null ? `SKIPPED: ${redis.reason}` : 'real redis-server, started and killed here'})`, () => {
  test('Redis down at start: the fleet finishes with every verdict, each member saying so once', async () => {
    const port = await freePort()
    const frontier = Array.from({ length: 40 }, (_, i) => `${origin(1400 + (i % 10))}/${i % 3 === 0 ? 'private/' : ''}p${i}`)
    const dir = installFleet()
    try {
      writeFileSync(join(dir, 'frontier.txt'), frontier.join('\n') + '\n')
      const t0 = performance.now()
      const { code, stdout, stderr } = await runFleet(dir, ['fleet.mjs', 'frontier.txt', '2', 'ExampleBot'], { REDIS_URL: `redis://127.0.0.1:${port}` }).done
      expect(code, stderr).toBe(0)
      expect(stdout.trimEnd().split('\n').sort()).toEqual(frontier.map((url, i) => `member-${i % 2} ${url.includes('/private/') ? 'disallowed' : 'allowed'} ${url}`).sort())
      const lines = stderr.trimEnd().split('\n')
      expect(lines.sort()).toEqual([0, 1].map((m) => `member-${m}: redis unavailable (connect ECONNREFUSED 127.0.0.1:${port}); fetching robots.txt directly until it is back`))
      expect(performance.now() - t0).toBeLessThan(20_000)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  test('Redis killed mid-run and back: every verdict, the outage and the return said once per member, sharing again after', async () => {
    const port = await freePort()
    let server: RedisServer | null = await startRedis(redis.path!, port)
    // Slow robots.txt answers spread the run over about 10 s: 400 origins, 16 lookups at a time, 400 ms each.
    delayMs = 400
    const frontier = Array.from({ length: 800 }, (_, i) => `${origin(1500 + Math.floor(i / 2))}/${i % 4 === 1 ? 'private/' : ''}q${i}`)
    const dir = installFleet()
    let second: RedisServer | null = null
    try {
      writeFileSync(join(dir, 'frontier.txt'), frontier.join('\n') + '\n')
      const run = runFleet(dir, ['fleet.mjs', 'frontier.txt', '2', 'ExampleBot'], { REDIS_URL: `redis://127.0.0.1:${port}` })
      const watcher = await CLIENTS[2]![1](server.url)
      expect(await eventually(async () => (await watcher.keys('fleet:robots:http*')).length >= 5)).toBe(true)
      ;(watcher as unknown as { destroy(): void }).destroy()
      await server.stop(true)
      server = null
      await new Promise((r) => setTimeout(r, 1_000))
      second = await startRedis(redis.path!, port)
      const { code, stdout, stderr } = await run.done
      expect(code, stderr).toBe(0)
      expect(stdout.trimEnd().split('\n').sort()).toEqual(frontier.map((url, i) => `member-${i % 2} ${url.includes('/private/') ? 'disallowed' : 'allowed'} ${url}`).sort())
      for (const m of [0, 1]) {
        const said = stderr.split('\n').filter((l) => l.startsWith(`member-${m}:`))
        expect(said, stderr).toEqual([expect.stringMatching(/^member-\d: redis unavailable \(.+\); fetching robots.txt directly until it is back$/), `member-${m}: redis is back; sharing robots.txt again`])
      }
      const again = await CLIENTS[2]![1](second.url)
      try {
        expect((await again.keys('fleet:robots:http*')).length).toBeGreaterThan(0)
      } finally {
        await again.quit()
      }
    } finally {
      delayMs = 0
      rmSync(dir, { recursive: true, force: true })
      await server?.stop()
      await second?.stop()
    }
  }, 120_000)
})
