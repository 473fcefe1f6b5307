// Unit tables for each rule docs/semantics.md lists, each named by its source: an RFC 9309 section,
// a google/robotstxt function, or our input rules. Expected values come from those sources.
import { describe, expect, test } from 'vitest'
import { parseRobots } from '../src/index.js'
import { referencePath } from '../src/engine/reference.js'
import { utf8 } from '../src/engine/bytes.js'

const dec = (b: Uint8Array) => Buffer.from(b).toString('latin1')
/** [allowed, line] for one agent and URL. */
function verdict(body: string | Uint8Array, agent: string | string[], url: string | URL, maxBytes?: number): [boolean, number] {
  const r = parseRobots(body, maxBytes === undefined ? undefined : { maxBytes })
  const v = r.check(url, agent)
  // Every way of asking must agree.
  const m = r.matcher(agent)
  expect(m.isAllowed(url)).toBe(v.allowed)
  expect(m.isAllowedMany([url])[0]).toBe(v.allowed ? 1 : 0)
  expect(m.checkMany([url])[0]).toBe(v.allowed ? v.line : -v.line)
  return [v.allowed, v.line]
}
const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)))

describe('inputs (docs/semantics.md: our three input rules; RFC 9309 2.5)', () => {
  test('size limit: only the first maxBytes bytes are parsed, even mid-line', () => {
    const body = 'User-agent: *\nDisallow: /abcdef\n'
    expect(verdict(body, 'a', 'http://x/abc')).toEqual([true, 0])
    // Cut inside the pattern: "Disallow: /abc" remains.
    expect(verdict(body, 'a', 'http://x/abc', 14 + 14)).toEqual([false, 2])
    expect(verdict(body, 'a', 'http://x/abc', Infinity)).toEqual([true, 0])
    expect(verdict(body, 'a', 'http://x/abc', 28.9)).toEqual([false, 2]) // rounded down
  })
  test('size limit: the default is 512,000 bytes', () => {
    const pad = '#'.repeat(512_000 - 'User-agent: *\n'.length - 1) + '\n'
    expect(verdict('User-agent: *\n' + pad + 'Disallow: /', 'a', 'http://x/y')).toEqual([true, 0])
    expect(verdict('User-agent: *\n' + pad.slice(11) + 'Disallow: /', 'a', 'http://x/y')).toEqual([false, 3])
    // One byte more and the cut leaves "Disallow: " (empty: priority 0, still the matching line).
    expect(verdict('User-agent: *\n' + pad.slice(10) + 'Disallow: /', 'a', 'http://x/y')).toEqual([true, 3])
  })
  test('size limit: a string body is cut at the exact byte, even inside a character', () => {
    // 'é' is C3 A9; cutting after C3 leaves a pattern "/%C3".
    const body = 'User-agent: *\nDisallow: /é'
    const cut = 'User-agent: *\nDisallow: /'.length + 1
    expect(verdict(body, 'a', 'http://x/%C3', cut)).toEqual([false, 2])
    expect(verdict(body, 'a', 'http://x/%C3', cut + 1)).toEqual([true, 0])
  })
  test.each([
    ['http://x/é'], ['http://x/%c3%a9'], ['http://x/%C3%A9'], ['http://x/%c3%A9/more'],
  ])('URL normalization: %s matches Disallow: /é', (url) => {
    expect(verdict('User-agent: *\nDisallow: /é', 'a', url)).toEqual([false, 2])
  })
  test.each([
    ['http://x/%41', '/A', true], // %41 is not decoded
    ['http://x/A', '/%41', true],
    ['http://x/a/../b', '/b', true], // no dot-segment removal
    ['http://x/P', '/p', true], // no lower-casing
    ['http://x/a b', '/a b', false], // spaces stay spaces
  ])('URL normalization changes nothing else: %s vs Disallow: %s -> allowed %s', (url, pattern, allowed) => {
    expect(verdict(`User-agent: *\nDisallow: ${pattern}`, 'a', url)[0]).toBe(allowed)
  })
  test('a URL object is used through its href (already encoded and dot-normalized)', () => {
    const body = 'User-agent: *\nDisallow: /a b\nDisallow: /c/d'
    expect(verdict(body, 'a', 'http://x/a b')[0]).toBe(false)
    expect(verdict(body, 'a', new URL('http://x/a b'))[0]).toBe(true)
    expect(verdict(body, 'a', new URL('http://x/c/e/../d'))[0]).toBe(false)
    expect(verdict(body, 'a', 'http://x/c/e/../d')[0]).toBe(true)
  })
  test.each([
    ['Googlebot/2.1 (+http://www.google.com/bot.html)', false],
    ['  Googlebot  ', false],
    ['\tgooglebot/1', false],
    ['GOOGLEBOT', false],
    ['Googlebot-Image', true],
    ['Mozilla/5.0 (compatible; Googlebot/2.1)', true],
  ])('caller agent %j is reduced to its product token (disallowed: %s)', (agent, allowed) => {
    expect(verdict('User-agent: googlebot\nDisallow: /', agent, 'http://x/a')[0]).toBe(allowed)
  })
  test('caller digits are kept: AB42bot does not match User-agent: AB42bot (token AB)', () => {
    const body = 'User-agent: AB42bot\nDisallow: /'
    expect(verdict(body, 'AB42bot', 'http://x/a')).toEqual([true, 0])
    expect(verdict(body, 'AB', 'http://x/a')).toEqual([false, 2])
  })
  test('caller * names no group and gets only the global rules', () => {
    const body = 'User-agent: *\nDisallow: /g\nUser-agent: *bot\nDisallow: /b'
    expect(verdict(body, '*', 'http://x/g')).toEqual([false, 2])
    expect(verdict(body, '*', 'http://x/b')).toEqual([true, 0])
  })
})

