// Crawler presets: the list's shape and invariants, its tokens against the lists stored with their
// operators' pages (test/fixtures/crawler-tokens.json), `crawlerTokens` and `findCrawler`, and what
// a crawler's tokens do as the agent argument.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { crawlers, crawlerTokens, parseRobots } from '../src/index.js'
import { agentTokens } from '../src/engine/args.js'
import { CRAWLER_SETS, findCrawler } from '../src/engine/crawlers.js'
import { valueAgentToken } from '../src/engine/parse.js'

describe('crawlers', () => {
  test('shape: a name, tokens, an operator, sets and an https source for each crawler', () => {
    expect(crawlers.length).toBeGreaterThanOrEqual(30)
    for (const c of crawlers) {
      expect(Object.keys(c).sort(), c.name).toEqual(['name', 'operator', 'sets', 'source', 'tokens'])
      expect(c.name, c.name).toMatch(/\S/)
      expect(c.operator, c.name).toMatch(/\S/)
      expect(c.tokens.length, c.name).toBeGreaterThan(0)
      expect(new URL(c.source).protocol, c.name).toBe('https:')
    }
  })

  test('the list, each crawler and its arrays are frozen', () => {
    expect(Object.isFrozen(crawlers)).toBe(true)
    for (const c of crawlers) {
      expect(Object.isFrozen(c) && Object.isFrozen(c.tokens) && Object.isFrozen(c.sets), c.name).toBe(true)
    }
    expect(() => (crawlers as unknown as unknown[]).push({})).toThrow(TypeError)
    expect(() => { (crawlers[0]!.tokens as string[])[0] = 'x' }).toThrow(TypeError)
  })

  test("every token is a product token the engine keeps as it is, on the caller's side and in a User-agent line", () => {
    for (const c of crawlers) {
      for (const token of c.tokens) {
        expect(agentTokens(token), `${c.name}: ${token}`).toEqual([token.toLowerCase()])
        expect(valueAgentToken(token), `${c.name}: ${token}`).toBe(token.toLowerCase())
      }
      expect(new Set(c.tokens.map((t) => t.toLowerCase())).size, c.name).toBe(c.tokens.length)
      expect(c.tokens[0]!.toLowerCase(), c.name).toBe(c.name.toLowerCase())
    }
  })

  test('names are unique ignoring case; every set id is known and every set has members', () => {
    const names = crawlers.map((c) => c.name.toLowerCase())
    expect(new Set(names).size).toBe(names.length)
    for (const c of crawlers) for (const s of c.sets) expect(CRAWLER_SETS, c.name).toContain(s)
    for (const s of CRAWLER_SETS) expect(crawlers.filter((c) => c.sets.includes(s)).length, s).toBeGreaterThan(0)
    expect([...CRAWLER_SETS]).toEqual(['search', 'ai-training', 'ai-assistants', 'seo'])
  })

  test('the crawlers with more than one documented token, most specific first', () => {
    const multi = Object.fromEntries(crawlers.filter((c) => c.tokens.length > 1).map((c) => [c.name, c.tokens]))
    expect(multi).toEqual({
      'Googlebot-Image': ['Googlebot-Image', 'Googlebot'],
      'Googlebot-Video': ['Googlebot-Video', 'Googlebot'],
      'Googlebot-News': ['Googlebot-News', 'Googlebot'],
      'Google-InspectionTool': ['Google-InspectionTool', 'Googlebot'],
      'GoogleOther-Image': ['GoogleOther-Image', 'GoogleOther'],
      'GoogleOther-Video': ['GoogleOther-Video', 'GoogleOther'],
      Applebot: ['Applebot', 'Googlebot'],
      YandexBot: ['YandexBot', 'Yandex'],
    })
  })
})

interface StoredList { name: string; tokens: string[]; page: string; source: string }
const stored = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'crawler-tokens.json'), 'utf8')) as { checked: string; crawlers: StoredList[] }

describe("the presets' tokens are their operators' lists", () => {
  test('every preset has a stored list and every stored list a preset, in the same order', () => {
    expect(crawlers.map((c) => c.name)).toEqual(stored.crawlers.map((c) => c.name))
  })

  test.each(stored.crawlers.map((c) => [c.name, c] as const))('%s: the tokens and the page are the stored ones', (name, list) => {
    const preset = findCrawler(name)!
    expect([...preset.tokens]).toEqual(list.tokens)
    expect(preset.source).toBe(list.source)
    // The stored excerpt names every token, in the order the preset checks them.
    const at = list.tokens.map((t) => list.page.indexOf(t))
    expect(at.every((i) => i >= 0), list.page).toBe(true)
  })
})

