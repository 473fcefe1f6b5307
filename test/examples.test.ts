// The example projects of examples/ run as a user would run them: each is copied to a fresh
// directory whose node_modules holds this checkout as `robotstxt-wasm` (resolved through its
// package.json exports, so the built dist/) and the example's other dependencies from this
// project's node_modules, then started with node against sites served on 127.0.0.1 (and, for the
// fleet, a real redis-server). The Worker and the site CI example have tests of their own
// (test/workers/example.test.ts, test/cmd-test.test.ts).
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { ensureRedis, startRedis } from './helpers/redis.js'
import { closeAll, serve, type TestServer } from './helpers/server.js'

const ROOT = join(import.meta.dirname, '..')
const dirs: string[] = []

afterAll(async () => {
  await closeAll()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** examples/NAME in a fresh directory, its dependencies installed as links. */
function install(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `example-${name}-`))
  dirs.push(dir)
  cpSync(join(ROOT, 'examples', name), dir, { recursive: true })
  const deps = Object.keys((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies)
  expect(deps).toContain('robotstxt-wasm')
  for (const dep of deps) {
    const link = join(dir, 'node_modules', dep)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(dep === 'robotstxt-wasm' ? ROOT : join(ROOT, 'node_modules', dep), link, 'dir')
  }
  return dir
}

function run(dir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    })
  })
}

/** A site: robots.txt answered with `status` and `robots`; pages are HTML with `links`. */
async function site(status: number, robots = '', links: Record<string, string[]> = {}): Promise<TestServer & { times: Map<string, number[]> }> {
  const times = new Map<string, number[]>()
  const server = await serve((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/'
    times.set(path, [...(times.get(path) ?? []), Date.now()])
    if (path === '/robots.txt') return res.writeHead(status, { 'content-type': 'text/plain' }).end(robots)
    const html = (links[path] ?? []).map((href) => `<a href="${href}">${href}</a>`).join('\n')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${path}</title>${html}`)
  })
  return Object.assign(server, { times })
}

describe('examples/crawler: checkUrls over a mixed-host frontier', () => {
  test('fetches only what each site allows, each robots.txt once, waiting the Crawl-delay', async () => {
    const [ok, missing, down] = await Promise.all([
      site(200, 'User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n'), site(404), site(503),
    ])
    const dir = install('crawler')
    const frontier = [`${ok.origin}/`, `${ok.origin}/private/report`, `${missing.origin}/x`, `${ok.origin}/about`, `${down.origin}/page`, 'not a url']
    writeFileSync(join(dir, 'frontier.txt'), frontier.join('\n') + '\n')
    const { code, stdout, stderr } = await run(dir, ['crawl.mjs', 'frontier.txt', 'ExampleBot'])
    expect(stderr).toContain('3 robots.txt files fetched')
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines.slice(0, 5)).toEqual([
      `fetched 200 ${ok.origin}/`,
      `skipped 2 ok ${ok.origin}/private/report`,
      `fetched 200 ${missing.origin}/x`,
      `fetched 200 ${ok.origin}/about`,
      `skipped 0 disallow-all ${down.origin}/page`,
    ])
    expect(lines[5]).toMatch(/^error /)
    expect(ok.requests).toEqual(['/robots.txt', '/', '/about'])
    expect(missing.requests).toEqual(['/robots.txt', '/x'])
    expect(down.requests).toEqual(['/robots.txt'])
    expect(ok.headers[1]!['user-agent']).toBe('ExampleBot/1.0 (+https://example.org/bot)')
    // Crawl-delay: 1 between the two pages of that site (timer slack: 50 ms).
    expect(ok.times.get('/about')![0]! - ok.times.get('/')![0]!).toBeGreaterThanOrEqual(950)
  }, 60_000)
})

describe('examples/crawlee: the real crawlee, with Google\'s robots.txt', () => {
  test('visits what Google would, and never requests a disallowed page', async () => {
    const robots = 'User-agent: *\nDisallow: /a/\nAllow: /a/index.html\nDissallow: /typo\n\nUser-agent: OtherBot\nDisallow: /\n'
    const s = await site(200, robots, { '/': ['/a/', '/a/index.html', '/a/secret', '/typo', '/free'], '/free': ['/free/more'] })
    const dir = install('crawlee')
    const { code, stdout, stderr } = await run(dir, ['crawl.mjs', `${s.origin}/`, 'ExampleBot', '20'])
    expect(code, stderr).toBe(0)
    const visited = stdout.trimEnd().split('\n').filter((l) => l.startsWith('http')).map((u) => new URL(u).pathname).sort()
    // robots-parser would also take /typo (no typos) and skip /a/ (no index.html rule).
    expect(visited).toEqual(['/', '/a/', '/a/index.html', '/free', '/free/more'])
    expect(s.requests).not.toContain('/a/secret')
    expect(s.requests).not.toContain('/typo')
    expect(s.count('/robots.txt')).toBe(1)
  }, 120_000)

  test('a usage error exits 2 and says how to call it', async () => {
    const { code, stderr } = await run(install('crawlee'), ['crawl.mjs'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^usage: node crawl\.mjs START_URL/)
  })
})

const redis = ensureRedis()
describe.skipIf(redis.path === null)(`examples/redis-fleet: two processes, one Redis (${redis.path === null ? `SKIPPED: ${redis.reason}` : 'real redis-server'})`, () => {
  test('each site\'s robots.txt is fetched once for the whole fleet, and every URL gets its verdict', async () => {
    const server = await startRedis(redis.path!)
    try {
      // Slow robots.txt answers, so that both members ask for a site while it is being fetched.
      const sites = await Promise.all(Array.from({ length: 12 }, async () => {
        const s = await site(200, 'User-agent: *\nDisallow: /private/\n')
        s.handle((req, res) => {
          if (req.url === '/robots.txt') setTimeout(() => res.writeHead(200).end('User-agent: *\nDisallow: /private/\n'), 150)
          else res.writeHead(200).end('page')
        })
        return s
      }))
      // Lines alternate between the members (line i goes to member i % 2), so both see every site.
      const frontier = sites.flatMap((s) => [`${s.origin}/`, `${s.origin}/private/x`, `${s.origin}/b`, `${s.origin}/private/y`])
      const dir = install('redis-fleet')
      writeFileSync(join(dir, 'frontier.txt'), frontier.join('\n') + '\n')
      const { code, stdout, stderr } = await run(dir, ['fleet.mjs', 'frontier.txt', '2', 'ExampleBot'], { REDIS_URL: server.url })
      expect(code, stderr).toBe(0)
      const lines = stdout.trimEnd().split('\n').sort()
      const expected = frontier.map((url, i) => `member-${i % 2} ${url.includes('/private/') ? 'disallowed' : 'allowed'} ${url}`).sort()
      expect(lines).toEqual(expected)
      for (const s of sites) expect(s.count('/robots.txt'), s.origin).toBe(1)
    } finally {
      await server.stop()
    }
  }, 120_000)

  test('without REDIS_URL the fleet refuses to start', async () => {
    const { REDIS_URL: _, ...env } = process.env
    const dir = install('redis-fleet')
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, ['fleet.mjs', 'f.txt'], { cwd: dir, encoding: 'utf8', env }, (error, _out, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stderr }))
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^usage: REDIS_URL=/)
  })
})
