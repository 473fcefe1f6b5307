// Bad arguments throw a TypeError that names the parameter and says what was expected (API.md);
// any string URL gets an answer.
import { describe, expect, test } from 'vitest'
import { parseRobots } from '../src/index.js'

const robots = parseRobots('User-agent: *\nDisallow: /private')

describe('api.md: bad arguments throw TypeError', () => {
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
    expect(() => parseRobots('', { maxBytes } as never)).toThrow(/options\.maxBytes: expected a number >= 1 or Infinity/)
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
