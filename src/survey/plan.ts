// The survey's options, checked once: which crawlers (name and tokens) and which paths every row
// reports, the thread count, the shard, the summary's grouping, a paths listing's prefix and the
// bound on a pipe's copy. Bad options throw a TypeError saying what was expected.
// A plan is plain frozen data: it is sent to worker threads as it is.

import { agentTokens, fail, NUMERIC_OPTIONS, numberOption } from '../engine/args.js'
import { asciiLower } from '../engine/bytes.js'
import { closestCrawlers, CRAWLER_SETS, crawlers as presets, type Crawler } from '../engine/crawlers.js'
import type { SurveyInput, SurveyOptions } from './types.js'

/** One crawler of a plan: its name in the rows and the tokens it obeys. */
export interface PlannedCrawler {
  readonly name: string
  readonly tokens: readonly string[]
  readonly sets: readonly string[]
}

export interface SurveyPlan {
  readonly crawlers: readonly PlannedCrawler[]
  /** `/` first, then the paths given, each once. */
  readonly paths: readonly string[]
  readonly threads: number
  readonly shard: readonly [number, number]
  readonly concurrency: number
  readonly timeoutMs: number
  /** The most bytes of a pipe copied to be read (inputs.ts). */
  readonly maxPipeBytes: number
  /** The summary's grouping. */
  readonly by: SurveyBy | null
  /** What a paths listing's lines are relative to: a URL ending in `/`, or a folder. */
  readonly prefix: string
}

export type SurveyBy = 'month' | 'year' | 'source'
const BY: readonly SurveyBy[] = ['month', 'year', 'source']
/** Where Common Crawl serves the files its paths listings name. */
export const COMMON_CRAWL_PREFIX = 'https://data.commoncrawl.org/'

/** The preset sets, in the order reports show them. */
export const SETS: readonly string[] = CRAWLER_SETS
const MAX_PATHS = 64
const NUMBERS = NUMERIC_OPTIONS.SurveyOptions
/** A pipe's copy is on disk, not in memory: a few GiB takes a large WARC file and stops an endless pipe long before a disk fills. */
export const DEFAULT_MAX_PIPE_BYTES = NUMBERS.maxPipeBytes.default

function stringList(value: unknown, param: string, what: string): readonly string[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) fail(param, `an array of ${what}`, value)
  // Array.from, not map: a hole is an element too, and map would skip it unchecked.
  return Array.from(value as unknown[], (v, i) => (typeof v === 'string' && v !== '' ? v : fail(`${param}[${i}]`, `a non-empty string (${what})`, v)))
}

function plannedOf(p: Crawler): PlannedCrawler {
  return Object.freeze({ name: p.name, tokens: p.tokens, sets: p.sets })
}

/** A name that is no preset: the TypeError says which presets come closest. */
function unknownCrawler(name: string, param: string): never {
  const near = closestCrawlers(name)
  const hint = near.length > 0 ? `did you mean ${near.join(' or ')}? ` : ''
  return fail(param, `a crawler preset's name (${hint}a raw robots.txt token goes in options.tokens)`, name)
}

