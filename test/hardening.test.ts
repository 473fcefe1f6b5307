// The host layer against a hostile site and a careless caller: each test names the hardening item
// it pins, and each failed on the release before the fix.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, describe, expect, onTestFinished, test } from 'vitest'
import { getEngine } from '../src/engine/wasm.js'
import { parseRobots } from '../src/index.js'
import { LINES_OF_NOTHING } from '../bench/shapes.mjs'

describe('hardening 2: parseRobots(bytes) copies what it reads', () => {
  test('a reused Node Buffer does not change the verdicts, lines or sitemaps of an existing Robots', () => {
    const buf = Buffer.alloc(64, 0x20)
    buf.write('User-agent: *\nDisallow: /a\nSitemap: https://x/s1\n')
    const robots = parseRobots(buf)
    // The caller reuses its buffer for the next file, as stream readers do.
    buf.fill(0x20)
    buf.write('User-agent: *\nAllow: /\nSitemap: https://x/s2\n')
    expect(robots.isAllowed('https://x/a', 'bot')).toBe(false)
    expect(robots.sitemaps).toEqual(['https://x/s1'])
    expect(robots.lines[1]).toMatchObject({ type: 'disallow', value: '/a' })
  })
  test('a view into a large buffer: the reused bytes do not leak in, past the view or the cut', () => {
    const big = new Uint8Array(1 << 20)
    const text = new TextEncoder().encode('User-agent: *\nDisallow: /private\n')
    big.set(text, 1000)
    const robots = parseRobots(big.subarray(1000, 1000 + text.length), { maxBytes: 26 })
    big.fill(0x41)
    // The cut is 26 bytes: "Disallow: /p", so /p* is disallowed and nothing of the 'A's is read.
    expect(robots.check('https://x/pq', 'bot')).toMatchObject({ allowed: false, line: 2, rule: { pattern: '/p' } })
    expect(robots.lines).toHaveLength(2)
  })
  test('a small file from a pooled Buffer keeps only its own bytes', () => {
    // Buffer.from(string) takes small buffers from Node's shared 8 KiB pool.
    const pooled = Buffer.from('User-agent: *\nDisallow: /x\n')
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length)
    const robots = parseRobots(pooled)
    // What the Robots holds is reachable through the bytes it hands to lint (LineReport values are
    // strings), so measure instead what a compiled matcher and the body cost: the body is private.
    const held = (robots as unknown as { parsed: { body: Uint8Array } }).parsed.body
    expect(held.buffer.byteLength).toBe(pooled.length)
  })
})

describe('hardening 6: the per-agent matcher cache of Robots.isAllowed and check', () => {
  const robots = parseRobots('User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n')
  test("keys cannot collide: 'a/1\\nb' is agent a, ['a/1', 'b'] is agents a and b", () => {
    expect(robots.isAllowed('https://x/b', ['a/1', 'b'])).toBe(false)
    expect(robots.isAllowed('https://x/b', 'a/1\nb')).toBe(true)
    expect(robots.isAllowed('https://x/b', ['a/1', 'b'])).toBe(false)
    const r2 = parseRobots('User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n')
    expect(r2.isAllowed('https://x/b', 'a/1\nb')).toBe(true)
    expect(r2.isAllowed('https://x/b', ['a/1', 'b'])).toBe(false)
  })
  test('a cached agent is still validated: [["b"]] throws a TypeError every time', () => {
    expect(robots.isAllowed('https://x/b', ['b'])).toBe(false)
    const bad = [['b']] as unknown as string[]
    expect(() => robots.isAllowed('https://x/b', bad)).toThrow(TypeError)
    expect(() => robots.check('https://x/b', bad)).toThrow(/agent\[0\]: expected a user-agent string/)
  })
  test('least recently used is evicted, not first in', () => {
    const r = parseRobots('User-agent: *\nDisallow: /x\n')
    const keys = (): string[] => (r as unknown as { matcherKeys: string[] }).matcherKeys
    r.isAllowed('/x', 'keep')
    for (let i = 0; i < 15; i++) r.isAllowed('/x', `agent${i}`)
    r.isAllowed('/x', 'keep') // touch: now the most recent
    r.isAllowed('/x', 'one-more') // evicts agent0, the least recently used
    expect(keys()).toHaveLength(16)
    expect(keys()).toContain('["keep"]')
    expect(keys()).not.toContain('["agent0"]')
    expect(keys().at(-1)).toBe('["one-more"]')
  })
})

