// checkUrls: a mixed-host URL stream against real robots.txt servers on 127.0.0.0/8 (node:http).
// Each origin fetched once, concurrency and maxPending bounds, order, bad inputs, 1M URLs, memory
// flat for sync and async inputs.
import type http from 'node:http'
import v8 from 'node:v8'
import vm from 'node:vm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { checkUrls, parseRobots, RobotsCache, robotsOrigin, type UrlVerdict } from '../src/index.js'
import { closeAll, serve, type TestServer } from './helpers/server.js'

// A full GC on demand, so the memory samples measure what is held, not when the GC last ran.
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

const ROBOTS = 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: mybot\nDisallow: /mine\n'

/** One server on 0.0.0.0 answers for every 127.a.b.c origin; the Host header says which was asked. */
let server: TestServer
let port = 0
const fetched = new Map<string, number>()
let inFlight = 0
let maxInFlight = 0
let delayMs = 0
const held = new Map<string, () => void>()
const holdHosts = new Set<string>()

function origin(i: number): string {
  return `http://127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}:${port}`
}

beforeAll(async () => {
  server = await serve((req: http.IncomingMessage, res: http.ServerResponse) => {
    const host = req.headers.host ?? ''
    if (req.url === '/robots.txt') fetched.set(host, (fetched.get(host) ?? 0) + 1)
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    const answer = () => {
      inFlight--
      const ip = host.split(':')[0]!
      if (ip.endsWith('.250')) res.writeHead(503).end()
      else if (ip.endsWith('.249')) res.writeHead(404).end()
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS)
    }
    if (holdHosts.has(host)) held.set(host, answer)
    else if (delayMs > 0) setTimeout(answer, delayMs)
    else answer()
  }, '0.0.0.0')
  port = server.port
})
afterAll(closeAll)

function reset(): void {
  fetched.clear()
  maxInFlight = 0
  delayMs = 0
  holdHosts.clear()
  held.clear()
}

async function collect(it: AsyncIterable<UrlVerdict>): Promise<UrlVerdict[]> {
  const out: UrlVerdict[] = []
  for await (const v of it) out.push(v)
  return out
}

