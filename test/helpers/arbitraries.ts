// fast-check arbitraries for robots.txt bodies, patterns, agents and URLs, built from a grammar of
// directives and noise so that random inputs hit the quirks (wildcards, anchors, escapes,
// index.html, typos, odd line ends) far more often than uniform bytes would.
import fc from 'fast-check'

/** Pieces that patterns and paths are built from: small alphabet so that matches happen. */
const PIECES = ['/', '/', 'a', 'b', 'ab', '*', '**', '$', '%', '%2f', '%2F', '%c3%a9', 'é', '.php', '?', '=', ';', '#', 'index.html', '/index.htm', ' ', '\t', '$$', 'x', '0']

export const patternArb = fc
  .tuple(fc.constantFrom('/', '/', '*', '', 'a', '$'), fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }))
  .map(([head, rest]) => head + rest.join(''))

export const pathArb = fc
  .array(fc.constantFrom(...PIECES.filter((p) => p !== '*' && p !== '**')), { maxLength: 10 })
  .map((parts) => '/' + parts.join(''))

const AGENTS = ['a', 'b', 'foo', 'Googlebot', 'googlebot-news', '*', '* x', '*bot', 'AB42bot', 'x/1.0', '']

const KEYS = {
  ua: ['User-agent', 'user-agent', 'useragent', 'User agent', 'USER-AGENTS'],
  allow: ['Allow', 'allow', 'ALLOWED'],
  disallow: ['Disallow', 'disallow', 'dissallow', 'disalow', 'Disallowed'],
  other: ['Sitemap', 'Crawl-delay', 'Host', 'noindex', 'User_agent', 'Dis-allow'],
}

const SEPARATORS = [': ', ':', ' : ', ' ', '\t', ':\t']
const EOLS = ['\n', '\n', '\n', '\r\n', '\r', '\r\r\n', '\n\r']

const lineArb = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...KEYS.ua), fc.constantFrom(...SEPARATORS), fc.constantFrom(...AGENTS)).map(([k, s, v]) => k + s + v) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...KEYS.disallow), fc.constantFrom(...SEPARATORS), patternArb).map(([k, s, v]) => k + s + v) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...KEYS.allow), fc.constantFrom(...SEPARATORS), patternArb).map(([k, s, v]) => k + s + v) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...KEYS.other), fc.constantFrom(...SEPARATORS), fc.string({ maxLength: 6 })).map(([k, s, v]) => k + s + v) },
  { weight: 1, arbitrary: fc.constantFrom('', '# comment', '   ', 'garbage line here', ':', 'Disallow: /x # c', '\u0000Disallow: /', '\ufeffDisallow: /') },
)

/** A robots.txt body as a string: lines joined by assorted line ends, maybe a leading BOM. */
export const bodyArb = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(lineArb, fc.constantFrom(...EOLS)), { maxLength: 14 }))
  .map(([bom, lines]) => (bom ? '\ufeff' : '') + lines.map(([l, e]) => l + e).join(''))

/** A caller agent: one token or several (valid: non-empty product tokens). */
export const callerArb = fc.oneof(
  fc.constantFrom('a', 'b', 'foo', 'googlebot', 'Googlebot/2.1', 'x', '*', 'AB42bot', 'googlebot-news'),
  fc.array(fc.constantFrom('a', 'b', 'foo', 'googlebot'), { minLength: 1, maxLength: 3 }),
)

/** An absolute or odd URL around a generated path. */
export const urlArb = fc
  .tuple(fc.constantFrom('http://x.com', 'https://X.com:8080', '', '//h', 'x.com', 'http://a;b'), pathArb, fc.constantFrom('', '#frag', '?q=1', '\u0000tail'))
  .map(([pre, path, post]) => pre + path + post)

/** The bytes of the diff property tests: '/', '$', '*', '?' and '%' each mean something to patterns or URLs, and 'a' and 'b' are hex digits ('%ab' reads as '%AB'). */
export const DIFF_ALPHABET = ['a', 'b', '/', '$', '*', '?', '%']

/** A pattern on DIFF_ALPHABET, now and then an index.html allow's (its `.../$` rule). */
const diffPatternArb = fc.oneof(
  { weight: 9, arbitrary: fc.tuple(fc.constantFrom('/', '*'), fc.array(fc.constantFrom(...DIFF_ALPHABET), { maxLength: 4 })).map(([h, xs]) => h + xs.join('')) },
  { weight: 1, arbitrary: fc.constantFrom('/index.html', '/a/index.html', '*/index.html$') },
)

/** A robots.txt of 2-5 rules on DIFF_ALPHABET, in groups for `*` and for `x`. */
export const diffFileArb = fc
  .tuple(fc.constantFrom('*', '*', 'x'), fc.array(fc.tuple(fc.constantFrom(null, null, null, null, '*', 'x'), fc.constantFrom('Allow', 'Disallow'), diffPatternArb), { minLength: 2, maxLength: 5 }))
  .map(([first, rules]) => `User-agent: ${first}\n` + rules.map(([group, k, p]) => (group === null ? '' : `\nUser-agent: ${group}\n`) + `${k}: ${p}\n`).join(''))

/** Every path of '/' and up to `n` more bytes of `alphabet`. */
export function allPaths(alphabet: readonly string[], n: number): string[] {
  const out = ['/']
  let layer = ['/']
  for (let len = 1; len <= n; len++) {
    layer = layer.flatMap((p) => alphabet.map((c) => p + c))
    out.push(...layer)
  }
  return out
}
