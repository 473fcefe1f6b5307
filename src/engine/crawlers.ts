// Crawler presets: well-known crawlers, each with every robots.txt token its operator documents it
// obeys, most specific first, the preset sets it belongs to and the page that documents it.
//
// Invariants (test/crawlers.test.ts): the list and everything in it is frozen; names are unique
// ignoring ASCII case; every token is a product token the engine keeps as it is (letters, `-`, `_`),
// so a `User-agent:` line spelling it names the crawler; every set id is one of CRAWLER_SETS and
// every set has members; the first token is the name (ignoring case), so a crawler reported by its
// first token (diffRobots) is found again by name. A crawler whose operator documents no token is
// left out, not guessed, and so is one whose token holds a digit (Majestic's MJ12bot): Google's
// parser reads only the letters, `-` and `_` of a User-agent line (`MJ12bot` names `MJ`), so no
// agent can select its group alone.
//
// The tokens are the `agent` argument: `robots.isAllowed(url, crawlerTokens('Googlebot-Image'))`.
// An array of agents merges the groups that name any of them (Google's `AllowedByRobots` with a
// vector of agents), so for Googlebot-Image the Googlebot group applies when no Googlebot-Image
// group exists. When both exist Google's documentation says the crawler reads only its most
// specific group, while the merged set also holds the Googlebot rules; the verdicts can differ
// only where a Googlebot rule matches the path and no Googlebot-Image rule matches it longer.
//
// What tokens cannot say: some crawlers ignore the global `*` group (Google's special-case
// crawlers: AdsBot, APIs-Google) or may skip robots.txt for user-requested fetches. Their `*`
// rules still apply here; the entry's comment says so.

import { asciiLower } from './bytes.js'
import { fail } from './args.js'

/**
 * One crawler: its name, the robots.txt tokens it obeys (most specific first), who runs it.
 *
 * @example
 * ```ts
 * import { crawlers, type Crawler } from 'robotstxt-wasm'
 *
 * const gptbot: Crawler | undefined = crawlers.find((c) => c.name === 'GPTBot')
 * gptbot?.operator // → 'OpenAI'
 * ```
 */
export interface Crawler {
  /** The crawler's name, as `crawlerTokens` accepts it. */
  name: string
  /** Every `User-agent` token it obeys, most specific first. */
  tokens: readonly string[]
  /** The company or project that runs it. */
  operator: string
  /** The preset sets it belongs to (ids of CRAWLER_SETS); empty for crawlers of no set (ad checks). */
  sets: readonly string[]
  /** The operator's page that documents the tokens. */
  source: string
}

/** The preset sets: search engines, AI training, AI assistants and AI search (user-triggered fetchers included), SEO tools. */
export const CRAWLER_SETS = Object.freeze(['search', 'ai-training', 'ai-assistants', 'seo'] as const)

const GOOGLE_COMMON = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers'
const GOOGLE_SPECIAL = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers'
const BING = 'https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0'
const APPLE = 'https://support.apple.com/en-us/119829'
const OPENAI = 'https://platform.openai.com/docs/bots'
const ANTHROPIC = 'https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler'
const PERPLEXITY = 'https://docs.perplexity.ai/guides/bots'
const AMAZON = 'https://developer.amazon.com/amazonbot'
const META = 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/'

type Row = [name: string, tokens: string[], operator: string, sets: string[], source: string]