describe('hardening 6b: an agent array is validated in time linear in its length', () => {
  // Found by review, 2026-11-29: duplicates were dropped by a scan of the tokens kept so far, so
  // 80,000 distinct agents took 7 s to validate. Validation alone is timed (the last element is
  // invalid), as a growth ratio: 8x the agents must cost far less than the 64x of a quadratic.
  test('8x the agents costs less than 24x the time', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /a\n')
    const agents = (n: number) => [...Array.from({ length: n }, (_, i) => `bot${i.toString(36)}`), '']
    const best = (list: string[]) => {
      let t = Infinity
      for (let k = 0; k < 3; k++) {
        const start = performance.now()
        expect(() => robots.isAllowed('/a', list)).toThrow(new RegExp(`^agent\\[${list.length - 1}\\]: expected a user-agent with a non-empty product token`))
        t = Math.min(t, performance.now() - start)
      }
      return t
    }
    const small = agents(10_000)
    const large = agents(80_000)
    best(small)
    expect(best(large) / best(small)).toBeLessThan(24)
  })
})

describe('hardening 4: lone surrogates split across batch URLs encode as isAllowed does', () => {
  // Node batches go in as UTF-16 (Buffer); Workers, browsers and Deno through TextEncoder.
  test.each([['UTF-16', true], ['TextEncoder', false]])('%s batches: "\\uD83D", "", "\\uDE00" are three U+FFFD URLs, not one pair', (_, utf16) => {
    const engine = getEngine()
    const saved = engine.utf16Batches
    engine.utf16Batches = utf16
    onTestFinished(() => { engine.utf16Batches = saved })
    const m = parseRobots('User-agent: *\nDisallow: /a%F0%9F%98%80\nDisallow: /*%EF%BF%BD$\n').matcher('bot')
    // More than 8 URLs, so that the joined batch path runs rather than one call per URL.
    const urls = ['/a\uD83D', '', '\uDE00', '/a\uD83D', '', '', '\uDE00', '/x', '/y', '/z', 'http://h/a\uD83D', '', '\uDE00b']
    const single = urls.map((u) => m.check(u))
    expect(single.slice(0, 3).map((v) => v.allowed)).toEqual([false, true, true])
    expect([...m.isAllowedMany(urls)]).toEqual(single.map((v) => (v.allowed ? 1 : 0)))
    expect([...m.checkMany(urls)]).toEqual(single.map((v) => (v.allowed ? v.line : -v.line)))
  })
})

