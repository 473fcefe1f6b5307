// robotstxt-wasm/compat against the real robots-parser 3.0.1 (a devDependency):
// * robots-parser's behaviours, method by method: compat must give the same answers;
// * the migration guide's examples: each documented difference, with both packages' answers;
// * every labelled case (fixtures and, when present, the shared corpus): every disagreement between
//   the two packages must fall into a documented category (helpers/compat-classify.ts), and compat's
//   verdicts and lines must be the labels;
// * the built package: require() returns the function, import gives it as default, and the types
//   resolve for ESM, CommonJS, bundler and classic (node10) TypeScript consumers.

import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import robotsParser, { type Robot } from '../src/compat.js'
import { corpusAvailable, loadCorpus, loadFixture, type LabelledBody } from './helpers/cases.js'
import { ModelBody, classify, urlFeature } from './helpers/compat-classify.js'
import { SWITCHES, type Switch } from './helpers/compat-rp-model.js'

const require = createRequire(import.meta.url)
const rp = require('robots-parser') as (url: string, contents: string) => Robot

type Method = keyof Robot
type Call = [method: Method, ...args: unknown[]]

/** Runs one method on a Robot with loose arguments (the tables pass URL objects, empty strings...). */
function call(robot: Robot, [method, ...args]: Call): unknown {
  return (robot[method] as (...a: unknown[]) => unknown).apply(robot, args)
}

// ------------------------------------------------------------------------------------------------
// robots-parser's behaviours, method by method. Each call lists the answer robots-parser gives;
// the test checks that robots-parser really gives it and that compat gives the same.

interface Scenario {
  name: string
  url: string | null | undefined
  contents: string | null | undefined
  calls: [Call, unknown][]
}

const SITE = 'https://example.com'

