// The example projects of examples/ run as a user would run them, two ways. Each README's commands
// run as written, on Node 20 (the oldest supported), in a fresh clone of this working tree as the
// project README's set-up leaves it (`npm install` at the root builds dist/: here it is linked),
// with `npm install` offline from the example's lock file, against sites served on 127.0.0.1 in
// place of the hosts the README names (and a real redis-server in place of 127.0.0.1:6379); the
// output must be what the README shows. And each example again with its dependencies linked from
// this project's node_modules, for what a README cannot show (request timing, headers). The
// project README's site-owner commands run the same way. The Worker has tests of its own
// (test/workers/example.test.ts), and so has the site CI workflow (test/cmd-test.test.ts).
import { execFile, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { docBlocks } from './helpers/doc-blocks.js'
import { ensureRedis, startRedis } from './helpers/redis.js'
import { closeAll, serve, type TestServer } from './helpers/server.js'
// @ts-expect-error: a plain .mjs script without declarations
import { ensureRuntime } from '../scripts/runtimes.mjs'
// @ts-expect-error: a plain .mjs script without declarations
import { exampleLock, EXAMPLES_WITH_LOCKS } from '../scripts/example-locks.mjs'

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

// ── the READMEs' commands, as written ──────────────────────────────────────────────────────────

const NODE20 = dirname(ensureRuntime('node20') as string)

/**
 * A clone of this working tree as the project README's `npm install` leaves it: the files the
 * commands read (package.json, README.md, examples/; tracked or new, as git lists them) copied,
 * and dist/, which that install builds, linked to this checkout's build.
 */
function freshClone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'example-clone-'))
  dirs.push(dir)
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', 'package.json', 'README.md', 'examples'], { cwd: ROOT }).toString('utf8')
  for (const file of new Set(listed.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f))))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    cpSync(join(ROOT, file), join(dir, file))
  }
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'), 'dir')
  return dir
}

/** The commands block of examples/NAME/README.md (after `<!-- example... -->`), its options, and the output it shows. */
function readmeCommands(name: string): { commands: string; options: string[]; shown: string | null } {
  const text = readFileSync(join(ROOT, 'examples', name, 'README.md'), 'utf8')
  const marker = /^<!-- example(?::\s*([^>]*?))?\s*-->\n```sh\n([\s\S]*?)\n```$/m.exec(text)
  if (marker === null) throw new Error(`examples/${name}/README.md has no <!-- example --> sh block`)
  const shown = docBlocks(text, name).find((b) => b.lang === 'text')
  return { commands: marker[2]!, options: (marker[1] ?? '').split(/\s+/).filter(Boolean), shown: shown === undefined ? null : shown.code }
}

/**
 * Runs `commands` (lines) in sh from `cwd` on Node 20, npm offline; resolves to the exit status and
 * the output of the last command (the earlier ones, `cd` and installs, run first, and again only
 * the `cd`s before the last). npm runs no scripts: `npx robotstxt-wasm` in the clone installs the
 * clone's own package into npx's cache, whose `prepare` is the build the clone's dist/ already is
 * (linked: a build here would write through the link into the checkout other tests read).
 */
async function runCommands(cwd: string, commands: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const lines = commands.split('\n').filter((l) => l.trim() !== '')
  const setup = lines.slice(0, -1)
  if (setup.length > 0) {
    const r = await sh(cwd, setup.join('\n'))
    if (r.code !== 0) return r
  }
  return sh(cwd, [...setup.filter((l) => l.startsWith('cd ')), lines.at(-1)!].join('\n'))
}

/** The environment of a README's commands: Node 20 first on PATH, npm offline and running no scripts. */
function readmeEnv(): Record<string, string | undefined> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))
  return {
    ...env, PATH: `${NODE20}:${process.env.PATH}`, npm_config_offline: 'true', npm_config_ignore_scripts: 'true',
    npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false',
  }
}

function sh(cwd: string, script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-ec', script], { cwd, encoding: 'utf8', timeout: 180_000, env: readmeEnv() }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }))
  })
}

/** The README's hosts and the local sites standing for them, both ways. */
async function readmeSites(): Promise<{ map: [string, string][]; com: TestServer; org: TestServer; down: TestServer; toLocal(text: string): string; toReadme(text: string): string }> {
  const com = await site(200, 'User-agent: *\nDisallow: /private/\n', { '/': ['/about', '/private/report'] })
  const org = await site(404)
  const down = await site(503)
  const map: [string, string][] = [['https://example.com', com.origin], ['https://example.org', org.origin], ['https://down.example.net', down.origin]]
  return {
    map, com, org, down,
    toLocal: (text) => map.reduce((t, [from, to]) => t.replaceAll(from, to), text),
    toReadme: (text) => map.reduce((t, [from, to]) => t.replaceAll(to, from), text),
  }
}