const ROWS: Row[] = [
  // Google's common crawlers, with the tokens that page lists for each. "Some crawlers have more
  // than one user agent token; you need to match only one crawler token for a rule to apply."
  ['Googlebot', ['Googlebot'], 'Google', ['search'], GOOGLE_COMMON],
  ['Googlebot-Image', ['Googlebot-Image', 'Googlebot'], 'Google', ['search'], GOOGLE_COMMON],
  ['Googlebot-Video', ['Googlebot-Video', 'Googlebot'], 'Google', ['search'], GOOGLE_COMMON],
  ['Googlebot-News', ['Googlebot-News', 'Googlebot'], 'Google', ['search'], GOOGLE_COMMON],
  ['Storebot-Google', ['Storebot-Google'], 'Google', ['search'], GOOGLE_COMMON],
  // The crawler of Search Console's URL inspection and the Rich Results Test; it mimics Googlebot.
  ['Google-InspectionTool', ['Google-InspectionTool', 'Googlebot'], 'Google', ['seo'], GOOGLE_COMMON],
  ['GoogleOther', ['GoogleOther'], 'Google', [], GOOGLE_COMMON],
  ['GoogleOther-Image', ['GoogleOther-Image', 'GoogleOther'], 'Google', [], GOOGLE_COMMON],
  ['GoogleOther-Video', ['GoogleOther-Video', 'GoogleOther'], 'Google', [], GOOGLE_COMMON],
  // A control token, not a fetcher: Googlebot's crawl, used for Gemini training and grounding.
  ['Google-Extended', ['Google-Extended'], 'Google', ['ai-training'], GOOGLE_COMMON],
  // Special-case crawlers that ignore the global `*` group with the publisher's permission. Only a
  // group naming them applies to them; the engine cannot leave `*` out through tokens, so a site
  // whose only group is `*` gets that group's verdict here, not Google's.
  ['AdsBot-Google', ['AdsBot-Google'], 'Google', [], GOOGLE_SPECIAL],
  ['AdsBot-Google-Mobile', ['AdsBot-Google-Mobile'], 'Google', [], GOOGLE_SPECIAL],
  // A special-case crawler too (ad products), which may ignore robots.txt rules by agreement.
  ['Mediapartners-Google', ['Mediapartners-Google'], 'Google', [], GOOGLE_SPECIAL],
  ['Bingbot', ['bingbot'], 'Microsoft', ['search'], BING],
  ['AdIdxBot', ['AdIdxBot'], 'Microsoft', [], BING],
  // "If robots instructions don't mention Applebot but do mention Googlebot, the Apple robot will
  // follow Googlebot instructions."
  ['Applebot', ['Applebot', 'Googlebot'], 'Apple', ['search'], APPLE],
  // A control token, not a fetcher: whether Applebot's crawl may train Apple's models.
  ['Applebot-Extended', ['Applebot-Extended'], 'Apple', ['ai-training'], APPLE],
  ['DuckDuckBot', ['DuckDuckBot'], 'DuckDuckGo', ['search'], 'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot'],
  ['DuckAssistBot', ['DuckAssistBot'], 'DuckDuckGo', ['ai-assistants'], 'https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot'],
  // A YandexBot group overrides a Yandex group, which overrides `*`.
  ['YandexBot', ['YandexBot', 'Yandex'], 'Yandex', ['search'], 'https://yandex.com/support/webmaster/controlling-robot/robots-txt.html'],
  ['GPTBot', ['GPTBot'], 'OpenAI', ['ai-training'], OPENAI],
  ['OAI-SearchBot', ['OAI-SearchBot'], 'OpenAI', ['ai-assistants'], OPENAI],
  // User-initiated: OpenAI says robots.txt rules may not apply to these requests.
  ['ChatGPT-User', ['ChatGPT-User'], 'OpenAI', ['ai-assistants'], OPENAI],
  ['ClaudeBot', ['ClaudeBot'], 'Anthropic', ['ai-training'], ANTHROPIC],
  ['Claude-User', ['Claude-User'], 'Anthropic', ['ai-assistants'], ANTHROPIC],
  ['Claude-SearchBot', ['Claude-SearchBot'], 'Anthropic', ['ai-assistants'], ANTHROPIC],
  ['PerplexityBot', ['PerplexityBot'], 'Perplexity', ['ai-assistants'], PERPLEXITY],
  ['Perplexity-User', ['Perplexity-User'], 'Perplexity', ['ai-assistants'], PERPLEXITY],
  ['CCBot', ['CCBot'], 'Common Crawl', ['ai-training'], 'https://commoncrawl.org/faq'],
  ['Amazonbot', ['Amazonbot'], 'Amazon', ['ai-training'], AMAZON],
  ['Amzn-SearchBot', ['Amzn-SearchBot'], 'Amazon', ['ai-assistants'], AMAZON],
  ['Amzn-User', ['Amzn-User'], 'Amazon', ['ai-assistants'], AMAZON],
  ['meta-externalagent', ['meta-externalagent'], 'Meta', ['ai-training'], META],
  ['Meta-WebIndexer', ['Meta-WebIndexer'], 'Meta', ['ai-assistants'], META],
  // User-initiated: Meta says it may bypass robots.txt for these requests.
  ['meta-externalfetcher', ['meta-externalfetcher'], 'Meta', ['ai-assistants'], META],
  ['AhrefsBot', ['AhrefsBot'], 'Ahrefs', ['seo'], 'https://ahrefs.com/robot'],
  ['AhrefsSiteAudit', ['AhrefsSiteAudit'], 'Ahrefs', ['seo'], 'https://ahrefs.com/robot'],
  ['SemrushBot', ['SemrushBot'], 'Semrush', ['seo'], 'https://www.semrush.com/bot/'],
  ['DotBot', ['DotBot'], 'Moz', ['seo'], 'https://moz.com/help/moz-procedures/crawlers/dotbot'],
]