describe('hardening 5: batches read each element once and survive reentrant callers', () => {
  const robots = parseRobots('User-agent: *\nDisallow: /private\n')
  test('a Proxy array: each element is read exactly once, by isAllowedMany and by checkMany', () => {
    const urls = Array.from({ length: 20 }, (_, i) => (i % 2 ? '/private/' : '/public/') + i)
    const m = robots.matcher('bot')
    for (const run of [(xs: string[]) => m.isAllowedMany(xs), (xs: string[]) => m.checkMany(xs)]) {
      const reads = new Array<number>(urls.length).fill(0)
      const proxy = new Proxy(urls, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads[Number(key)]!++
          return Reflect.get(target, key, receiver)
        },
      })
      run(proxy)
      expect(reads).toEqual(urls.map(() => 1))
    }
  })
  test('an element whose read checks URLs on another matcher, and one that changes on a second read', () => {
    const other = parseRobots('User-agent: *\nAllow: /\nDisallow: /' + 'x'.repeat(5000) + '\n').matcher('bot')
    const m = robots.matcher('bot')
    for (const size of [3, 50, 3000]) {
      let n = 0
      const urls: string[] = []
      for (let i = 0; i < size; i++) {
        Object.defineProperty(urls, i, {
          enumerable: true,
          get() {
            // A reentrant check with a long URL and a big table: it grows wasm memory and swaps the
            // resident table; and a second read of the element would see another URL.
            other.isAllowedMany(['/' + 'x'.repeat(5000 + (n % 7)), '/a', ...Array.from({ length: 9 }, () => '/' + 'y'.repeat(20000))])
            return n++ < size ? (i % 2 ? '/private/' + i : '/ok/' + i) : '/private/second-read'
          },
        })
      }
      const want = Array.from({ length: size }, (_, i) => (i % 2 ? 0 : 1))
      expect([...m.isAllowedMany(urls)]).toEqual(want)
      n = 0
      expect([...m.checkMany(urls)].map((r) => (r > 0 ? 1 : r === 0 ? 1 : 0))).toEqual(want)
    }
  })
  test('a URL subclass whose href checks another matcher', () => {
    const other = parseRobots('User-agent: *\nDisallow: /' + 'q'.repeat(3000) + '\n').matcher('bot')
    class Sneaky extends URL {
      override get href(): string {
        other.isAllowedMany(Array.from({ length: 20 }, (_, i) => '/' + 'q'.repeat(3000 + i)))
        return super.href
      }
    }
    const m = robots.matcher('bot')
    const urls = Array.from({ length: 30 }, (_, i) => new Sneaky(i % 3 ? 'https://x/private/' + i : 'https://x/o/' + i))
    expect([...m.isAllowedMany(urls)]).toEqual(urls.map((_, i) => (i % 3 ? 0 : 1)))
    expect(m.isAllowed(new Sneaky('https://x/private'))).toBe(false)
    expect(m.check(new Sneaky('https://x/ok'))).toEqual({ allowed: true, line: 0 })
  })
})

describe('hardening 8: a refused memory.grow fails one call, and the engine keeps working', () => {
  // wasm32 memory cannot pass 4 GiB: a URL of 500 million characters needs 1.5 GB of input area
  // and 4.5 GB of scratch, so the real memory.grow is refused without allocating anything.
  const huge = '/' + 'a'.repeat(500_000_000)
  test('a URL too large for WebAssembly memory: RangeError, then old and new matchers still answer', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\n')
    const old = robots.matcher('bot')
    const before = [old.check('/private/x'), old.check('/private/ok')]
    const memory = getEngine().memoryBytes
    expect(() => old.isAllowed(huge)).toThrow(RangeError)
    expect(() => old.isAllowedMany(['/a', huge, ...Array.from({ length: 10 }, () => '/b')])).toThrow(/WebAssembly memory/)
    expect(getEngine().memoryBytes).toBe(memory)
    expect([old.check('/private/x'), old.check('/private/ok')]).toEqual(before)
    const urls = Array.from({ length: 2000 }, (_, i) => (i % 2 ? '/private/' : '/public/') + 'x'.repeat(i))
    expect([...old.isAllowedMany(urls)]).toEqual(urls.map((_, i) => (i % 2 ? 0 : 1)))
    const fresh = parseRobots('User-agent: *\nDisallow: /' + 'z'.repeat(30_000) + '\n').matcher('bot')
    expect(fresh.isAllowed('/' + 'z'.repeat(30_001))).toBe(false)
    expect(old.isAllowed('/private/x')).toBe(false)
  })
})

describe('hardening: raw URL strings are matched as written, as Google matches them', () => {
  const robots = parseRobots('User-agent: *\nDisallow: /private\n')
  test.each([
    ['https://example.com/a/../private', 'https://example.com/private'],
    ['https://example.com/a/%2e%2e/private', 'https://example.com/private'],
    ['https://example.com/a/%2E%2E/private', 'https://example.com/private'],
  ])('%s is allowed as written; new URL() gives %s, the request an HTTP client sends', (raw, requested) => {
    expect(robots.isAllowed(raw, 'bot')).toBe(true)
    expect(new URL(raw).href).toBe(requested)
    expect(robots.isAllowed(new URL(raw), 'bot')).toBe(false)
  })
  test('a backslash is a path byte as written; new URL() turns it into a slash', () => {
    expect(robots.isAllowed('https://example.com\\private', 'bot')).toBe(true)
    expect(robots.isAllowed(new URL('https://example.com\\private'), 'bot')).toBe(false)
  })
})

