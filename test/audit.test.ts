// Contract audit of the public names (docs/api.md): each test pins a defect found by the audit and
// failed on main before its fix.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { checkUrls, diffRobots, fetchRobots, parseRobots, RobotsCache, surveyRobots, type UrlVerdict } from '../src/index.js'

const RULES = 'User-agent: *\nDisallow: /private\n'

describe('audit: shared values handed out cannot be changed by one caller for another', () => {
  test("a RobotsFetch's robots is frozen: a caller's own isAllowed on it changes no other answer", async () => {
    const cache = new RobotsCache({ fetch: async () => new Response(RULES) })
    const first = await cache.get('https://a.example/')
    expect(() => { (first.robots as { isAllowed: unknown }).isAllowed = () => false }).toThrow(TypeError)
    expect(await cache.isAllowed('https://a.example/public', 'bot')).toBe(true)
    expect((await cache.get('https://a.example/')).robots.isAllowed('https://a.example/public', 'bot')).toBe(true)
  })
  test('the empty Robots of every allow-all and disallow-all result is frozen too', async () => {
    const missing = await fetchRobots('https://b.example/', { fetch: async () => new Response('', { status: 404 }) })
    expect(() => { (missing.robots as { check: unknown }).check = () => ({ allowed: false, line: 1 }) }).toThrow(TypeError)
    const failed = await fetchRobots('https://c.example/', { fetch: async () => new Response('', { status: 503 }) })
    expect(failed.robots.check('https://c.example/x', 'bot')).toEqual({ allowed: true, line: 0 })
  })
})

describe('audit: an option is read once, when the call is made', () => {
  const cacheOf = () => new RobotsCache({ fetch: async () => new Response(RULES) })
  async function all(stream: AsyncIterable<UrlVerdict>): Promise<UrlVerdict[]> {
    const out: UrlVerdict[] = []
    for await (const v of stream) out.push(v)
    return out
  }
  test('checkUrls: an agent array changed after the call is the agent checked at the call (it crashed the process from a callback)', async () => {
    const agent = ['bot']
    const stream = checkUrls(['https://a.example/private', 'https://a.example/ok'], { agent, cache: cacheOf() })
    agent[0] = ''
    expect((await all(stream)).map((v) => v.allowed)).toEqual([false, true])
  })
  test('checkUrls: an agent getter is read once', async () => {
    let reads = 0
    const options = { cache: cacheOf(), get agent() { return reads++ === 0 ? 'bot' : '' } }
    expect((await all(checkUrls(['https://a.example/private'], options))).map((v) => v.allowed)).toEqual([false])
    expect(reads).toBe(1)
  })
})

describe('audit: fetch options are read once', () => {
  /** Options whose `key` reads `first`, then `later` on every read after. */
  function flaky(base: object, key: string, first: unknown, later: unknown): { options: Record<string, unknown>; reads: () => number } {
    let n = 0
    const options = { ...base } as Record<string, unknown>
    Object.defineProperty(options, key, { enumerable: true, get: () => (n++ === 0 ? first : later) })
    return { options, reads: () => n }
  }
  const fetch = async (): Promise<Response> => new Response(RULES)
  test.each([
    ['signal', undefined, { aborted: false }],
    ['userAgent', 'bot', 'bot\r\nx-injected: 1'],
    ['fetch', fetch, 'not a function'],
  ])('fetchRobots: options.%s', async (key, first, later) => {
    const { options, reads } = flaky({ fetch }, key, first, later)
    const site = await fetchRobots('https://a.example/', options)
    expect(site.outcome).toBe('ok')
    expect(reads()).toBe(1)
  })
  test('RobotsCache: options.now', async () => {
    const { options, reads } = flaky({ fetch }, 'now', undefined, 5)
    const cache = new RobotsCache(options)
    expect((await cache.get('https://a.example/')).outcome).toBe('ok')
    expect(reads()).toBe(1)
  })
})

describe('audit: diffRobots reads its options once', () => {
  const before = 'User-agent: *\nDisallow: /a\n'
  const after = 'User-agent: *\nDisallow: /b\n'
  test('options.urls: the list checked is the list used (a string read later became one URL per character)', () => {
    let reads = 0
    const options = { agents: ['bot'], get urls() { return reads++ === 0 ? ['/a', '/b'] : '/x' } }
    expect(diffRobots(before, after, options as never).probes).toBe(2)
    expect(reads).toBe(1)
  })
  test('options.agents, and an agent array inside it', () => {
    let reads = 0
    let inner = 0
    const agent = ['bot']
    Object.defineProperty(agent, 0, { get: () => (inner++ === 0 ? 'bot' : 'other') })
    const options = { urls: ['/a'], get agents() { return reads++ === 0 ? [agent] : 5 } }
    const diff = diffRobots(before, after, options as never)
    expect(diff.agents).toEqual(['bot'])
    expect(reads).toBe(1)
    expect(inner).toBe(1)
  })
})

