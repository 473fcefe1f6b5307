// Robots.directives (every line Google's matcher ignores, with its group) and
// Robots.usagePreferences (Cloudflare's Content-Signal and the IETF AIPREF Content-Usage), on the
// published examples, on malformed values, and over the real-file corpus.
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { readPreference } from '../src/engine/preference-values.js'
import { lint } from '../src/engine/lint.js'
import { parseRobots } from '../src/index.js'
import { corpusAvailable, loadCorpus } from './helpers/cases.js'
import { fuzzOptions } from './helpers/fuzz.js'
import { oraclePreferences, oracleRead } from './helpers/preference-oracle.js'

describe('directives: every other line, in place', () => {
  test('keys as written and normalized, values, lines, groups and their agents; file-wide lines have none', () => {
    const robots = parseRobots([
      'Host: example.com',
      'User-agent: *',
      'User-agent: Yandex',
      'Crawl-Delay: 5',
      'Disallow: /x',
      'Clean-param: ref /articles/',
      'User-agent: Bingbot',
      'Request-rate: 1/5',
      'Sitemap: https://example.com/s.xml',
      'X-Unknown: whatever # comment',
    ].join('\n'))
    expect(robots.directives).toEqual([
      { line: 1, key: 'Host', name: 'host', value: 'example.com', group: -1, agents: [] },
      { line: 4, key: 'Crawl-Delay', name: 'crawl-delay', value: '5', group: 0, agents: ['*', 'yandex'] },
      { line: 6, key: 'Clean-param', name: 'clean-param', value: 'ref /articles/', group: 0, agents: ['*', 'yandex'] },
      { line: 8, key: 'Request-rate', name: 'request-rate', value: '1/5', group: 1, agents: ['bingbot'] },
      { line: 10, key: 'X-Unknown', name: 'x-unknown', value: 'whatever', group: 1, agents: ['bingbot'] },
    ])
    // Google ignores them: the same rules without those lines give the same verdicts.
    expect(robots.check('/x', 'Yandex')).toEqual({ allowed: false, line: 5, rule: { kind: 'disallow', pattern: '/x' } })
  })

  test('a key as long as the one before but spelled otherwise is its own; agents as named, repeats once', () => {
    const robots = parseRobots([
      'User-agent: Alpha',
      'User-agent: beta',
      'User-agent: ALPHA',
      'User-agent: *',
      'Crawl-delay: 1',
      'Crawl-Delay: 2',
      'Crawl-delay: 3',
      'Noindex: /a',
      'Disallow: /',
      'User-agent: *',
      'User-agent: Gamma',
      'Crawl-delay: 4',
    ].join('\n'))
    const d = robots.directives
    expect(d.map((x) => [x.key, x.name, x.value])).toEqual([
      ['Crawl-delay', 'crawl-delay', '1'], ['Crawl-Delay', 'crawl-delay', '2'], ['Crawl-delay', 'crawl-delay', '3'],
      ['Noindex', 'noindex', '/a'], ['Crawl-delay', 'crawl-delay', '4'],
    ])
    expect(d[0]!.agents).toEqual(['*', 'alpha', 'beta'])
    expect(d[4]!.agents).toEqual(['*', 'gamma'])
    // One frozen list per group, shared by its directives.
    expect(d[0]!.agents).toBe(d[3]!.agents)
    expect(Object.isFrozen(d[4]!.agents)).toBe(true)
  })

  test('bytes past the first decoded chunks of a body: values across and beyond chunk ends read exactly', () => {
    // A byte body (no source string to slice): its text is decoded a chunk at a time.
    const lines = ['User-agent: *']
    let n = 14
    for (let i = 0; n < 70_000; i++) {
      const line = `X-Key-${i}: value-${i}-${'v'.repeat(i % 37)}`
      lines.push(line)
      n += line.length + 1
    }
    const text = lines.join('\n') + '\n'
    const fromBytes = parseRobots(new TextEncoder().encode(text)).directives
    expect(fromBytes.length).toBe(lines.length - 1)
    fromBytes.forEach((d, k) => {
      const i = k
      expect([d.line, d.key, d.value]).toEqual([k + 2, `X-Key-${i}`, `value-${i}-${'v'.repeat(i % 37)}`])
    })
    expect(fromBytes).toEqual(parseRobots(text).directives)
  })

  test.skipIf(!corpusAvailable())('corpus: every real file gives one directive per "other" line, in its group (counts per key printed)', () => {
    const counts = new Map<string, number>()
    let files = 0
    for (const b of loadCorpus()) {
      const robots = parseRobots(b.body)
      const others = robots.lines.filter((r) => r.type === 'other')
      const ds = robots.directives
      expect(ds.map((d) => d.line)).toEqual(others.map((r) => r.line))
      for (const d of ds) {
        if (d.group >= 0) expect(d.agents.length).toBeGreaterThanOrEqual(robots.parsed.groups[d.group]!.agents.length)
        counts.set(d.name, (counts.get(d.name) ?? 0) + 1)
      }
      void robots.usagePreferences('Googlebot')
      files++
    }
    const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12)
    console.log(`directives over ${files} real files: ${top.map(([k, n]) => `${k} ${n}`).join(', ')}`)
    expect(counts.get('crawl-delay')).toBeGreaterThan(100)
  })
})

