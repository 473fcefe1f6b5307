// Bad arguments throw a TypeError that names the parameter and says what was expected (docs/api.md);
// any string URL gets an answer.
import { describe, expect, test } from 'vitest'
import { diffRobots, Matcher, parseRobots, Robots, surveyRobots } from '../src/index.js'

const robots = parseRobots('User-agent: *\nDisallow: /private')

describe('docs/api.md: bad arguments throw TypeError', () => {
  test.each([
    [undefined, /body: expected a string or a Uint8Array, got undefined/],
    [null, /body: expected a string or a Uint8Array, got null/],
    [42, /body: expected a string or a Uint8Array, got number 42/],
    [[1, 2], /body: expected a string or a Uint8Array, got an array/],
    [new ArrayBuffer(2), /body: expected a string or a Uint8Array, got an object/],
  ])('parseRobots(%s)', (body, message) => {
    expect(() => parseRobots(body as never)).toThrow(TypeError)
    expect(() => parseRobots(body as never)).toThrow(message)
  })
  test.each([[0], [-1], [0.5], [NaN], ['10'], [null]])('parseRobots(body, { maxBytes: %s })', (maxBytes) => {
    expect(() => parseRobots('', { maxBytes } as never)).toThrow(/^options\.maxBytes: expected a number >= 1 \(rounded down\), or Infinity for no limit, got /)
  })
  test('parseRobots(body, options) with a non-object options', () => {
    expect(() => parseRobots('', 5 as never)).toThrow(/options: expected an object or undefined/)
  })
  test.each([
    ['', /agent: expected a user-agent with a non-empty product token/],
    ['   ', /agent: expected a user-agent with a non-empty product token/],
    ['/1.0', /agent: expected a user-agent with a non-empty product token/],
    [[], /agent: expected a user-agent string or a non-empty array/],
    [['a', 5], /agent\[1\]: expected a user-agent string, got number 5/],
    [['a', ''], /agent\[1\]: expected a user-agent with a non-empty product token/],
    [undefined, /agent: expected a user-agent string or an array of them, got undefined/],
    // A Robots not yet checked once held null as its last agent, so null took the recent-agent path.
    [null, /agent: expected a user-agent string or an array of them, got null/],
    [{}, /agent: expected a user-agent string or an array of them, got an object/],
  ])('agent %j', (agent, message) => {
    for (const call of [() => robots.isAllowed('http://x/', agent as never), () => robots.check('http://x/', agent as never), () => robots.matcher(agent as never), () => robots.crawlDelay(agent as never)]) {
      expect(call).toThrow(TypeError)
      expect(call).toThrow(message)
    }
  })
  test.each([[undefined], [null], [42], [{ href: 'http://x/' }]])('url %s', (url) => {
    const m = robots.matcher('a')
    for (const call of [() => m.isAllowed(url as never), () => m.check(url as never), () => robots.isAllowed(url as never, 'a')]) {
      expect(call).toThrow(TypeError)
      expect(call).toThrow(/url: expected a string or a URL/)
    }
  })
  test('isAllowedMany: urls must be an array, elements strings or URLs, out large enough', () => {
    const m = robots.matcher('a')
    expect(() => m.isAllowedMany('http://x/' as never)).toThrow(/urls: expected an array of strings or URLs/)
    expect(() => m.isAllowedMany(['http://x/', 3] as never)).toThrow(/urls\[1\]: expected a string or a URL, got number 3/)
    expect(() => m.isAllowedMany(['a', 'b'], new Uint8Array(1))).toThrow(/out: expected a Uint8Array of length >= 2/)
    expect(() => m.isAllowedMany(['a'], [0] as never)).toThrow(TypeError)
    expect(() => m.checkMany(['a', 'b'], new Int32Array(1))).toThrow(/out: expected an Int32Array of length >= 2/)
  })
  test('checkMatrix: urls and agents must be arrays, each URL a string or URL, each agent a user-agent or an array of them', () => {
    expect(() => robots.checkMatrix('http://x/' as never, ['a'])).toThrow(/urls: expected an array of strings or URLs/)
    expect(() => robots.checkMatrix(['http://x/', 3] as never, ['a'])).toThrow(/urls\[1\]: expected a string or a URL, got number 3/)
    expect(() => robots.checkMatrix(['http://x/'], 'a' as never)).toThrow(/agents: expected an array of user-agent strings or arrays of them, got the string "a"/)
    expect(() => robots.checkMatrix(['http://x/'], ['a', ''])).toThrow(/agents\[1\]: expected a user-agent with a non-empty product token/)
    expect(() => robots.checkMatrix(['http://x/'], ['a', []] as never)).toThrow(/agents\[1\]: expected a user-agent string or a non-empty array/)
    expect(() => robots.checkMatrix(['http://x/'], [['a', 5]] as never)).toThrow(/agents\[0\]\[1\]: expected a user-agent string, got number 5/)
    expect(() => robots.checkMatrix(['http://x/'], [null] as never)).toThrow(/agents\[0\]: expected a user-agent string or an array of them, got null/)
    for (const call of [() => robots.checkMatrix(null as never, ['a']), () => robots.checkMatrix([], [5] as never)]) expect(call).toThrow(TypeError)
  })
})

