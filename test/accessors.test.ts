// What Robots' accessors hand out: frozen or fresh values that no caller can use to change what
// another call returns (hardening 10), and usage preference categories named like the keys of
// Object.prototype, which must be kept as any other category and never throw (hardening 11).
// Each test failed on the release before.
import { describe, expect, test } from 'vitest'
import { lint } from '../src/engine/lint.js'
import { readPreference } from '../src/engine/preference-values.js'
import { parseRobots, type LineReport } from '../src/index.js'

const BODY = [
  'Sitemap: https://example.com/b.xml',
  'User-agent: *',
  'Content-Signal: search=yes, ai-train=no',
  'Content-Usage: /p/ train-ai=y',
  'Crawl-delay: 5',
  'Disallow: /private',
  'Sitemap: https://example.com/a.xml',
].join('\n')

/** Runs `change`, which must throw a TypeError (a frozen value, in strict-mode code). */
function refused(change: () => void): void {
  expect(change).toThrow(TypeError)
}

describe('hardening 10: accessors hand out frozen or fresh values', () => {
  test('sitemaps: frozen, from the scan and from the parsed form; sort() and push() change nothing', () => {
    for (const parsedFirst of [false, true]) {
      const robots = parseRobots(BODY)
      if (parsedFirst) void robots.parsed
      const sitemaps = robots.sitemaps as string[]
      expect(Object.isFrozen(sitemaps)).toBe(true)
      refused(() => sitemaps.sort())
      refused(() => sitemaps.push('https://evil.example/'))
      expect(robots.sitemaps).toEqual(['https://example.com/b.xml', 'https://example.com/a.xml'])
      // The parsed form, built after, has the same list.
      expect(robots.parsed.sitemaps).toEqual(['https://example.com/b.xml', 'https://example.com/a.xml'])
    }
  })

  test('sitemaps: URLs whose byte hashes fall in one slot still come out once each, in file order', () => {
    // FNV-1a (the collector's hash) of each candidate; keep those agreeing in the low 12 bits, so
    // every one probes past all the others until the collector gives up its table for a Set.
    const fnv = (s: string) => {
      let h = 0x811c9dc5
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
      return h & 0xfff
    }
    const urls: string[] = []
    for (let i = 0; urls.length < 300; i++) if (fnv(`https://x/${i}`) === 0x123) urls.push(`https://x/${i}`)
    const body = [...urls, ...urls.slice(0, 100).reverse(), ...urls].map((u) => `Sitemap: ${u}`).join('\n')
    expect(parseRobots(body).sitemaps).toEqual(urls)
    expect(parseRobots(new TextEncoder().encode(body)).sitemaps).toEqual(urls)
  })

  test('lines: the array and every report frozen; editing a value does not change the preferences', () => {
    const robots = parseRobots(BODY)
    const lines = robots.lines as LineReport[]
    expect(Object.isFrozen(lines)).toBe(true)
    expect(lines.every((r) => Object.isFrozen(r))).toBe(true)
    refused(() => { lines.length = 0 })
    refused(() => { lines[2]!.value = 'search=no' })
    refused(() => { lines[2]!.type = 'empty' })
    expect(robots.lines[2]).toMatchObject({ type: 'other', value: 'search=yes, ai-train=no' })
    expect(robots.usagePreferences('x').search).toMatchObject({ allowed: true, line: 3 })
    expect(robots.directives.map((d) => d.line)).toEqual([3, 4, 5])
  })

  test('directives: the array, each directive and its agents frozen; emptying it does not change the preferences', () => {
    const robots = parseRobots(BODY)
    const directives = robots.directives as unknown as { value: string; agents: string[] }[]
    expect(Object.isFrozen(directives)).toBe(true)
    expect(directives.every((d) => Object.isFrozen(d) && Object.isFrozen(d.agents))).toBe(true)
    refused(() => { directives.length = 0 })
    refused(() => { directives[0]!.value = 'search=no' })
    refused(() => { directives[0]!.agents.push('x') })
    expect(robots.directives).toHaveLength(3)
    expect(robots.usagePreferences('x')).toEqual({
      'search': { allowed: true, line: 3, source: 'Content-Signal', value: 'yes', paths: [] },
      'ai-train': { allowed: false, line: 3, source: 'Content-Signal', value: 'no', paths: [] },
      'train-ai': { allowed: null, line: 0, source: 'Content-Usage', value: '', paths: [{ path: '/p/', allowed: true, line: 4 }] },
    })
  })

  test('usagePreferences: a fresh record of fresh objects per call; changing one changes no later answer', () => {
    const robots = parseRobots(BODY)
    const first = robots.usagePreferences('x')
    const expected = structuredClone({ ...first })
    first.search!.allowed = false
    first['train-ai']!.paths.push({ path: '/', allowed: false, line: 99 })
    delete first['ai-train']
    const second = robots.usagePreferences('x')
    expect(second).not.toBe(first)
    expect({ ...second }).toEqual(expected)
  })

  test('forEachLine over many batches of the wasm scan: wasm calls between lines change no report', () => {
    // A BOM, CRLF and CR breaks, comments and every kind of line, over several thousand lines: the
    // scan is resumed after each batch, and the callback below replaces the body in wasm memory.
    const parts = ['\uFEFFUser-agent: a\r\n']
    for (let i = 0; i < 6000; i++) parts.push(i % 5 === 0 ? `User-agent: b${i}\r\n` : i % 5 === 1 ? `Disallow: /p${i} # c\r` : i % 5 === 2 ? '\n' : i % 5 === 3 ? `Sitemap: https://e.com/${i}\n` : `X-${i}: v\n`)
    const bytes = new TextEncoder().encode(parts.join(''))
    const robots = parseRobots(bytes)
    // Another body at least as long, put in wasm memory last.
    const other = parseRobots('User-agent: *\nDisallow: /x\n'.repeat(Math.ceil(bytes.length / 20)))
    const seen: LineReport[] = []
    robots.forEachLine((r) => {
      if (r.line % 97 === 0) {
        void robots.matcher(`b${r.line}`)
        expect(other.matcher(`bot${r.line}`).isAllowed('/x')).toBe(false)
      }
      seen.push(r)
    })
    expect(seen.length).toBe(robots.lines.length)
    expect(seen).toEqual(robots.lines)
  })

  test('forEachLine: the reports of lines, each fresh; the callback may use the Robots mid-walk', () => {
    const robots = parseRobots(BODY)
    const seen: LineReport[] = []
    robots.forEachLine((r) => {
      // Checks and compiles in wasm while the walk goes on: the walk must not see them.
      expect(robots.isAllowed('/private/x', 'bot')).toBe(false)
      void robots.matcher(`bot${r.line}`)
      seen.push(r)
    })
    expect(seen).toEqual(robots.lines)
    seen[2]!.value = 'search=no'
    const again: LineReport[] = []
    robots.forEachLine((r) => again.push(r))
    expect(again[2]!.value).toBe('search=yes, ai-train=no')
    expect(robots.lines[2]!.value).toBe('search=yes, ai-train=no')
    // What the callback throws ends the walk; the Robots keeps working.
    expect(() => robots.forEachLine(() => { throw new RangeError('stop') })).toThrow(RangeError)
    expect(robots.isAllowed('/private', 'bot')).toBe(false)
    expect(() => robots.forEachLine(undefined as never)).toThrow(/callback: expected a function/)
  })

  test('check (Robots and Matcher) returns a fresh verdict per call; crawlDelay a number; matcher a new Matcher', () => {
    const robots = parseRobots(BODY)
    for (const check of [(u: string) => robots.check(u, 'bot'), (u: string) => robots.matcher('bot').check(u)]) {
      const v = check('/private/a')
      v.allowed = true
      v.rule!.pattern = '/'
      expect(check('/private/a')).toEqual({ allowed: false, line: 6, rule: { kind: 'disallow', pattern: '/private' } })
    }
    expect(robots.crawlDelay('bot')).toBe(5)
    expect(robots.matcher('bot')).not.toBe(robots.matcher('bot'))
  })
})

