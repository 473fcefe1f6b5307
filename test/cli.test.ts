// The `robotstxt` command, run for real: `node dist/cli.js` as a child process (built first when
// dist/cli.js is missing or older than its sources). Exit codes, stdout and stderr of every
// subcommand and error path; robots.txt URLs served by node:http on 127.0.0.1; a stream of
// 1,000,000 URLs through `--urls -` compared with the library's batch matcher in-process.
// explain's reasoning is also checked in-process against Robots.check on every labelled case.
import { execFileSync, spawn } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { Writable } from 'node:stream'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { explain } from '../src/cli/explain.js'
import { lint } from '../src/engine/lint.js'
import { streamCheck, type LineFilter } from '../src/cli/stream.js'
import { parseRobots } from '../src/index.js'
import { loadFixture } from './helpers/cases.js'
import { runCli, type Run } from './helpers/cli.js'
import { loopbackHosts, type LoopbackHosts } from './helpers/server.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'dist', 'cli.js')
const EXAMPLE = join(ROOT, 'examples', 'robots.txt')
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

let tmp = ''

beforeAll(() => {
  if (!existsSync(join(ROOT, 'build', 'robots.wasm'))) execFileSync('npm', ['run', 'build:wasm', '--silent'], { cwd: ROOT, stdio: 'inherit' })
  const sources = Math.max(newestMtime(join(ROOT, 'src')), ...['build.mjs', 'bundle-options.mjs'].map((f) => statSync(join(ROOT, 'scripts', f)).mtimeMs))
  if (!existsSync(CLI) || statSync(CLI).mtimeMs < sources) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
  tmp = mkdtempSync(join(tmpdir(), 'robotstxt-cli-'))
})

afterAll(() => {
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
})

const run = runCli

const extraServers: Server[] = []
afterAll(async () => {
  for (const s of extraServers) await new Promise((resolve) => s.close(resolve))
})

/** A server on `host` (a loopback address) with `handler`; its origin. */
async function serveAt(host: string, handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<string> {
  const s = createServer(handler)
  extraServers.push(s)
  await new Promise<void>((resolve) => s.listen(0, host, resolve))
  return `http://${host}:${(s.address() as AddressInfo).port}`
}

function file(name: string, content: string | Uint8Array): string {
  const path = join(tmp, name)
  writeFileSync(path, content)
  return path
}

describe('cli: help, version, usage errors', () => {
  test('--version and -V print the package.json version', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await run([flag])
      expect(r).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
    }
  })

  test('--help, -h and help list every command on stdout', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = await run(args)
      expect(r.code).toBe(0)
      for (const cmd of ['check', 'explain', 'lint']) expect(r.stdout).toContain(`robotstxt ${cmd} ROBOTS`)
      expect(r.stderr).toBe('')
    }
  })

  test('each command has help, as `help CMD` and as `CMD --help`, and they are the same text', async () => {
    for (const cmd of ['check', 'explain', 'lint']) {
      const a = await run(['help', cmd])
      const b = await run([cmd, '--help'])
      const c = await run([cmd, '-h'])
      expect(a.code).toBe(0)
      expect(a.stdout).toContain(`robotstxt ${cmd} ROBOTS`)
      expect(a.stdout).toContain('Exit status')
      expect(b).toEqual(a)
      expect(c).toEqual(a)
    }
    expect((await run(['help', 'check'])).stdout).toContain('--urls FILE')
    expect((await run(['help', 'lint'])).stdout).toContain('--json')
  })

  test('no help page holds a control character other than newline, nor a bidi control', async () => {
    const pages: [string, string[]][] = [['main', ['--help']], ['main (help)', ['help']]]
    for (const cmd of ['check', 'diff', 'explain', 'filter', 'lint', 'playground', 'survey', 'test']) pages.push([cmd, ['help', cmd]], [`${cmd} --help`, [cmd, '--help']])
    for (const [name, args] of pages) {
      const r = await run(args)
      expect(r.code, name).toBe(0)
      expect(r.stdout.length, name).toBeGreaterThan(200)
      const bad = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.exec(r.stdout)
      expect(bad === null ? null : `U+${bad[0].charCodeAt(0).toString(16)} at ${bad.index}`, name).toBeNull()
    }
    // The escapes it promises are shown as text.
    expect((await run(['--help'])).stdout).toContain('as escapes (\\x1b,\n\\t, \\u202e)')
  })

  test('no arguments: the usage on stderr, exit 2', async () => {
    const r = await run([])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('robotstxt check ROBOTS AGENT URL')
  })

  test.each([
    [["frobnicate"], /unknown command "frobnicate"; commands: check, diff, explain, filter, lint/],
    [['--frob'], /unknown option "--frob"/],
    [['help', 'frob'], /no help for unknown command "frob"/],
    [['check', '--frob', 'x'], /^robotstxt check: unknown option "--frob": check takes the options --timeout, --user-agent, --proxy, --token, --urls, --threads and --help\nTry/],
    [['check', EXAMPLE, 'Googlebot', '/a', '-5'], /unknown option "-5": check takes the options .* \(an argument starting with "-" goes after "--"\)\n/],
    [['explain', EXAMPLE, 'Googlebot', '/a', '--json=yes'], /^robotstxt explain: --json takes no value, got "yes"\n  --json  print the explanation as JSON\nTry/],
    [['check', EXAMPLE, '--token'], /^robotstxt check: --token needs a value\n  --token NAME  check the product token NAME alone, instead of AGENT\nTry/],
    [['check', EXAMPLE, '--token', '/x', '/a'], /--token: expected a user-agent with a product token .* got "\/x"\n  --token NAME/],
    [['check'], /robotstxt check: missing ROBOTS/],
    [['check', EXAMPLE], /robotstxt check: missing AGENT/],
    [['check', EXAMPLE, 'Googlebot'], /robotstxt check: missing URL \(or --urls FILE for a list\)/],
    // Each option mistake in the CLI's words, with the option's line of help under it.
    [['check', EXAMPLE, 'Googlebot', '--urls'], /^robotstxt check: --urls needs a value\n  --urls FILE  read the URLs from FILE, one per line \('-' = stdin\)\nTry/],
    [['check', EXAMPLE, 'Googlebot', '/a', '--timeout', '-1'], /^robotstxt check: --timeout needs a value, got the option-like "-1"; a value starting with "-" is written --timeout=-1\n  --timeout MS  time limit for fetching ROBOTS, in ms \(default 10000\)\nTry/],
    [['check', EXAMPLE, 'Googlebot', '/a', '--urls', '-'], /give either URL arguments or --urls FILE, not both/],
    [['check', '-', 'Googlebot', '--urls', '-'], /ROBOTS and --urls cannot both be stdin/],
    [['check', EXAMPLE, '', '/a'], /AGENT: expected a user-agent with a product token \(the text before any "\/", e.g. "Googlebot"\), got ""/],
    [['check', EXAMPLE, ' /x', '/a'], /AGENT: expected a user-agent .* got " \/x"/],
    [['check', EXAMPLE, 'Googlebot', 'example.com/a'], /URL: expected an absolute URL \(https:\/\/host\/path\) or a path starting with "\/", got "example.com\/a"/],
    [['check', EXAMPLE, 'Googlebot', 'http://exa mple.com/'], /URL: expected an absolute URL/],
    [['check', 'http://', 'Googlebot', '/a'], /ROBOTS: not a valid URL: http:\/\//],
    [['check', 'ftp://example.com/robots.txt', 'Googlebot', '/a'], /ROBOTS: only http and https URLs can be fetched, got "ftp:"/],
    [['check', 'http://127.0.0.1:9/', 'Googlebot', '/a', '--timeout', 'soon'], /--timeout: expected a whole number of milliseconds >= 1, got "soon"\n  --timeout MS  time limit/],
    [['explain', EXAMPLE, 'Googlebot'], /robotstxt explain: missing URL/],
    [['explain', EXAMPLE, 'Googlebot', '/a', '/b'], /explain takes one URL, got 2/],
    [['explain', EXAMPLE, 'Googlebot', 'not a url'], /URL: expected an absolute URL/],
    [['lint'], /robotstxt lint: missing ROBOTS/],
    [['lint', EXAMPLE, EXAMPLE], /lint takes one ROBOTS, got 2/],
    [['lint', EXAMPLE, '--urls', 'x'], /robotstxt lint: unknown option "--urls": lint takes the options --timeout, --user-agent, --proxy, --json, --all-lines and --help/],
    [['playground', '--portt', '1'], /robotstxt playground: unknown option "--portt": playground takes the options --port, --host and --help/],
  ])('usage error %j: exit 2, one clear message and a pointer to help', async (args, message) => {
    const r = await run(args)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toMatch(/Try 'robotstxt (help \w+|--help)'\.\n$/)
    expect(r.stderr).not.toContain('    at ') // no stack trace
  })

  test.each([
    ['check', ['Googlebot', '/a']],
    ['explain', ['Googlebot', '/a']],
    ['lint', []],
  ])('%s: an unreadable ROBOTS file exits 2 with the path and the reason', async (cmd, rest) => {
    const missing = join(tmp, 'does-not-exist.txt')
    const r = await run([cmd, missing, ...rest])
    expect(r).toEqual({ code: 2, stdout: '', stderr: `robotstxt: cannot read ${missing}: no such file\n` })
    const dir = await run([cmd, tmp, ...rest])
    expect(dir).toEqual({ code: 2, stdout: '', stderr: `robotstxt: cannot read ${tmp}: is a directory\n` })
  })

  test('check --urls with a missing list file or a directory exits 2 before any output', async () => {
    const missing = join(tmp, 'no-urls.txt')
    const r = await run(['check', EXAMPLE, 'Googlebot', '--urls', missing])
    expect(r).toEqual({ code: 2, stdout: '', stderr: `robotstxt: cannot read ${missing}: no such file\n` })
    const dir = await run(['check', EXAMPLE, 'Googlebot', '--urls', tmp])
    expect(dir).toEqual({ code: 2, stdout: '', stderr: `robotstxt: cannot read ${tmp}: is a directory\n` })
  })
})