describe('edge: any URL string gets an answer, never an exception', () => {
  test.each([
    [''], ['relative/path'], ['/private'], ['private'], ['?q'], ['#frag'], ['http://'], ['::::'],
    ['http://x/\u0000/private'], ['\u0000'], ['http://x/\ud800'], ['http://x/\udfff\ud800'], ['http://x/' + 'é'.repeat(50_000)],
    ['http://x/private' + '/a'.repeat(200_000)],
  ])('%#: %s', (url) => {
    const m = robots.matcher('a')
    const v = m.check(url)
    expect(typeof v.allowed).toBe('boolean')
    expect(m.isAllowedMany([url, 'http://x/private'])[1]).toBe(0)
  })
  test('a lone surrogate is encoded as U+FFFD (EF BF BD), like TextEncoder', () => {
    expect(parseRobots('User-agent: *\nDisallow: /%EF%BF%BD').isAllowed('http://x/\ud800', 'a')).toBe(false)
  })
  test('a surrogate pair split across two URLs of a batch is two lone surrogates, as when checked alone', () => {
    const m = parseRobots('User-agent: *\nDisallow: /%EF%BF%BD$\nDisallow: /x%F0%9F%98%80').matcher('a')
    const urls = ['/\ud83d', '\ude00', '/x\ud83d', '\ude00']
    expect([...m.isAllowedMany(urls)]).toEqual(urls.map((u) => (m.isAllowed(u) ? 1 : 0)))
    expect([...m.isAllowedMany(urls)]).toEqual([0, 1, 1, 1])
  })
  test('isAllowedMany fills a given out array and returns it; URL objects accepted', () => {
    const out = new Uint8Array(4).fill(7)
    const m = robots.matcher('a')
    expect(m.isAllowedMany(['http://x/private', new URL('http://x/ok'), 'http://x/é'], out)).toBe(out)
    expect([...out]).toEqual([0, 1, 1, 7])
    expect(m.isAllowedMany([])).toEqual(new Uint8Array(0))
  })
})

