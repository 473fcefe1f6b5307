// The survey's public shapes (no Node API here: the main entries export these types). A row is
// plain data, structured-cloneable across worker threads and frozen when handed out.

/**
 * What to survey: paths (a WARC or WARC.gz file, or its http(s) URL; a Common Crawl paths listing,
 * `*.paths` or `*.paths.gz`, local or http(s); a folder of robots.txt files; or a .jsonl file of
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
  /** Files, folders, URLs and listings, as for a string or an array. */
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
  /**
   * Crawler presets by name (ignoring case; see `crawlers`); a name that is no preset is a
   * TypeError naming the closest ones. Default, when neither `crawlers`, `sets` nor `tokens` is
   * given: every preset.
   */
  crawlers?: readonly string[]
  /** Preset sets (`search`, `ai-training`, `ai-assistants`, `seo`) whose crawlers are added. */
  sets?: readonly string[]
  /** Raw robots.txt product tokens, each surveyed as a crawler of its own (named by the token). */
  tokens?: readonly string[]
  /** Paths checked for each crawler; `/` is always first. */
  paths?: readonly string[]
  /** Worker threads computing rows (default 1: rows computed on the calling thread). */
  threads?: number
  /**
   * Survey only share `index` (from 0) of `count` of the inputs: input file i (a folder's files and
   * a listing's WARC files counted one by one, in order) belongs to share i mod count.
   */
  shard?: readonly [index: number, count: number]
  /**
   * How the summary groups the rows besides its total: by the month or year of `captured`, or by
   * `source`. Rows are the same whatever the grouping.
   */
  by?: 'month' | 'year' | 'source'
  /**
   * What each line of a paths listing is relative to: an http(s) URL or a folder (default
   * `https://data.commoncrawl.org/`, where Common Crawl serves its files).
   */
  prefix?: string
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
 *   gptbot.by // → 'name'
 *   gptbot.paths // → [ { path: '/', allowed: false, line: 2 } ]
 * }
 * ```
 */
export interface SurveyCrawler {
  /** The crawler's name (a preset's, or the token given). */
  name: string
  /**
   * What the rules say (outcome `ok` only; null otherwise, when no rules were read): `blocked`
   * (entirely: every path disallowed and no allow rule applies), `partial` (some disallow rule
   * applies), `allowed` (none does).
   */
  class: 'blocked' | 'partial' | 'allowed' | null
  /**
   * Whose rules decide (outcome `ok` only, else null): `name` when a group names one of the
   * crawler's tokens, `*` when none does (the global group, if there is one, applies).
   */
  by: 'name' | '*' | null
  /** Some group names one of the crawler's tokens: `by` is `name`. */
  named: boolean
  /**
   * The verdict on each path, `/` first: the rules' when the outcome is `ok`, else the outcome's
   * (allowed for `allow-all`, disallowed for `disallow-all`, line 0).
   */
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
  /**
   * When the robots.txt was captured, ISO 8601 in UTC to the second (`2024-07-13T05:12:34Z`): the
   * WARC-Date, the time of a live fetch, a JSONL line's `captured`; null when unknown (a folder's
   * file, a record without a valid date).
   */
  captured: string | null
  /** What the robots.txt means for crawling. */
  outcome: SurveyOutcome
  /** HTTP status of the response, null when there was none. */
  status: number | null
  /** Body size in bytes (before the 500 KiB cut that parsing applies). */
  bytes: number
  /**
   * Outcome `error`: why the record could not be read. Outcome `disallow-all` without a status: the
   * failure's code (`dns`, `refused`, `reset`, `timeout`, `tls`, `truncated`, `decoding`,
   * `redirects`, `aborted`, `other`), or null when the input gave none. Else null.
   */
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

/**
 * What `surveyRobots` returns: the rows, one iteration at a time, and their summary once an
 * iteration has read them all.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveyRun } from 'robotstxt-wasm'
 *
 * writeFileSync('sites.jsonl', [
 *   JSON.stringify({ origin: 'https://a.example', status: 200, body: 'User-agent: GPTBot\nDisallow: /\n' }),
 *   JSON.stringify({ origin: 'https://b.example', status: 503, body: '' }),
 * ].join('\n') + '\n')
 * const run: SurveyRun = surveyRobots('sites.jsonl', { crawlers: ['GPTBot'] })
 * for await (const row of run) console.log(row.origin, row.outcome)
 * const { total } = await run.summary
 * const text = `${total.crawlers[0]!.blockedByName} of ${total.ok} sites read block GPTBot by name`
 * text // → '1 of 1 sites read block GPTBot by name'
 * ```
 */