describe('edge: checkUrls verdicts', () => {
  test('mixed origins and outcomes, bad inputs, in input order; each origin fetched once', async () => {
    reset()
    const ok = origin(0)
    const allowAll = `http://127.0.1.249:${port}` // 404
    const disallowAll = `http://127.0.1.250:${port}` // 503
    const inputs: unknown[] = [
      `${ok}/private/x`, `${allowAll}/private/x`, 'not a url', `${ok}/private/ok/1`, new URL(`${ok}/mine`),
      `${disallowAll}/a`, 'ftp://example.com/x', 42, `${ok}/`, `${ok.toUpperCase().replace('HTTP', 'http')}/private`,
    ]
    const got = await collect(checkUrls(inputs as string[], { agent: 'MyBot/2.0', cache: new RobotsCache({ retryMs: 60_000 }) }))
    const rp = parseRobots(ROBOTS)
    expect(got.map((v) => [v.url, v.allowed, v.line, v.outcome, v.error === undefined])).toEqual([
      [`${ok}/private/x`, true, 0, 'ok', true], // MyBot's own group has no /private rule
      [`${allowAll}/private/x`, true, 0, 'allow-all', true],
      ['not a url', false, 0, null, false],
      [`${ok}/private/ok/1`, true, 0, 'ok', true],
      [`${ok}/mine`, false, 6, 'ok', true],
      [`${disallowAll}/a`, false, 0, 'disallow-all', true],
      ['ftp://example.com/x', false, 0, null, false],
      ['42', false, 0, null, false],
      [`${ok}/`, true, 0, 'ok', true],
      [`${ok.toUpperCase().replace('HTTP', 'http')}/private`, true, 0, 'ok', true],
    ])
    expect(got[4]!.allowed).toBe(rp.isAllowed('/mine', 'MyBot/2.0'))
    expect(got[2]!.error).toMatch(/expected an absolute http: or https: URL/)
    expect(got[7]!.error).toBe('expected a URL string or a URL object')
    expect(got[0]!.origin).toBe(ok)
    expect([...fetched.values()].every((n) => n === 1)).toBe(true)
    expect(fetched.size).toBe(3)
  })

  test('the agent picks the group: * for an unknown crawler', async () => {
    reset()
    const got = await collect(checkUrls([`${origin(1)}/private/x`, `${origin(1)}/mine`], { agent: 'Other' }))
    expect(got.map((v) => [v.allowed, v.line])).toEqual([[false, 2], [true, 0]])
  })

  test('ordered: false hands out a fast origin before a slow one; ordered waits for it', async () => {
    reset()
    const slow = origin(2)
    const fast = origin(3)
    holdHosts.add(slow.slice(7))
    const urls = [`${slow}/a`, `${fast}/b`, `${fast}/private/c`]
    const unordered: string[] = []
    const run = (async () => {
      for await (const v of checkUrls(urls, { agent: 'x', ordered: false })) {
        unordered.push(v.url)
        if (unordered.length === 2) held.get(slow.slice(7))?.()
      }
    })()
    for (let i = 0; i < 100 && !held.has(slow.slice(7)); i++) await new Promise((r) => setTimeout(r, 10))
    await run
    expect(unordered).toEqual([`${fast}/b`, `${fast}/private/c`, `${slow}/a`])
    reset()
    const ordered = await collect(checkUrls(urls, { agent: 'x', cache: new RobotsCache() }))
    expect(ordered.map((v) => v.url)).toEqual(urls)
  })

  test('bad arguments are TypeErrors that say what was expected, before anything is read', () => {
    expect(() => checkUrls('http://a/' as unknown as string[], { agent: 'x' })).toThrow(/urls.*Iterable/)
    expect(() => checkUrls([], undefined as unknown as { agent: string })).toThrow(/options/)
    expect(() => checkUrls([], { agent: '' })).toThrow(TypeError)
    expect(() => checkUrls([], {} as { agent: string })).toThrow(/^options\.agent: expected a user-agent string or an array of them, got undefined$/)
    expect(() => checkUrls([], { agent: 'x', concurrency: 0 })).toThrow(/concurrency.*integer >= 1/)
    expect(() => checkUrls([], { agent: 'x', maxPending: 1.5 })).toThrow(/maxPending/)
    expect(() => checkUrls([], { agent: 'x', ordered: 'yes' as unknown as boolean })).toThrow(/ordered/)
    expect(() => checkUrls([], { agent: 'x', cache: {} as RobotsCache })).toThrow(/cache.*RobotsCache/)
  })
})

describe('checkUrls: a failed lookup\'s error code, and Retry-After', () => {
  test('verdicts of an origin whose robots.txt fetch failed carry its code; others have none', async () => {
    reset()
    const closed = await serve(() => {})
    const gone = `http://127.0.0.1:${closed.port}`
    await closed.close()
    const got = await collect(checkUrls([`${gone}/a`, `${origin(5)}/private/x`, `${gone}/b`, 'nope'], { agent: 'x' }))
    expect(got.map((v) => [v.allowed, v.outcome, v.fetchError])).toEqual([
      [false, 'disallow-all', 'refused'], [false, 'ok', undefined], [false, 'disallow-all', 'refused'], [false, null, undefined],
    ])
    expect('fetchError' in got[1]!).toBe(false)
  })

  test('a 503 with Retry-After keeps its disallow-all for the time asked: no refetch before then', async () => {
    reset()
    const down = await serve((_req, res) => void res.writeHead(503, { 'retry-after': '600' }).end())
    let now = Date.now()
    const cache = new RobotsCache({ now: () => now })
    async function* later() {
      yield `${down.origin}/a`
      await new Promise((r) => setTimeout(r, 20))
      now += 300_000 // 5 minutes: past the 60 s retry default, within the 10 minutes asked
      yield `${down.origin}/b`
      await new Promise((r) => setTimeout(r, 20))
      now += 301_000
      yield `${down.origin}/c`
    }
    const got = await collect(checkUrls(later(), { agent: 'x', cache }))
    expect(got.map((v) => v.outcome)).toEqual(['disallow-all', 'disallow-all', 'disallow-all'])
    expect(down.count()).toBe(2)
  })
})