describe('hardening 11: usage preference categories named like Object.prototype keys', () => {
  const KEYS = [...Object.getOwnPropertyNames(Object.prototype), '__proto__']
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort()

  /**
   * Categories are compared lower-cased; a Structured Fields key (RFC 8941 3.2, which both drafts
   * use) starts with a lower-case letter, so `__proto__` and the other `__` keys are malformed
   * members (skipped, reported by lint), and every other key is a category like any other.
   */
  function expectKept(record: Record<string, unknown>, key: string, value: unknown): void {
    const category = key.toLowerCase()
    expect(Object.getPrototypeOf(record)).toBe(null)
    if (category.startsWith('_')) {
      expect(Object.keys(record)).not.toContain(category)
      expect(readPreference({ line: 1, name: 'content-signal', value: `${key}=yes` }).problems[0]!.reason).toBe(`"${category}" is not a category name`)
      return
    }
    const own = Object.getOwnPropertyDescriptor(record, category)
    expect(own, category).toBeDefined()
    expect(own!.value).toEqual(value)
  }

  test.each(KEYS)('%s in Content-Signal, Content-Usage and a path-limited Content-Usage rule: kept, nothing thrown', (key) => {
    // Each group ends with a rule, so the next user-agent line starts a group of its own.
    const body = [
      'User-agent: *',
      `Content-Signal: ${key}=yes, search=yes`,
      'Disallow: /x',
      'User-agent: usage',
      `Content-Usage: ${key}=n, search=y`,
      'Disallow: /x',
      'User-agent: path',
      `Content-Usage: /p/ ${key}=y`,
      `Content-Usage: ${key}=n`,
      'Disallow: /x',
      'User-agent: value',
      `Content-Signal: search=${key}, ai-train=no`,
    ].join('\n')
    const robots = parseRobots(body)
    const signal = robots.usagePreferences('anybot')
    expect(signal.search).toEqual({ allowed: true, line: 2, source: 'Content-Signal', value: 'yes', paths: [] })
    expectKept(signal, key, { allowed: true, line: 2, source: 'Content-Signal', value: 'yes', paths: [] })
    const usage = robots.usagePreferences('usage')
    expect(usage.search).toEqual({ allowed: true, line: 5, source: 'Content-Usage', value: 'y', paths: [] })
    expectKept(usage, key, { allowed: false, line: 5, source: 'Content-Usage', value: 'n', paths: [] })
    expectKept(robots.usagePreferences('path'), key, { allowed: false, line: 9, source: 'Content-Usage', value: 'n', paths: [{ path: '/p/', allowed: true, line: 8 }] })
    // A prototype key as the value is no truth value: that member is skipped, the others kept.
    expect({ ...robots.usagePreferences('value') }).toEqual({ 'ai-train': { allowed: false, line: 12, source: 'Content-Signal', value: 'no', paths: [] } })
    const bytes = new TextEncoder().encode(body)
    expect(() => lint({ robots: parseRobots(bytes), body: bytes, size: bytes.length, truncated: false })).not.toThrow()
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore)
  })

  test('the lines of the issue: constructor kept beside search, and the path-limited rule does not throw', () => {
    expect({ ...parseRobots('User-agent: *\nContent-Signal: constructor=yes, search=yes\n').usagePreferences('x') }).toEqual({
      constructor: { allowed: true, line: 2, source: 'Content-Signal', value: 'yes', paths: [] },
      search: { allowed: true, line: 2, source: 'Content-Signal', value: 'yes', paths: [] },
    })
    expect(parseRobots('User-agent: *\nContent-Usage: /p/ constructor=y\n').usagePreferences('x').constructor).toEqual({
      allowed: null, line: 0, source: 'Content-Usage', value: '', paths: [{ path: '/p/', allowed: true, line: 2 }],
    })
  })
})