describe('the examples\' README commands, as written, from a fresh clone on Node 20', () => {
  test('every example project that installs from npm has a lock file that is the root lock\'s subtree', () => {
    for (const name of EXAMPLES_WITH_LOCKS as string[]) {
      expect(readFileSync(join(ROOT, 'examples', name, 'package-lock.json'), 'utf8'), `examples/${name}: node scripts/example-locks.mjs`).toBe(exampleLock(name))
    }
  })

  test('examples/crawler: the README\'s commands print the README\'s output', async () => {
    const { commands, shown } = readmeCommands('crawler')
    const sites = await readmeSites()
    const clone = freshClone()
    const frontier = join(clone, 'examples', 'crawler', 'frontier.txt')
    writeFileSync(frontier, sites.toLocal(readFileSync(frontier, 'utf8')))
    const r = await runCommands(clone, sites.toLocal(commands))
    expect(r.code, r.stderr).toBe(0)
    expect(sites.toReadme(r.stdout)).toBe(`${shown!}\n`)
    expect(r.stderr).toContain('3 robots.txt files fetched')
    expect(sites.com.requests).not.toContain('/private/report')
    // The install used the lock file and left the clone as it was.
    expect(readFileSync(join(clone, 'examples', 'crawler', 'package-lock.json'), 'utf8')).toBe(exampleLock('crawler'))
  }, 240_000)

  test('examples/crawlee: the README\'s commands crawl the site and never request a disallowed page', async () => {
    const { commands } = readmeCommands('crawlee')
    const robots = 'User-agent: *\nDisallow: /a/\nAllow: /a/index.html\nDissallow: /typo\n'
    const s = await site(200, robots, { '/': ['/a/', '/a/index.html', '/a/secret', '/typo', '/free'] })
    const clone = freshClone()
    const r = await runCommands(clone, commands.replaceAll('https://example.com', s.origin))
    expect(r.code, r.stderr).toBe(0)
    const visited = r.stdout.trimEnd().split('\n').filter((l) => l.startsWith('http')).map((u) => new URL(u).pathname).sort()
    expect(visited).toEqual(['/', '/a/', '/a/index.html', '/free'])
    expect(s.requests).not.toContain('/a/secret')
    expect(s.requests).not.toContain('/typo')
  }, 240_000)

  const redisReadme = ensureRedis()
  test.skipIf(redisReadme.path === null)(`examples/redis-fleet: the README's commands print the README's lines, each robots.txt fetched once${redisReadme.path === null ? ` (SKIPPED: ${redisReadme.reason})` : ''}`, async () => {
    const { commands, shown } = readmeCommands('redis-fleet')
    const server = await startRedis(redisReadme.path!)
    try {
      const sites = await readmeSites()
      const clone = freshClone()
      const frontier = join(clone, 'examples', 'redis-fleet', 'frontier.txt')
      writeFileSync(frontier, sites.toLocal(readFileSync(frontier, 'utf8')))
      expect(commands).toContain('REDIS_URL=redis://127.0.0.1:6379 ')
      const r = await runCommands(clone, sites.toLocal(commands).replace('redis://127.0.0.1:6379', server.url))
      expect(r.code, r.stderr).toBe(0)
      expect(sites.toReadme(r.stdout).trimEnd().split('\n').sort()).toEqual(shown!.split('\n').sort())
      for (const s of [sites.com, sites.org, sites.down]) expect(s.count('/robots.txt'), s.origin).toBe(1)
    } finally {
      await server.stop()
    }
  }, 240_000)

  test('examples/site-ci: each command passes on the example', async () => {
    const { commands } = readmeCommands('site-ci')
    const clone = freshClone()
    const lines = commands.split('\n')
    expect(lines[0]).toBe('cd examples/site-ci')
    for (const command of lines.slice(1)) {
      const r = await runCommands(clone, `${lines[0]}\n${command}`)
      expect(r.code, `${command}: ${r.stderr}`).toBe(0)
      expect(r.stdout.trimEnd().split('\n').at(-1), command).toBe('robots.txt: all 9 expectations met')
    }
  }, 240_000)
})

describe('README.md: the site owner\'s two commands from a fresh clone on Node 20', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('### A site owner'), readme.indexOf('### Surveying'))
  const blocks = docBlocks(section, 'README.md')

  test('npx robotstxt-wasm playground serves the page', async () => {
    const command = blocks.find((b) => b.lang === 'sh')!.code.trim()
    expect(command).toBe('npx robotstxt-wasm playground')
    const clone = freshClone()
    const child = spawn('sh', ['-c', command], { cwd: clone, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: readmeEnv() })
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = ''
        let err = ''
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString()
          const m = /http:\/\/127\.0\.0\.1:[0-9]+\//.exec(out)
          if (m) resolve(m[0])
        })
        child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)))
      })
      const page = await fetch(address)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('robots.txt playground')
    } finally {
      // npx and the server it started: the whole process group.
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM')
    }
  }, 120_000)

  test('npx robotstxt-wasm test prints what the README shows', async () => {
    const transcript = blocks.find((b) => b.lang === 'console')!.code
    const [command, ...shown] = transcript.replace(/^\$ /, '').split('\n')
    expect(command).toMatch(/^npx robotstxt-wasm test /)
    const r = await runCommands(freshClone(), command!)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trimEnd()).toBe(shown.join('\n'))
  }, 120_000)
})