describe('cli: check', () => {
  const robots = () => parseRobots(readFileSync(EXAMPLE))

  test('one URL: allowed exits 0, disallowed exits 1; the line is tab-separated verdict, line, URL', async () => {
    const allowed = await run(['check', EXAMPLE, 'Googlebot', 'https://example.com/report.pdf'])
    expect(allowed).toEqual({ code: 0, stdout: 'allowed\t19\thttps://example.com/report.pdf\n', stderr: '' })
    const disallowed = await run(['check', EXAMPLE, 'Googlebot', 'https://example.com/private/report.pdf'])
    expect(disallowed).toEqual({ code: 1, stdout: 'disallowed\t17\thttps://example.com/private/report.pdf\n', stderr: '' })
    const noRule = await run(['check', EXAMPLE, 'Googlebot', '/about'])
    expect(noRule).toEqual({ code: 0, stdout: 'allowed\t0\t/about\n', stderr: '' })
  })

  test('several URLs: one line each in order; exit 0 only when all are allowed', async () => {
    const urls = ['https://example.com/', '/cart/1', 'https://example.com/a.json', '/search/about', 'https://example.com/x?sessionid=9']
    const r = await run(['check', EXAMPLE, 'Mozilla/5.0 (compatible; SomeBot/1.0)', ...urls])
    expect(r.code).toBe(1)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(urls.length)
    urls.forEach((url, i) => {
      const v = robots().check(url, 'Mozilla')
      expect(lines[i]).toBe(`${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${url}`)
    })
    const all = await run(['check', EXAMPLE, 'Bingbot', '/', '/about', '/search/about'])
    expect(all).toEqual({ code: 0, stdout: 'allowed\t0\t/\nallowed\t0\t/about\nallowed\t11\t/search/about\n', stderr: '' })
  })

  test('the agent is reduced to its product token, like the library', async () => {
    const r = await run(['check', EXAMPLE, 'Googlebot/2.1 (+http://www.google.com/bot.html)', '/private/x'])
    expect(r).toEqual({ code: 1, stdout: 'disallowed\t17\t/private/x\n', stderr: '' })
    const gpt = await run(['check', EXAMPLE, 'gptbot', '/anything'])
    expect(gpt).toEqual({ code: 1, stdout: 'disallowed\t28\t/anything\n', stderr: '' })
  })

  test('URLs are matched as given (percent-encoding normalised, no URL-parser rewriting)', async () => {
    const f = file('spaces.txt', 'User-agent: *\nDisallow: /a b\nDisallow: /caf\u00e9\n')
    const r = await run(['check', f, 'x', 'http://h/a b', 'http://h/a%20b', 'http://h/caf%c3%a9'])
    expect(r.stdout).toBe('disallowed\t2\thttp://h/a b\nallowed\t0\thttp://h/a%20b\ndisallowed\t3\thttp://h/caf%c3%a9\n')
  })

  test("ROBOTS '-' reads the robots.txt from stdin", async () => {
    const r = await run(['check', '-', 'Googlebot', '/private/x', '/public'], 'User-agent: googlebot\nDisallow: /private\n')
    expect(r).toEqual({ code: 1, stdout: 'disallowed\t2\t/private/x\nallowed\t0\t/public\n', stderr: '' })
  })

  test('an empty robots.txt allows everything (line 0)', async () => {
    const r = await run(['check', file('empty.txt', ''), 'Googlebot', '/x'])
    expect(r).toEqual({ code: 0, stdout: 'allowed\t0\t/x\n', stderr: '' })
  })

  test('a robots.txt over 500 KiB is cut at 512,000 bytes, like parseRobots', async () => {
    const head = 'User-agent: *\nDisallow: /early\n'
    const kept = 'Disallow: /la' // the last 13 bytes before the cut
    const hashes = '#'.repeat(512_000 - head.length - 1 - kept.length)
    const f = file('big.txt', `${head}${hashes}\n${kept}te\nDisallow: /x\n`)
    const r = await run(['check', f, 'x', '/early', '/lab', '/x'])
    // The cut falls inside "Disallow: /late": the kept "/la" is a prefix rule; line 5 is never read.
    expect(r.stdout).toBe('disallowed\t2\t/early\ndisallowed\t4\t/lab\nallowed\t0\t/x\n')
    // Said on stderr, with the line it falls in.
    expect(r.stderr).toBe(`robotstxt: ${f} is 512,016 bytes: crawlers read only the first 512,000 (500 KiB), so line 4 is cut there and the lines after it are ignored\n`)
    const atBreak = file('big-break.txt', `${head}${'#'.repeat(512_000 - head.length - 1)}\nDisallow: /late\n`)
    expect((await run(['check', atBreak, 'x', '/late'])).stderr).toMatch(/so the lines from 4 on are ignored\n$/)
    // explain marks it in the text and in JSON.
    const text = await run(['explain', f, 'x', '/lab'])
    expect(text.stdout).toContain('\n  cut: crawlers read only the first 512,000 bytes (500 KiB): line 4 is cut and the lines after it are not read\n')
    const json = JSON.parse((await run(['explain', f, 'x', '/lab', '--json'])).stdout) as { cut: unknown }
    expect(json.cut).toEqual({ bytes: 512_000, line: 4, midLine: true })
    expect((JSON.parse((await run(['explain', EXAMPLE, 'x', '/lab', '--json'])).stdout) as { cut: unknown }).cut).toBeNull()
  })
})

describe('cli: crawler presets and --token in check and explain', () => {
  // Googlebot-Image has no group here: Google documents that it then obeys Googlebot's.
  const IMAGES = 'User-agent: *\nDisallow: /images/\n\nUser-agent: Googlebot\nAllow: /\n'

  test('a preset name (any case) stands for every token its crawler obeys; stderr names them', async () => {
    const f = file('gi.txt', IMAGES)
    for (const name of ['Googlebot-Image', 'googlebot-image', 'GOOGLEBOT-IMAGE']) {
      expect(await run(['check', f, name, '/images/a.jpg'])).toEqual({
        code: 0, stdout: 'allowed\t5\t/images/a.jpg\n', stderr: 'agent: Googlebot-Image (Googlebot-Image, Googlebot), every token that crawler obeys\n',
      })
    }
    // The same through --urls, on worker threads too.
    const urls = '/images/a.jpg\n/images/b.png\n'
    for (const threads of ['1', '2']) {
      const r = await run(['check', f, 'Googlebot-Video', '--urls', '-', '--threads', threads], urls)
      expect([r.code, r.stdout]).toEqual([0, 'allowed\t5\t/images/a.jpg\nallowed\t5\t/images/b.png\n'])
    }
    // A preset of one token is checked as that token, with nothing to say.
    expect(await run(['check', f, 'gptbot', '/images/a.jpg'])).toEqual({ code: 1, stdout: 'disallowed\t2\t/images/a.jpg\n', stderr: '' })
  })

  test('--token NAME checks the product token alone, preset or not', async () => {
    const f = file('gi.txt', IMAGES)
    expect(await run(['check', f, '--token', 'Googlebot-Image', '/images/a.jpg'])).toEqual({ code: 1, stdout: 'disallowed\t2\t/images/a.jpg\n', stderr: '' })
    const e = JSON.parse((await run(['explain', f, '--token', 'Googlebot-Image', '/images/a.jpg', '--json'])).stdout) as { agent: string; tokens: string[]; allowed: boolean; line: number }
    expect(e).toMatchObject({ agent: 'Googlebot-Image', tokens: ['googlebot-image'], allowed: false, line: 2 })
  })

  test('explain names the preset with its tokens, and the line naming each', async () => {
    const f = file('gi.txt', IMAGES)
    const r = await run(['explain', f, 'Googlebot-Image', '/images/a.jpg'])
    expect(r.stdout.split('\n').slice(0, 7)).toEqual([
      `robots   ${f}`,
      'agent    Googlebot-Image (Googlebot-Image, Googlebot)',
      'url      /images/a.jpg',
      'path     /images/a.jpg',
      '',
      'group    specific: a user-agent line names "googlebot-image" or "googlebot", so the * groups do not apply',
      '  line 4  User-agent: Googlebot   <- names googlebot',
    ])
    const json = JSON.parse((await run(['explain', f, 'Googlebot-Image', '/images/a.jpg', '--json'])).stdout) as { agent: string; tokens: string[]; allowed: boolean; line: number }
    expect(json).toMatchObject({ agent: 'Googlebot-Image', tokens: ['googlebot-image', 'googlebot'], allowed: true, line: 5 })
  })

  test('an AGENT that no User-agent line can name says which token is checked', async () => {
    const f = file('bad-bot.txt', 'User-agent: Bad\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n')
    expect(await run(['check', f, 'Bad Bot', '/'])).toEqual({
      code: 0, stdout: 'allowed\t0\t/\n',
      stderr: 'agent: "Bad Bot" is checked as the token "bad bot", which no User-agent line can name (a line names only its leading letters, "-" and "_"), so only the * groups apply\n',
    })
    // A user-agent string whose token is a preset's name: the token alone, and how to get the preset.
    const image = await run(['check', file('gi.txt', IMAGES), 'Googlebot-Image/1.0', '/images/a.jpg'])
    expect(image.stdout).toBe('disallowed\t2\t/images/a.jpg\n')
    expect(image.stderr).toBe('agent: "Googlebot-Image/1.0" is checked as the token "googlebot-image" alone; the preset Googlebot-Image stands for every token it obeys (Googlebot-Image, Googlebot)\n')
  })
})