describe('lines (RFC 9309 2.2; google/robotstxt ParseRobotsTxt)', () => {
  test.each([
    ['full BOM', [0xef, 0xbb, 0xbf], false],
    ['partial BOM EF BB', [0xef, 0xbb], false],
    ['partial BOM EF', [0xef], false],
  ])('%s at the start is skipped', (_, bom, allowed) => {
    expect(verdict(bytes(bom, 'User-agent: *\nDisallow: /'), 'a', 'http://x/')[0]).toBe(allowed)
  })
  test('EF 11 BF: EF dropped, 11 BF start line 1 (key unknown)', () => {
    expect(verdict(bytes([0xef, 0x11, 0xbf], 'User-agent: *\nDisallow: /'), 'a', 'http://x/')).toEqual([true, 0])
    expect(verdict(bytes([0xef, 0x11, 0xbf], '\nUser-agent: *\nDisallow: /'), 'a', 'http://x/')).toEqual([false, 3])
  })
  test('a BOM elsewhere is content: at a line start it makes the key unknown', () => {
    expect(verdict(bytes('User-agent: *\n', [0xef, 0xbb, 0xbf], 'Disallow: /'), 'a', 'http://x/')).toEqual([true, 0])
  })
  test.each([
    ['\\n', '\n', 3], ['\\r\\n', '\r\n', 3], ['\\r', '\r', 3],
    ['\\r\\r\\n', '\r\r\n', 5], ['\\n\\r', '\n\r', 5], ['\\r\\n\\n', '\r\n\n', 5],
  ])('line ends: %s between lines', (_, eol, line) => {
    expect(verdict(`User-agent: *${eol}# c${eol}Disallow: /`, 'a', 'http://x/')).toEqual([false, line])
  })
  test('the bytes after the last break form a final line', () => {
    const r = parseRobots('User-agent: *\nDisallow: /\n')
    expect(r.lines.length).toBe(3)
    expect(r.lines[2]!.type).toBe('empty')
  })
  test('only the first 16,663 bytes of a line are kept; a truncated pattern matches as a prefix', () => {
    const pattern = '/' + 'a'.repeat(20_000)
    const prefix = 'Disallow: '
    const body = `User-agent: *\n${prefix}${pattern}\n`
    const kept = 16_663 - prefix.length
    expect(verdict(body, 'a', 'http://x/' + 'a'.repeat(kept - 1))).toEqual([false, 2])
    expect(verdict(body, 'a', 'http://x/' + 'a'.repeat(kept - 2))).toEqual([true, 0])
    expect(parseRobots(body).lines[1]!.tooLong).toBe(true)
  })
  test('a NUL ends the line for all later processing', () => {
    expect(verdict(bytes('User-agent: *\nDisallow: /a', [0], 'bc\nAllow: /ab'), 'a', 'http://x/abc')).toEqual([true, 3])
    expect(verdict(bytes('User-agent: *\nDisallow: /a', [0], 'bc\nAllow: /ab'), 'a', 'http://x/ax')).toEqual([false, 2])
    expect(verdict(bytes('User-agent: *\nDis', [0], 'allow: /\n'), 'a', 'http://x/')).toEqual([true, 0])
  })
})