describe('hardening 1: every accessor and CLI command is linear on hostile 500 KiB files', () => {
  // Not a benchmark (npm run bench has the table, with each accessor against the matcher): this
  // only tells linear from quadratic. Each cost is measured on a 64 KB and on a 500 KiB file of the
  // same shape in a child process with a large young generation, best of three: linear work grows about 8x and
  // quadratic about 64x (the release before: sitemaps cost 668x the matcher at 500 KiB).
  const GROWTH_BOUND = 24
  // Below this a time is mostly timer resolution and noise: a cost this small hides nothing.
  const FLOOR_MS = 1
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-linear-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  type Measured = { costs: Record<string, Record<string, [number, number]>>; ratios: Record<string, Record<string, number>> }
  let measured: Measured | undefined
  /** The child's costs and ratios, measured once for both tests. */
  async function child(): Promise<Measured> {
    if (measured !== undefined) return measured
    const out = join(dir, 'linearity-child.mjs')
    await build({ entryPoints: [join(import.meta.dirname, 'helpers', 'linearity-child.ts')], bundle: true, platform: 'node', target: 'node18', format: 'esm', outfile: out, loader: { '.wasm': 'base64' }, logLevel: 'error' })
    measured = JSON.parse(execFileSync(process.execPath, ['--max-semi-space-size=128', out], { encoding: 'utf8', timeout: 300_000 })) as Measured
    return measured
  }
  test('sitemaps, lines, crawlDelay, isAllowed, check, directives, usagePreferences, forEachLine, lint and explain, on every hostile shape', async () => {
    const result = (await child()).costs
    const verdicts: string[] = []
    for (const [shape, costs] of Object.entries(result)) {
      for (const [name, [small, large]] of Object.entries(costs)) {
        const growth = large / Math.max(small, FLOOR_MS)
        if (growth >= GROWTH_BOUND) verdicts.push(`${shape}: ${name} grew ${growth.toFixed(1)}x (${small.toFixed(1)} -> ${large.toFixed(1)} ms)`)
      }
    }
    console.log(`linearity, 64 KB -> 500 KiB: ${Object.entries(result).map(([s, c]) => `${s}: lines ${(c.lines![1] / Math.max(c.lines![0], FLOOR_MS)).toFixed(1)}x`).join('; ')}`)
    expect(verdicts).toEqual([])
  })
  // The bench holds these to 5x the matcher (npm run bench, "worst shape"); this bound leaves room
  // for noise and still fails the release before, where directives and usagePreferences cost 10-14x
  // here on the lines of nothing and usagePreferences 17-21x on the usage preference lines. `lines`
  // on the lines of nothing is left out: it keeps a frozen object per line there, and `forEachLine`
  // is the report held to the bound (the bench holds `lines` there to 10x).
  const RATIO_BOUND = 9
  test('every accessor costs at most 9x parseRobots(body).matcher(\'x\') at 500 KiB, on every hostile shape (lines but on the lines of nothing)', async () => {
    const { costs, ratios } = await child()
    const over: string[] = []
    const worst: string[] = []
    for (const [shape, r] of Object.entries(ratios)) {
      let top = ['', 0] as [string, number]
      const names = ['sitemaps', 'crawlDelay ×3', 'isAllowed', 'check', 'directives', 'usagePreferences', 'forEachLine']
      if (!LINES_OF_NOTHING.includes(shape)) names.push('lines')
      for (const name of names) {
        const ratio = r[name]!
        if (ratio > top[1]) top = [name, ratio]
        if (ratio > RATIO_BOUND) over.push(`${shape}: ${name} ${ratio.toFixed(1)}x (${costs[shape]![name]![1].toFixed(1)} ms, matcher ${costs[shape]!.matcher![1].toFixed(1)} ms)`)
      }
      worst.push(`${shape}: ${top[0]} ${top[1].toFixed(1)}x`)
    }
    console.log(`worst accessor per shape vs matcher('x'): ${worst.join('; ')}`)
    expect(over).toEqual([])
  })
})