describe('cli: check --urls (streaming)', () => {
  test('one output line per input line, in order: CRLF, a last line without LF, a blank line (an error), invalid UTF-8 (echoed as \\xHH), a BOM', async () => {
    const input = Buffer.concat([
      Buffer.from('\ufeffhttps://example.com/private/a\r\n'),
      Buffer.from('\n'),
      Buffer.from('/cart/\xff\xfe/x\n', 'latin1'), // invalid UTF-8: checked as U+FFFD, echoed as the bytes read
      Buffer.from('https://example.com/caf\u00e9\r\n'),
      Buffer.from('/report.pdf'),
    ])
    const r = await run(['check', EXAMPLE, 'Googlebot', '--urls', '-'], input)
    expect(r.stderr).toBe('robotstxt: --urls line 2: expected an absolute URL (https://host/path) or a path starting with "/", got ""\n')
    expect(r.code).toBe(3)
    expect(r.stdout).toBe([
      'disallowed\t17\thttps://example.com/private/a',
      'error\t0\t',
      'allowed\t0\t/cart/\\xff\\xfe/x',
      'allowed\t0\thttps://example.com/caf\u00e9',
      'allowed\t19\t/report.pdf',
      '',
    ].join('\n'))
    const star = await run(['check', EXAMPLE, 'x', '--urls', '-'], Buffer.from('/cart/\xff\n/search\n', 'latin1'))
    expect(star.stdout).toBe('disallowed\t6\t/cart/\\xff\ndisallowed\t8\t/search\n')
  })

  test('an empty list prints nothing and exits 0; a list of allowed URLs exits 0', async () => {
    expect(await run(['check', EXAMPLE, 'Googlebot', '--urls', '-'], '')).toEqual({ code: 0, stdout: '', stderr: '' })
    const list = file('allowed.txt', '/a\n/b\n')
    expect(await run(['check', EXAMPLE, 'Googlebot', '--urls', list])).toEqual({ code: 0, stdout: 'allowed\t0\t/a\nallowed\t0\t/b\n', stderr: '' })
  })

  test('a multi-byte character split across stdin chunks stays one character', async () => {
    // 65,536-byte pipe reads: put the 2-byte "é" across the first boundary.
    const first = '/' + 'a'.repeat(65_534)
    const input = Buffer.concat([Buffer.from(first), Buffer.from('\u00e9\n/private/\n')])
    const r = await run(['check', EXAMPLE, 'Googlebot', '--urls', '-'], input)
    expect(r.stdout).toBe(`allowed\t0\t${first}\u00e9\ndisallowed\t17\t/private/\n`)
  })

  test('hardening 9: a line longer than 1 MiB characters costs only itself: an error line, exit 3', async () => {
    const r = await run(['check', EXAMPLE, 'Googlebot', '--urls', '-'], `/ok\n/${'x'.repeat(1_100_000)}\n/private/x\n/${'y'.repeat(1_100_000)}`)
    expect(r.code).toBe(3)
    expect(r.stdout).toBe('allowed\t0\t/ok\nerror\t0\t\ndisallowed\t17\t/private/x\nerror\t0\t\n')
    expect(r.stderr).toBe(
      'robotstxt: --urls line 2: longer than 1,048,576 bytes; expected one URL per line\n' +
      'robotstxt: --urls line 4: longer than 1,048,576 bytes; expected one URL per line\n',
    )
  })

  test('a reader that goes away (| head) ends the command quietly', async () => {
    const input = '/private/x\n'.repeat(300_000)
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'check', EXAMPLE, 'Googlebot', '--urls', '-'], { cwd: ROOT })
      let stderr = ''
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
      child.stdout.once('data', () => child.stdout.destroy())
      child.stdin.on('error', () => {})
      child.stdin.end(input)
      child.on('close', (code) => resolve({ code, stderr }))
    })
    expect(result.stderr).toBe('')
    expect(result.code === 0 || result.code === 1).toBe(true)
  })

  /** Runs the CLI with stdout on `fd` (a file descriptor of this process). */
  function runToFd(args: string[], fd: number): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] })
      let stderr = ''
      child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stderr }))
    })
  }

  test('stdout on a regular file (written off the main thread) gets exactly the bytes a pipe gets, appended where it stands', async () => {
    // Over 4 MB of output: many times the file writer's buffer, so it waits for 'drain' often.
    const list = file('many.txt', Array.from({ length: 100_000 }, (_, i) => `https://example.com/${i % 3 ? 'private' : 'cart'}/${i}`).join('\n'))
    const piped = await run(['check', EXAMPLE, 'Googlebot', '--urls', list])
    expect(piped.stdout.length).toBeGreaterThan(4_000_000)
    const outPath = file('out.txt', 'before\n')
    const fd = openSync(outPath, 'a')
    try {
      const r = await runToFd(['check', EXAMPLE, 'Googlebot', '--urls', list], fd)
      expect(r).toEqual({ code: 1, stderr: '' })
    } finally {
      closeSync(fd)
    }
    expect(readFileSync(outPath, 'utf8')).toBe('before\n' + piped.stdout)
  })

  test('a failed write to a regular-file stdout ends with status 2 and one line, no stack', async () => {
    const outPath = file('readonly.txt', '')
    const fd = openSync(outPath, 'r') // a regular file that refuses writes (EBADF)
    try {
      const r = await runToFd(['check', EXAMPLE, 'Googlebot', '--urls', file('two.txt', '/a\n/private/b\n')], fd)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/^robotstxt: cannot write the output: .*EBADF.*\n$/)
    } finally {
      closeSync(fd)
    }
  })

  test('1,000,000 URLs through stdin: every line, in order, with the verdicts and lines of checkMany', async () => {
    const N = 1_000_000
    const paths = ['/private/report.pdf', '/private/press/a', '/drafts/', '/drafts/index.html', '/drafts/x', '/report.pdf',
      '/a.pdf?x', '/cart/', '/search?q=x', '/p?print=1', '/p?print=12', '/caf\u00e9', '/%7euser', '/']
    let seed = 12345
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
    const urls = new Array<string>(N)
    for (let i = 0; i < N; i++) {
      const p = paths[Math.floor(rnd() * paths.length)]!
      urls[i] = i % 3 === 0 ? p : `https://example.com${p}${i % 7 === 0 ? `#${i}` : i % 5 === 0 ? `/${i}` : ''}`
    }
    const matcher = parseRobots(readFileSync(EXAMPLE)).matcher('Googlebot')
    const expectedAllowed = matcher.isAllowedMany(urls)
    const expectedLines = matcher.checkMany(urls)

    const got = await new Promise<{ code: number | null; stderr: string; count: number; mismatches: string[]; spot: Map<number, string> }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'check', EXAMPLE, 'Googlebot', '--urls', '-'], { cwd: ROOT })
      let stderr = ''
      let rest = ''
      let count = 0
      const mismatches: string[] = []
      const spot = new Map<number, string>()
      const spots = new Set([0, 1, 2, 4095, 4096, 4097, 65_536, 500_000, N - 2, N - 1])
      child.stdout.setEncoding('utf8')
      child.stdout.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n')
        rest = lines.pop()!
        for (const line of lines) {
          const i = count++
          if (spots.has(i)) spot.set(i, line)
          const [verdict, num, url] = line.split('\t')
          const allowed = verdict === 'allowed'
          if (url !== urls[i] || allowed !== (expectedAllowed[i] === 1) || Number(num) !== Math.abs(expectedLines[i]!)) {
            if (mismatches.length < 5) mismatches.push(`#${i}: ${JSON.stringify(line)}`)
          }
        }
      })
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stderr: stderr + rest, count, mismatches, spot }))
      child.stdin.end(urls.join('\n') + '\n')
    })
    expect(got.stderr).toBe('') // no progress line: stderr is not a terminal
    expect(got.count).toBe(N)
    expect(got.mismatches).toEqual([])
    for (const [i, line] of got.spot) expect(line.endsWith(`\t${urls[i]}`)).toBe(true)
    expect(got.code).toBe(expectedAllowed.includes(0) ? 1 : 0)
  })
})