/** Checks `options` and resolves crawler names and sets against the presets. */
export function surveyPlan(options: SurveyOptions | undefined): SurveyPlan {
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
  const o = options ?? {}
  const byName = new Map(presets.map((p) => [asciiLower(p.name), p]))
  const names = stringList(o.crawlers, 'options.crawlers', 'crawler preset names')
  const sets = stringList(o.sets, 'options.sets', `set names: ${SETS.join(', ')}`)
  const tokens = stringList(o.tokens, 'options.tokens', 'robots.txt product tokens')
  sets.forEach((s, i) => SETS.includes(s) || fail(`options.sets[${i}]`, `one of ${SETS.join(', ')}`, s))
  const chosen: PlannedCrawler[] = []
  const seen = new Set<string>()
  const add = (c: PlannedCrawler): void => {
    if (seen.has(asciiLower(c.name))) return
    seen.add(asciiLower(c.name))
    chosen.push(c)
  }
  for (const p of presets) if (p.sets.some((s) => sets.includes(s))) add(plannedOf(p))
  names.forEach((n, i) => add(plannedOf(byName.get(asciiLower(n)) ?? unknownCrawler(n, `options.crawlers[${i}]`))))
  // A token given is a crawler of its own, obeying that one token.
  tokens.forEach((t, i) => add(Object.freeze({ name: t, tokens: Object.freeze([agentTokens(t, `options.tokens[${i}]`)[0]!]), sets: Object.freeze([]) })))
  const given = o.crawlers !== undefined || o.sets !== undefined || o.tokens !== undefined
  // Empty lists are not "no choice": a survey of no crawler would count nothing, and every preset
  // is not what was asked for.
  if (given && chosen.length === 0) fail('options.crawlers', 'at least one crawler (crawlers, sets or tokens), or none of the three for every preset', o.crawlers)
  if (!given) for (const p of presets) add(plannedOf(p))
  const extra = stringList(o.paths, 'options.paths', 'paths starting with "/"')
  extra.forEach((p, i) => p.startsWith('/') || fail(`options.paths[${i}]`, 'a path starting with "/"', p))
  const paths = [...new Set(['/', ...extra])]
  if (paths.length > MAX_PATHS) fail('options.paths', `at most ${MAX_PATHS - 1} paths besides "/"`, o.paths)
  let shard: [number, number] = [0, 1]
  if (o.shard !== undefined) {
    const s: unknown = o.shard
    if (!Array.isArray(s) || s.length !== 2 || !Number.isInteger(s[0]) || !Number.isInteger(s[1]) || s[1] < 1 || s[0] < 0 || s[0] >= s[1]) {
      fail('options.shard', '[index, count] with integers 0 <= index < count', s)
    }
    shard = [s[0] as number, s[1] as number]
  }
  return Object.freeze({
    crawlers: Object.freeze(chosen),
    paths: Object.freeze(paths),
    threads: numberOption('options.threads', o.threads, NUMBERS.threads),
    shard: Object.freeze(shard),
    concurrency: numberOption('options.concurrency', o.concurrency, NUMBERS.concurrency),
    timeoutMs: numberOption('options.timeoutMs', o.timeoutMs, NUMBERS.timeoutMs),
    maxPipeBytes: numberOption('options.maxPipeBytes', o.maxPipeBytes, NUMBERS.maxPipeBytes),
    by: o.by === undefined ? null : BY.includes(o.by) ? o.by : fail('options.by', `one of ${BY.join(', ')}`, o.by),
    prefix: prefixOption(o.prefix),
  })
}

/** A listing's prefix: an http(s) URL (given a trailing `/`, so that lines resolve under it) or a folder. */
function prefixOption(value: unknown): string {
  if (value === undefined) return COMMON_CRAWL_PREFIX
  if (typeof value !== 'string' || value === '') fail('options.prefix', 'an http(s) URL or a folder path', value)
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return fail('options.prefix', 'an http(s) URL or a folder path', value)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('options.prefix', 'an http(s) URL or a folder path', value)
  return url.href.endsWith('/') ? url.href : `${url.href}/`
}

/** The input, checked: files and folders to read, origins to fetch. */
export interface SurveySources { paths: readonly string[]; origins: readonly string[] }

/** Checks the survey's input argument. */
export function sourcesOf(input: SurveyInput): SurveySources {
  const list = (v: unknown, param: string): readonly string[] => {
    if (v === undefined) return []
    if (!Array.isArray(v)) fail(param, 'an array of strings', v)
    return Array.from(v as unknown[], (s, i) => (typeof s === 'string' && s !== '' ? s : fail(`${param}[${i}]`, 'a non-empty string', s)))
  }
  if (typeof input === 'string' && input !== '') return { paths: [input], origins: [] }
  if (Array.isArray(input)) return { paths: list(input, 'input'), origins: [] }
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const o = input as { paths?: unknown; origins?: unknown }
    const paths: unknown = o.paths
    const origins: unknown = o.origins
    // Neither named (a typo such as `origin`) would be an empty survey that says nothing.
    if (paths !== undefined || origins !== undefined) return { paths: list(paths, 'input.paths'), origins: list(origins, 'input.origins') }
  }
  return fail('input', 'a path, an array of paths, or {paths, origins} with at least one of them', input)
}