describe('edge: checkUrls bounds', () => {
  test('at most `concurrency` robots.txt fetches at once', async () => {
    reset()
    delayMs = 30
    const urls = Array.from({ length: 40 }, (_, i) => `${origin(10 + i)}/x`)
    const got = await collect(checkUrls(urls, { agent: 'x', concurrency: 3 }))
    expect(got).toHaveLength(40)
    expect(maxInFlight).toBe(3)
  })

  test('reading pauses at maxPending while an origin is slow, then goes on', async () => {
    reset()
    const slow = origin(60)
    holdHosts.add(slow.slice(7))
    let pulled = 0
    let handed = 0
    let worst = 0
    function* input() {
      for (let i = 0; i < 5000; i++) {
        pulled++
        worst = Math.max(worst, pulled - handed)
        yield i === 0 ? `${slow}/first` : `${origin(61 + (i % 5))}/p${i}`
      }
    }
    const it = checkUrls(input(), { agent: 'x', maxPending: 100 })[Symbol.asyncIterator]()
    const first = it.next()
    for (let i = 0; i < 200 && !held.has(slow.slice(7)); i++) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 50))
    expect(pulled).toBe(100) // input order: everything behind /first waits, and reading stopped
    held.get(slow.slice(7))!()
    expect((await first).value.url).toBe(`${slow}/first`)
    handed = 1
    for (;;) {
      const r = await it.next()
      if (r.done === true) break
      handed++
    }
    expect(handed).toBe(5000)
    expect(worst).toBeLessThanOrEqual(101)
  })

  test('an async input that trickles is answered as it comes, not a slab later', async () => {
    reset()
    let produced = 0
    async function* trickle() {
      for (let i = 0; i < 3; i++) {
        produced++
        yield `${origin(70)}/t${i}`
        await new Promise((r) => setTimeout(r, 40))
      }
    }
    const seenAt: number[] = []
    for await (const v of checkUrls(trickle(), { agent: 'x' })) {
      expect(v.allowed).toBe(true)
      seenAt.push(produced)
    }
    expect(seenAt).toEqual([1, 2, 3])
  })

  test('a verdict is handed out when its lookup settles, while the input waits for its next line', async () => {
    reset()
    delayMs = 150
    let release: () => void = () => {}
    const held = new Promise<void>((r) => (release = r))
    let releasedBy = ''
    async function* waiting() {
      yield `${origin(72)}/first`
      await new Promise((r) => setTimeout(r, 30))
      yield `${origin(73)}/second`
      // The input now waits (a socket with nothing to read): the verdicts must not.
      await Promise.race([held, new Promise((r) => setTimeout(r, 3000)).then(() => (releasedBy ||= 'timeout'))])
    }
    const got: string[] = []
    for await (const v of checkUrls(waiting(), { agent: 'x' })) {
      got.push(v.url)
      if (got.length === 2) {
        releasedBy ||= 'verdicts'
        release()
      }
    }
    delayMs = 0
    expect(got).toEqual([`${origin(72)}/first`, `${origin(73)}/second`])
    expect(releasedBy).toBe('verdicts')
  })

  test('breaking out of the loop closes the input', async () => {
    reset()
    let closed = false
    function* input() {
      try {
        for (let i = 0; ; i++) yield `${origin(71)}/${i}`
      } finally {
        closed = true
      }
    }
    for await (const v of checkUrls(input(), { agent: 'x' })) if (v.url.endsWith('/5')) break
    expect(closed).toBe(true)
  })

  // Found by review, 2026-11-29: the four below failed before their fixes.
  test('breaking out while the input waits for its next item returns at once', async () => {
    reset()
    let settle: () => void = () => {}
    const never = new Promise<void>((r) => (settle = r))
    async function* waiting() {
      yield `${origin(74)}/a`
      await never
      yield `${origin(74)}/b`
    }
    const started = performance.now()
    for await (const v of checkUrls(waiting(), { agent: 'x' })) if (v.url.endsWith('/a')) break
    // It waited for the input's pending next() to settle (forever, here) before returning.
    expect(performance.now() - started).toBeLessThan(2000)
    settle()
  })

  test('breaking out stops the lookups not yet started', async () => {
    reset()
    delayMs = 100
    const urls = Array.from({ length: 20 }, (_, i) => `${origin(80 + i)}/x`)
    for await (const v of checkUrls(urls, { agent: 'x', concurrency: 2 })) if (v.url === urls[0]) break
    await new Promise((r) => setTimeout(r, 800))
    delayMs = 0
    // Those running at the break (at most concurrency + the one that settled) finish; no more start.
    expect(fetched.size).toBeLessThanOrEqual(3)
  })

  test('an input whose next() throws is not asked to return(), and the error reaches the caller', async () => {
    reset()
    let returned = 0
    const input: Iterable<string> = {
      [Symbol.iterator]: () => {
        let i = 0
        return {
          next: () => {
            if (i === 3) throw new Error('source failed')
            return { done: false, value: `${origin(75)}/${i++}` }
          },
          return: () => {
            returned++
            return { done: true, value: undefined }
          },
        }
      },
    }
    await expect(collect(checkUrls(input, { agent: 'x' }))).rejects.toThrow('source failed')
    expect(returned).toBe(0)
  })

  test('an input whose next() gives no iterator result ends the stream with a TypeError saying so', async () => {
    // An async one's `undefined` read as "no step yet" and the stream spun on it for ever.
    const wrong = (step: unknown) => ({ next: () => step })
    const inputs = [
      { [Symbol.asyncIterator]: () => wrong(Promise.resolve(undefined)) },
      { [Symbol.asyncIterator]: () => wrong(Promise.resolve(7)) },
      { [Symbol.iterator]: () => wrong(null) },
    ]
    for (const input of inputs) {
      await expect(collect(checkUrls(input as Iterable<string>, { agent: 'x' }))).rejects.toThrow(/^urls: expected an iterator whose next\(\) gives \{ done, value \} objects, got /)
    }
  })

  test('a matcher that cannot be compiled for a fetched file ends the stream with its error, never an unhandled rejection', async () => {
    reset()
    // What a wasm memory that cannot grow does to matcher(): a RangeError, after the lookup settled.
    class Full extends RobotsCache {
      override async get(url: string | URL): Promise<Awaited<ReturnType<RobotsCache['get']>>> {
        const r = await super.get(url)
        const robots = Object.create(r.robots, { matcher: { value: () => { throw new RangeError('wasm memory cannot grow') } } }) as typeof r.robots
        return { ...r, robots }
      }
    }
    const urls = [`${origin(76)}/a`, `${origin(76)}/b`]
    await expect(collect(checkUrls(urls, { agent: 'x', cache: new Full() }))).rejects.toThrow('wasm memory cannot grow')
  })

  test('a URL whose host follows extra slashes or a backslash gets the origin robotsOrigin gives it', async () => {
    reset()
    const host = new URL(origin(77)).host
    const urls = [`http:///${host}/private`, `http://\\${host}/private`, `http://${host}/private`]
    expect(urls.map((u) => robotsOrigin(u))).toEqual(Array(3).fill(`http://${host}`))
    const got = await collect(checkUrls(urls, { agent: 'x' }))
    // The verdict is the matcher's for the URL as written (its path is read after the authority it sees).
    const robots = parseRobots(ROBOTS)
    expect(got.map((v) => [v.origin, v.allowed, v.error])).toEqual(urls.map((u) => [`http://${host}`, robots.isAllowed(u, 'x'), undefined]))
  })

  test("freshness is judged by the cache's clock (options.now), as the cache's own lookups are", async () => {
    reset()
    // Ahead of the wall clock, as a test's or a replay's clock may be: by Date.now() the first
    // lookup never expires.
    let now = Date.now() + 10 * 86_400_000
    const cache = new RobotsCache({ now: () => now, ttlMs: 1000 })
    const url = `${origin(76)}/private`
    async function* twice() {
      yield url
      await new Promise((r) => setTimeout(r, 50))
      now += 5000
      yield url
    }
    const got = await collect(checkUrls(twice(), { agent: 'x', cache }))
    expect(got.map((v) => v.allowed)).toEqual([false, false])
    // The second check came after expiresAt by the cache's clock: a refetch, as cache.get makes.
    expect(fetched.get(new URL(url).host)).toBe(2)
  })
})