describe('cli: explain', () => {
  test('names the group and why, the user-agent lines, every matching rule with its priority, and the decider', async () => {
    const r = await run(['explain', EXAMPLE, 'Googlebot', 'https://example.com/private/report.pdf'])
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain('path     /private/report.pdf')
    expect(r.stdout).toContain('group    specific: a user-agent line names "googlebot", so the * groups do not apply')
    expect(r.stdout).toMatch(/line 15 +User-agent: Googlebot +<- names googlebot/)
    expect(r.stdout).toMatch(/line 16 +User-agent: Googlebot-News\n/)
    expect(r.stdout).toMatch(/line 17 +Disallow: \/private\/ +priority 9 +<- decides/)
    expect(r.stdout).toMatch(/line 19 +Allow: \/\*\.pdf\$ +priority 7\n/)
    expect(r.stdout).toContain('verdict  disallowed by line 17')
  })

  test('global and none groups', async () => {
    const global = await run(['explain', EXAMPLE, 'Bingbot', '/checkout/step'])
    expect(global.stdout).toContain('group    global: no user-agent line names "bingbot", so the * groups apply')
    expect(global.stdout).toMatch(/line 5 +User-agent: \*\n/)
    expect(global.stdout).toContain('verdict  disallowed by line 7')
    const none = await run(['explain', file('only-bots.txt', 'User-agent: a\nDisallow: /\n'), 'b', '/x'])
    expect(none.stdout).toContain('group    none: no user-agent line names "b" and there is no * group')
    expect(none.stdout).toContain('verdict  allowed\n')
    const named = await run(['explain', EXAMPLE, 'Googlebot', '/search'])
    expect(named.stdout).toContain('verdict  allowed\n  a group names "googlebot" and none of their rules matches this path; the * groups do not apply to it, so the URL is allowed\n')
    const empty = await run(['explain', file('empty-rule.txt', 'User-agent: *\nDisallow:\n'), 'b', '/x'])
    expect(empty.stdout).toMatch(/line 2 +Disallow: +priority 0 +<- decides/)
    expect(empty.stdout).toContain('verdict  allowed by line 2\n  the * groups apply and only the empty pattern on line 2 matches this path, and an empty pattern never decides, so the URL is allowed\n')
  })

  test('the index.html rule is shown with its derived pattern and decides like Robots.check', async () => {
    const r = await run(['explain', EXAMPLE, 'Googlebot', '/drafts/', '--json'])
    const e = JSON.parse(r.stdout) as Record<string, unknown>
    expect(e).toMatchObject({
      robots: EXAMPLE, fetch: null, url: '/drafts/', path: '/drafts/', agent: 'Googlebot', token: 'googlebot', group: 'specific',
      allowed: true, line: 21,
      decidingRule: { line: 21, kind: 'allow', text: 'Allow: /drafts/index.html', pattern: '/drafts/index.html', priority: 9, indexHtml: '/drafts/$' },
      matches: [
        { line: 20, kind: 'disallow', text: 'Disallow: /drafts/', pattern: '/drafts/', priority: 8 },
        { line: 21, kind: 'allow', pattern: '/drafts/index.html', priority: 9, indexHtml: '/drafts/$' },
      ],
      agentLines: [{ line: 15, text: 'User-agent: Googlebot', names: true }, { line: 16, text: 'User-agent: Googlebot-News', names: false }],
    })
    const v = parseRobots(readFileSync(EXAMPLE)).check('/drafts/', 'Googlebot')
    expect({ allowed: v.allowed, line: v.line }).toEqual({ allowed: e.allowed, line: e.line })
  })

  test('in-process: verdict and deciding line equal Robots.check on every labelled case (one agent or several)', () => {
    let compared = 0
    let several = 0
    for (const name of ['google-spec-cases.jsonl', 'edge-cases.jsonl', 'fuzz-cases.jsonl']) {
      for (const b of loadFixture(name)) {
        const robots = parseRobots(b.body)
        for (const c of b.cases) {
          if (typeof c.agent !== 'string') several++
          const e = explain(robots, c.agent, c.url)
          const v = robots.check(c.url, c.agent)
          expect({ case: `${b.id} ${c.agent} ${c.url}`, allowed: e.allowed, line: e.line }).toEqual({ case: `${b.id} ${c.agent} ${c.url}`, allowed: v.allowed, line: v.line })
          // The deciding rule is the one check() reports, and it is among the matches.
          expect(e.decidingRule?.pattern).toBe(v.rule?.pattern)
          if (e.decidingRule !== null) expect(e.matches).toContain(e.decidingRule)
          compared++
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000)
    expect(several).toBeGreaterThan(0)
  })

  test('in-process: the example file, many URLs and agents', () => {
    const robots = parseRobots(readFileSync(EXAMPLE))
    const paths = ['/', '/private/', '/private/press/x', '/private/x.pdf', '/drafts/', '/drafts/index.html', '/drafts/x', '/p?print=1',
      '/cart/', '/checkout', '/search', '/search/about', '/a.json', '/a.json?x', '/x?sessionid=1', '/index.html']
    for (const agent of ['Googlebot', 'googlebot-news', 'GPTBot', 'CCBot', 'Google-Extended', 'Bingbot', '*'])
      for (const p of paths) {
        const e = explain(robots, agent, `https://example.com${p}`)
        const v = robots.check(`https://example.com${p}`, agent)
        expect([agent, p, e.allowed, e.line]).toEqual([agent, p, v.allowed, v.line])
      }
  })
})

describe('cli: lint', () => {
  interface LintJson {
    source: string
    bytes: number | null
    summary: { errors: number; warnings: number; infos: number }
    findings: { line: number | null; severity: string; code: string; message: string }[]
    lines: { line: number; type: string }[]
  }
  const lintJson = async (path: string): Promise<{ code: number | null; json: LintJson }> => {
    const r = await run(['lint', path, '--json'])
    expect(r.stderr).toBe('')
    return { code: r.code, json: JSON.parse(r.stdout) as LintJson }
  }
  const codes = (j: LintJson) => j.findings.map((f) => `${f.line ?? '-'}:${f.severity}:${f.code}`)

  test('the example file has no errors or warnings (exit 0)', async () => {
    const r = await run(['lint', EXAMPLE])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`${EXAMPLE}:12: info: Crawl-delay is ignored by Google; Bing, Yandex and many other crawlers honour it [extension]\n${EXAMPLE}: 0 errors, 0 warnings, 1 info\n`)
  })

  test('per-line findings with line numbers and severities; errors exit 1', async () => {
    const f = file('bad.txt', [
      'Dissallow /x', // 1: typo, missing colon, outside any group
      'User-agent: Googlebot/2.1', // 2: matched as a shorter token
      'user agent: *bot', // 3: typo, not the global agent
      'Disallow: private', // 4: never matches
      'Noindex: /x', // 5
      'User_agent: x', // 6
      'Crawl-delay: soon', // 7
      'Sitemap: /sitemap.xml', // 8
      'Allow: /a$b', // 9
      'this is not a directive', // 10
      'Disallow: https://example.com/x', // 11
      `Disallow: /${'x'.repeat(17_000)}`, // 12
      'User-agent: late', // 13: no rules after it
      '',
    ].join('\n'))
    const { code, json } = await lintJson(f)
    expect(code).toBe(1)
    expect(codes(json)).toEqual([
      '1:warning:typo', '1:warning:missing-colon', '1:error:outside-group',
      '2:info:agent-token',
      '3:warning:typo', '3:warning:agent-wildcard',
      '4:error:never-matches',
      '5:warning:unsupported',
      '6:warning:unknown-key',
      '7:info:extension', '7:warning:crawl-delay-value',
      '8:warning:sitemap-url',
      '9:info:literal-dollar',
      '10:warning:invalid-line',
      '11:error:never-matches',
      '12:warning:line-too-long',
      '13:warning:empty-group',
    ])
    expect(json.summary).toEqual({ errors: 3, warnings: 11, infos: 3 })
    expect(json.findings.find((x) => x.line === 6)!.message).toContain('did you mean "User-agent"?')
    expect(json.findings.find((x) => x.line === 11)!.message).toContain('write the path without scheme and host')
    // The lines a finding points at (line 14, empty, has none); --all-lines gives every line.
    expect(json.lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    expect(json.lines[0]).toMatchObject({ line: 1, type: 'disallow', typo: true, missingColon: true, outsideGroup: true })
    const all = JSON.parse((await run(['lint', f, '--json', '--all-lines'])).stdout) as LintJson
    expect(all.lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14])
    expect({ ...all, lines: json.lines }).toEqual(json)
    const human = await run(['lint', f])
    expect(human.code).toBe(1)
    expect(human.stdout).toContain(`${f}:4: error: pattern "private" starts with neither "/" nor "*": it never matches (paths start with "/") [never-matches]\n`)
    expect(human.stdout.endsWith(`${f}: 3 errors, 11 warnings, 3 infos\n`)).toBe(true)
    expect(human.stdout).not.toContain('\x1b[') // no colour when stdout is not a terminal
  })

  test('file-level: HTML instead of robots.txt is an error, and its lines are not reported one by one', async () => {
    const f = file('page.html', '<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>Oops: nothing here</body></html>\n')
    const { code, json } = await lintJson(f)
    expect(code).toBe(1)
    expect(codes(json)).toEqual(['1:error:html'])
  })

  test('file-level: over 500 KiB says from which line content is ignored', async () => {
    const lines = ['User-agent: *']
    for (let i = 1, length = 0; length < 520_000; i++) {
      const line = `Disallow: /${String(i).padStart(20, '0')}`
      lines.push(line)
      length += line.length + 1
    }
    const body = lines.join('\n') + '\n'
    const f = file('huge.txt', body)
    const { code, json } = await lintJson(f)
    expect(code).toBe(1)
    const cutLine = body.slice(0, 512_000).split('\n').length
    const tooLarge = json.findings.find((x) => x.code === 'too-large')!
    expect(tooLarge.line).toBe(cutLine)
    expect(tooLarge.message).toContain(`the file is ${body.length.toLocaleString('en-US')} bytes`)
    expect(tooLarge.message).toContain(`line ${cutLine} is cut and everything after it is ignored`)
    expect(json.bytes).toBe(body.length)
  })

  test('file-level: BOM, invalid UTF-8 by line, NUL, CR line ends counted like the parser', async () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('User-agent: *\r\nDisallow: /ok\r'),
      Buffer.from('Disallow: /bad-\xe9\n', 'latin1'), // 3: a lone Latin-1 byte
      Buffer.from('Disallow: /\u00e9t\u00e9\n'), // 4: valid UTF-8
      Buffer.from('Disallow: /overlong-\xc0\xaf\n', 'latin1'), // 5: overlong '/'
      Buffer.from('Disallow: /nul\0rest\n', 'latin1'), // 6
    ])
    const { code, json } = await lintJson(file('enc.txt', body))
    expect(code).toBe(0)
    expect(codes(json)).toEqual(['1:info:bom', '3:warning:invalid-utf8', '5:warning:invalid-utf8', '6:warning:nul'])
  })

  test('a UTF-16 file, with or without a byte order mark, is one error that says UTF-16 (exit 1)', async () => {
    const text = 'User-agent: *\nDisallow: /private/\n'
    const le = Buffer.from(text, 'utf16le')
    const be = Buffer.from(le).swap16()
    for (const [name, body, which] of [
      ['le-bom', Buffer.concat([Buffer.from([0xff, 0xfe]), le]), 'little-endian, with a byte order mark'],
      ['le', le, 'little-endian, without a byte order mark'],
      ['be-bom', Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'big-endian, with a byte order mark'],
      ['be', be, 'big-endian, without a byte order mark'],
    ] as const) {
      const { code, json } = await lintJson(file(`utf16-${name}.txt`, body))
      expect(code, name).toBe(1)
      expect(json.findings, name).toEqual([{ line: null, severity: 'error', code: 'utf16', message: `the file is UTF-16 (${which}): crawlers read robots.txt as UTF-8, so none of its lines is read as a rule; save it as UTF-8` }])
    }
  })

  test('20 KB of random bytes, or a gzip body, is one "not text" error, not hundreds of warnings', async () => {
    let x = 12345
    const random = Buffer.alloc(20_480, 0).map(() => (x = (x * 1103515245 + 12345) & 0x7fffffff) >> 16 & 0xff)
    for (const [name, body] of [['random.bin', random], ['gzipped.txt', gzipSync(readFileSync(EXAMPLE))]] as const) {
      const { code, json } = await lintJson(file(name, body))
      expect(code, name).toBe(1)
      expect(json.summary, name).toEqual({ errors: 1, warnings: 0, infos: 0 })
      expect(json.findings[0], name).toMatchObject({ line: null, code: 'binary', message: expect.stringMatching(/^the file is not text: \d+% of its first [\d,]+ bytes are control bytes or invalid UTF-8/) })
    }
    // Text in a legacy encoding is invalid UTF-8 but no control bytes: still linted line by line.
    const latin1 = Buffer.from(`# R\xe9sum\xe9 des r\xe8gles pour les robots d'indexation\n${'# caf\xe9 cr\xe8me br\xfbl\xe9e \xe0 la fran\xe7aise\n'.repeat(40)}User-agent: *\nDisallow: /priv\xe9/\n`, 'latin1')
    const { json } = await lintJson(file('latin1.txt', latin1))
    expect(json.findings.map((f) => f.code)).not.toContain('binary')
    expect(json.findings.map((f) => f.code)).toContain('invalid-utf8')
  })

  test('a User-agent line after no rule line continues the group: a warning naming both lines and why', async () => {
    const f = file('merged.txt', 'User-agent: *\nCrawl-delay: 3\n\nUser-agent: MyBot\nDisallow: /private\n')
    const r = await run(['lint', f])
    expect(r.stdout).toBe([
      `${f}:2: info: Crawl-delay is ignored by Google; Bing, Yandex and many other crawlers honour it [extension]`,
      `${f}:4: warning: User-agent lines 1 ("*") and 4 ("MyBot") are one group for Google: a User-agent line after no Allow or Disallow line continues the group (the Crawl-delay line 2 does not end it), so the group's rules apply to both agents (with "*": every crawler no other group names) [merged-group]`,
      `${f}: 0 errors, 1 warning, 1 info`,
      '',
    ].join('\n'))
    // And it is what the engine does: MyBot's rule applies to every crawler.
    expect(parseRobots(readFileSync(f)).check('/private', 'OtherBot').allowed).toBe(false)
    // Consecutive User-agent lines (or only comments between them) are one group on purpose: no warning.
    const { json } = await lintJson(file('together.txt', 'User-agent: a\n# and b\nUser-agent: b\nDisallow: /x\n\nUser-agent: c\n\nUser-agent: d\nDisallow: /y\n'))
    expect(codes(json)).toEqual(['8:warning:merged-group'])
    expect(json.findings[0]!.message).toContain('(the blank line 7 does not end it)')
  })

  test('an agent named in two groups, and a second * group: a warning naming both lines', async () => {
    const f = file('dup.txt', 'User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: googlebot/2.1\nDisallow: /c\n\nUser-agent: *\nDisallow: /d\n')
    const { code, json } = await lintJson(f)
    expect(code).toBe(0)
    expect(json.findings.filter((x) => x.code === 'duplicate-group')).toEqual([
      { line: 7, severity: 'warning', code: 'duplicate-group', message: '"googlebot" already has a group (line 1): Google merges the rules of both groups for it, other crawlers may read only the first' },
      { line: 10, severity: 'warning', code: 'duplicate-group', message: 'a second "User-agent: *" group (the first is on line 4): Google merges the rules of both, other crawlers may read only the first' },
    ])
    // Merged, as the warning says: both Googlebot groups' rules apply.
    const robots = parseRobots(readFileSync(f))
    expect([robots.isAllowed('/a', 'Googlebot'), robots.isAllowed('/c', 'Googlebot'), robots.isAllowed('/d', 'Other')]).toEqual([false, false, false])
  })

  test('in-process: a fetch redirected to another host is an info naming whose robots.txt applies', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /x\n')
    const input = { robots, body: robots.bodyBytes, size: null, truncated: false }
    const findings = (fetched: { origin: string; url?: string | null } | null) => lint({ ...input, fetched }).findings.filter((f) => f.code === 'redirect')
    expect(findings({ origin: 'http://example.com', url: 'https://www.example.org/robots.txt' })).toEqual([{
      line: null, severity: 'info', code: 'redirect',
      message: "http://example.com/robots.txt redirects to https://www.example.org/robots.txt: the rules here are www.example.org's file, and crawlers apply them to the URLs of http://example.com",
    }])
    expect(findings({ origin: 'https://example.com', url: 'https://example.com/robots.txt' })).toEqual([])
    expect(findings({ origin: 'https://example.com', url: null })).toEqual([])
    expect(findings({ origin: 'https://example.com' })).toEqual([])
    expect(findings(null)).toEqual([])
  })

  test("ROBOTS '-' lints stdin, named (stdin) in the output", async () => {
    const r = await run(['lint', '-'], 'User-agent: *\nDisallow /x\n')
    expect(r).toEqual({
      code: 0,
      stdout: '(stdin):2: warning: no ":" after "Disallow"; Google accepts it, other crawlers may not [missing-colon]\n(stdin): 0 errors, 1 warning, 0 infos\n',
      stderr: '',
    })
  })

  test('empty file: info only, exit 0', async () => {
    const r = await run(['lint', file('empty2.txt', '')])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(': info: the file is empty: every crawler may fetch everything [no-rules]')
  })

  test('in-process: lint never throws on arbitrary bytes and its line numbers exist', () => {
    let seed = 7
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
    const alphabet = Buffer.from('User-agent: *\nDisallow: /a\r\nAllow: /index.html$\n#\0\xef\xbb\xbf\xff\xc3\xa9 \t:Sitemap<html>', 'latin1')
    for (let n = 0; n < 300; n++) {
      const body = new Uint8Array(Math.floor(rnd() * 200))
      for (let i = 0; i < body.length; i++) body[i] = alphabet[Math.floor(rnd() * alphabet.length)]!
      const robots = parseRobots(body)
      const result = lint({ robots, body, size: body.length, truncated: false })
      for (const f of result.findings) if (f.line !== null) expect(f.line).toBeLessThanOrEqual(robots.lines.length)
      expect(result.errors + result.warnings + result.infos).toBe(result.findings.length)
    }
  })
})

