// How the `robotstxt` command fetches, run for real (dist/cli.js in a child process): the line
// that says how a fetch went (the status or why there was none, the retry time, the URL that
// answered), the User-Agent every fetching command sends, and proxies: --proxy and
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY, through a proxy written for the test on 127.0.0.1
// (absolute-form requests and CONNECT tunnels, helpers/proxy.ts), on this Node and on Node 20 and
// Node 26 (the two handler APIs of undici's fetch).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { defaultUserAgent } from '../src/http/user-agent.js'
import { collected, CLI, runCli, type Run } from './helpers/cli.js'
import { ensureDist } from './helpers/dist.js'
import { selfSigned, serveTls, startProxy, type TestProxy, type TlsFiles } from './helpers/proxy.js'
import { closeAll, serve, type TestServer } from './helpers/server.js'

const VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version
const PACKAGE_UA = `robotstxt-wasm/${VERSION} (+https://www.npmjs.com/package/robotstxt-wasm)`
const agentUa = (agent: string): string => `${agent} (compatible; robotstxt-wasm/${VERSION}; +https://www.npmjs.com/package/robotstxt-wasm)`
const ROBOTS = 'User-agent: *\nDisallow: /private\n'

/** No proxy variable of the test runner's environment may leak into a child. */
const CLEAN: Record<string, string> = { HTTP_PROXY: '', HTTPS_PROXY: '', NO_PROXY: '', http_proxy: '', https_proxy: '', no_proxy: '' }

let tmp = ''
let site: TestServer
/** The site as http://127.0.0.1:PORT. */
let origin = ''
/** What the site answered for; Host headers of /robots.txt requests, User-Agents. */
const hosts: string[] = []
const agents: string[] = []

beforeAll(async () => {
  ensureDist()
  tmp = mkdtempSync(join(tmpdir(), 'robotstxt-cli-fetch-'))
  // On every loopback address: 127.0.0.N are origins of their own for the filter and the survey.
  site = await serve((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/robots.txt') {
      hosts.push(req.headers.host ?? '')
      agents.push(req.headers['user-agent'] ?? '')
    }
    res.writeHead(req.url === '/robots.txt' ? 200 : 404, { 'content-type': 'text/plain' }).end(req.url === '/robots.txt' ? ROBOTS : '')
  }, '0.0.0.0')
  origin = `http://127.0.0.1:${site.port}`
})
afterAll(async () => {
  await closeAll()
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
})

function reset(): void {
  hosts.length = 0
  agents.length = 0
}

function file(name: string, content: string): string {
  const path = join(tmp, name)
  writeFileSync(path, content)
  return path
}

/** The CLI on `node` (default this one) in `cwd`, with the proxy environment cleared, then `env`. */
function cli(args: string[], env: Record<string, string> = {}, input?: string, node = process.execPath): Promise<Run> {
  if (node === process.execPath) return runCli(args, input, { ...CLEAN, ...env }, tmp)
  const child = spawn(node, [CLI, ...args], { cwd: tmp, env: { ...process.env, NO_COLOR: '', ...CLEAN, ...env } })
  const done = collected(child)
  child.stdin.on('error', () => {})
  child.stdin.end(input)
  return done
}

