// `check --urls` and `filter` with --threads N (the ordered pool, src/threads/pool.ts), run for
// real as `node dist/cli.js`: the same output bytes, errors and exit status for any N, from a file
// or stdin, on input with every kind of line the CLI treats apart; each robots.txt fetched once
// whatever N; bad --threads values; a worker that fails ends the command with status 2, no hang;
// filter's peak memory at 1M URLs on 1 and 2 threads.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CLI } from './helpers/cli.js'
import { ensureDist } from './helpers/dist.js'
import { loopbackHosts, type LoopbackHosts } from './helpers/server.js'

const BREAK_WORKERS = fileURLToPath(new URL('./helpers/break-workers.mjs', import.meta.url))

interface Out { code: number | null; stdout: Buffer; stderr: string }

/** The CLI with `args`, stdin fed `input`; stdout kept as bytes (ill-formed UTF-8 must survive). */
function cli(args: string[], input?: Uint8Array | string, nodeArgs: string[] = []): Promise<Out> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { env: { ...process.env, NO_COLOR: '' } })
    const out: Buffer[] = []
    let err = ''
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: err }))
    child.stdin.on('error', () => {})
    child.stdin.end(input)
  })
}

let tmp = ''
beforeAll(() => {
  ensureDist()
  tmp = mkdtempSync(join(tmpdir(), 'robotstxt-threads-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function file(name: string, content: string | Uint8Array): string {
  const path = join(tmp, name)
  writeFileSync(path, content)
  return path
}

const enc = new TextEncoder()
const concat = (parts: (string | Uint8Array)[]): Uint8Array => Buffer.concat(parts.map((p) => (typeof p === 'string' ? enc.encode(p) : p)))

/**
 * Over 3 MiB of URL lines, so that blocks of 1 MiB split it several times, with every kind of line
 * in between: control characters the CLI escapes, CRLF, a lone CR, empty lines, ill-formed UTF-8,
 * a BOM at the start and one inside, a line over the 1 MiB limit; the last line has no LF.
 */
function trickyList(): Uint8Array {
  const parts: (string | Uint8Array)[] = ['\ufeff/first\n']
  for (let i = 0; i < 60_000; i++) {
    parts.push(i % 3 === 0 ? `/private/${i}\n` : `/page/${i}?q=${i}\r\n`)
    if (i % 9_973 === 0) parts.push('/esc\x1b[31m\t\u009b\u202e\n', '\n', '/cr\ronly\n', Uint8Array.of(0x2f, 0xff, 0xc3, 0x0a), '\ufeff/bom\n', '/caf\u00e9\n')
    if (i === 31_000) parts.push('/' + 'x'.repeat(1_100_000) + '\n')
  }
  parts.push('/last/no/lf')
  return concat(parts)
}

describe('check --urls --threads N', () => {
  test('the same bytes, messages and status for 1, 2 and 3 threads, from a file and from stdin', async () => {
    const robots = file('robots.txt', 'User-agent: *\nDisallow: /private\nAllow: /private/3\n')
    const list = trickyList()
    const path = file('urls.txt', list)
    const one = await cli(['check', robots, 'bot', '--urls', path])
    expect(one.code).toBe(3)
    // The one line too long, and each block's blank line and line starting with a BOM (neither a URL nor a path).
    const messages = one.stderr.split('\n').slice(0, -1)
    expect(messages.filter((m) => /^robotstxt: --urls line \d+: longer than 1,048,576 bytes; expected one URL per line$/.test(m))).toHaveLength(1)
    expect(messages.filter((m) => /^robotstxt: --urls line \d+: expected an absolute URL \(https:\/\/host\/path\) or a path starting with "\/", got "(|\ufeff\/bom)"$/.test(m))).toHaveLength(14)
    expect(messages).toHaveLength(15)
    const text = one.stdout.toString('latin1')
    expect(text).toContain('\t/esc\\x1b[31m\\t\\x9b\\u202e\n')
    expect(text).toContain('allowed\t0\t/\\xff\\xc3\n')
    expect(text.endsWith('allowed\t0\t/last/no/lf\n')).toBe(true)
    expect(one.stdout.toString('utf8').split('\n').length - 1).toBe(60_000 + 7 * 6 + 3)
    for (const threads of ['1', '2', '3']) {
      for (const viaStdin of [false, true]) {
        const r = viaStdin ? await cli(['check', robots, 'bot', '--urls', '-', '--threads', threads], list) : await cli(['check', robots, 'bot', '--urls', path, '--threads', threads])
        expect({ code: r.code, stderr: r.stderr }, `${threads} threads, stdin ${viaStdin}`).toEqual({ code: one.code, stderr: one.stderr })
        expect(r.stdout.equals(one.stdout), `${threads} threads, stdin ${viaStdin}`).toBe(true)
      }
    }
  })

  test('a fetched robots.txt: lines on another origin are rejected the same way on any thread', async () => {
    const server: Server = createServer((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /private\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const lines = Array.from({ length: 30_000 }, (_, i) => (i % 1000 === 7 ? `https://elsewhere.example/${i}` : `${base}/${i % 2 ? 'private/' : ''}${i}`))
      const path = file('fetched-urls.txt', lines.join('\n') + '\n')
      const one = await cli(['check', `${base}/robots.txt`, 'bot', '--urls', path])
      const two = await cli(['check', `${base}/robots.txt`, 'bot', '--urls', path, '--threads', '2'])
      expect(one.code).toBe(3)
      expect(one.stderr.split('\n').filter((l) => l.includes('not on')).length).toBe(30)
      expect({ code: two.code, stderr: two.stderr }).toEqual({ code: one.code, stderr: one.stderr })
      expect(two.stdout.equals(one.stdout)).toBe(true)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  test('a worker that fails ends the command: status 2 and its error on stderr, no hang', async () => {
    const robots = file('robots-fail.txt', 'User-agent: *\nDisallow: /private\n')
    const path = file('fail-urls.txt', '/a\n/private\n'.repeat(200_000))
    const r = await cli(['check', robots, 'bot', '--urls', path, '--threads', '2'], undefined, ['--import', BREAK_WORKERS])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('no wasm on this worker')
    // The main thread alone is untouched by the preload.
    expect((await cli(['check', robots, 'bot', '--urls', path], undefined, ['--import', BREAK_WORKERS])).code).toBe(1)
  })
})

describe('filter --threads N', () => {
  let hosts: LoopbackHosts
  let port = 0
  let asked = new Map<string, number>()
  beforeAll(async () => {
    hosts = await loopbackHosts(() => 'User-agent: *\nDisallow: /private\n')
    port = hosts.port
    asked = hosts.asked
  })
  afterAll(() => hosts.close())

  test('the same output, messages and status for 1, 2 and 3 threads; each robots.txt fetched once', async () => {
    const parts: (string | Uint8Array)[] = []
    for (let i = 0; i < 40_000; i++) {
      parts.push(`http://127.0.0.${1 + (i % 4)}:${port}/${i % 5 === 0 ? 'private/' : ''}${i}${i % 2 ? '\r\n' : '\n'}`)
      if (i % 9_001 === 0) parts.push('not a url\n', '\n', `http://127.0.0.1:${port}/esc\x1b[2J\n`, Uint8Array.of(0x68, 0xff, 0x0a))
      if (i === 20_000) parts.push('h' + 'x'.repeat(1_100_000) + '\n')
    }
    parts.push(`http://127.0.0.2:${port}/last`)
    const list = concat(parts)
    const path = file('filter-urls.txt', list)
    for (const mode of [[], ['--verdicts'], ['--json']]) {
      asked.clear()
      const one = await cli(['filter', 'bot', '--urls', path, ...mode])
      expect(one.code).toBe(3)
      expect([...asked.values()]).toEqual([1, 1, 1, 1])
      expect(one.stderr).toContain('longer than 1,048,576 characters')
      for (const threads of ['2', '3']) {
        for (const viaStdin of [false, true]) {
          asked.clear()
          const r = viaStdin ? await cli(['filter', 'bot', '--threads', threads, ...mode], list) : await cli(['filter', 'bot', '--urls', path, '--threads', threads, ...mode])
          const label = `${mode.join(' ')} ${threads} threads, stdin ${viaStdin}`
          expect({ code: r.code, stderr: r.stderr }, label).toEqual({ code: one.code, stderr: one.stderr })
          expect(r.stdout.equals(one.stdout), label).toBe(true)
          expect([...asked.values()], label).toEqual([1, 1, 1, 1])
        }
      }
    }
  })

  test('memory stays flat: 1,000,000 URLs on 4 origins peak under 440 MiB on 1 and on 2 threads', async () => {
    // Each thread count's peak (reported by the child as it exits) is about 250 and 330
    // MiB from 100,000 URLs to 3,000,000. Before, 1 thread held every URL read (~650 MiB at 1M,
    // 1.6 GiB at 3M) and 2 threads' workers settled near 200 MiB of heap each (~560 MiB).
    const lines: string[] = []
    for (let i = 0; i < 1_000_000; i++) lines.push(`http://127.0.0.${1 + (i % 4)}:${port}/${i % 5 === 0 ? 'private/' : ''}page/${i}?q=${i % 97}`)
    const path = file('filter-million.txt', lines.join('\n') + '\n')
    // The child's own peak: Linux's VmHWM (maxRSS keeps the parent's RSS at the fork, this test
    // process's), maxRSS where /proc is missing.
    const usage = file('max-rss.cjs', `process.on('exit', () => {
      let kib = process.resourceUsage().maxRSS
      try { kib = Number(/VmHWM:\\s*(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]) } catch {}
      process.stderr.write('maxRSS ' + kib + '\\n')
    })
`)
    const outputs: Buffer[] = []
    for (const threads of ['1', '2']) {
      asked.clear()
      const r = await cli(['filter', 'bot', '--urls', path, '--threads', threads], undefined, ['--require', usage])
      expect(r.code).toBe(1)
      expect([...asked.values()]).toEqual([1, 1, 1, 1])
      const peak = Number(/maxRSS (\d+)/.exec(r.stderr)?.[1]) / 1024
      console.log(`filter, 1,000,000 URLs, ${threads} thread(s): peak RSS ${peak.toFixed(0)} MiB`)
      expect(peak).toBeLessThan(440)
      outputs.push(r.stdout)
    }
    // Allowed: every URL on 127.0.0.4 (404: allow-all), the 4 in 5 not under /private on .1 and .2,
    // none on .3 (503: disallow-all).
    expect(outputs[0]!.toString().split('\n').length - 1).toBe(650_000)
    expect(outputs[1]!.equals(outputs[0]!)).toBe(true)
  }, 120_000)

  test('a robots.txt that never answers: fetched once, by the main thread, for any N (--timeout 1000)', async () => {
    // Found by review: a worker waited for the main thread's answer no longer than the fetch
    // timeout, which is what the main thread's own fetch takes, so the worker gave up first and
    // fetched the robots.txt itself: two fetches, and each such origin cost twice the timeout.
    const asks: string[] = []
    const silent: Server = createServer((req) => void asks.push(req.url ?? ''))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    try {
      const path = file('filter-silent.txt', Array.from({ length: 100_000 }, (_, i) => `${origin}/page/${i}\n`).join(''))
      const one = await cli(['filter', 'bot', '--urls', path, '--verdicts', '--timeout', '1000'])
      expect(one.code).toBe(1)
      expect(asks).toEqual(['/robots.txt'])
      asks.length = 0
      const three = await cli(['filter', 'bot', '--urls', path, '--verdicts', '--timeout', '1000', '--threads', '3'])
      expect({ code: three.code, stderr: three.stderr, same: three.stdout.equals(one.stdout) }).toEqual({ code: one.code, stderr: one.stderr, same: true })
      expect(asks).toEqual(['/robots.txt'])
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })

  test('a worker that fails ends the command: status 2, no hang', async () => {
    const path = file('filter-fail.txt', `http://127.0.0.1:${port}/a\n`.repeat(1000))
    const r = await cli(['filter', 'bot', '--urls', path, '--threads', '2'], undefined, ['--import', BREAK_WORKERS])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('no wasm on this worker')
  })
})

test('--threads takes a whole number from 1 to 256, and goes with check --urls', async () => {
  const robots = file('robots-usage.txt', 'User-agent: *\nDisallow: /x\n')
  for (const bad of ['0', '257', 'x', '2.5', '']) {
    for (const args of [['check', robots, 'bot', '--urls', '-'], ['filter', 'bot'], ['survey', robots]]) {
      const r = await cli([...args, '--threads', bad], '')
      expect(r.code, `${args[0]} --threads ${bad}`).toBe(2)
      // The message, then the option's line of the command's help.
      expect(r.stderr).toMatch(new RegExp(`^robotstxt ${args[0]}: --threads: expected a whole number from 1 to 256, got "${bad.replace('.', '\\.')}"\n  --threads N  \\S[^\n]*\nTry 'robotstxt help ${args[0]}'\\.\n$`))
    }
  }
  const r = await cli(['check', robots, 'bot', '/a', '--threads', '2'])
  expect([r.code, r.stderr]).toEqual([2, "robotstxt check: --threads: goes with --urls FILE\n  --threads N  with --urls, threads checking the lines (default 1, at most 256): this\nTry 'robotstxt help check'.\n"])
})