describe('cli: keys and topics named like Object.prototype members', () => {
  test('lint: "constructor", "__proto__" and the like are unknown keys, not Object.prototype values', () => {
    const body = new TextEncoder().encode('User-agent: *\nDisallow: /a\nconstructor: x\n__proto__: y\nCon-structor: z\ntoString: w\n')
    const result = lint({ robots: parseRobots(body), body, size: body.length, truncated: false })
    const byLine = new Map(result.findings.map((f) => [f.line, f]))
    for (const [line, key] of [[3, 'constructor'], [4, '__proto__'], [5, 'Con-structor'], [6, 'toString']] as const) {
      expect(byLine.get(line)).toEqual({ line, severity: 'warning', code: 'unknown-key', message: `unknown key "${key}": ignored` })
    }
  })

  test('help constructor / help __proto__ is a usage error, not a crash', async () => {
    for (const topic of ['constructor', '__proto__', 'toString']) {
      const r = await run(['help', topic])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`no help for unknown command "${topic}"`)
      expect(r.stderr).not.toContain('unexpected error')
    }
  })
})

describe('cli: hostile text (issue 34 item 5)', () => {
  // Control characters a terminal acts on: C0 (ESC, BEL, CR, ...), DEL, C1 (U+009B is a CSI on
  // its own) and the bidi overrides and isolates. Tab and newline are the output's own separators.
  const TERMINAL_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/
  const ESC = '\x1b'
  const CSI = '\u009b'
  const RLO = '\u202e'
  const hostile = [
    `User-agent: bot${ESC}[2J`,
    `User-agent: *`,
    `Disallow: /p${ESC}]0;pwned\x07`,
    `Disallow: /q${CSI}31m${RLO}txt.exe`,
    `Allow: /r\rX\x7f`,
    `Evil${ESC}[31m: value`,
    `Crawl-delay: 1${ESC}[5m`,
    `Sitemap: ${ESC}[1mnot-a-url`,
    `Content-Signal: ai-train${ESC}=yes`,
    `${RLO}Disallow: /z`,
    '',
  ].join('\n')
  const urls = [`/p${ESC}]0;pwned\x07`, `/q${CSI}31m${RLO}txt.exe`, `/r\rX\x7f`, `/ok${ESC}[0m`, '/plain']
  const clean = (r: Run, what: string) => {
    expect(TERMINAL_CONTROL.exec(r.stdout), `${what}: stdout`).toBeNull()
    expect(TERMINAL_CONTROL.exec(r.stderr), `${what}: stderr`).toBeNull()
  }

  test('lint, explain, diff and check escape control characters in text output', async () => {
    const robots = file('hostile.txt', hostile)
    const plain = file('plain.txt', 'User-agent: *\nDisallow: /\n')
    const lint = await run(['lint', robots])
    clean(lint, 'lint')
    expect(lint.stdout).toContain('unknown key "Evil\\x1b[31m"')
    for (const url of urls) {
      const r = await run(['explain', robots, `bot${ESC}[2J`, url])
      clean(r, `explain ${JSON.stringify(url)}`)
      expect(r.code).toBe(0)
    }
    const explained = await run(['explain', robots, 'x', urls[1]!])
    expect(explained.stdout).toContain('/q\\x9b31m\\u202etxt.exe')
    // The hostile URLs given to diff: those the hostile file allows change from the plain one's.
    const diff = await run(['diff', plain, robots, '--urls', file('hostile-urls.txt', urls.join('\n') + '\n')])
    clean(diff, 'diff')
    expect(diff.code).toBe(1)
    expect(diff.stdout).toContain('\t/ok\\x1b[0m\t')
    const check = await run(['check', robots, 'x', ...urls])
    clean(check, 'check URL...')
    expect(check.stdout.split('\n')[0]).toBe('disallowed\t3\t/p\\x1b]0;pwned\\x07')
    const stream = await run(['check', robots, 'x', '--urls', '-'], urls.join('\n') + '\n')
    clean(stream, 'check --urls')
    expect(stream.stdout).toBe(check.stdout)
  })

  test('error messages quoting an argument or a URL line are escaped too', async () => {
    const robots = file('hostile-args.txt', 'User-agent: *\nDisallow: /\n')
    for (const args of [
      ['check', robots, 'x', `no url${CSI}2J`],
      ['explain', robots, 'x', `no url${RLO}`],
      [`frob${ESC}[2J`],
      ['lint', file(`name${ESC}[31m.txt`, 'User-agent: *\n')],
    ]) {
      const r = await run(args)
      clean(r, args.join(' '))
    }
    const server = createServer((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const r = await run(['check', origin, 'x', '--urls', '-'], `https://elsewhere.example/${ESC}[2J\n/ok\n`)
      clean(r, 'check --urls, a line on another origin')
      expect(r.stderr).toContain('--urls line 1: ')
    } finally {
      server.close()
    }
  })

  test('JSON output keeps the strings exact, with DEL, C1 and bidi controls as JSON escapes', async () => {
    // JSON.stringify escapes C0 only: DEL, C1 (U+009B is a CSI) and bidi were printed raw (review).
    const json = async (args: string[], stdin?: string) => {
      const r = await run(args, stdin)
      clean(r, args.join(' '))
      return JSON.parse(r.stdout) as unknown
    }
    const robots = file('hostile-json.txt', hostile)
    const lint = await json(['lint', robots, '--json']) as { findings: { message: string }[] }
    expect(lint.findings.some((f) => f.message.includes(`"Evil${ESC}[31m"`))).toBe(true)
    const explained = await json(['explain', robots, 'x', urls[1]!, '--json']) as { url: string }
    expect(explained.url).toBe(urls[1])
    const listed = file('hostile-json-urls.txt', urls.join('\n') + '\n')
    const diff = await json(['diff', file('plain-json.txt', 'User-agent: *\nDisallow: /\n'), robots, '--urls', listed, '--json']) as { changes: { url: string }[] }
    expect(diff.changes.some((c) => c.url === `/ok${ESC}[0m`)).toBe(true)
    const server = createServer((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /p\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const r = await run(['filter', 'x', '--json'], `${origin}/q${CSI}31m${RLO}txt.exe\n${origin}/p\x7f\n`)
      clean(r, 'filter --json')
      expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { url: string; allowed: boolean })).map((v) => [v.url, v.allowed])).toEqual([
        [`${origin}/q${CSI}31m${RLO}txt.exe`, true], [`${origin}/p\x7f`, false],
      ])
    } finally {
      server.close()
    }
  })

  test('lint --json of 512,000 empty lines stays small: only lines with findings are reported', async () => {
    // It printed every line's report: 118 MB for this 512,000-byte file.
    const empty = file('empty-lines.txt', '\n'.repeat(512_000))
    const r = await run(['lint', empty, '--json'])
    expect(r.code).toBe(0)
    expect(r.stdout.length).toBeLessThan(4096)
    expect((JSON.parse(r.stdout) as { lines: unknown[] }).lines).toEqual([])
    const usage = await run(['lint', empty, '--all-lines'])
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining('--all-lines goes with --json')])
  })
})

