// The fetch layer inside workerd (fetch-layer-worker.ts on dist/workerd.js): a 503's Retry-After
// sets expiresAt and is honoured by the next isolate through the Workers Cache API; where the file
// came from (url, redirects) and why a fetch failed (error) survive that storage; the default
// User-Agent names the package; robotsFromResponse answers there as in Node.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startWorker, type RunningWorker } from './harness.js'
import { ROOT } from './tool-env.js'

interface Site { origin: string; requests: number; agents: string[]; server: http.Server }

async function site(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Site> {
  const s: Site = { origin: '', requests: 0, agents: [], server: http.createServer() }
  s.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    s.requests++
    s.agents.push(req.headers['user-agent'] ?? '')
    handler(req, res)
  })
  await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve))
  s.origin = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`
  return s
}

let worker: RunningWorker
const sites: Site[] = []

beforeAll(async () => {
  worker = await startWorker({ name: 'fetch-layer', entrypoint: join(ROOT, 'test', 'workers', 'fetch-layer-worker.ts') })
})
afterAll(async () => {
  await worker?.dispose()
  for (const s of sites) s.server.closeAllConnections()
  await Promise.all(sites.map((s) => new Promise((r) => s.server.close(r))))
})

async function lookup(url: string): Promise<Record<string, unknown>> {
  const res = await worker.fetch(`/lookup?url=${encodeURIComponent(url)}`)
  expect(res.status).toBe(200)
  return (await res.json()) as Record<string, unknown>
}

describe('the fetch layer inside workerd, over the Workers Cache API', () => {
  test('a 503 with Retry-After: 1800 s: expiresAt says so, and the next isolate does not fetch again before then', async () => {
    const down = await site((_req, res) => void res.writeHead(503, { 'retry-after': '1800' }).end())
    sites.push(down)
    const first = await lookup(`${down.origin}/x`)
    expect(first).toMatchObject({ status: 503, outcome: 'disallow-all', error: null })
    expect((first.expiresAt as number) - (first.fetchedAt as number)).toBe(1_800_000)
    const second = await lookup(`${down.origin}/y`)
    expect(second).toMatchObject({ outcome: 'disallow-all', fetchedAt: first.fetchedAt })
    expect(down.requests).toBe(1)
  })

  test('url and redirects of a redirected robots.txt are stored and read back by the next isolate', async () => {
    const target = await site((_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n'))
    const start = await site((_req, res) => void res.writeHead(301, { location: `${target.origin}/moved/robots.txt` }).end())
    sites.push(target, start)
    const first = await lookup(start.origin)
    expect(first).toMatchObject({ status: 200, outcome: 'ok', url: `${target.origin}/moved/robots.txt`, redirects: 1, error: null })
    const stored = await (await worker.fetch(`/stored?origin=${encodeURIComponent(start.origin)}`)).json()
    expect(stored).toMatchObject({ url: `${target.origin}/moved/robots.txt`, redirects: 1, error: null, good: true })
    expect(await lookup(start.origin)).toMatchObject({ url: `${target.origin}/moved/robots.txt`, redirects: 1, fetchedAt: first.fetchedAt })
    expect(start.requests + target.requests).toBe(2)
  })

  test('a failed fetch\'s error is stored with its code, and the next isolate reads it back', async () => {
    const gone = await site(() => {})
    const port = (gone.server.address() as AddressInfo).port
    await new Promise((r) => gone.server.close(r))
    const origin = `http://127.0.0.1:${port}`
    const first = await lookup(origin)
    expect(first).toMatchObject({ status: null, outcome: 'disallow-all', url: null })
    const error = first.error as { code: string; message: string }
    expect(error).not.toBeNull()
    expect(typeof error.message).toBe('string')
    const stored = await (await worker.fetch(`/stored?origin=${encodeURIComponent(origin)}`)).json()
    expect(stored).toMatchObject({ good: false, error })
    expect(await lookup(origin)).toMatchObject({ error, fetchedAt: first.fetchedAt })
  })

  test('the default User-Agent names the package, not the runtime', async () => {
    const s = await site((_req, res) => void res.writeHead(404).end())
    sites.push(s)
    await lookup(s.origin)
    expect(s.agents).toEqual([expect.stringMatching(/^robotstxt-wasm\/\d+\.\d+\.\d+\S* \(\+https:\/\/www\.npmjs\.com\/package\/robotstxt-wasm\)$/)])
  })

  test('robotsFromResponse: the status rules and Retry-After, as in Node', async () => {
    const ask = async (body: unknown) => (await (await worker.fetch('/from-response', { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, unknown>
    expect(await ask({ url: 'https://example.com/', status: 429, headers: { 'retry-after': '7200' }, body: '' }))
      .toMatchObject({ status: 429, outcome: 'disallow-all', fetchedAt: 1000, expiresAt: 1000 + 7_200_000 })
    expect(await ask({ url: 'https://example.com/', status: 308, headers: {}, body: '' }))
      .toMatchObject({ outcome: 'allow-all', error: { code: 'redirects' } })
  })
})