describe('one line (google/robotstxt GetKeyAndValueFrom)', () => {
  test.each([
    ['Disallow: /p#x', 'http://x/p', false],
    ['Disallow: /p#x', 'http://x/q', true],
    ['Disallow /a', 'http://x/a', false],
    ['Disallow /a b', 'http://x/a', true],
    ['Disallow\t/a', 'http://x/a', false],
    ['Disallow /a:b', 'http://x/b', true], // key "Disallow /a", value "b": never matches
    ['Disallow: /a b', 'http://x/a b', false],
    ['Disallow: /a b', 'http://x/a', true],
    [': /a', 'http://x/a', true],
    ['  Disallow  :  /a  ', 'http://x/a', false],
    ['Disallow:\v/a\f', 'http://x/a', false],
  ])('%j (url %s) -> allowed %s', (line, url, allowed) => {
    expect(verdict(`User-agent: *\n${line}`, 'a', url)[0]).toBe(allowed)
  })
  test('Disallow: (empty value) matches with priority 0: allowed, but it is the matching line', () => {
    expect(verdict('User-agent: *\nDisallow:', 'a', 'http://x/a')).toEqual([true, 2])
  })
})

describe('keys (RFC 9309 2.2; google/robotstxt ParsedRobotsKey::Parse)', () => {
  test.each([
    ['User-agent'], ['useragent'], ['user agent'], ['USER-AGENTS'], ['User-agent-x'],
  ])('%s is a user-agent key', (key) => {
    expect(verdict(`${key}: foo\nDisallow: /`, 'foo', 'http://x/')[0]).toBe(false)
  })
  test.each([
    ['Disallow'], ['dissallow'], ['dissalow'], ['disalow'], ['diasllow'], ['disallaw'], ['Disallowed'],
  ])('%s is a disallow key', (key) => {
    expect(verdict(`User-agent: *\n${key}: /`, 'a', 'http://x/')[0]).toBe(false)
  })
  test.each([['Allow'], ['Allowance']])('%s is an allow key', (key) => {
    expect(verdict(`User-agent: *\nDisallow: /\n${key}: /a`, 'a', 'http://x/a')).toEqual([true, 3])
  })
  test.each([['User_agent'], ['Dis-allow'], ['crawl-delay'], ['noindex'], ['User  agent']])('%s is an other key', (key) => {
    expect(verdict(`User-agent: *\n${key}: /`, 'a', 'http://x/')).toEqual([true, 0])
  })
  test('sitemap and other lines neither end a group nor start one', () => {
    const body = 'User-agent: a\nSitemap: http://x/s.xml\nCrawl-delay: 1\nUser-agent: b\nDisallow: /'
    expect(verdict(body, 'a', 'http://x/')).toEqual([false, 5])
  })
})

describe('pattern escaping (RFC 9309 2.2.2; google/robotstxt MaybeEscapePattern)', () => {
  test.each([
    ['/%aa', 'http://x/%AA', false],
    ['/%62%61%7A', 'http://x/baz', true],
    ['/%zz', 'http://x/%zz', false],
    ['/%', 'http://x/%', false],
    ['/\u00e9', 'http://x/%C3%A9', false],
  ])('Disallow: %s vs %s -> allowed %s', (pattern, url, allowed) => {
    expect(verdict(`User-agent: *\nDisallow: ${pattern}`, 'a', url)[0]).toBe(allowed)
  })
  test('invalid UTF-8 in a pattern is escaped byte by byte', () => {
    expect(verdict(bytes('User-agent: *\nDisallow: /', [0xff, 0xfe]), 'a', 'http://x/%FF%FE')[0]).toBe(false)
  })
  test('the rule reported by check() is the pattern as written, before escaping', () => {
    expect(parseRobots('User-agent: *\nDisallow: /é%aa').check('http://x/é%AA', 'a').rule).toEqual({ kind: 'disallow', pattern: '/é%aa' })
  })
})