describe('corpus-scale: checkUrls over 1,000,000 URLs and 1,000 local origins', () => {
  test('each origin fetched once, input order kept, memory flat', async () => {
    reset()
    const N = 1_000_000
    const ORIGINS = 1000
    const origins = Array.from({ length: ORIGINS }, (_, i) => origin(i))
    function* input() {
      for (let i = 0; i < N; i++) yield `${origins[(i * 7919) % ORIGINS]}/${i % 3 === 0 ? 'private/' : ''}p${i}`
    }
    const heap: number[] = []
    let n = 0
    let allowed = 0
    let inOrder = true
    const t0 = performance.now()
    for await (const v of checkUrls(input(), { agent: 'x', concurrency: 32, cache: new RobotsCache({ maxEntries: 2000 }) })) {
      if (!v.url.endsWith(`p${n}`)) inOrder = false
      if (v.allowed) allowed++
      n++
      if (n % 100_000 === 0) {
        gc()
        heap.push(process.memoryUsage().heapUsed)
      }
    }
    const ms = performance.now() - t0
    expect(n).toBe(N)
    expect(inOrder).toBe(true)
    // Origins 249 and 250 of each /24 block answer 404 (allow-all) and 503 (disallow-all).
    expect(fetched.size).toBe(ORIGINS)
    expect([...fetched.values()].every((c) => c === 1)).toBe(true)
    expect(allowed).toBeGreaterThan(N / 2)
    // Flat: after a full GC, the heap at 1M URLs is within 16 MiB of the heap at 100,000 (holding
    // the URLs or verdicts read so far would be about 100 MiB more).
    const growth = (heap[heap.length - 1]! - heap[0]!) / 2 ** 20
    console.log(`checkUrls: ${N.toLocaleString('en')} URLs, ${ORIGINS} origins in ${ms.toFixed(0)} ms (${((N / ms) * 1000 / 1e6).toFixed(2)}M URLs/s); heap ${heap.map((h) => (h / 2 ** 20).toFixed(0)).join(' ')} MiB`)
    expect(growth).toBeLessThan(16)
  }, 120_000)
  test('an async input over few origins keeps memory flat (no lookup settles for most reads)', async () => {
    // Each read of an async input waits on the read, a lookup settling, or the event loop turning
    // (which an input like this one never lets happen). Racing each read against promises that
    // stay pending that long held every read's result: about 400 bytes per URL, 120 MiB here.
    reset()
    const N = 300_000
    const origins = [origin(0), origin(1)]
    async function* input() {
      for (let i = 0; i < N; i++) yield `${origins[i & 1]}/${i % 3 === 0 ? 'private/' : ''}p${i}`
    }
    const heap: number[] = []
    let n = 0
    let inOrder = true
    let failed: UrlVerdict | undefined
    // A cache of its own: what another test left in a shared one would spare the fetches counted below.
    for await (const v of checkUrls(input(), { agent: 'x', cache: new RobotsCache() })) {
      if (v.fetchError !== undefined) failed ??= v
      if (!v.url.endsWith(`p${n}`)) inOrder = false
      n++
      if (n % 50_000 === 0) {
        gc()
        heap.push(process.memoryUsage().heapUsed)
      }
    }
    expect(n).toBe(N)
    expect(inOrder).toBe(true)
    // A lookup that failed (a kept-alive connection the server closed: 'reset') would fetch nothing.
    expect(fetched.size, `fetched ${JSON.stringify([...fetched])}; a failed lookup's verdict: ${JSON.stringify(failed)}`).toBe(2)
    const growth = (heap[heap.length - 1]! - heap[0]!) / 2 ** 20
    console.log(`checkUrls, async input over 2 origins: heap ${heap.map((h) => (h / 2 ** 20).toFixed(0)).join(' ')} MiB`)
    expect(growth).toBeLessThan(8)
  }, 120_000)
})
