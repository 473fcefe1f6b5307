// The survey's public shapes (no Node API here: the main entries export these types). A row is
// plain data, structured-cloneable across worker threads and frozen when handed out.

/**
 * What to survey: paths (a WARC or WARC.gz file, a folder of robots.txt files, or a .jsonl file of
 * `{origin, status, body}` lines), or origins to fetch live.
 *
 * @example
 * ```ts
 * import { surveyRobots, type SurveyInput } from 'robotstxt-wasm'
 *
 * const files: SurveyInput = ['crawl/part-1.warc.gz', 'robots-folder/'] // WARC files, folders, JSONL files
 * const live: SurveyInput = { origins: ['https://example.com', 'https://example.org'] } // fetched as Google fetches
 * for await (const row of surveyRobots(live)) console.log(row.origin, row.outcome)
 * ```
 */
export type SurveyInput = string | readonly string[] | {
  /** Files and folders, as for a string or an array. */
  readonly paths?: readonly string[]
  /** Origins whose robots.txt is fetched live (`https://example.com`). */
  readonly origins?: readonly string[]
}

/**
 * Options of `surveyRobots`.
 *
 * @example
 * ```ts
 * import { surveyRobots, type SurveyOptions } from 'robotstxt-wasm'
 *
 * const options: SurveyOptions = { sets: ['ai-training'], paths: ['/search'], threads: 2, shard: [0, 4] }
 * for await (const row of surveyRobots('crawl/part-1.warc.gz', options)) console.log(row.origin, row.crawlers.length)
 * ```
 */
export interface SurveyOptions {
  /** Crawler names from the presets (any other name is taken as a robots.txt token of its own); default: all presets. */
  crawlers?: readonly string[]
  /** Preset sets (`search`, `ai-training`, `ai-assistants`, `seo`) whose crawlers are added. */
  sets?: readonly string[]
  /** Paths checked for each crawler; `/` is always first. */
  paths?: readonly string[]
  /** Worker threads computing rows (default 1: rows computed on the calling thread). */
  threads?: number
  /** Survey only share `index` (from 0) of `count` of the inputs. */
  shard?: readonly [index: number, count: number]
  /** Live origins: robots.txt fetches at once (default 16). */
  concurrency?: number
  /** Live origins: time limit of each fetch in ms (default 10,000). */
  timeoutMs?: number
  /**
   * An input on a pipe (`/dev/stdin`, `<(...)`) is copied to a temporary file to be read: the copy
   * stops after this many bytes (default 4 GiB), and the rest is an error row at that offset.
   */
  maxPipeBytes?: number
}

/**
 * How the robots.txt decides crawling: RFC 9309 2.3.1 for the status; `error` when the record could not be read.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveyOutcome } from 'robotstxt-wasm'
 *
 * writeFileSync('sites.jsonl', ['{"origin":"https://a.example","status":404,"body":""}', '{"origin":"https://b.example","status":503,"body":""}', 'not json'].join('\n') + '\n')
 * const outcomes: SurveyOutcome[] = []
 * for await (const row of surveyRobots('sites.jsonl', { crawlers: ['Googlebot'] })) outcomes.push(row.outcome)
 * outcomes // → [ 'allow-all', 'disallow-all', 'error' ]
 * ```
 */
export type SurveyOutcome = 'ok' | 'allow-all' | 'disallow-all' | 'error'

/**
 * One path's verdict for one crawler.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveyPathVerdict } from 'robotstxt-wasm'
 *
 * writeFileSync('sites.jsonl', JSON.stringify({ origin: 'https://example.com', status: 200, body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\n' }) + '\n')
 * for await (const row of surveyRobots('sites.jsonl', { crawlers: ['Googlebot'], paths: ['/cart/1'] })) {
 *   const paths: SurveyPathVerdict[] = row.crawlers[0]!.paths
 *   paths // → [ { path: '/', allowed: true, line: 0 }, { path: '/cart/1', allowed: false, line: 5 } ]
 * }
 * ```
 */
export interface SurveyPathVerdict {
  /** The path checked. */
  path: string
  /** May the crawler fetch it. */
  allowed: boolean
  /** The deciding line, 0 when no rule matched (or the outcome was not `ok`). */
  line: number
}

/**
 * One crawler's view of one origin.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveyCrawler } from 'robotstxt-wasm'
 *
 * writeFileSync('sites.jsonl', JSON.stringify({ origin: 'https://example.com', status: 200, body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\n' }) + '\n')
 * for await (const row of surveyRobots('sites.jsonl', { crawlers: ['GPTBot'] })) {
 *   const gptbot: SurveyCrawler = row.crawlers[0]!
 *   gptbot.class // → 'blocked'
 *   gptbot.named // → true
 *   gptbot.paths // → [ { path: '/', allowed: false, line: 2 } ]
 * }
 * ```
 */
export interface SurveyCrawler {
  /** The crawler's name (a preset's, or the token given). */
  name: string
  /** `blocked`: every path disallowed and no allow rule applies; `partial`: some disallow rule applies; `allowed`: none does. */
  class: 'blocked' | 'partial' | 'allowed'
  /** Some group names one of the crawler's tokens (else the global group, if any, applies). */
  named: boolean
  /** The verdict on each path, `/` first. */
  paths: SurveyPathVerdict[]
  /** Content-Signal / Content-Usage categories that apply to the crawler: true `y`, false `n`, null only path-limited. */
  preferences: Record<string, boolean | null>
  /** Crawl-delay in seconds, null when none applies. */
  crawlDelay: number | null
}

/**
 * One row per input record (an origin's robots.txt).
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveyRow } from 'robotstxt-wasm'
 *
 * writeFileSync('sites.jsonl', JSON.stringify({ origin: 'https://example.com', status: 200, body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\n' }) + '\n')
 * const rows: SurveyRow[] = []
 * for await (const row of surveyRobots('sites.jsonl', { crawlers: ['GPTBot'] })) rows.push(row)
 * rows.map((r) => `${r.origin} ${r.outcome} ${r.status} ${r.bytes} bytes, ${r.lintErrors} lint errors`) // → [ 'https://example.com ok 200 62 bytes, 0 lint errors' ]
 * ```
 */
export interface SurveyRow {
  /** `scheme://host[:port]` of the robots.txt; for a folder's file, its name without `.txt`; empty when unknown. */
  origin: string
  /** The input the record came from (a file path, or `live`). */
  source: string
  /** Byte offset of the record in `source` (WARC: the record's start in the file; JSONL: the line's start). */
  offset: number
  /** What the robots.txt means for crawling. */
  outcome: SurveyOutcome
  /** HTTP status of the response, null when there was none. */
  status: number | null
  /** Body size in bytes (before the 500 KiB cut that parsing applies). */
  bytes: number
  /** Why the record could not be read (outcome `error`), else null. */
  error: string | null
  /** Sitemap URLs (distinct) the file lists. */
  sitemaps: number
  /** Findings of severity error from lint. */
  lintErrors: number
  /** Codes of the lint findings of severity error or warning, each once, sorted. */
  lintCodes: string[]
  /** Each crawler of the survey, in the order of its options; empty for an `error` row. */
  crawlers: SurveyCrawler[]
}