describe('groups and agents (RFC 9309 2.2.1; google/robotstxt RobotsMatcher::HandleUserAgent)', () => {
  test('a user-agent line after a rule starts a new group, whatever the rule applies to', () => {
    const body = 'User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y'
    expect(verdict(body, 'b', 'http://x/x')).toEqual([true, 0])
    expect(verdict(body, 'b', 'http://x/y')).toEqual([false, 4])
  })
  test('consecutive user-agent lines share the rules after them', () => {
    const body = 'User-agent: a\n\n# c\nUser-agent: b\nDisallow: /x'
    expect(verdict(body, 'a', 'http://x/x')).toEqual([false, 5])
  })
  test.each([['*', false], ['* foo', false], ['*\tfoo', false], ['*bot', true], ['*,x', true], ['*/1.0', true]])(
    'user-agent value %j is global: %s disallowed', (value, allowed) => {
      expect(verdict(`User-agent: ${value}\nDisallow: /`, 'other', 'http://x/')[0]).toBe(allowed)
    })
  test.each([
    ['Googlebot/2.1', 'googlebot', false], ['Googlebot2', 'googlebot', false], ['Foo Bar', 'foo', false],
    ['Foo Bar', 'bar', true], ['123bot', '123bot', true], ['foo_bar-baz', 'FOO_BAR-BAZ', false],
  ])('user-agent line %j vs caller %j -> allowed %s', (value, agent, allowed) => {
    expect(verdict(`User-agent: ${value}\nDisallow: /`, agent, 'http://x/')[0]).toBe(allowed)
  })
  test('rules before the first user-agent line are ignored', () => {
    expect(verdict('Disallow: /\nUser-agent: *\nAllow: /a', 'a', 'http://x/b')).toEqual([true, 0])
    expect(parseRobots('Disallow: /\nUser-agent: *').lines[0]!.outsideGroup).toBe(true)
  })
  test('groups naming the caller merge; the global groups are then ignored', () => {
    const body = 'User-agent: a\nDisallow: /x\nUser-agent: *\nDisallow: /y\nUser-agent: a\nDisallow: /z'
    expect(verdict(body, 'a', 'http://x/z')).toEqual([false, 6])
    expect(verdict(body, 'a', 'http://x/y')).toEqual([true, 0])
    expect(verdict(body, 'b', 'http://x/y')).toEqual([false, 4])
  })
  test('a group that is global and names the caller is a specific group', () => {
    const body = 'User-agent: *\nUser-agent: a\nDisallow: /x\nUser-agent: *\nDisallow: /y'
    expect(verdict(body, 'a', 'http://x/y')).toEqual([true, 0])
    expect(verdict(body, 'b', 'http://x/y')).toEqual([false, 5])
  })
  test('several agents: their groups merge into one set, evaluated once', () => {
    const body = 'User-agent: A\nDisallow: /\nUser-agent: B\nAllow: /x'
    expect(verdict(body, ['A', 'B'], 'http://x/y')).toEqual([false, 2])
    expect(verdict(body, ['A', 'B'], 'http://x/x')).toEqual([true, 4])
    expect(verdict(body, ['C', 'B'], 'http://x/y')).toEqual([true, 0])
  })
})