describe('cli: streamCheck (the byte path of check --urls)', () => {
  const enc = new TextEncoder()
  const matcher = parseRobots('User-agent: *\nDisallow: /private\n').matcher('x')
  const report = (block: Uint8Array, marks: Uint8Array | null) => matcher.verdictLines(block, marks)
  async function streamOf(chunks: (string | Uint8Array)[], filter: LineFilter | null = null) {
    let stdout = ''
    let stderr = ''
    const sink = (add: (s: string) => void) => new Writable({ write(c: Buffer, _e, done) { add(c.toString()); done() } })
    async function* input() { for (const c of chunks) yield typeof c === 'string' ? enc.encode(c) : c }
    const result = await streamCheck(input(), sink((t) => (stdout += t)), sink((t) => (stderr += t)), report, filter)
    return { stdout, stderr, result }
  }

  test('splits on LF across chunks, drops the CR of CRLF (even split from its LF), keeps a lone CR (echoed escaped), counts a final line', async () => {
    const r = await streamOf(['/a\r', '\n/priv', 'ate\n/d\re\n\n', '/last'])
    expect(r.stdout).toBe('allowed\t0\t/a\ndisallowed\t2\t/private\nallowed\t0\t/d\\re\nerror\t0\t\nallowed\t0\t/last\n')
    expect(r.result).toEqual({ total: 5, disallowed: 1, bad: 1 })
  })

  test('a line over the limit, across chunks or within one, costs only itself', async () => {
    const x = 'x'.repeat(600_000)
    const r = await streamOf(['/a\n/', x, x, x, 'tail\r\n/private\r\n', '/' + 'y'.repeat(1_100_000) + '\n/c\n', '/' + x + x])
    expect(r.stdout).toBe('allowed\t0\t/a\nerror\t0\t\ndisallowed\t2\t/private\nerror\t0\t\nallowed\t0\t/c\nerror\t0\t\n')
    expect(r.stderr).toBe([2, 4, 6].map((n) => `robotstxt: --urls line ${n}: longer than 1,048,576 bytes; expected one URL per line\n`).join(''))
    expect(r.result).toEqual({ total: 6, disallowed: 1, bad: 3 })
  })

  test('a filter rejects its lines with their numbers; the other lines keep their verdicts', async () => {
    const r = await streamOf(['/ok\n/bad\n/private\n/bad too'], (b, s, e) => (b[s + 1] === 0x62 ? `line of ${e - s} bytes` : null))
    expect(r.stdout).toBe('allowed\t0\t/ok\nerror\t0\t/bad\ndisallowed\t2\t/private\nerror\t0\t/bad too\n')
    expect(r.stderr).toBe('robotstxt: --urls line 2: line of 4 bytes\nrobotstxt: --urls line 4: line of 8 bytes\n')
  })

  test('each kind of control character is echoed escaped, alone in its block or not; other text is untouched', async () => {
    // The engine flags C0 and DEL in its copy, C1 and bidi controls in the UTF-8 it echoes.
    const cases: [string, string][] = [
      ['/a\x1b[2J', '/a\\x1b[2J'], ['/b\x7f', '/b\\x7f'], ['/c\tx', '/c\\tx'], ['/d\u009b1m', '/d\\x9b1m'],
      ['/e\u0085', '/e\\x85'], ['/f\u202ex', '/f\\u202ex'], ['/g\u2069', '/g\\u2069'], ['/private\u2066', '/private\\u2066'],
      // The bidi marks: they move the digits and punctuation beside them.
      ['/h\u200e1', '/h\\u200e1'], ['/i\u200f.', '/i\\u200f.'], ['/j\u061c2', '/j\\u061c2'],
    ]
    for (const [url, shown] of cases) {
      const r = await streamOf([url + '\n'])
      expect(r.stdout).toBe(`${url.startsWith('/private') ? 'disallowed\t2' : 'allowed\t0'}\t${shown}\n`)
    }
    const near = '/\u00e9\u00a0\u2028\u2029\u202f\u2065\u206a\ufeff'
    expect((await streamOf([near + '\n'])).stdout).toBe(`allowed\t0\t${near}\n`)
  })

  test('ill-formed UTF-8 is echoed as its bytes, \\xHH each; a BOM only at the very start is dropped (elsewhere the line is no URL)', async () => {
    const r = await streamOf([Uint8Array.of(0xef, 0xbb, 0xbf, 0x2f, 0x61, 0xff, 0x0a), enc.encode('\ufeff/b\n/private/\u00e9\n')])
    expect(r.stdout).toBe('allowed\t0\t/a\\xff\nerror\t0\t\ufeff/b\ndisallowed\t2\t/private/\u00e9\n')
  })

  test('every ill-formed sequence is escaped byte by byte, well-formed text around it kept; lines stay one per input line', async () => {
    const bad = [
      [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80, 0xbf],
    ]
    const chunks = bad.map((b) => Uint8Array.from([0x2f, 0x78, ...b, 0xc3, 0xa9, 0x0a]))
    const r = await streamOf(chunks)
    const hex = (b: number[]) => b.map((x) => `\\x${x.toString(16).padStart(2, '0')}`).join('')
    expect(r.stdout.split('\n').slice(0, -1)).toEqual(bad.map((b) => `allowed\t0\t/x${hex(b)}\u00e9`))
  })
})