describe('audit: surveyRobots runs on the arguments checked at the call', () => {
  test('an input array and options changed between the call and the iteration change nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robotstxt-audit-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'sites.jsonl')
    writeFileSync(file, JSON.stringify({ origin: 'https://a.example', status: 200, body: 'User-agent: *\nDisallow: /x\n' }) + '\n')
    const input = [file]
    const options = { crawlers: ['Googlebot'], paths: ['/x'] }
    const survey = surveyRobots(input, options)
    input[0] = ''
    options.crawlers[0] = ''
    options.paths = ['no slash']
    const rows = []
    for await (const row of survey) rows.push(row)
    expect(rows.map((r) => [r.origin, r.crawlers.map((c) => c.name)])).toEqual([['https://a.example', ['Googlebot']]])
  })
})

describe('audit: Uint8Array arguments are read as the bytes they hold', () => {
  const text = 'User-agent: *\nDisallow: /private\n'
  const detached = (s: string): Uint8Array => {
    const bytes = new TextEncoder().encode(s)
    structuredClone(bytes.buffer, { transfer: [bytes.buffer] })
    return bytes
  }
  /** A subclass whose own length is not the length of its bytes. */
  class Longer extends Uint8Array {
    override get length(): number { return 4096 }
  }
  test('a detached buffer is a TypeError naming the parameter, not an internal error', () => {
    const m = parseRobots(text).matcher('bot')
    expect(() => parseRobots(detached(text))).toThrow(/^body: expected a Uint8Array whose buffer is not detached/)
    expect(() => m.isAllowedLines(detached('/private\n'))).toThrow(/^bytes: expected a Uint8Array whose buffer is not detached/)
    expect(() => m.checkLines(detached('/private\n'))).toThrow(/^bytes: expected a Uint8Array whose buffer is not detached/)
  })
  test('a subclass whose length lies: the lines are those of its bytes', () => {
    const m = parseRobots(text).matcher('bot')
    // Leave other URLs in wasm memory past the bytes.
    m.isAllowedLines(new TextEncoder().encode('/a\n'.repeat(2000)))
    const urls = new Longer(new TextEncoder().encode('/private\n/ok'))
    expect([...m.isAllowedLines(urls)]).toEqual([0, 1])
    expect([...m.checkLines(urls)]).toEqual([-2, 0])
    expect(parseRobots(new Longer(new TextEncoder().encode(text))).lines).toHaveLength(3)
  })
  test('an out array whose length lies is judged by its real length: a TypeError, never verdicts dropped or an internal error', () => {
    const m = parseRobots(text).matcher('bot')
    class LongerOut extends Uint8Array {
      override get length(): number { return 4096 }
    }
    class LongerOut32 extends Int32Array {
      override get length(): number { return 4096 }
    }
    const urls = ['/private', '/ok', '/private/x']
    expect(() => m.isAllowedMany(urls, new LongerOut(2))).toThrow(/^out: expected a Uint8Array of length >= 3/)
    expect(() => m.checkMany(urls, new LongerOut32(2))).toThrow(/^out: expected an Int32Array of length >= 3/)
    const lines = new TextEncoder().encode('/private\n/ok\n/private/x\n')
    expect(() => m.isAllowedLines(lines, new LongerOut(2))).toThrow(/^out: expected a Uint8Array of length >= 3/)
    expect(() => m.checkLines(lines, new LongerOut32(2))).toThrow(/^out: expected an Int32Array of length >= 3/)
    // Long enough for real: every verdict is written, into the caller's own array.
    const out = new LongerOut(3)
    expect(m.isAllowedMany(urls, out)).toBe(out)
    expect([...new Uint8Array(out.buffer)]).toEqual([0, 1, 0])
    const out32 = new LongerOut32(3)
    expect(m.checkLines(lines, out32)).toBe(out32)
    expect([...new Int32Array(out32.buffer)]).toEqual([-2, 0, -2])
    const gone = new Uint8Array(3)
    structuredClone(gone.buffer, { transfer: [gone.buffer] })
    expect(() => m.isAllowedMany(urls, gone)).toThrow(/^out: expected a Uint8Array whose buffer is not detached/)
    expect(() => m.isAllowedLines(lines, gone)).toThrow(/^out: expected a Uint8Array whose buffer is not detached/)
  })
  test('a URL subclass whose href is not a string is a TypeError naming the parameter', () => {
    const m = parseRobots(text).matcher('bot')
    class Odd extends URL {
      override get href(): string { return 42 as unknown as string }
    }
    const odd = new Odd('https://example.com/private')
    expect(() => m.isAllowed(odd)).toThrow(/^url: expected a string or a URL/)
    expect(() => m.isAllowedMany([odd])).toThrow(/^urls\[0\]: expected a string or a URL/)
    expect(() => parseRobots(text).isAllowed(odd, 'bot')).toThrow(/^url: expected a string or a URL/)
  })
})