const SCENARIOS: Scenario[] = [
  {
    name: 'origin: protocol, host and port must be the robots.txt URL\'s',
    url: `${SITE}/robots.txt`,
    contents: 'User-agent: *\nDisallow: /private\n',
    calls: [
      [['isAllowed', `${SITE}/public`], true],
      [['isAllowed', `${SITE}/private`], false],
      [['isAllowed', 'http://example.com/public'], undefined], // protocol
      [['isAllowed', 'https://www.example.com/public'], undefined], // host
      [['isAllowed', 'https://example.com./public'], undefined], // a trailing dot is another host name
      [['isAllowed', 'https://example.com:8443/public'], undefined], // port
      [['isAllowed', 'https://example.com:443/private'], false], // the default port written out
      [['isAllowed', 'HTTPS://EXAMPLE.COM/private'], false], // scheme and host are case-insensitive
      [['isAllowed', 'https://user:pw@example.com/private'], false], // credentials are ignored
      [['isAllowed', '//example.com/private'], undefined], // scheme-relative resolves to http:
      [['isAllowed', '/private'], undefined], // relative URLs only match a relative robots.txt URL
      [['isAllowed', 'https://exa mple.com/'], undefined], // unparsable
      [['isAllowed', new URL(`${SITE}/private`)], false],
      [['isDisallowed', 'http://example.com/public'], true], // !undefined
      [['isDisallowed', `${SITE}/private`], true],
      [['isDisallowed', `${SITE}/public`], false],
      [['getMatchingLineNumber', `${SITE}/private`], 2],
      [['getMatchingLineNumber', `${SITE}/public`], -1],
      [['getMatchingLineNumber', 'http://example.com/private'], -1],
    ],
  },
  {
    name: 'origin: default ports (robots-parser fills in 80, or 443 for https)',
    url: 'http://example.com:80/robots.txt',
    contents: 'User-agent: *\nDisallow: /x',
    calls: [
      [['isAllowed', 'http://example.com/x'], false],
      [['isAllowed', 'http://example.com:8080/x'], undefined],
      [['isAllowed', 'https://example.com:80/x'], undefined],
    ],
  },
  {
    name: 'origin: other schemes get port 80 too, so ftp://h, ftp://h:21 and ftp://h:80 are one origin',
    url: 'ftp://example.com/robots.txt',
    contents: 'User-agent: *\nDisallow: /x',
    calls: [
      [['isAllowed', 'ftp://example.com:21/x'], false],
      [['isAllowed', 'ftp://example.com:80/x'], false],
      [['isAllowed', 'ftp://example.com:2121/x'], undefined],
    ],
  },
  {
    name: 'origin: internationalized host names compare in punycode',
    url: 'https://bücher.example/robots.txt',
    contents: 'User-agent: *\nDisallow: /x',
    calls: [
      [['isAllowed', 'https://xn--bcher-kva.example/x'], false],
      [['isAllowed', 'https://BÜCHER.example/y'], true],
    ],
  },
  {
    name: 'origin: an unparsable robots.txt URL answers for no parsable URL',
    url: 'http://[broken/robots.txt',
    contents: 'User-agent: *\nDisallow: /x',
    calls: [
      [['isAllowed', `${SITE}/x`], undefined],
      [['getMatchingLineNumber', `${SITE}/x`], -1],
      [['isAllowed', '/x'], undefined],
    ],
  },
  {
    name: 'origin: opaque URLs (no host) compare by scheme',
    url: 'mailto:someone@example.com',
    contents: 'User-agent: *\nDisallow: /x',
    calls: [
      [['isAllowed', 'mailto:other@example.com'], true],
      [['isAllowed', 'https://example.com/x'], undefined],
    ],
  },
  ...([undefined, null, 'null', ':/wom/test/'] as const).map((url): Scenario => ({
    name: `a robots.txt URL that is not one (${String(url)}): relative, no verdicts for absolute URLs, the file still read`,
    url,
    contents: 'User-agent: *\nDisallow: /private\nCrawl-delay: 4\nSitemap: /sitemap.xml\nHost: WWW.Example.com\n',
    calls: [
      [['isAllowed', 'http://www.example.com/private'], undefined],
      [['isDisallowed', 'http://www.example.com/index.html'], true],
      [['getMatchingLineNumber', 'http://www.example.com/private'], -1],
      [['isAllowed', '/private'], false],
      [['isAllowed', '/index.html'], true],
      [['getMatchingLineNumber', '/private'], 2],
      [['getSitemaps'], ['/sitemap.xml']],
      [['getPreferredHost'], 'www.example.com'],
      [['getCrawlDelay', 'bot'], 4],
    ],
  })),
  {
    name: 'relative URLs (robots-parser README)',
    url: '/robots.txt',
    contents: 'User-agent: *\nDisallow: /dir/\nDisallow: /test.html\nAllow: /dir/test.html\nAllow: /test.html',
    calls: [
      [['isAllowed', '/test.html', 'Sams-Bot/1.0'], true],
      [['isAllowed', '/dir/test.html', 'Sams-Bot/1.0'], true],
      [['isDisallowed', '/dir/test2.html', 'Sams-Bot/1.0'], true],
      [['isAllowed', '/dir/x?y=1', 'Sams-Bot/1.0'], false],
      [['isAllowed', `${SITE}/dir/x`], undefined],
      // robots-parser's base for relative URLs is a real-looking host, so that host matches too.
      [['isAllowed', 'http://robots-relative.samclarke.com/dir/x'], false],
    ],
  },
  {
    name: 'robots-parser README example',
    url: 'http://www.example.com/robots.txt',
    contents: [
      'User-agent: *', 'Disallow: /dir/', 'Disallow: /test.html', 'Allow: /dir/test.html', 'Allow: /test.html',
      'Crawl-delay: 1', 'Sitemap: http://example.com/sitemap.xml', 'Host: example.com',
    ].join('\n'),
    calls: [
      [['isAllowed', 'http://www.example.com/test.html', 'Sams-Bot/1.0'], true],
      [['isAllowed', 'http://www.example.com/dir/test.html', 'Sams-Bot/1.0'], true],
      [['isDisallowed', 'http://www.example.com/dir/test2.html', 'Sams-Bot/1.0'], true],
      [['getMatchingLineNumber', 'http://www.example.com/dir/test2.html', 'Sams-Bot/1.0'], 2],
      [['getMatchingLineNumber', 'http://www.example.com/test.html', 'Sams-Bot/1.0'], 5],
      [['getCrawlDelay', 'Sams-Bot/1.0'], 1],
      [['getSitemaps'], ['http://example.com/sitemap.xml']],
      [['getPreferredHost'], 'example.com'],
    ],
  },
  {
    name: 'user agents: missing or empty means *, full strings are cut at the first / and lower-cased',
    url: `${SITE}/robots.txt`,
    contents: 'User-agent: *\nDisallow: /all\n\nUser-agent: googlebot\nDisallow: /g\n\nUser-agent: Mozilla\nDisallow: /m\n',
    calls: [
      [['isAllowed', `${SITE}/all`], false],
      [['isAllowed', `${SITE}/g`], true],
      [['isAllowed', `${SITE}/all`, ''], false],
      [['isAllowed', `${SITE}/all`, undefined], false],
      [['isAllowed', `${SITE}/all`, '*'], false],
      [['isAllowed', `${SITE}/g`, 'Googlebot/2.1 (+http://www.google.com/bot.html)'], false],
      [['isAllowed', `${SITE}/all`, 'Googlebot/2.1'], true], // its own group only
      [['isAllowed', `${SITE}/g`, 'GOOGLEBOT'], false],
      [['isAllowed', `${SITE}/g`, '  Googlebot \t'], false],
      // A browser-style string reduces to "mozilla", as in robots-parser.
      [['isAllowed', `${SITE}/m`, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'], false],
      [['isAllowed', `${SITE}/all`, '/1.0'], false], // nothing left: the * groups
      [['isAllowed', `${SITE}/all`, 'Otherbot'], false],
      [['getMatchingLineNumber', `${SITE}/g`, 'Googlebot/2.1'], 5],
      [['getMatchingLineNumber', `${SITE}/all`], 2],
    ],
  },
  {
    name: 'crawl-delay: per group, the last one wins, no fallback once a group has rules',
    url: `${SITE}/robots.txt`,
    contents: [
      'User-agent: *', 'Crawl-delay: 10', '',
      'User-agent: a', 'Crawl-delay: 1', 'Crawl-delay: 2', 'Disallow: /x', '',
      'User-agent: b', 'Disallow: /y', '',
      'User-agent: c', 'Crawl-delay: soon', '',
      'User-agent: d', 'Crawl-delay:', '',
      'User-agent: e', 'Sitemap: https://example.com/s.xml', 'User-agent: f', 'Crawl-delay: 0x10', '',
      'User-agent: A/2.0', 'crawl-delay : 3.5 # later group',
    ].join('\n'),
    calls: [
      [['getCrawlDelay'], 10],
      [['getCrawlDelay', '*'], 10],
      [['getCrawlDelay', ''], 10],
      [['getCrawlDelay', 'a'], 3.5], // the last value over all of a's groups
      [['getCrawlDelay', 'A/1.0 (compatible)'], 3.5],
      [['getCrawlDelay', 'b'], undefined], // b has rules of its own, so no fallback to *
      [['getCrawlDelay', 'c'], undefined], // a non-number is ignored but still shadows *
      [['getCrawlDelay', 'd'], 0], // Number('') is 0
      [['getCrawlDelay', 'e'], 10], // the Sitemap line ended e's group before any rule: fallback
      [['getCrawlDelay', 'f'], 16], // Number('0x10')
      [['getCrawlDelay', 'zzz'], 10],
    ],
  },
  {
    name: 'sitemaps: every Sitemap line in file order, duplicates kept',
    url: `${SITE}/robots.txt`,
    contents: [
      'Sitemap: https://example.com/a.xml', 'User-agent: *', 'Sitemap: https://example.com/b.xml # comment',
      'Disallow: /', 'SITEMAP: https://example.com/a.xml', 'Sitemap:', 'sitemap :https://example.com/c.xml',
      'Site-map: https://example.com/d.xml', 'Sitemap https://example.com/e.xml',
    ].join('\r\n'),
    calls: [
      [['getSitemaps'], ['https://example.com/a.xml', 'https://example.com/b.xml', 'https://example.com/a.xml', 'https://example.com/c.xml']],
    ],
  },
  {
    name: 'host: the last Host line, lower-cased',
    url: `${SITE}/robots.txt`,
    contents: 'Host: WWW.Example.com\nUser-agent: *\nHost:\nhost: Second.Example.com\n',
    calls: [[['getPreferredHost'], 'second.example.com']],
  },
  {
    name: 'no host, sitemap or crawl-delay',
    url: `${SITE}/robots.txt`,
    contents: 'User-agent: *\nDisallow: /x',
    calls: [
      [['getPreferredHost'], null],
      [['getSitemaps'], []],
      [['getCrawlDelay', 'bot'], undefined],
    ],
  },
  ...([['empty string', ''], ['undefined', undefined], ['null', null]] as const).map(([what, contents]): Scenario => ({
    name: `empty file (${what})`,
    url: `${SITE}/robots.txt`,
    contents,
    calls: [
      [['isAllowed', `${SITE}/anything`, 'bot'], true],
      [['isDisallowed', `${SITE}/anything`], false],
      [['getMatchingLineNumber', `${SITE}/anything`], -1],
      [['getCrawlDelay'], undefined],
      [['getSitemaps'], []],
      [['getPreferredHost'], null],
    ],
  })),
  {
    name: 'matching both packages agree on: longest match, allow wins ties, * and $, escapes',
    url: `${SITE}/robots.txt`,
    contents: [
      'User-agent: *', 'Disallow: /a', 'Allow: /a/b', 'Disallow: /c', 'Allow: /c', 'Disallow: /*.pdf$',
      'Disallow: /%7ejoe', 'Disallow: /café', 'Disallow: /q?*sort=',
    ].join('\n'),
    calls: [
      [['isAllowed', `${SITE}/a/x`], false],
      [['isAllowed', `${SITE}/a/b/x`], true],
      [['getMatchingLineNumber', `${SITE}/a/b/x`], 3],
      [['isAllowed', `${SITE}/c`], true], // equal lengths: allow
      [['getMatchingLineNumber', `${SITE}/c`], 5],
      [['isAllowed', `${SITE}/files/x.pdf`], false],
      [['isAllowed', `${SITE}/files/x.pdf?dl=1`], true],
      [['isAllowed', `${SITE}/%7Ejoe/`], false],
      [['isAllowed', `${SITE}/caf%C3%A9`], false],
      [['isAllowed', `${SITE}/café`], false],
      [['isAllowed', `${SITE}/q?page=2&sort=asc`], false],
    ],
  },
]

describe('robots-parser behaviours, method by method (compat must agree)', () => {
  for (const s of SCENARIOS) {
    test(s.name, () => {
      const original = rp(s.url as string, s.contents as string)
      const compat = robotsParser(s.url as string, s.contents as string)
      for (const [c, expected] of s.calls) {
        const label = JSON.stringify(c.map((a) => (a instanceof URL ? `URL(${a.href})` : a)))
        expect(call(original, c), `robots-parser ${label}`).toEqual(expected)
        expect(call(compat, c), `compat ${label}`).toEqual(expected)
      }
    })
  }

  test('getSitemaps returns a fresh array each time', () => {
    const r = robotsParser(`${SITE}/robots.txt`, 'Sitemap: https://example.com/a.xml')
    r.getSitemaps().push('x')
    expect(r.getSitemaps()).toEqual(['https://example.com/a.xml'])
  })

  test('where robots-parser throws (an unparsable URL checked against an unparsable robots.txt URL), compat answers undefined', () => {
    const body = 'User-agent: *\nDisallow: /x'
    expect(() => rp('http://[broken/robots.txt', body).isAllowed('http://[broken/y')).toThrow(TypeError)
    const r = robotsParser('http://[broken/robots.txt', body)
    expect(r.isAllowed('http://[broken/y')).toBeUndefined()
    expect(r.isDisallowed('http://[broken/y')).toBe(true)
    expect(r.getMatchingLineNumber('http://[broken/x')).toBe(-1)
  })

  test('isDisallowed is !isAllowed for every URL kind', () => {
    const r = robotsParser(`${SITE}/robots.txt`, 'User-agent: *\nDisallow: /x')
    for (const url of [`${SITE}/x`, `${SITE}/y`, 'http://example.com/x', '/x', 'http://[']) {
      expect(r.isDisallowed(url)).toBe(!r.isAllowed(url))
    }
  })
})

// ------------------------------------------------------------------------------------------------
// isExplicitlyDisallowed: robots-parser's main branch (after 3.0.1, not installable from npm). Its
// definition: only the rules of the agent's own groups, never the `*` group; undefined off the
// file's origin. Which groups name the agent and how rules match are Google's, as in isAllowed.

describe('isExplicitlyDisallowed (robots-parser main): only the groups naming the agent', () => {
  const body = [
    'User-agent: *', 'Disallow: /', '',
    'User-agent: AdsBot-Google', 'Disallow: /cart', 'Allow: /cart/index.html', 'Dissallow: /typo', '',
    'User-agent: Googlebot2', 'Disallow: /g', '',
    'User-agent: quiet', '',
  ].join('\n')
  const r = robotsParser(`${SITE}/robots.txt`, body)
  test.each([
    ['a URL the named group disallows', `${SITE}/cart/1`, 'AdsBot-Google', true],
    ['a full user-agent string names the group by its product token', `${SITE}/cart/1`, 'AdsBot-Google/1.0 (+http://www.google.com/adsbot.html)', true],
    ['a URL the named group does not disallow (the * group would)', `${SITE}/home`, 'AdsBot-Google', false],
    ['Google\'s index.html rule: Allow: /cart/index.html also allows /cart/', `${SITE}/cart/`, 'AdsBot-Google', false],
    ['Google\'s accepted typo Dissallow is a disallow', `${SITE}/typo`, 'AdsBot-Google', true],
    ['a user-agent line names its leading letters: Googlebot2 is googlebot\'s group', `${SITE}/g`, 'Googlebot', true],
    ['an agent no group names is never explicitly disallowed', `${SITE}/cart/1`, 'OtherBot', false],
    ['a group naming the agent with no rules: nothing disallowed', `${SITE}/cart/1`, 'quiet', false],
    ['an agent reduced to nothing (/1.0) names no group', `${SITE}/cart/1`, '/1.0', false],
    ['* (as robots-parser keys it) is the * group itself', `${SITE}/home`, '*', true],
    ['a missing agent is *, as in robots-parser', `${SITE}/home`, undefined, true],
    ['a URL of another origin', 'http://example.com/cart/1', 'AdsBot-Google', undefined],
  ])('%s', (_, url, ua, expected) => {
    expect(r.isExplicitlyDisallowed(url, ua as string)).toBe(expected)
  })

  test('equals robots-parser main\'s answer wherever both read the file alike: isDisallowed when named, else false', () => {
    // robots-parser main: `_rules[ua]` alone (no fallback), through the same rule search as
    // isAllowed. On a file both packages read alike, that is this identity for every agent.
    const plain = robotsParser(`${SITE}/robots.txt`, 'User-agent: *\nDisallow: /\n\nUser-agent: a\nUser-agent: b\nDisallow: /x\nAllow: /x/y\n')
    const original = rp(`${SITE}/robots.txt`, 'User-agent: *\nDisallow: /\n\nUser-agent: a\nUser-agent: b\nDisallow: /x\nAllow: /x/y\n')
    for (const ua of ['a', 'b', 'c']) {
      for (const path of ['/', '/x', '/x/y', '/x/z', '/z']) {
        const named = ua !== 'c'
        expect(plain.isExplicitlyDisallowed(`${SITE}${path}`, ua), `${ua} ${path}`).toBe(named ? original.isDisallowed(`${SITE}${path}`, ua) : false)
      }
    }
  })

  test('a bad ua is a TypeError, as for the other methods', () => {
    expect(() => r.isExplicitlyDisallowed(`${SITE}/x`, 5 as unknown as string)).toThrow(/^ua: /)
  })
})

// ------------------------------------------------------------------------------------------------
// The migration guide's examples: one or more per documented difference. `rp` and `compat` are the
// two packages' answers (both checked), `category` what the classifier must name.

interface Difference {
  category: string
  contents: string
  url: string
  ua?: string
  method?: 'isAllowed' | 'getMatchingLineNumber'
  robotsUrl?: string
  rp: boolean | number
  compat: boolean | number
}

const ALL = 'User-agent: *\n'
const long = 'a'.repeat(16_660)

const DIFFERENCES: Difference[] = [
  { category: 'url:relative', robotsUrl: '/robots.txt', contents: `${ALL}Disallow: /a`, url: 'a/b', rp: false, compat: true },
  { category: 'url:emptyQuery', contents: `${ALL}Disallow: /*?`, url: `${SITE}/page?`, rp: true, compat: false },
  { category: 'url:dotSegments', contents: `${ALL}Disallow: /private/`, url: `${SITE}/private/../public`, rp: true, compat: false },
  { category: 'url:dotSegments', contents: `${ALL}Disallow: /public`, url: `${SITE}/private/%2e%2e/public`, rp: false, compat: true },
  { category: 'url:backslash', contents: `${ALL}Disallow: /a/`, url: `${SITE}/a\\b`, rp: false, compat: true },
  { category: 'url:whitespace', contents: `${ALL}Disallow: /ab`, url: `${SITE}/a\tb`, rp: false, compat: true },
  { category: 'url:percentEncoding', contents: `${ALL}Disallow: /a%20b`, url: `${SITE}/a b`, rp: false, compat: true },
  { category: 'url:percentEncoding', contents: `${ALL}Disallow: /?q=%27`, url: `${SITE}/?q='`, rp: false, compat: true },
  { category: 'url:authority', contents: `${ALL}Disallow: /p`, url: 'https://user;x@example.com/p', rp: false, compat: true },
  { category: 'url:authority', contents: `${ALL}Disallow: /p`, url: 'https:///example.com/p', rp: false, compat: true },
  { category: 'url:nul', contents: `${ALL}Disallow: /a$`, url: `${SITE}/a\0b`, rp: true, compat: false },
  { category: 'encoding', contents: `${ALL}Disallow: /a|b`, url: `${SITE}/a|b`, rp: true, compat: false },
  { category: 'encoding', contents: `${ALL}Disallow: /*[`, url: `${SITE}/x?f[]=1`, rp: true, compat: false },
  { category: 'encoding', contents: `${ALL}Disallow: /a b`, url: `${SITE}/a%20b`, rp: false, compat: true },
  { category: 'uaToken', contents: 'User-agent: Googlebot2\nDisallow: /', url: `${SITE}/`, ua: 'Googlebot', rp: true, compat: false },
  { category: 'uaToken', contents: 'User-agent: Googlebot2\nDisallow: /', url: `${SITE}/`, ua: 'Googlebot2', rp: false, compat: true },
  { category: 'uaToken', contents: 'User-agent: Foo Bar\nDisallow: /', url: `${SITE}/`, ua: 'Foo', rp: true, compat: false },
  { category: 'globalAgent', contents: 'User-agent: * Googlebot\nDisallow: /', url: `${SITE}/`, ua: 'Otherbot', rp: true, compat: false },
  { category: 'globalAgent', contents: 'User-agent: */1.0\nDisallow: /', url: `${SITE}/`, ua: 'Otherbot', rp: false, compat: true },
  { category: 'groups', contents: 'User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /', url: `${SITE}/`, ua: 'a', rp: true, compat: false },
  { category: 'groups', contents: 'User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /', url: `${SITE}/`, ua: 'a', rp: true, compat: false },
  { category: 'named', contents: `${ALL}Disallow: /\nUser-agent: a`, url: `${SITE}/`, ua: 'a', rp: false, compat: true },
  { category: 'keys', contents: `${ALL}Dissallow: /`, url: `${SITE}/`, rp: true, compat: false },
  { category: 'keys', contents: 'User agent: *\nDisallow: /', url: `${SITE}/`, rp: true, compat: false },
  { category: 'keys', contents: `${ALL}Disallowed: /`, url: `${SITE}/`, rp: true, compat: false },
  { category: 'colon', contents: `${ALL}Disallow /`, url: `${SITE}/`, rp: true, compat: false },
  { category: 'whitespace', contents: `${ALL}\u00a0Disallow: /`, url: `${SITE}/`, rp: false, compat: true },
  { category: 'whitespace', contents: `${ALL}\ufeffDisallow: /`, url: `${SITE}/`, rp: false, compat: true },
  { category: 'whitespace', contents: `${ALL}Disallow: /a\u00a0`, url: `${SITE}/a`, rp: false, compat: true },
  { category: 'indexHtml', contents: `${ALL}Disallow: /a/\nAllow: /a/index.html`, url: `${SITE}/a/`, rp: false, compat: true },
  { category: 'emptyRule', contents: `${ALL}Disallow:`, url: `${SITE}/x`, method: 'getMatchingLineNumber', rp: -1, compat: 2 },
  { category: 'nul', contents: `${ALL}Disallow: /a\0b`, url: `${SITE}/ax`, rp: true, compat: false },
  { category: 'longLine', contents: `${ALL}Disallow: /${long}b`, url: `${SITE}/${long}c`, rp: true, compat: false },
  { category: 'size', contents: `${ALL}${'#'.repeat(512_000)}\nDisallow: /`, url: `${SITE}/`, rp: false, compat: true },
]

describe('documented differences (docs/migrating-from-robots-parser.md)', () => {
  test('every category of the classifier has an example', () => {
    const categories = new Set(DIFFERENCES.map((d) => d.category.replace(/:.*/, '')))
    expect([...categories].sort()).toEqual([...SWITCHES].sort())
  })

  for (const d of DIFFERENCES) {
    const name = `${d.category}: ${JSON.stringify(d.contents.slice(0, 60))} ${JSON.stringify(d.url.slice(0, 60))}${d.ua ? ` as ${d.ua}` : ''}`
    test(name, () => {
      const robotsUrl = d.robotsUrl ?? `${SITE}/robots.txt`
      const method = d.method ?? 'isAllowed'
      const original = rp(robotsUrl, d.contents)
      const compat = robotsParser(robotsUrl, d.contents)
      expect(original[method](d.url, d.ua)).toBe(d.rp)
      expect(compat[method](d.url, d.ua)).toBe(d.compat)
      const target = { allowed: compat.isAllowed(d.url, d.ua)!, line: compat.getMatchingLineNumber(d.url, d.ua) }
      expect(classify(new ModelBody(d.contents), d.url, d.ua, target, method !== 'isAllowed')).toEqual([d.category])
    })
  }

  test('lone surrogates: robots-parser drops a rule holding one; Google matches the U+FFFD both sides become', () => {
    // robots-parser's own suite has this case ('should handle lone high / low surrogates'), run
    // as an expected failure in compat-suite.test.ts. A lone surrogate cannot be UTF-8, so the
    // labelled cases (bytes) never hold one and the classifier has no category for it.
    const body = `${ALL}Disallow: /\uD800\n`
    const original = rp(`${SITE}/robots.txt`, body)
    const compat = robotsParser(`${SITE}/robots.txt`, body)
    for (const path of ['/\uDC00', '/\uD800', '/\uFFFD', '/%EF%BF%BD']) {
      expect(original.isAllowed(`${SITE}${path}`), `robots-parser ${path}`).toBe(true)
      expect(compat.isAllowed(`${SITE}${path}`), `compat ${path}`).toBe(false)
    }
    // Both read a lone surrogate in the URL as U+FFFD: with the rule written as U+FFFD they agree.
    const written = `${ALL}Disallow: /\uFFFD\n`
    expect(rp(`${SITE}/robots.txt`, written).isAllowed(`${SITE}/\uDC00`)).toBe(false)
    expect(robotsParser(`${SITE}/robots.txt`, written).isAllowed(`${SITE}/\uDC00`)).toBe(false)
  })

  test('URL features are told apart', () => {
    expect(urlFeature('http://x/a?')).toBe('emptyQuery')
    expect(urlFeature('http://x/a/./b')).toBe('dotSegments')
    expect(urlFeature('http://x/a/..')).toBe('dotSegments')
    expect(urlFeature('http://x/a..b/')).toBeNull()
    expect(urlFeature('http:/x')).toBe('authority')
    expect(urlFeature('http://a.com;p')).toBe('authority')
    expect(urlFeature('///a')).toBe('authority')
    expect(urlFeature('//a/b')).toBeNull()
    expect(urlFeature('example.com/a')).toBe('relative')
    expect(urlFeature('http://x/a b')).toBe('percentEncoding')
    expect(urlFeature('http://x/a\nb')).toBe('whitespace')
  })
})

// ------------------------------------------------------------------------------------------------
// Differential over every labelled case with a single agent (robots-parser takes no arrays).

const RELATIVE_BASE = 'http://robots-relative.samclarke.com/'
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })
const encoder = new TextEncoder()
const NONE = new Set<Switch>()
const EVERY = new Set<Switch>(SWITCHES)