describe('cli: robots.txt over HTTP (node:http on 127.0.0.1)', () => {
  let server: Server
  let base = ''
  let status = 200
  let body = ''
  let seen: IncomingHttpHeaders[] = []

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers)
      if (req.url !== '/robots.txt') {
        res.writeHead(404).end()
        return
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })
  const serve = (s: number, b = '') => {
    status = s
    body = b
    seen = []
  }

  test('200: the fetched rules decide; the outcome is reported on stderr; the default User-Agent is sent', async () => {
    serve(200, 'User-agent: *\nDisallow: /private\n')
    const r = await run(['check', `${base}/any/page`, 'Googlebot', `${base}/private/x`, '/public', `${base}/`])
    expect(r.stderr).toBe(`robots.txt: 200 ok (${base}/robots.txt)\n`)
    expect(r.stdout).toBe(`disallowed\t2\t${base}/private/x\nallowed\t0\t/public\nallowed\t0\t${base}/\n`)
    expect(r.code).toBe(1)
    expect(seen[0]!['user-agent']).toMatch(/^Googlebot \(compatible; robotstxt-wasm\/\d+\.\d+\.\d+\S*; \+https:\/\/www\.npmjs\.com\/package\/robotstxt-wasm\)$/)
    seen = []
    const ua = await run(['check', base, 'Googlebot', '/', '--user-agent', 'MyCrawler/1.0'])
    expect(ua.code).toBe(0)
    expect(seen[0]!['user-agent']).toBe('MyCrawler/1.0')
  })

  test('404: allow-all, line 0, exit 0', async () => {
    serve(404)
    const r = await run(['check', base, 'Googlebot', `${base}/private/x`])
    expect(r).toEqual({ code: 0, stdout: `allowed\t0\t${base}/private/x\n`, stderr: `robots.txt: 404 allow-all (${base}/robots.txt)\n` })
  })

  test('503: disallow-all, line 0, exit 1, for positional URLs and streams', async () => {
    serve(503, 'User-agent: *\nAllow: /\n')
    const r = await run(['check', base, 'Googlebot', '/a', `${base}/b`])
    expect(r).toEqual({ code: 1, stdout: `disallowed\t0\t/a\ndisallowed\t0\t${base}/b\n`, stderr: `robots.txt: 503 disallow-all, retry after 60 s (${base}/robots.txt)\n` })
    const s = await run(['check', base, 'Googlebot', '--urls', '-'], `/a\n${base}/b\n`)
    expect(s).toEqual({ code: 1, stdout: `disallowed\t0\t/a\ndisallowed\t0\t${base}/b\n`, stderr: `robots.txt: 503 disallow-all, retry after 60 s (${base}/robots.txt)\n` })
  })

  test('hardening 9: bad lines in a 10,000-line list each get their own error; every other line its verdict', async () => {
    serve(200, 'User-agent: *\nDisallow: /private\n')
    const lines: string[] = []
    for (let i = 1; i <= 10_000; i++) {
      lines.push(i === 5000 ? '' : i === 7001 ? 'https://elsewhere.example/x' : i === 9999 ? 'not a url at all' : i % 2 ? `${base}/private/${i}` : `/public/${i}`)
    }
    const r = await run(['check', base, 'Googlebot', '--urls', '-'], lines.join('\n') + '\n')
    expect(r.code).toBe(3)
    const out = r.stdout.split('\n').slice(0, -1)
    expect(out).toHaveLength(10_000)
    out.forEach((line, k) => {
      const i = k + 1
      if (i === 5000 || i === 7001 || i === 9999) expect(line).toBe(`error\t0\t${lines[k]}`)
      else expect(line).toBe(i % 2 ? `disallowed\t2\t${lines[k]}` : `allowed\t0\t${lines[k]}`)
    })
    expect(r.stderr).toBe(
      `robots.txt: 200 ok (${base}/robots.txt)\n` +
      `robotstxt: --urls line 5000: expected an absolute URL (https://host/path) or a path starting with "/", got ""\n` +
      `robotstxt: --urls line 7001: "https://elsewhere.example/x" is not on ${base}, whose robots.txt was fetched\n` +
      `robotstxt: --urls line 9999: expected an absolute URL (https://host/path) or a path starting with "/", got "not a url at all"\n`,
    )
  })

  test('a URL on another origin than the fetched robots.txt is an error (exit 2)', async () => {
    serve(200, 'User-agent: *\nDisallow: /\n')
    const r = await run(['check', base, 'Googlebot', 'http://example.com/x'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`robotstxt: "http://example.com/x" is not on ${base}, whose robots.txt was fetched`)
  })

  test('lint of a robots.txt redirected to another host says whose file it is', async () => {
    const target = await serveAt('127.0.0.2', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /x\n'))
    const from = await serveAt('127.0.0.1', (_req, res) => res.writeHead(301, { location: `${target}/robots.txt` }).end())
    const l = await run(['lint', `${from}/robots.txt`, '--json'])
    const findings = (JSON.parse(l.stdout) as { findings: { code: string; message: string }[] }).findings
    expect(findings.find((f) => f.code === 'redirect')?.message).toBe(`${from}/robots.txt redirects to ${target}/robots.txt: the rules here are ${target.slice('http://'.length)}'s file, and crawlers apply them to the URLs of ${from}`)
  })

  test('explain and lint on a fetched robots.txt', async () => {
    serve(200, 'User-agent: googlebot\nDisallow: /p\nDissallow: /q\n')
    const e = await run(['explain', base, 'Googlebot', `${base}/p/1`, '--json'])
    expect(e.code).toBe(0)
    expect(JSON.parse(e.stdout)).toMatchObject({ fetch: { origin: base, status: 200, outcome: 'ok' }, allowed: false, line: 2, group: 'specific' })
    const l = await run(['lint', `${base}/robots.txt`])
    expect(l.code).toBe(0)
    expect(l.stdout).toBe(`${base}/robots.txt:3: warning: "Dissallow" is read as Disallow by Google, but other crawlers may not accept the misspelling [typo]\n${base}/robots.txt: 0 errors, 1 warning, 0 infos\n`)
    serve(503)
    const down = await run(['explain', base, 'Googlebot', '/x'])
    expect(down.code).toBe(0)
    expect(down.stdout).toContain('verdict  disallowed\n')
    expect(down.stdout).toContain('the robots.txt fetch got 503')
    const lintDown = await run(['lint', base, '--json'])
    expect(lintDown.code).toBe(1)
    expect(JSON.parse(lintDown.stdout)).toMatchObject({ fetch: { status: 503, outcome: 'disallow-all' }, summary: { errors: 1 } })
  })

  test('an unreachable server: no status, disallow-all', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const r = await run(['check', `http://127.0.0.1:${port}/`, 'Googlebot', '/a', '--timeout', '5000'])
    expect(r).toEqual({ code: 1, stdout: 'disallowed\t0\t/a\n', stderr: expect.stringMatching(new RegExp(`^robots\\.txt: no response: connection refused \\(.*ECONNREFUSED.*\\); disallow-all, retry after 60 s \\(http://127\\.0\\.0\\.1:${port}/robots\\.txt\\)\\n$`)) })
  })
})

