// The example Worker (examples/worker/, run from its own wrangler.jsonc) inside workerd, checking
// URLs against robots.txt files served by node:http servers on 127.0.0.1: verdicts, the outcome of
// 404 and 503 answers, one fetch per site, and results kept in the Workers Cache API across a
// restart of workerd (its cache persisted to a temporary directory, as on a real data center).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startWorker, type RunningWorker } from './harness.js'
import { ROOT } from './tool-env.js'

const EXAMPLE = join(ROOT, 'examples', 'worker')
const FETCH_USER_AGENT = 'robots-check-worker/1.0 (+https://example.com/contact)' // examples/worker/wrangler.jsonc

/** One origin: answers /robots.txt with `status` and `body`, and records who asked. */
interface Site {
  origin: string
  robotsRequests: number
  userAgents: string[]
  server: http.Server
}

async function site(status: number, body = ''): Promise<Site> {
  const s: Site = { origin: '', robotsRequests: 0, userAgents: [], server: http.createServer() }
  s.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url === '/robots.txt') {
      s.robotsRequests++
      s.userAgents.push(req.headers['user-agent'] ?? '')
    }
    res.writeHead(req.url === '/robots.txt' ? status : 404, { 'content-type': 'text/plain' })
    res.end(req.url === '/robots.txt' ? body : '')
  })
  await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve))
  s.origin = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`
  return s
}

const ROBOTS = 'User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: OtherBot\nDisallow: /\n'

let persist: string
let worker: RunningWorker
let rules: Site, missing: Site, failing: Site, busy: Site, later: Site

function start(port?: number): Promise<RunningWorker> {
  // The example imports 'robotstxt-wasm' as a user's project would; here it resolves to this
  // checkout's Workers build (the dry-run test checks that the package's exports pick that file).
  return startWorker({
    name: 'robots-check-worker',
    config: join(EXAMPLE, 'wrangler.jsonc'),
    alias: { 'robotstxt-wasm': join(ROOT, 'dist', 'workerd.js') },
    persist,
    ...(port !== undefined ? { port } : {}),
  })
}

async function check(url: string, agent: string) {
  const res = await worker.fetch(`/check?url=${encodeURIComponent(url)}&agent=${encodeURIComponent(agent)}`)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  persist = mkdtempSync(join(tmpdir(), 'robotstxt-wasm-worker-cache-'))
  ;[rules, missing, failing, busy, later] = await Promise.all([site(200, ROBOTS), site(404), site(503), site(200, ROBOTS), site(200, ROBOTS)])
  worker = await start()
})

afterAll(async () => {
  await worker?.dispose()
  for (const s of [rules, missing, failing, busy, later]) s?.server.closeAllConnections()
  await Promise.all([rules, missing, failing, busy, later].map((s) => s && new Promise((r) => s.server.close(r))))
  if (persist) rmSync(persist, { recursive: true, force: true })
})

describe('examples/worker: GET /check inside workerd', () => {
  test('a disallowed URL: the deciding line and rule, the origin and the fetch status', async () => {
    expect(await check(`${rules.origin}/private/page`, 'ExampleBot/2.1')).toEqual({
      status: 200,
      body: { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' }, origin: rules.origin, status: 200, outcome: 'ok' },
    })
  })

  test('allowed URLs: by an allow rule (longest match wins), and by no rule at all', async () => {
    expect((await check(`${rules.origin}/private/open/x`, 'ExampleBot')).body).toEqual({
      allowed: true, line: 3, rule: { kind: 'allow', pattern: '/private/open' }, origin: rules.origin, status: 200, outcome: 'ok',
    })
    expect((await check(`${rules.origin}/public`, 'ExampleBot')).body).toEqual({
      allowed: true, line: 0, rule: null, origin: rules.origin, status: 200, outcome: 'ok',
    })
  })

  test('the agent selects its group', async () => {
    expect((await check(`${rules.origin}/public`, 'OtherBot')).body).toMatchObject({ allowed: false, line: 6, rule: { kind: 'disallow', pattern: '/' } })
  })

  test('the robots.txt was fetched once for all those checks, with the configured User-Agent', () => {
    expect(rules.robotsRequests).toBe(1)
    expect(rules.userAgents).toEqual([FETCH_USER_AGENT])
  })

  test('robots.txt answering 404: everything allowed', async () => {
    expect((await check(`${missing.origin}/anything`, 'ExampleBot')).body).toEqual({
      allowed: true, line: 0, rule: null, origin: missing.origin, status: 404, outcome: 'allow-all',
    })
  })

  test('robots.txt answering 503: everything disallowed', async () => {
    expect((await check(`${failing.origin}/anything`, 'ExampleBot')).body).toEqual({
      allowed: false, line: 0, rule: null, origin: failing.origin, status: 503, outcome: 'disallow-all',
    })
  })

  test('concurrent checks of one site all get answers from a single fetch', async () => {
    const paths = ['/a', '/private/b', '/c', '/private/open/d', '/e']
    const answers = await Promise.all(paths.map((p) => check(`${busy.origin}${p}`, 'ExampleBot')))
    expect(answers.map((a) => a.body.allowed)).toEqual([true, false, true, true, true])
    expect(busy.robotsRequests).toBe(1)
  })

  test('bad requests: 400 with the reason, 404 elsewhere', async () => {
    const noAgent = await worker.fetch(`/check?url=${encodeURIComponent(`${rules.origin}/x`)}`)
    expect(noAgent.status).toBe(400)
    const ftp = await check('ftp://example.com/file', 'ExampleBot')
    expect(ftp.status).toBe(400)
    expect(ftp.body.error).toMatch(/http: or https: URL/)
    const emptyToken = await check(`${rules.origin}/x`, '/1.0')
    expect(emptyToken.status).toBe(400)
    expect(emptyToken.body.error).toMatch(/agent/)
    expect((await worker.fetch('/elsewhere')).status).toBe(404)
  })

  test('after a restart of workerd (new isolate, empty memory) results come from the Workers cache', async () => {
    const before = { rules: rules.robotsRequests, missing: missing.robotsRequests }
    // Same host and port: the example keys its cache entries on the Worker's own host, as a
    // deployed Worker's host name stays the same.
    const port = Number(worker.url.port)
    await worker.dispose()
    worker = await start(port)
    expect((await check(`${rules.origin}/private/page`, 'ExampleBot')).body).toEqual({
      allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' }, origin: rules.origin, status: 200, outcome: 'ok',
    })
    expect((await check(`${missing.origin}/x`, 'ExampleBot')).body).toMatchObject({ allowed: true, status: 404, outcome: 'allow-all' })
    expect({ rules: rules.robotsRequests, missing: missing.robotsRequests }).toEqual(before)
    // Control: a site the first workerd never saw is fetched.
    expect((await check(`${later.origin}/private/x`, 'ExampleBot')).body).toMatchObject({ allowed: false, line: 2 })
    expect(later.robotsRequests).toBe(1)
  })
})

describe('examples/worker: POST /filter (checkUrls at the edge) inside workerd', () => {
  let a: Site, b: Site
  beforeAll(async () => {
    ;[a, b] = await Promise.all([site(200, ROBOTS), site(404)])
  })
  afterAll(async () => {
    for (const s of [a, b]) s?.server.closeAllConnections()
    await Promise.all([a, b].map((s) => s && new Promise((r) => s.server.close(r))))
  })

  test('mixed sites in, one JSON verdict per line out, in order; each robots.txt fetched once', async () => {
    const urls = [`${a.origin}/private/x`, `${b.origin}/private/x`, 'not a url', `${a.origin}/private/open/y`, `${a.origin}/z`, `${b.origin}/`]
    const res = await worker.fetch('/filter?agent=ExampleBot', { method: 'POST', body: urls.join('\r\n') + '\n' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-ndjson')
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.map((v) => [v.url, v.allowed, v.line, v.outcome])).toEqual([
      [urls[0], false, 2, 'ok'], [urls[1], true, 0, 'allow-all'], ['not a url', false, 0, null],
      [urls[3], true, 3, 'ok'], [urls[4], true, 0, 'ok'], [urls[5], true, 0, 'allow-all'],
    ])
    expect(lines[2]!.error).toMatch(/http: or https: URL/)
    expect([a.robotsRequests, b.robotsRequests]).toEqual([1, 1])
  })

  test('bad requests: no agent 400, GET 405, too many URLs 413', async () => {
    expect((await worker.fetch('/filter', { method: 'POST', body: `${a.origin}/x` })).status).toBe(400)
    expect((await worker.fetch('/filter?agent=x')).status).toBe(405)
    const many = Array.from({ length: 10_001 }, (_, i) => `${a.origin}/${i}`).join('\n')
    expect((await worker.fetch('/filter?agent=x', { method: 'POST', body: many })).status).toBe(413)
  })
})

describe('examples/worker: the playground and its live fetch inside workerd', () => {
  test('the page is served as static assets', async () => {
    const page = await worker.fetch('/')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('robots.txt playground')
    expect((await worker.fetch('/app.js')).headers.get('content-type')).toMatch(/javascript/)
  })

  test('/api/live: offered, then a site\'s robots.txt with its outcome, as the crawler fetch sees it', async () => {
    expect(await (await worker.fetch('/api/live')).json()).toEqual({ live: true })
    const ok = await (await worker.fetch(`/api/live?site=${encodeURIComponent(rules.origin + '/any/page')}`)).json()
    expect(ok).toEqual({ origin: rules.origin, status: 200, outcome: 'ok', body: ROBOTS })
    const down = await (await worker.fetch(`/api/live?site=${encodeURIComponent(failing.origin)}`)).json()
    expect(down).toEqual({ origin: failing.origin, status: 503, outcome: 'disallow-all', body: '' })
    const bad = await worker.fetch('/api/live?site=ftp%3A%2F%2Fx')
    expect(bad.status).toBe(400)
  })

  test('/api/live hands the page at most the 500 KiB that Google reads of a huge robots.txt', async () => {
    const huge = await site(200, 'User-agent: *\n' + 'Disallow: /x\n'.repeat(100_000)) // 1.3 MB
    try {
      const r = await (await worker.fetch(`/api/live?site=${encodeURIComponent(huge.origin)}`)).json() as { outcome: string; body: string }
      expect(r.outcome).toBe('ok')
      expect(r.body.length).toBe(512_000)
      expect(r.body.startsWith('User-agent: *\nDisallow: /x\n')).toBe(true)
    } finally {
      huge.server.closeAllConnections()
      await new Promise((resolve) => huge.server.close(resolve))
    }
  })
})