describe('the fetch line on stderr: status or why none, retry time, the URL that answered', () => {
  test('a redirected robots.txt: the final URL and the redirects, when it differs', async () => {
    const target = await serve((_req, res) => void res.writeHead(200).end(ROBOTS))
    const start = await serve((_req, res) => void res.writeHead(301, { location: `${target.origin}/moved/robots.txt` }).end())
    const r = await cli(['check', start.origin, 'Bot', '/private/x'])
    expect(r).toEqual({ code: 1, stdout: 'disallowed\t2\t/private/x\n', stderr: `robots.txt: 200 ok (${start.origin}/robots.txt, from ${target.origin}/moved/robots.txt after 1 redirect)\n` })
  })

  test('a 503 asking Retry-After: 600: the line says so, and so does lint --json\'s fetch', async () => {
    const down = await serve((_req, res) => void res.writeHead(503, { 'retry-after': '600' }).end())
    const r = await cli(['check', down.origin, 'Bot', '/x'])
    expect(r.stderr).toBe(`robots.txt: 503 disallow-all, retry after 600 s (${down.origin}/robots.txt)\n`)
    expect(r.code).toBe(1)
  })

  test('no response: why, by its code\'s words ("connection refused"), in every command that fetches', async () => {
    const gone = await serve(() => {})
    const port = gone.port
    await gone.close()
    const origin = `http://127.0.0.1:${port}`
    const line = new RegExp(`^robots\\.txt: no response: connection refused \\(.*ECONNREFUSED.*\\); disallow-all, retry after 60 s \\(${origin.replaceAll('.', '\\.')}/robots\\.txt\\)$`)
    const expectations = file('refused.txt', 'Bot disallow /x\n')
    for (const args of [['check', origin, 'Bot', '/x'], ['explain', origin, 'Bot', '/x'], ['lint', origin], ['test', origin, expectations], ['diff', origin, origin]]) {
      const r = await cli(args)
      expect(r.stderr.split('\n')[0], args[0]).toMatch(line)
    }
    // The commands' own reports say it too, and their --json carries the code.
    expect((await cli(['explain', origin, 'Bot', '/x'])).stdout).toMatch(/the robots\.txt fetch got no response: connection refused \(/)
    expect((await cli(['lint', origin])).stdout).toMatch(/fetching the robots\.txt failed \(no response: connection refused \(/)
    for (const args of [['lint', origin, '--json'], ['explain', origin, 'Bot', '/x', '--json'], ['test', origin, expectations, '--format', 'json']]) {
      const fetch = (JSON.parse((await cli(args)).stdout) as { fetch: { status: null; url: null; error: { code: string } } }).fetch
      expect([fetch.status, fetch.url, fetch.error.code], args[0]).toEqual([null, null, 'refused'])
    }
  })

  test('a redirect chain that leads nowhere: allow-all, and why', async () => {
    const loop = await serve((req, res) => void res.writeHead(302, { location: req.url === '/robots.txt' ? '/a' : '/robots.txt' }).end())
    const r = await cli(['check', loop.origin, 'Bot', '/x'])
    expect(r.stderr).toBe(`robots.txt: 302: redirect chain without a robots.txt (a redirect loop back to ${loop.origin}/robots.txt); allow-all (${loop.origin}/robots.txt, from ${loop.origin}/a after 1 redirect)\n`)
    expect(r.code).toBe(0)
  })
})

describe('the User-Agent of every command that fetches names the agent (or the package), never the runtime', () => {
  test('check and explain name AGENT; lint, test and diff the package; --user-agent overrides both', async () => {
    reset()
    const expectations = file('ua.txt', 'Googlebot allow /\n')
    await cli(['check', origin, 'ExampleBot/2.0', '/'])
    await cli(['explain', origin, 'ExampleBot', '/'])
    await cli(['lint', origin])
    await cli(['test', origin, expectations])
    await cli(['diff', origin, origin])
    await cli(['lint', origin, '--user-agent', 'MyBot/1.0 (+https://example.org/bot)'])
    expect(agents).toEqual([agentUa('ExampleBot/2.0'), agentUa('ExampleBot'), PACKAGE_UA, PACKAGE_UA, PACKAGE_UA, PACKAGE_UA, 'MyBot/1.0 (+https://example.org/bot)'])
  })

  test('filter names AGENT on one thread and on worker threads; survey --origins sends the package', async () => {
    reset()
    const urls = [`http://127.0.0.1:${site.port}/a`, `http://127.0.0.5:${site.port}/b`].join('\n') + '\n'
    await cli(['filter', 'FilterBot'], {}, urls)
    await cli(['filter', 'FilterBot', '--threads', '2'], {}, urls.replaceAll('127.0.0.1', '127.0.0.2').replaceAll('127.0.0.5', '127.0.0.3'))
    writeFileSync(join(tmp, 'origins.txt'), `http://127.0.0.4:${site.port}\n`)
    await cli(['survey', '--origins', 'origins.txt', '--crawlers', 'GPTBot', '--out', 'ua.jsonl'])
    expect(agents).toEqual([...Array(4).fill(agentUa('FilterBot')), PACKAGE_UA])
    expect(agents.some((a) => /^node|undici/i.test(a))).toBe(false)
  })

  test('each command\'s --help names the default it sends', async () => {
    for (const [command, ua] of [['check', defaultUserAgent('AGENT')], ['explain', defaultUserAgent('AGENT')], ['filter', defaultUserAgent('AGENT')], ['lint', PACKAGE_UA], ['test', PACKAGE_UA], ['diff', PACKAGE_UA], ['survey', PACKAGE_UA]] as const) {
      const help = (await cli([command, '--help'])).stdout
      expect(help, command).toContain(ua.replace('0.0.0-dev', VERSION))
    }
  })
})

/** Every Node the proxy is tested on: this one, and Node 20 and 26 (installed into .runtimes/ when missing). */
function nodes(): [string, string][] {
  const list: [string, string][] = [[`Node ${process.versions.node}`, process.execPath]]
  for (const name of ['node20', 'node26'] as const) {
    try {
      list.push([name, execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'runtimes.mjs'), '--print', name], { encoding: 'utf8' }).trim()])
    } catch (e) {
      console.error(`\n*** PROXY TESTS ON ${name.toUpperCase()} SKIPPED: ${(e as Error).message} ***\n`)
    }
  }
  return list
}