interface Tally {
  cases: number
  compared: number
  arrays: number
  unparsable: number
  labelled: number
  nonUtf8: number
  verdicts: Map<string, number>
  lines: Map<string, number>
  unexplained: string[]
  modelMismatches: string[]
  labelMismatches: string[]
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * A robots.txt URL with the case URL's origin as robots-parser resolves it (the URL itself when it
 * has no host, like `mailto:x`); null when robots-parser cannot parse the URL at all.
 */
function robotsUrlFor(url: string): string | null {
  let u: URL
  try {
    u = new URL(url, RELATIVE_BASE)
  } catch {
    return null
  }
  return u.host === '' ? u.href : new URL('/robots.txt', u).href
}

function differential(bodies: LabelledBody[]): Tally {
  const t: Tally = {
    cases: 0, compared: 0, arrays: 0, unparsable: 0, labelled: 0, nonUtf8: 0,
    verdicts: new Map(), lines: new Map(), unexplained: [], modelMismatches: [], labelMismatches: [],
  }
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)
  for (const b of bodies) {
    // Both packages take the text; bodies that are not valid UTF-8 change when decoded, so their
    // labels (computed on the bytes) are only compared when the text encodes back to the same bytes.
    const text = utf8.decode(b.body)
    const exact = sameBytes(encoder.encode(text), b.body)
    if (!exact) t.nonUtf8++
    const model = new ModelBody(text)
    const robots = new Map<string, { original: Robot; compat: Robot }>()
    for (const c of b.cases) {
      t.cases++
      if (typeof c.agent !== 'string') {
        t.arrays++
        continue
      }
      const where = `${b.id} ${JSON.stringify(c.agent)} ${JSON.stringify(c.url)}`
      // Neither package answers for a URL the WHATWG parser rejects (compat: undefined, like
      // robots-parser for any other origin).
      const robotsUrl = robotsUrlFor(c.url)
      if (robotsUrl === null) {
        t.unparsable++
        continue
      }
      let pair = robots.get(robotsUrl)
      if (pair === undefined) robots.set(robotsUrl, (pair = { original: rp(robotsUrl, text), compat: robotsParser(robotsUrl, text) }))
      const ca = pair.compat.isAllowed(c.url, c.agent)
      const cl = pair.compat.getMatchingLineNumber(c.url, c.agent)
      if (exact) {
        t.labelled++
        if (ca !== c.allowed || cl !== (c.line === 0 ? -1 : c.line)) t.labelMismatches.push(`${where}: compat ${ca} ${cl}, label ${c.allowed} ${c.line}`)
      }
      t.compared++
      const ra = pair.original.isAllowed(c.url, c.agent)!
      const rl = pair.original.getMatchingLineNumber(c.url, c.agent)
      // The model must be robots-parser with no switch on and compat with all of them on.
      const none = model.check(NONE, c.url, c.agent)
      const every = model.check(EVERY, c.url, c.agent)
      if (none?.allowed !== ra || none?.line !== rl) t.modelMismatches.push(`${where}: no switch ${JSON.stringify(none)}, robots-parser ${ra} ${rl}`)
      if (every?.allowed !== ca || every?.line !== cl) t.modelMismatches.push(`${where}: all switches ${JSON.stringify(every)}, compat ${ca} ${cl}`)
      if (ra === ca && rl === cl) continue
      const verdict = ra !== ca
      const labels = classify(model, c.url, c.agent, { allowed: ca!, line: cl }, !verdict)
      if (labels === null) {
        t.unexplained.push(`${where}: robots-parser ${ra} ${rl}, compat ${ca} ${cl}`)
        continue
      }
      bump(verdict ? t.verdicts : t.lines, labels.join(' + '))
    }
  }
  return t
}

