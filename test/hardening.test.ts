// The host layer against a hostile site and a careless caller: each test names the hardening item
// it pins, and each failed on the release before the fix.
import { describe, expect, test } from 'vitest'
import { parseRobots } from '../src/index.js'

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