describe('usagePreferences: Content-Signal and Content-Usage', () => {
  test("Cloudflare's managed robots.txt: Content-Signal in the * group", () => {
    const robots = parseRobots('User-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n')
    expect(robots.usagePreferences('AnyBot')).toEqual({
      'search': { allowed: true, line: 2, source: 'Content-Signal', value: 'yes', paths: [] },
      'ai-train': { allowed: false, line: 2, source: 'Content-Signal', value: 'no', paths: [] },
    })
  })
  test('draft-ietf-aipref-attach example: the group for ExampleBot, and a path-limited rule for the others', () => {
    const robots = parseRobots([
      'User-Agent: *', 'Allow: /', 'Disallow: /never/', 'Content-Usage: train-ai=n', 'Content-Usage: /ai-ok/ train-ai=y', '',
      'User-Agent: ExampleBot', 'Allow: /', 'Content-Usage: train-ai=y',
    ].join('\n'))
    expect(robots.usagePreferences('ExampleBot/2.0')).toEqual({ 'train-ai': { allowed: true, line: 9, source: 'Content-Usage', value: 'y', paths: [] } })
    expect(robots.usagePreferences('OtherBot')).toEqual({
      'train-ai': { allowed: false, line: 4, source: 'Content-Usage', value: 'n', paths: [{ path: '/ai-ok/', allowed: true, line: 5 }] },
    })
  })
  test('lenient: unknown categories kept, malformed members skipped, the most restrictive wins, file-wide lines as a fallback', () => {
    const robots = parseRobots([
      'Content-Signal: ai-train=no',
      'User-agent: *',
      'Disallow: /x',
      'User-agent: Picky',
      'Content-Signal: search=maybe, ai-input, future-use=yes, search=yes',
      'Content-Usage: search=n',
    ].join('\n'))
    expect(robots.usagePreferences('Picky')).toEqual({
      'future-use': { allowed: true, line: 5, source: 'Content-Signal', value: 'yes', paths: [] },
      'search': { allowed: false, line: 6, source: 'Content-Usage', value: 'n', paths: [] },
    })
    expect(robots.usagePreferences('Other')).toEqual({ 'ai-train': { allowed: false, line: 1, source: 'Content-Signal', value: 'no', paths: [] } })
    expect(() => robots.usagePreferences('')).toThrow(TypeError)
  })
  test('lint flags each malformed member and names the vocabularies, never throws', () => {
    const body = new TextEncoder().encode('User-agent: *\nContent-Signal: search=maybe, ai-input\nContent-Usage: /p\nDisallow:\n')
    const findings = lint({ robots: parseRobots(body), body, size: body.length, truncated: false }).findings
    const mine = findings.filter((f) => f.code === 'usage-preference').map((f) => `${f.line}: ${f.message}`)
    expect(mine).toEqual([
      '2: "search=maybe" in Content-Signal: expected yes or no; crawlers skip it',
      '2: "ai-input" in Content-Signal: expected category=value; crawlers skip it',
      '3: "/p" in Content-Usage: no preference given; crawlers skip it',
    ])
    expect(findings.some((f) => f.code === 'unknown-key')).toBe(false)
  })
  test('the README example file parses as documented', () => {
    const robots = parseRobots(readFileSync(new URL('../examples/robots.txt', import.meta.url)))
    expect(() => robots.usagePreferences('GPTBot')).not.toThrow()
  })
})