describe('review 2026-11-29: arguments that reached internals', () => {
  test('Matcher and Robots have no public constructor: new Matcher(n) cannot write into other tables', () => {
    const m = parseRobots('User-agent: *\nDisallow: /private\n').matcher('bot')
    const shared = parseRobots('User-agent: *\nDisallow: /private\n').matcher('bot').sharing()
    const calls = [
      () => new (Matcher as unknown as new (...a: unknown[]) => Matcher)(1140).isAllowed('/'),
      () => new (Matcher as unknown as new (...a: unknown[]) => Matcher)().isAllowed('/'),
      // A shared Matcher's class is reachable as its constructor.
      () => new (shared.constructor as new (...a: unknown[]) => Matcher)(1140, m).isAllowed('/'),
      () => new (Robots as unknown as new (...a: unknown[]) => Robots)().isAllowed('/', 'a'),
      () => new (Robots as unknown as new (...a: unknown[]) => Robots)('User-agent: *\nDisallow: /').isAllowed('/', 'a'),
    ]
    for (const call of calls) {
      expect(call).toThrow(TypeError)
      expect(call).toThrow(/^new (Matcher|Robots)\(\): expected no direct call/)
    }
    expect(m.check('http://x/private/x')).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' } })
    expect(Object.keys(Matcher)).toEqual([])
    expect(Object.keys(Robots)).toEqual([])
  })

  test('diffRobots: a hole in options.agents or options.urls is a bad element, named as such', () => {
    const a = 'User-agent: *\nDisallow: /a\n'
    const b = 'User-agent: *\nDisallow: /b\n'
    // eslint-disable-next-line no-sparse-arrays
    expect(() => diffRobots(a, b, { agents: ['x', , 'y'] as string[] })).toThrow(/^options\.agents\[1\]: expected a user-agent string or an array of them, got undefined/)
    for (const after of [a, b]) {
      // eslint-disable-next-line no-sparse-arrays
      expect(() => diffRobots(a, after, { urls: ['/a', , '/b'] as string[] })).toThrow(/^options\.urls\[1\]: expected a string or a URL, got undefined/)
    }
  })

  test('surveyRobots: holes in its lists and in options.shard are bad elements', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(() => surveyRobots('x', { crawlers: ['a', , 'b'] as string[] })).toThrow(/^options\.crawlers\[1\]: expected a non-empty string/)
    // eslint-disable-next-line no-sparse-arrays
    expect(() => surveyRobots('x', { paths: ['/a', , '/b'] as string[] })).toThrow(/^options\.paths\[1\]: expected a non-empty string/)
    // eslint-disable-next-line no-sparse-arrays
    expect(() => surveyRobots(['x', , 'y'] as string[])).toThrow(/^input\[1\]: expected a non-empty string/)
    // eslint-disable-next-line no-sparse-arrays
    expect(() => surveyRobots('x', { shard: [, 1] as unknown as [number, number] })).toThrow(/^options\.shard: expected \[index, count\]/)
  })

  test('a URL whose href getter checks the same fresh Robots: both calls answer', () => {
    for (const how of ['isAllowed', 'check'] as const) {
      const r = parseRobots('User-agent: a\nDisallow: /a\n')
      let inner: unknown
      class CallingBack extends URL {
        override get href(): string {
          inner = r.isAllowed('http://h/x', 'b')
          return super.href
        }
      }
      const outer = how === 'isAllowed' ? r.isAllowed(new CallingBack('http://h/a'), 'a') : r.check(new CallingBack('http://h/a'), 'a')
      expect(outer).toEqual(how === 'isAllowed' ? false : { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/a' } })
      expect(inner).toBe(true)
    }
  })

  test('agent arrays: duplicates dropped past the first few tokens too, in order', () => {
    const names = Array.from({ length: 60 }, (_, i) => `Bot${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`)
    const body = 'User-agent: botaa\nDisallow: /a\n\nUser-agent: botzb\nDisallow: /z\n'
    const r = parseRobots(body)
    const withDuplicates = [...names, ...names.map((n) => n.toUpperCase() + '/2.0'), ...names]
    for (const url of ['http://h/a', 'http://h/z', 'http://h/q']) {
      expect(r.check(url, withDuplicates)).toEqual(parseRobots(body).check(url, names))
    }
    expect(r.matcherKeys).toEqual([JSON.stringify(names.map((n) => n.toLowerCase()))])
  })
})