describe('cli: filter (mixed hosts, robots.txt from 127.0.0.0/8 servers)', () => {
  let hosts: LoopbackHosts
  let port = 0
  let asked = new Map<string, number>()
  beforeAll(async () => {
    hosts = await loopbackHosts((host) => `User-agent: *\nDisallow: /private\n\nUser-agent: ${host.startsWith('127.0.0.2:') ? 'filterbot' : 'other'}\nDisallow: /\n`)
    port = hosts.port
    asked = hosts.asked
  })
  afterAll(() => hosts.close())

  const at = (n: number, path: string) => `http://127.0.0.${n}:${port}${path}`

  test('prints the allowed URLs in input order; each origin fetched once; exit 1 when some are disallowed', async () => {
    asked.clear()
    const urls = [at(1, '/a'), at(2, '/a'), at(1, '/private/x'), at(3, '/a'), at(4, '/private'), at(1, '/b'), at(2, '/b')]
    const r = await run(['filter', 'FilterBot/1.0'], urls.join('\n') + '\n')
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    expect(r.stdout).toBe([at(1, '/a'), at(4, '/private'), at(1, '/b'), ''].join('\n'))
    expect([...asked.values()]).toEqual([1, 1, 1, 1])
  })

  test('--verdicts and --json print every URL with verdict, line and outcome; bad lines cost only themselves (exit 3)', async () => {
    const input = [at(1, '/private/x'), 'not a url', at(3, '/x'), '', at(4, '/y')].join('\r\n')
    const v = await run(['filter', 'x', '--verdicts', '--urls', '-'], input)
    expect(v.code).toBe(3)
    expect(v.stdout).toBe([
      `disallowed\t2\tok\t${at(1, '/private/x')}`,
      'error\t0\t-\tnot a url',
      `disallowed\t0\tdisallow-all\t${at(3, '/x')}`,
      'error\t0\t-\t',
      `allowed\t0\tallow-all\t${at(4, '/y')}`,
      '',
    ].join('\n'))
    expect(v.stderr).toMatch(/^robotstxt: --urls line 2: .*expected an absolute http: or https: URL.*\nrobotstxt: --urls line 4: .*\n$/)
    const list = file('filter-urls.txt', input)
    const j = await run(['filter', 'x', '--json', '--urls', list, '--concurrency', '2'])
    expect(j.code).toBe(3)
    const records = j.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(records.map((x) => [x.allowed, x.line, x.origin, x.outcome])).toEqual([
      [false, 2, at(1, ''), 'ok'], [false, 0, null, null], [false, 0, at(3, ''), 'disallow-all'], [false, 0, null, null], [true, 0, at(4, ''), 'allow-all'],
    ])
    expect(typeof records[1]!.error).toBe('string')
  })

  test('blank and garbage lines are errors in filter and in check --urls alike; ill-formed UTF-8 is echoed as \\xHH in both', async () => {
    const input = Buffer.concat([Buffer.from(`${at(1, '/a')}\n\nnot a url\n${at(1, '/caf')}`), Uint8Array.of(0xff), Buffer.from(`\n${at(1, '/private/x')}\n`)])
    const f = await run(['filter', 'x', '--verdicts'], input)
    expect(f.stdout).toBe([`allowed\t0\tok\t${at(1, '/a')}`, 'error\t0\t-\t', 'error\t0\t-\tnot a url', `allowed\t0\tok\t${at(1, '/caf')}\\xff`, `disallowed\t2\tok\t${at(1, '/private/x')}`, ''].join('\n'))
    const allowed = await run(['filter', 'x'], input)
    expect(allowed.stdout).toBe(`${at(1, '/a')}\n${at(1, '/caf')}\\xff\n`)
    const robots = file('filter-like.txt', 'User-agent: *\nDisallow: /private\n')
    const c = await run(['check', robots, 'x', '--urls', '-'], input)
    expect(c.stdout).toBe([`allowed\t0\t${at(1, '/a')}`, 'error\t0\t', 'error\t0\tnot a url', `allowed\t0\t${at(1, '/caf')}\\xff`, `disallowed\t2\t${at(1, '/private/x')}`, ''].join('\n'))
    for (const r of [f, allowed, c]) {
      expect(r.code).toBe(3)
      expect(r.stderr.split('\n').slice(0, -1).map((l) => /^robotstxt: --urls line \d+/.exec(l)?.[0])).toEqual(['robotstxt: --urls line 2', 'robotstxt: --urls line 3'])
    }
    // With threads the same bytes come out.
    expect((await run(['filter', 'x', '--verdicts', '--threads', '2'], input)).stdout).toBe(f.stdout)
    expect((await run(['check', robots, 'x', '--urls', '-', '--threads', '2'], input)).stdout).toBe(c.stdout)
  })

  test('a line longer than 1 MiB characters is an error line of its own', async () => {
    const r = await run(['filter', 'x', '--verdicts'], `${at(1, '/a')}\n${at(1, '/' + 'z'.repeat(1_100_000))}\n${at(1, '/private')}`)
    expect(r.code).toBe(3)
    expect(r.stdout).toBe(`allowed\t0\tok\t${at(1, '/a')}\nerror\t0\t-\t\ndisallowed\t2\tok\t${at(1, '/private')}\n`)
    expect(r.stderr).toBe('robotstxt: --urls line 2: longer than 1,048,576 characters; expected one URL per line\n')
  })

  test('on a terminal, stderr shows progress and a summary', async () => {
    const list = file('filter-tty.txt', Array.from({ length: 3000 }, (_, i) => at(1 + (i % 4), `/p${i}`)).join('\n'))
    const out = join(tmp, 'filter-tty.out')
    // script(1) gives the command a pseudo-terminal; stdout goes to a file, stderr to the terminal.
    // Spawned, not spawnSync: the robots.txt server runs in this process and must keep answering.
    const child = spawn('script', ['-qec', `${process.execPath} ${CLI} filter x --urls ${list} > ${out}`, '/dev/null'])
    let typescript = ''
    child.stdout.on('data', (c: Buffer) => (typescript += c.toString()))
    child.stdin.end()
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(status).toBe(1) // some URLs are disallowed
    expect(typescript).toMatch(/3,000 URLs \([0-9,]+\/s\), 4 origins: 2 ok, 1 allow-all, 1 disallow-all/)
    expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(2250)
  })

  test('usage errors exit 2', async () => {
    for (const [args, message] of [
      [['filter'], /missing AGENT/],
      [['filter', 'x', '--verdicts', '--json'], /--verdicts or --json, not both/],
      [['filter', 'x', '--concurrency', '0'], /--concurrency: expected a whole number/],
      [['filter', 'x', 'http://a/'], /unexpected argument/],
      [['filter', 'x', '--urls', join(tmp, 'missing.txt')], /cannot read/],
    ] as [string[], RegExp][]) {
      const r = await run(args)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(message)
    }
  })
})