describe('property: usagePreferences and readPreference equal their readable twin (split, trim, RegExp)', () => {
  // Characters that reach every branch of the value reader: separators, every kind of whitespace
  // String.prototype.trim removes (and some it keeps), cases, the Kelvin sign (which lower-cases to
  // `k`), U+0130 (which lower-cases to two characters), and the vocabularies' words.
  const piece = fc.constantFrom(
    ',', '=', ' ', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028', '\u200b', '\u180e', '\u0085',
    'search', 'ai-train', 'Train-AI', 'a.b*c_d', '9x', '_x', 'K', '\u212a', '\u0130', 'é', 'y', 'Y', 'yes', 'YeS', 'n', 'No', 'maybe', '/', '/p/', '*', '🙂',
  )
  const valueArb = fc.array(piece, { maxLength: 14 }).map((p) => p.join('').trim())
  // Mostly well-formed members of a few categories, so that lines agree and disagree on them.
  const memberArb = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('search', 'ai-train', 'Search', 'train-ai', 'x'), fc.constantFrom('=', ' = ', '='), fc.constantFrom('y', 'n', 'yes', 'no', 'NO', 'Y', 'maybe')).map((t) => t.join('')) },
    { weight: 1, arbitrary: valueArb },
  )
  const membersArb = fc.array(memberArb, { minLength: 1, maxLength: 4 }).map((m) => m.join(', '))

  test(`readPreference: members, problems and path as the twin reads them (${fuzzOptions(20_000).numRuns} runs)`, () => {
    fc.assert(
      fc.property(fc.constantFrom('content-signal', 'content-usage'), fc.oneof(valueArb, fc.string({ unit: 'binary', maxLength: 30 })), (name, value) => {
        expect(readPreference({ line: 7, name, value })).toEqual(oracleRead(7, name, value))
      }),
      fuzzOptions(20_000, 0x9e5),
    )
  })

  test(`usagePreferences: the same record, key order included, for generated files and agents (${fuzzOptions(3_000).numRuns} runs)`, () => {
    // Runs of one to three lines: other lines repeated, or preference lines with one key and one
    // set of members, each with its own path (none, `/`, `*` or a path): real files repeat lines,
    // and list paths with the same members.
    const other = fc.constantFrom('User-agent: *', 'User-agent: a', 'User-agent: B/1.0', 'User-agent: * x', 'user-agent: bot', 'Disallow: /x', 'Allow: /', '', '# c', 'Crawl-delay: 1', 'Sitemap: /s', 'Content-Signam: a=y', 'Content_Signal: a=y')
    const runArb = fc.oneof(
      fc.tuple(other, fc.integer({ min: 1, max: 3 })).map(([l, n]) => Array<string>(n).fill(l)),
      fc.tuple(fc.constantFrom('Content-Signal', 'content-usage', 'CONTENT-USAGE', 'Content-signal'), fc.array(fc.constantFrom('', '', '/p/ ', '/ ', '* ', '/q ', '/p/x\t', '/', '/é/ ', '/\u00a0 '), { minLength: 1, maxLength: 3 }), membersArb)
        .map(([k, paths, v]) => paths.map((path) => `${k}: ${path}${v}`)),
    )
    const linesArb = fc.array(runArb, { maxLength: 12 }).map((runs) => runs.flat())
    fc.assert(
      fc.property(linesArb, fc.constantFrom('a', 'b', 'bot', 'x'), (lines, agent) => {
        const robots = parseRobots(lines.join('\n'))
        const got = robots.usagePreferences(agent)
        const want = oraclePreferences(robots, agent)
        expect(Object.keys(got)).toEqual(Object.keys(want))
        expect({ ...got }).toEqual({ ...want })
      }),
      fuzzOptions(3_000, 0x9e6),
    )
  })
})