/** Per category: disagreements whose smallest explanation includes it (alone or with others). */
function perCategory(m: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [key, n] of m) for (const c of key.split(' + ')) out[c] = (out[c] ?? 0) + n
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]))
}

function report(name: string, t: Tally): void {
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)
  console.log(
    `compat differential, ${name}: ${t.cases} cases, ${t.compared} compared with robots-parser ` +
      `(${t.arrays} with agent arrays skipped, ${t.unparsable} with URLs it cannot parse), ` +
      `${t.labelled} checked against labels (${t.nonUtf8} bodies not valid UTF-8 skipped)\n` +
      `  verdict disagreements: ${total(t.verdicts)} ${JSON.stringify(perCategory(t.verdicts))}\n` +
      `    smallest explanations: ${JSON.stringify(Object.fromEntries([...t.verdicts].sort((a, b) => b[1] - a[1])))}\n` +
      `  line-only disagreements: ${total(t.lines)} ${JSON.stringify(perCategory(t.lines))}`,
  )
}

function expectClean(t: Tally): void {
  expect(t.modelMismatches.slice(0, 10)).toEqual([])
  expect(t.unexplained.slice(0, 10)).toEqual([])
  expect([...t.verdicts.keys(), ...t.lines.keys()].filter((k) => k.includes('url:?'))).toEqual([])
  expect(t.labelMismatches.slice(0, 10)).toEqual([])
  expect(t.compared).toBeGreaterThan(0)
}