describe('verdict and matching line (RFC 9309 2.2.2; google/robotstxt LongestMatchRobotsMatchStrategy)', () => {
  test('longest match wins; allow wins a tie', () => {
    expect(verdict('User-agent: *\nDisallow: /a\nAllow: /a', 'x', 'http://x/a')).toEqual([true, 3])
    expect(verdict('User-agent: *\nDisallow: /ab\nAllow: /a*', 'x', 'http://x/ab')).toEqual([true, 3]) // 3 ties 3
    expect(verdict('User-agent: *\nDisallow: /abc\nAllow: /a*', 'x', 'http://x/abc')).toEqual([false, 2])
  })
  test('among equal priorities the earliest line is the matching line', () => {
    const body = 'User-agent: *\nDisallow: /b*\nUser-agent: *\nDisallow: /*b'
    expect(verdict(body, 'x', 'http://x/bb')).toEqual([false, 2])
  })
  test('a named group without rules allows everything and ignores the global set', () => {
    expect(verdict('User-agent: *\nDisallow: /\nUser-agent: a', 'a', 'http://x/')).toEqual([true, 0])
  })
  test('empty body allows everything', () => {
    expect(verdict('', 'a', 'http://x/')).toEqual([true, 0])
  })
  test('/robots.txt is not special', () => {
    expect(verdict('User-agent: *\nDisallow: /', 'a', 'http://x/robots.txt')).toEqual([false, 2])
  })
  test('an empty disallow beats no match as matching line, but not the verdict', () => {
    expect(verdict('User-agent: *\nDisallow:\nAllow: /a', 'x', 'http://x/b')).toEqual([true, 2])
    expect(verdict('User-agent: *\nAllow:\nDisallow:', 'x', 'http://x/b')).toEqual([true, 2])
  })
  test('check() reports the rule on the matching line', () => {
    expect(parseRobots('User-agent: *\nDisallow: /a # why').check('http://x/a', 'x')).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/a' } })
    expect(parseRobots('User-agent: *\nDisallow: /a').check('http://x/b', 'x')).toEqual({ allowed: true, line: 0 })
  })
})

describe('URL -> path (google/robotstxt GetPathParamsQuery)', () => {
  test.each([
    ['', '/'], ['http://a.com', '/'], ['http://a.com?q', '/?q'], ['http://a.com;p', '/;p'],
    ['http://a.com/a?x#f', '/a?x'], ['http://a.com#x/y', '/'], ['example.com/a', '/a'], ['a/b', '/b'],
    ['/a', '/a'], ['//a/b/c', '/b/c'], ['////a', '//a'], ['http:/x', '/x'], ['urn:a:b/c', '/c'],
    ['http://u;x@host/p', '/;x@host/p'], ['HTTP://A.COM/P', '/P'], ['http://a.com\\b', '/'],
  ])('%j -> %j', (url, path) => {
    expect(dec(referencePath(utf8(url)))).toBe(path)
    // The wasm path, observed through a rule that must match the whole path exactly.
    const exact = path.replace(/\*/g, '')
    expect(verdict(`User-agent: *\nDisallow: ${exact}$`, 'a', url)).toEqual([false, 2])
  })
  test('a NUL byte ends the path', () => {
    expect(verdict('User-agent: *\nDisallow: /a$', 'a', 'http://x/a\u0000b')).toEqual([false, 2])
  })
})

describe('matching one pattern (RFC 9309 2.2.3; google/robotstxt RobotsMatchStrategy::Matches)', () => {
  test.each([
    ['/a', '/a/b', false], ['/a', '/b/a', true], ['/A', '/a', true],
    ['/*.php', '/x/y.php?z', false], ['/*.php$', '/x/y.php?z', true], ['/*.php$', '/x/y.php', false],
    ['/a$b', '/a$b', false], ['/a$b', '/a', true], ['/d$$', '/d$', false], ['/d$$', '/d$x', true],
    ['$', '/', true], ['a', '/a', true], ['*', '/anything', false], ['/***a**$', '/xa', false],
    ['/a*b*c$', '/abcabc', false], ['/a*b*c$', '/abcab', true], ['/fish*', '/fish', false],
  ])('Disallow: %s vs path %s -> allowed %s', (pattern, path, allowed) => {
    expect(verdict(`User-agent: *\nDisallow: ${pattern}`, 'a', 'http://x' + path)[0]).toBe(allowed)
  })
  test('priority counts every * and $: /a*** (5) beats /abcd (5)? equal: allow wins', () => {
    expect(verdict('User-agent: *\nDisallow: /abcd\nAllow: /a***', 'x', 'http://x/abcd')).toEqual([true, 3])
    expect(verdict('User-agent: *\nDisallow: /abcd\nAllow: /a**', 'x', 'http://x/abcd')).toEqual([false, 2])
  })
})