export interface SurveyRun extends AsyncIterable<SurveyRow> {
  /**
   * Settles when the first iteration of the rows ends: the summary of every row when it read them
   * all; rejected when it stopped early (a `break`) or failed, since a summary of some rows would
   * not say what it seems to. Rejections are handled: leaving it unread is harmless.
   */
  readonly summary: Promise<SurveySummary>
}

/**
 * The rows' totals, as `robotstxt survey` prints them: every share is a count over `ok`, the
 * records whose robots.txt was read; records without one (`allow-all`) and failures
 * (`disallow-all`) are counted in `outcomes` and `failures`, never as blocking.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveySummary } from 'robotstxt-wasm'
 *
 * const line = (origin: string, captured: string, body: string) => JSON.stringify({ origin, status: 200, captured, body })
 * writeFileSync('two-crawls.jsonl', [
 *   line('https://a.example', '2024-01-10T00:00:00Z', 'User-agent: *\nDisallow: /admin/\n'),
 *   line('https://a.example', '2024-07-10T00:00:00Z', 'User-agent: GPTBot\nDisallow: /\n'),
 * ].join('\n') + '\n')
 * const run = surveyRobots('two-crawls.jsonl', { crawlers: ['GPTBot'], by: 'month' })
 * for await (const _ of run);
 * const summary: SurveySummary = await run.summary
 * const lines = summary.groups.map((g) => `${g.key}: ${g.crawlers[0]!.partialByStar} partly by *, ${g.crawlers[0]!.blockedByName} by name, of ${g.ok}`)
 * lines // → [ '2024-01: 1 partly by *, 0 by name, of 1', '2024-07: 0 partly by *, 1 by name, of 1' ]
 * summary.changes[0]!.crawlers[0] // → { name: 'GPTBot', changed: 1, restricted: 0, lifted: 0 }
 * ```
 */
export interface SurveySummary {
  /** The grouping asked for (`options.by`), null when none. */
  by: 'month' | 'year' | 'source' | null
  /** Every row. */
  total: SurveyGroup
  /**
   * One group per month (`2024-07`), year (`2024`) or source, in time order (sources in input
   * order); records without a capture date in a group `undated`, last. Empty when `by` is null.
   * Past 1,000 groups, the rows of new keys are counted in a group `(other)`.
   */
  groups: SurveyGroup[]
  /** The same origins in consecutive groups: one entry per pair of consecutive groups (`undated` and `(other)` left out). */
  changes: SurveyChange[]
  /**
   * Origins are counted, and compared across groups, on a sample of them: 1 when every origin is
   * (up to 100,000 distinct origins), else n for the 1 in n whose hash falls in the sample; then
   * `origins` counts are estimates (sample count x n) and `changes` counts are of the sample.
   */
  originSample: number
  /** Files of folder inputs not read: not named `robots.txt` or `*.txt`. */
  skippedFiles: number
}

/**
 * The totals of one group of rows (or of all of them): counts, with `ok` the denominator of every
 * share of sites.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveyGroup } from 'robotstxt-wasm'
 *
 * writeFileSync('sites.jsonl', [
 *   JSON.stringify({ origin: 'https://a.example', status: 200, body: 'User-agent: *\nDisallow: /cart\n' }),
 *   JSON.stringify({ origin: 'https://b.example', status: 404 }),
 *   JSON.stringify({ origin: 'https://c.example', status: 503 }),
 * ].join('\n') + '\n')
 * const run = surveyRobots('sites.jsonl', { crawlers: ['CCBot'] })
 * for await (const _ of run);
 * const total: SurveyGroup = (await run.summary).total
 * ;[total.records, total.ok, total.outcomes['allow-all'], total.failures] // → [ 3, 1, 1, [ { status: 503, code: null, records: 1 } ] ]
 * ```
 */