describe('proxies: --proxy, HTTPS_PROXY / HTTP_PROXY / NO_PROXY', () => {
  let proxy: TestProxy
  let tls: TlsFiles | { missing: string }
  let secure: Awaited<ReturnType<typeof serveTls>> | null = null
  beforeAll(async () => {
    tls = selfSigned()
    if ('missing' in tls) console.error(`\n*** HTTPS PROXY TESTS SKIPPED: ${tls.missing} ***\n`)
    else secure = await serveTls(tls, (req, res) => void res.writeHead(req.url === '/robots.txt' ? 200 : 404).end(req.url === '/robots.txt' ? 'User-agent: *\nDisallow: /secret\n' : ''))
    // Every name reaches a server on 127.0.0.1 through the proxy: robots.test is not in any DNS.
    proxy = await startProxy({ route: (_host, port) => ({ host: '127.0.0.1', port }) })
  })
  afterAll(async () => {
    await proxy?.close()
    await secure?.close()
  })

  for (const [label, node] of nodes()) {
    test(`${label}: --proxy takes http: URLs in absolute form; HTTP_PROXY does too; NO_PROXY sends a host direct`, async () => {
      proxy.requests.length = 0
      reset()
      const viaFlag = await cli(['check', `http://robots.test:${site.port}/`, 'Bot', '/private/x', '--proxy', proxy.url], {}, undefined, node)
      expect(viaFlag, viaFlag.stderr).toMatchObject({ code: 1, stdout: 'disallowed\t2\t/private/x\n' })
      const viaEnv = await cli(['lint', `http://robots.test:${site.port}/`], { HTTP_PROXY: proxy.url }, undefined, node)
      expect(viaEnv.stderr).toBe(`robots.txt: 200 ok (http://robots.test:${site.port}/robots.txt)\n`)
      const direct = await cli(['check', `http://127.0.0.1:${site.port}/`, 'Bot', '/a'], { http_proxy: proxy.url, NO_PROXY: 'example.org, 127.0.0.1' }, undefined, node)
      expect(direct.code).toBe(0)
      expect(proxy.requests.map((q) => [q.method, q.target])).toEqual([
        ['GET', `http://robots.test:${site.port}/robots.txt`], ['GET', `http://robots.test:${site.port}/robots.txt`],
      ])
      expect(proxy.requests.map((q) => q.userAgent)).toEqual([agentUa('Bot'), PACKAGE_UA])
      expect(hosts).toEqual([`robots.test:${site.port}`, `robots.test:${site.port}`, `127.0.0.1:${site.port}`])
    }, 60_000)

    test(`${label}: HTTPS_PROXY tunnels https: URLs with CONNECT, the certificate checked for the site`, async (ctx) => {
      if (secure === null) return ctx.skip()
      proxy.requests.length = 0
      const env = { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: (tls as TlsFiles).certPath }
      const r = await cli(['check', `https://robots.test:${secure.port}/`, 'Bot', '/secret/x', '/open'], env, undefined, node)
      expect(r).toEqual({ code: 1, stdout: 'disallowed\t2\t/secret/x\nallowed\t0\t/open\n', stderr: `robots.txt: 200 ok (https://robots.test:${secure.port}/robots.txt)\n` })
      expect(proxy.requests.map((q) => [q.method, q.target])).toEqual([['CONNECT', `robots.test:${secure.port}`]])
      // A name the certificate does not hold: a TLS failure, not a silent pass.
      const wrong = await cli(['check', `https://elsewhere.test:${secure.port}/`, 'Bot', '/x'], env, undefined, node)
      expect(wrong.stderr).toMatch(/^robots\.txt: no response: TLS failure \(.*\); disallow-all/)
      expect(secure.agents.at(-1)).toBe(agentUa('Bot'))
    }, 60_000)
  }

  test('filter (one thread and workers), test and explain go through the proxy; survey --origins too', async () => {
    proxy.requests.length = 0
    const urls = [`http://a.test:${site.port}/private/1`, `http://b.test:${site.port}/2`].join('\n') + '\n'
    const one = await cli(['filter', 'Bot', '--verdicts'], { HTTP_PROXY: proxy.url }, urls)
    expect(one.stdout).toBe(`disallowed\t2\tok\thttp://a.test:${site.port}/private/1\nallowed\t0\tok\thttp://b.test:${site.port}/2\n`)
    const two = await cli(['filter', 'Bot', '--threads', '2', '--proxy', proxy.url], {}, urls.replaceAll('a.test', 'c.test').replaceAll('b.test', 'd.test'))
    expect(two.stdout).toBe(`http://d.test:${site.port}/2\n`)
    const expectations = file('proxied.txt', 'Bot disallow /private/x\n')
    expect((await cli(['test', `http://e.test:${site.port}/`, expectations, '--proxy', proxy.url])).code).toBe(0)
    expect((await cli(['explain', `http://f.test:${site.port}/`, 'Bot', '/private/x', '--json'], { HTTP_PROXY: proxy.url })).code).toBe(0)
    writeFileSync(join(tmp, 'proxied-origins.txt'), `http://g.test:${site.port}\n`)
    const survey = await cli(['survey', '--origins', 'proxied-origins.txt', '--crawlers', 'GPTBot', '--out', 'proxied.jsonl'], { HTTP_PROXY: proxy.url })
    expect(survey.code, survey.stderr).toBe(0)
    expect((JSON.parse(readFileSync(join(tmp, 'proxied.jsonl'), 'utf8')) as { outcome: string }).outcome).toBe('ok')
    expect(proxy.requests.map((q) => new URL(q.target).hostname).sort()).toEqual(['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'f.test', 'g.test'])
  })

  test('--proxy "" ignores the environment; NO_PROXY=* bypasses every host; a port in NO_PROXY must match', async () => {
    proxy.requests.length = 0
    const target = `http://127.0.0.1:${site.port}/`
    expect((await cli(['check', target, 'Bot', '/a', '--proxy', ''], { HTTP_PROXY: proxy.url })).code).toBe(0)
    expect((await cli(['check', target, 'Bot', '/a'], { HTTP_PROXY: proxy.url, NO_PROXY: '*' })).code).toBe(0)
    expect((await cli(['check', target, 'Bot', '/a'], { HTTP_PROXY: proxy.url, NO_PROXY: `127.0.0.1:${site.port}` })).code).toBe(0)
    expect(proxy.requests).toEqual([])
    expect((await cli(['check', target, 'Bot', '/a'], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1:1' })).code).toBe(0)
    expect(proxy.requests).toHaveLength(1)
  })

  test('a proxy that asks for credentials: sent from the URL\'s user:pass; refused without them, and said', async () => {
    const guarded = await startProxy({ auth: `Basic ${Buffer.from('crawler:s3cret').toString('base64')}`, route: (_h, port) => ({ host: '127.0.0.1', port }) })
    try {
      const ok = await cli(['check', `http://robots.test:${site.port}/`, 'Bot', '/a', '--proxy', `http://crawler:s3cret@127.0.0.1:${guarded.port}`])
      expect(ok.stderr).toBe(`robots.txt: 200 ok (http://robots.test:${site.port}/robots.txt)\n`)
      const no = await cli(['check', `http://robots.test:${site.port}/`, 'Bot', '/a', '--proxy', guarded.url])
      expect(no.stderr).toBe(`robots.txt: no response: fetch failed (the proxy answered 407 Proxy Authentication Required to GET http://robots.test:${site.port}/robots.txt); disallow-all, retry after 60 s (http://robots.test:${site.port}/robots.txt)\n`)
      if (secure !== null) {
        const tunnel = await cli(['check', `https://robots.test:${secure.port}/`, 'Bot', '/a', '--proxy', guarded.url], { NODE_EXTRA_CA_CERTS: (tls as TlsFiles).certPath })
        expect(tunnel.stderr).toMatch(/^robots\.txt: no response: fetch failed \(the proxy answered 407 Proxy Authentication Required to CONNECT robots\.test:\d+\); disallow-all/)
      }
    } finally {
      await guarded.close()
    }
  })

  test('a proxy that is not an http(s) URL is a usage error (exit 2) naming where it came from', async () => {
    const a = await cli(['check', origin, 'Bot', '/a', '--proxy', 'socks5://127.0.0.1:1080'])
    expect(a.code).toBe(2)
    expect(a.stderr).toMatch(/^robotstxt check: --proxy: only http:\/\/ and https:\/\/ proxies are supported, got "socks5:\/\/127\.0\.0\.1:1080"/)
    const b = await cli(['lint', origin], { https_proxy: 'http://[bad' })
    expect(b.code).toBe(2)
    expect(b.stderr).toMatch(/https_proxy: expected a proxy URL such as http:\/\/proxy\.example:3128, got "http:\/\/\[bad"/)
  })
})