describe('index.html (google/robotstxt RobotsMatcher::HandleAllow)', () => {
  test.each([
    ['/a/index.html', '/a/', true, 2], ['/a/index.html', '/a/x', false, 3],
    ['/a/index.htm', '/a/', true, 2], ['/a/index.html$', '/a/', true, 2],
    ['/a/INDEX.html', '/a/', false, 3], ['/a/index.html', '/a/index.html', true, 2],
  ])('Allow: %s vs %s -> allowed %s (line %i)', (pattern, path, allowed, line) => {
    expect(verdict(`User-agent: *\nAllow: ${pattern}\nDisallow: /a`, 'x', 'http://x' + path)).toEqual([allowed, line])
  })
  test('the derived allow /a/$ has its own length (4) as priority', () => {
    expect(verdict('User-agent: *\nDisallow: /a/$\nAllow: /a/index.html', 'x', 'http://x/a/')).toEqual([true, 3]) // 4 ties 4
    expect(verdict('User-agent: *\nDisallow: /a/*$\nAllow: /a/index.html', 'x', 'http://x/a/')).toEqual([false, 2]) // 5 > 4
  })
  test('a match through the index.html rule reports the allow line it came from', () => {
    expect(parseRobots('User-agent: *\nDisallow: /\nAllow: /d/index.htm').check('http://x/d/', 'x')).toEqual({ allowed: true, line: 3, rule: { kind: 'allow', pattern: '/d/index.htm' } })
  })
})

describe('beyond the matcher (sitemaps, Crawl-delay: RFC 9309 2.2.4; Google Search Central)', () => {
  test('sitemaps: in file order, anywhere, duplicates dropped, invalid UTF-8 as U+FFFD', () => {
    const r = parseRobots(bytes('Sitemap: http://x/a.xml\nUser-agent: *\nsite-map: http://x/b\xff.xml\nDisallow: /\nSitemaps: http://x/a.xml\n'))
    expect(r.sitemaps).toEqual(['http://x/a.xml', 'http://x/b\ufffd.xml'])
  })
  test('crawlDelay: named groups first, no fallback to global when named', () => {
    const body = 'User-agent: *\nCrawl-delay: 5\nDisallow: /p\n\nUser-agent: a\nDisallow: /\nUser-agent: b\nCrawl-delay: x\nCRAWL-DELAY: 2.5\nCrawl-delay: 3'
    const r = parseRobots(body)
    expect(r.crawlDelay('c')).toBe(5)
    expect(r.crawlDelay('a')).toBeUndefined()
    expect(r.crawlDelay('b')).toBe(2.5)
    expect(parseRobots('Crawl-delay: 4\nUser-agent: *').crawlDelay('x')).toBeUndefined()
    // No rule between "*" and "a": one group, so its delay is a's too.
    expect(parseRobots('User-agent: *\nCrawl-delay: 5\nUser-agent: a\nDisallow: /').crawlDelay('a')).toBe(5)
  })
  test('crawlDelay: values must match ^[0-9]+(\\.[0-9]+)?$', () => {
    for (const [v, want] of [['1', 1], ['0.5', 0.5], ['.5', undefined], ['1.', undefined], ['-1', undefined], ['1e3', undefined], ['10', 10]] as const) {
      expect(parseRobots(`User-agent: *\nCrawl-delay: ${v}`).crawlDelay('x')).toBe(want)
    }
  })
  test('per-line report', () => {
    const body = 'useragent: a\n# only\n\nDisallow /x\nfoo bar baz\nAllow: x\nUnknown: 1\nDisallow: /y # c\n' + 'Allow: /' + 'z'.repeat(17_000)
    const lines = parseRobots(body).lines
    expect(lines.map((l) => l.type)).toEqual(['user-agent', 'comment', 'empty', 'disallow', 'invalid', 'allow', 'other', 'disallow', 'allow'])
    expect(lines[0]).toMatchObject({ line: 1, key: 'useragent', value: 'a', typo: true, group: 0 })
    expect(lines[3]).toMatchObject({ missingColon: true, value: '/x' })
    expect(lines[5]).toMatchObject({ neverMatches: true })
    expect(lines[7]).toMatchObject({ comment: true, value: '/y' })
    expect(lines[8]).toMatchObject({ tooLong: true })
    expect(parseRobots('Disallow: /\n').lines[0]).toMatchObject({ outsideGroup: true, group: -1 })
  })
})