/**
 * Well-known crawlers with every robots.txt token each obeys, most specific first, and where its
 * operator documents it. Deeply frozen.
 *
 * @example
 * ```ts
 * import { crawlers } from 'robotstxt-wasm'
 *
 * crawlers.filter((c) => c.sets.includes('ai-training')).length > 0 // → true
 * crawlers.find((c) => c.name === 'Googlebot-Image')?.tokens // → [ 'Googlebot-Image', 'Googlebot' ]
 * ```
 */
export const crawlers: readonly Crawler[] = Object.freeze(ROWS.map(([name, tokens, operator, sets, source]) =>
  Object.freeze({ name, tokens: Object.freeze(tokens), operator, sets: Object.freeze(sets), source })))

/**
 * Crawlers by ASCII-lower-cased name. A Map: names are caller input and must not reach prototypes.
 * Built at the first lookup, not at import: every process that imports the package would otherwise
 * pay for it (about 0.3 ms of a cold start, Node 24), and most never look a crawler up.
 */
let byName: Map<string, Crawler> | null = null

/**
 * The crawler called `name`, compared ignoring ASCII case, or undefined when no preset has that
 * name (also for a non-string). The CLI's AGENT words, the survey's crawler names and the
 * playground look presets up with it, so a preset's name means the same crawler everywhere.
 */
export function findCrawler(name: string): Crawler | undefined {
  if (typeof name !== 'string') return undefined
  return (byName ??= new Map(crawlers.map((c) => [asciiLower(c.name), c]))).get(asciiLower(name))
}

/**
 * The robots.txt tokens of the crawler called `name` (compared ignoring ASCII case), most specific
 * first, to pass as the agent argument. The array is frozen. Throws a TypeError for an unknown name.
 * `Robots.check` and the other checks stay token-exact: `robots.check(url, 'Googlebot-Image')` reads
 * only the groups naming that token (or `*`), as Google's library does; pass these tokens to check
 * as the crawler behaves.
 *
 * @example
 * ```ts
 * import { crawlerTokens, parseRobots } from 'robotstxt-wasm'
 *
 * const robots = parseRobots('User-agent: Googlebot\nDisallow: /photos/\n')
 * crawlerTokens('googlebot-image') // → [ 'Googlebot-Image', 'Googlebot' ]
 * robots.isAllowed('https://example.com/photos/1.jpg', crawlerTokens('Googlebot-Image')) // → false
 * ```
 */
export function crawlerTokens(name: string): readonly string[] {
  const crawler = findCrawler(name)
  if (crawler === undefined) fail('name', 'the name of a crawler in `crawlers` (its names: crawlers.map((c) => c.name)), e.g. "Googlebot-Image"', name)
  return crawler.tokens
}

/**
 * @internal The preset names closest to `name` (ignoring ASCII case), for a "did you mean" when a
 * name is no preset: at most `max`, nearest first, none further than a third of the name's length
 * in edits (Levenshtein: insertions, deletions, substitutions), so a token that is no typo of a
 * preset gets no suggestion; a name of 3 or more characters that starts a preset's name counts as
 * one edit away (`claude` suggests ClaudeBot, Claude-SearchBot, Claude-User).
 */
export function closestCrawlers(name: string, max = 3): string[] {
  const want = asciiLower(name)
  const limit = Math.max(1, Math.floor(want.length / 3))
  const scored: [number, string][] = []
  for (const c of crawlers) {
    const lower = asciiLower(c.name)
    const d = Math.min(editDistance(want, lower, limit), want.length >= 3 && lower.startsWith(want) ? 1 : limit + 1)
    if (d <= limit) scored.push([d, c.name])
  }
  return scored.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)).slice(0, max).map(([, n]) => n)
}

/** Levenshtein distance of `a` and `b`, or `limit + 1` as soon as it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      row.push(v)
      if (v < best) best = v
    }
    if (best > limit) return limit + 1
    prev = row
  }
  return prev[b.length]!
}