export interface SurveyGroup {
  /** The month (`2024-07`), year, source or `undated`; `all` for the total. */
  key: string
  /** Rows of the group. */
  records: number
  /** Distinct origins among them (an estimate when `originSample` > 1). */
  origins: number
  /** Rows by outcome. */
  outcomes: Record<SurveyOutcome, number>
  /** Rows whose robots.txt was read (outcome `ok`): the denominator of every share. */
  ok: number
  /** `disallow-all` rows by cause, most first: an HTTP status (429, 5xx), or no response with the failure's code (null when none was given). */
  failures: {
    /** The HTTP status (429, 5xx), or null when no response came. */
    status: number | null
    /** No response: the failure's code (the rows' `error`), null when the input gave none; null with a status. */
    code: string | null
    /** Rows with this cause. */
    records: number
  }[]
  /** Per crawler, in the plan's order. */
  crawlers: SurveyCrawlerTotals[]
  /** `ok` rows stating some Content-Signal / Content-Usage preference for some crawler. */
  withPreferences: number
  /** Per category: `ok` rows telling some crawler no / yes (at most 32 categories; later ones under `(other)`). */
  preferences: {
    /** The category (`ai-train`, `search`, ...), or `(other)`. */
    category: string
    /** `ok` rows telling some crawler no. */
    no: number
    /** `ok` rows telling some crawler yes. */
    yes: number
  }[]
  /** `ok` rows with a lint error. */
  withLintErrors: number
  /** Per lint code (errors and warnings): `ok` rows with that finding, most first. */
  lint: {
    /** The lint finding's code. */
    code: string
    /** `ok` rows with it. */
    records: number
  }[]
}

/**
 * One crawler's counts over a group's `ok` rows: blocked entirely or partly, by a group naming it
 * or by the `*` group.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveyCrawlerTotals } from 'robotstxt-wasm'
 *
 * writeFileSync('sites.jsonl', [
 *   JSON.stringify({ origin: 'https://a.example', status: 200, body: 'User-agent: GPTBot\nDisallow: /\n' }),
 *   JSON.stringify({ origin: 'https://b.example', status: 200, body: 'User-agent: *\nDisallow: /admin/\n' }),
 * ].join('\n') + '\n')
 * const run = surveyRobots('sites.jsonl', { crawlers: ['GPTBot'] })
 * for await (const _ of run);
 * const gptbot: SurveyCrawlerTotals = (await run.summary).total.crawlers[0]!
 * ;[gptbot.blockedByName, gptbot.partialByStar, gptbot.named] // → [ 1, 1, 1 ]
 * ```
 */
export interface SurveyCrawlerTotals {
  /** The crawler's name. */
  name: string
  /** Its preset sets (empty for a token given with `tokens`). */
  sets: readonly string[]
  /** `ok` rows blocking it entirely (class `blocked`) by a group naming it. */
  blockedByName: number
  /** `ok` rows blocking it entirely through the `*` group. */
  blockedByStar: number
  /** `ok` rows blocking it partly (class `partial`) by a group naming it. */
  partialByName: number
  /** `ok` rows blocking it partly through the `*` group. */
  partialByStar: number
  /** `ok` rows allowing it everything checked (class `allowed`). */
  allowed: number
  /** `ok` rows with a group naming it (whatever that group says). */
  named: number
}

/**
 * How the same origins' rules changed between two consecutive groups (snapshots), per crawler.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots, type SurveyChange } from 'robotstxt-wasm'
 *
 * const line = (origin: string, captured: string, body: string) => JSON.stringify({ origin, status: 200, captured, body })
 * writeFileSync('snapshots.jsonl', [
 *   line('https://a.example', '2024-01-05T00:00:00Z', ''),
 *   line('https://b.example', '2024-01-05T00:00:00Z', ''),
 *   line('https://a.example', '2024-02-05T00:00:00Z', 'User-agent: CCBot\nDisallow: /\n'),
 *   line('https://b.example', '2024-02-05T00:00:00Z', ''),
 * ].join('\n') + '\n')
 * const run = surveyRobots('snapshots.jsonl', { crawlers: ['CCBot'], by: 'month' })
 * for await (const _ of run);
 * const [change]: SurveyChange[] = (await run.summary).changes
 * change // → { from: '2024-01', to: '2024-02', origins: 2, crawlers: [ { name: 'CCBot', changed: 1, restricted: 1, lifted: 0 } ] }
 * ```
 */
export interface SurveyChange {
  /** The earlier group's key. */
  from: string
  /** The later group's key. */
  to: string
  /** Origins (of the sample) whose robots.txt was read (`ok`) in both: the denominator. */
  origins: number
  /**
   * Per crawler: origins whose class or `by` differs (`changed`); among them, those allowed before
   * and blocked entirely or partly after (`restricted`), and the reverse (`lifted`).
   */
  crawlers: {
    /** The crawler's name. */
    name: string
    /** Origins whose class or `by` for it differs. */
    changed: number
    /** Origins that allowed it before and block it entirely or partly after. */
    restricted: number
    /** Origins that blocked it entirely or partly before and allow it after. */
    lifted: number
  }[]
}