describe('differential: robots-parser vs compat on the labelled cases', () => {
  for (const file of ['google-spec-cases.jsonl', 'edge-cases.jsonl', 'fuzz-cases.jsonl']) {
    test(file, () => {
      const t = differential(loadFixture(file))
      report(file, t)
      expectClean(t)
    })
  }

  test.skipIf(!corpusAvailable())('shared corpus (real robots.txt files)', () => {
    const t = differential(loadCorpus())
    report('corpus', t)
    expectClean(t)
  })
})

// ------------------------------------------------------------------------------------------------
// Arguments: the project's TypeError style where robots-parser would coerce or crash.

describe('bad arguments', () => {
  const r = robotsParser(`${SITE}/robots.txt`, 'User-agent: *\nDisallow: /x')
  const loose = r as unknown as Record<Method, (...a: unknown[]) => unknown>
  test.each([
    ['robots.txt URL number', () => (robotsParser as (...a: unknown[]) => unknown)(42, ''), /^url: expected a string or a URL/],
    ['robots.txt URL object', () => (robotsParser as (...a: unknown[]) => unknown)({}, ''), /^url: expected a string or a URL/],
    ['contents number', () => (robotsParser as (...a: unknown[]) => unknown)(SITE, 42), /^contents: expected the robots.txt text as a string/],
    ['contents bytes', () => (robotsParser as (...a: unknown[]) => unknown)(SITE, new Uint8Array(1)), /^contents: /],
    ['url undefined', () => loose.isAllowed(undefined), /^url: expected a string or a URL, got undefined/],
    ['url number', () => loose.getMatchingLineNumber(7), /^url: /],
    ['ua number', () => loose.isAllowed(`${SITE}/x`, 5), /^ua: expected a user-agent string or undefined, got number 5/],
    ['ua array', () => loose.isDisallowed(`${SITE}/x`, ['a']), /^ua: .*an array/],
    ['ua object (crawl-delay)', () => loose.getCrawlDelay({}), /^ua: /],
  ])('%s is a TypeError', (_, f, message) => {
    expect(f).toThrow(TypeError)
    expect(f).toThrow(message)
  })

  test('the ua is checked even for a URL of another origin (robots-parser throws there too)', () => {
    expect(() => loose.isAllowed('http://other.example/', 5)).toThrow(TypeError)
  })
})