describe('findCrawler', () => {
  test('a preset by its name in any case; undefined for any other name or a non-string', () => {
    for (const c of crawlers) {
      expect(findCrawler(c.name)).toBe(c)
      expect(findCrawler(c.name.toUpperCase())).toBe(c)
      expect(findCrawler(c.name.toLowerCase())).toBe(c)
    }
    for (const name of ['NoSuchBot', '', 'constructor', '__proto__', 'Googlebot ', 'Googlebot/2.1', 42, null, undefined]) {
      expect(findCrawler(name as string), String(name)).toBeUndefined()
    }
  })
})

describe('crawlerTokens', () => {
  test('round trip: every crawler by its name, in any case, gives its tokens', () => {
    for (const c of crawlers) {
      expect(crawlerTokens(c.name)).toBe(c.tokens)
      expect(crawlerTokens(c.name.toUpperCase())).toBe(c.tokens)
      expect(crawlerTokens(c.name.toLowerCase())).toBe(c.tokens)
    }
  })

  test.each([['NoSuchBot'], [''], ['constructor'], ['__proto__'], ['toString'], ['Googlebot ']])('unknown name %j: a TypeError saying where the names are', (name) => {
    expect(() => crawlerTokens(name)).toThrow(TypeError)
    expect(() => crawlerTokens(name)).toThrow(/name: expected the name of a crawler in `crawlers` \(its names: crawlers\.map/)
  })

  test.each([[undefined], [null], [42], [['Googlebot']], [{}]])('non-string %j: a TypeError', (name) => {
    expect(() => crawlerTokens(name as never)).toThrow(TypeError)
    expect(() => crawlerTokens(name as never)).toThrow(/^name: expected the name of a crawler/)
  })
})

// Labelled: each case's expected verdict and deciding line, worked out by hand from the body.
const GOOGLEBOT_ONLY = [
  'User-agent: *', // 1
  'Disallow: /photos/', // 2
  '', // 3
  'User-agent: Googlebot', // 4
  'Allow: /photos/', // 5
  'Disallow: /private/', // 6
].join('\n')
const WITH_IMAGE_GROUP = GOOGLEBOT_ONLY + '\n' + [
  '', // 7
  'User-agent: Googlebot-Image', // 8
  'Disallow: /photos/a', // 9
].join('\n')

describe("Googlebot-Image's tokens as the agent", () => {
  test.each([
    ['no Googlebot-Image group: the Googlebot group applies, not *', GOOGLEBOT_ONLY, '/photos/a.jpg', true, 5],
    ['no Googlebot-Image group: a Googlebot rule decides', GOOGLEBOT_ONLY, '/private/x', false, 6],
    ['a Googlebot-Image group: its rule decides', WITH_IMAGE_GROUP, '/photos/a.jpg', false, 9],
    ['a Googlebot-Image group: the * group no longer applies', WITH_IMAGE_GROUP, '/photos/b.jpg', true, 5],
    // The groups of all tokens merge (Google's RobotsMatcher::AllowedByRobots with several user agents); Google's documentation says its
    // crawler reads only the most specific group, which has no rule for /private/x (allowed).
    ['a Googlebot-Image group: the merged Googlebot rules still apply', WITH_IMAGE_GROUP, '/private/x', false, 6],
  ])('%s', (_label, body, url, allowed, line) => {
    const robots = parseRobots(body)
    const verdict = robots.check(`https://example.com${url}`, crawlerTokens('Googlebot-Image'))
    expect({ allowed: verdict.allowed, line: verdict.line }).toEqual({ allowed, line })
    expect(robots.isAllowed(`https://example.com${url}`, crawlerTokens('Googlebot-Image'))).toBe(allowed)
  })

  test('the token alone reads the * group where no Googlebot-Image group exists: the preset changes the verdict', () => {
    const robots = parseRobots(GOOGLEBOT_ONLY)
    expect(robots.check('https://example.com/photos/a.jpg', 'Googlebot-Image')).toMatchObject({ allowed: false, line: 2 })
    expect(robots.check('https://example.com/photos/a.jpg', crawlerTokens('Googlebot-Image'))).toMatchObject({ allowed: true, line: 5 })
  })
})
