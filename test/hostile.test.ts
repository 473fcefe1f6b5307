// Hostile patterns and inputs stay polynomial and bounded. Each bound is generous (seconds, where the
// expected time is milliseconds) so that only an exponential or quadratic-in-the-worst-case
// algorithm fails; these are not benchmarks.
import { describe, expect, test } from 'vitest'
import { parseRobots } from '../src/index.js'

function timed<T>(f: () => T): [T, number] {
  const t = performance.now()
  const r = f()
  return [r, performance.now() - t]
}

describe('edge: hostile patterns stay polynomial', () => {
  test('16,000 "*" in one pattern against a 100 KB URL', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /' + '*'.repeat(16_000) + 'x$')
    const url = 'http://x/' + 'a'.repeat(100_000)
    const [v, ms] = timed(() => robots.matcher('a').check(url + 'x'))
    expect(v).toMatchObject({ allowed: false, line: 2 })
    expect(robots.isAllowed(url + 'y', 'a')).toBe(true)
    expect(ms).toBeLessThan(1000)
  })
  test('alternating "*a" segments: 8,000 of them against a 100 KB path of "a"s', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /' + '*a'.repeat(8_000) + 'b')
    const [allowed, ms] = timed(() => robots.isAllowed('http://x/' + 'a'.repeat(100_000), 'a'))
    expect(allowed).toBe(true)
    expect(ms).toBeLessThan(1000)
  })
  test('long segments after "*" that almost match everywhere (naive search: |path| x |segment| each)', () => {
    // Four rules, each a 12,000-byte segment; a quadratic search needs ~5e9 byte comparisons.
    const ends = ['b', 'c', 'd', 'e']
    const robots = parseRobots('User-agent: *\n' + ends.map((e) => 'Disallow: /*' + 'a'.repeat(12_000) + e).join('\n'))
    const path = 'a'.repeat(100_000)
    const m = robots.matcher('a')
    const [r, ms] = timed(() => [m.isAllowed('http://x/' + path), m.isAllowed('http://x/' + path + 'e')])
    expect(r).toEqual([true, false])
    expect(ms).toBeLessThan(1000)
  })
  test('thousands of "*"-heavy rules against a 10 KB URL', () => {
    const lines = ['User-agent: *']
    for (let i = 0; i < 3000; i++) lines.push(`Disallow: /*a*${'*'.repeat(i % 7)}a*b${i}$`)
    const robots = parseRobots(lines.join('\n'))
    const m = robots.matcher('a')
    const [allowed, ms] = timed(() => m.isAllowed('http://x/' + 'a'.repeat(10_000)))
    expect(allowed).toBe(true)
    expect(m.isAllowed('http://x/' + 'a'.repeat(10_000) + 'b2999')).toBe(false)
    expect(ms).toBeLessThan(2000)
  })
})