// ------------------------------------------------------------------------------------------------
// The built package (dist/), built first when missing or older than its sources.

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = join(ROOT, 'dist')
const BUILT = ['compat.js', 'compat.cjs', 'compat-workerd.js', 'compat.d.ts', 'compat.d.cts']
const SOURCES = ['src/compat.ts', 'src/compat/parser.ts', 'src/compat-workerd.ts', 'src/compat.d.cts', 'scripts/build.mjs', 'scripts/bundle-options.mjs', 'scripts/build-types.mjs']

describe('built package: robotstxt-wasm/compat', () => {
  let tmp = ''

  beforeAll(() => {
    const newest = Math.max(...SOURCES.map((s) => statSync(join(ROOT, s)).mtimeMs))
    const stale = BUILT.some((f) => !existsSync(join(DIST, f)) || statSync(join(DIST, f)).mtimeMs < newest)
    if (stale) {
      execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
      execFileSync(process.execPath, ['scripts/build-types.mjs'], { cwd: ROOT, stdio: 'inherit' })
    }
    // A consumer project with the package installed (a symlink, as npm link makes).
    tmp = mkdtempSync(join(tmpdir(), 'robotstxt-compat-'))
    mkdirSync(join(tmp, 'node_modules'))
    symlinkSync(ROOT, join(tmp, 'node_modules', 'robotstxt-wasm'), 'dir')
  }, 120_000)

  afterAll(() => {
    if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
  })

  const contents = 'User-agent: *\nDisallow: /private\nCrawl-delay: 2\nSitemap: https://example.com/s.xml'

  test('require() returns the function itself, like robots-parser', () => {
    const fromConsumer = createRequire(join(tmp, 'index.js'))
    const exported: unknown = fromConsumer('robotstxt-wasm/compat')
    expect(typeof exported).toBe('function')
    expect(fromConsumer.resolve('robotstxt-wasm/compat')).toBe(join(DIST, 'compat.cjs'))
    const r = (exported as typeof robotsParser)(`${SITE}/robots.txt`, contents)
    expect(r.isAllowed(`${SITE}/private/x`, 'Bot/1.0')).toBe(false)
    expect(r.isAllowed(`${SITE}/public`)).toBe(true)
    expect(r.isAllowed('http://example.com/public')).toBeUndefined()
    expect(r.getMatchingLineNumber(`${SITE}/private`)).toBe(2)
    expect(r.getCrawlDelay()).toBe(2)
    expect(r.getSitemaps()).toEqual(['https://example.com/s.xml'])
  })

  test('import gives the function as the default export', async () => {
    const url = pathToFileURL(join(tmp, 'node_modules', 'robotstxt-wasm', 'dist', 'compat.js')).href
    const mod = (await import(url)) as { default: typeof robotsParser }
    expect(Object.keys(mod)).toEqual(['default'])
    const r = mod.default(`${SITE}/robots.txt`, contents)
    expect(r.isDisallowed(`${SITE}/private`)).toBe(true)
    expect(r.getPreferredHost()).toBeNull()
  })

  test('the workerd build imports the wasm as a module instead of embedding it', () => {
    const code = readFileSync(join(DIST, 'compat-workerd.js'), 'utf8')
    expect(code).toMatch(/from\s*["']\.\/robots\.wasm["']/)
    expect(code).not.toContain('AGFzbQ') // base64 of the wasm magic number
  })

  test('types resolve for ESM, CommonJS, bundler and node10 consumers', () => {
    const files: Record<string, string> = {
      'esm.mts': [
        "import robotsParser from 'robotstxt-wasm/compat'",
        "import type { Robot } from 'robotstxt-wasm/compat'",
        "const r: Robot = robotsParser('https://example.com/robots.txt', '')",
        "export const a: boolean | undefined = r.isAllowed(new URL('https://example.com/'), 'Bot/1.0')",
        "export const n: number = r.getMatchingLineNumber('https://example.com/')",
        'export const s: string[] = r.getSitemaps()',
        'export const h: string | null = r.getPreferredHost()',
        'export const d: number | undefined = r.getCrawlDelay()',
        "export const e: boolean | undefined = r.isExplicitlyDisallowed(new URL('https://example.com/'), 'AdsBot-Google')",
        '// @ts-expect-error the URL is required',
        'r.isAllowed()',
      ].join('\n'),
      'cjs.cts': [
        "import robotsParser = require('robotstxt-wasm/compat')",
        "const r: robotsParser.Robot = robotsParser('https://example.com/robots.txt', '')",
        "export const a: boolean | undefined = r.isDisallowed('https://example.com/')",
        "export const e: boolean | undefined = r.isExplicitlyDisallowed('https://example.com/', 'AdsBot-Google')",
        'export const d: number | undefined = r.getCrawlDelay()',
        // The hand-written CommonJS declaration (src/compat.d.cts) must equal tsc's ESM one.
        "import type { default as esmParser, Robot as EsmRobot } from 'robotstxt-wasm/compat' with { 'resolution-mode': 'import' }",
        'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false',
        'export const sameRobot: Same<EsmRobot, robotsParser.Robot> = true',
        'export const sameFunction: Same<typeof esmParser, typeof robotsParser> = true',
      ].join('\n'),
      'interop.ts': [
        "import robotsParser from 'robotstxt-wasm/compat'",
        "export const a: boolean | undefined = robotsParser('https://example.com/robots.txt', '').isAllowed('https://example.com/')",
      ].join('\n'),
    }
    for (const [name, text] of Object.entries(files)) writeFileSync(join(tmp, name), text)
    const tsc = (...args: string[]) => {
      try {
        execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types'), ...args], { cwd: tmp, encoding: 'utf8' })
        return ''
      } catch (e) {
        return String((e as { stdout?: string }).stdout ?? e)
      }
    }
    expect(tsc('--module', 'nodenext', '--moduleResolution', 'nodenext', 'esm.mts', 'cjs.cts')).toBe('')
    expect(tsc('--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', 'interop.ts')).toBe('')
    expect(tsc('--module', 'commonjs', '--moduleResolution', 'node10', '--target', 'es2022', '--esModuleInterop', 'interop.ts')).toBe('')
  }, 60_000)
})
