// Argument checking for the public API: bad arguments throw a TypeError that names the parameter
// and what was expected. Malformed robots.txt content never throws; only the caller's arguments do.

import { asciiLower } from './bytes.js'
import { NAMED_HASH_BASIS, NAMED_HASH_PRIME } from './layout.js'

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value === '' ? 'an empty string' : `the string ${JSON.stringify(value.slice(0, 40))}`
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}

export function fail(param: string, expected: string, value: unknown): never {
  throw new TypeError(`${param}: expected ${expected}, got ${describe(value)}`)
}

/**
* The caller's agent (our input rules, docs/semantics.md "Our three input rules"): the text before the first '/', trimmed of spaces and tabs,
 * compared ASCII case-insensitively (so it is returned lower-cased).
 */
function productToken(agent: string): string {
  const slash = agent.indexOf('/')
  let s = 0
  let e = slash < 0 ? agent.length : slash
  while (s < e && (agent.charCodeAt(s) === 0x20 || agent.charCodeAt(s) === 0x09)) s++
  while (e > s && (agent.charCodeAt(e - 1) === 0x20 || agent.charCodeAt(e - 1) === 0x09)) e--
  return asciiLower(agent.slice(s, e))
}

/**
 * The caller's tokens that can equal a user-agent line's token (its leading A-Z a-z - _, as
 * Google's matcher extracts it, lower-cased): no other token names a group.
 */
export const NAMING_TOKEN = /^[a-z_-]+$/

/**
 * The FNV-1a (layout.ts NAMED_*) of a caller's token that can name a group (one NAMING_TOKEN
 * matches, tested in the same loop: test/matrix.test.ts holds the two to the same tokens), as an
 * unsigned number; -1 for any other token. A token of a-z - _ only has its UTF-16 units for
 * bytes, so this is the hash the wasm takes of the same token in a body.
 */
export function namingHash(token: string): number {
  if (token.length === 0) return -1
  let h = NAMED_HASH_BASIS
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i)
    if (!((c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x5f)) return -1
    h = Math.imul(h ^ c, NAMED_HASH_PRIME)
  }
  return h >>> 0
}

/** Tokens deduplicated by scanning before agentTokens switches to a Set. */
const DEDUPE_SCAN = 16

/** The caller's agent(s) as lower-cased product tokens; throws a TypeError for bad input. */
export function agentTokens(agent: unknown, param = 'agent'): string[] {
  if (typeof agent === 'string') {
    const token = productToken(agent)
    if (token === '') fail(param, 'a user-agent with a non-empty product token (e.g. "Googlebot")', agent)
    return [token]
  }
  if (Array.isArray(agent)) {
    if (agent.length === 0) fail(param, 'a user-agent string or a non-empty array of them', agent)
    const tokens: string[] = []
    // Duplicates found by a scan of the few tokens a call names, by a Set past DEDUPE_SCAN: a
    // scan per element of a caller's 100,000-agent array took seconds.
    let seen: Set<string> | null = null
    for (let i = 0; i < agent.length; i++) {
      const a: unknown = agent[i]
      if (typeof a !== 'string') fail(`${param}[${i}]`, 'a user-agent string', a)
      const token = productToken(a)
      if (token === '') fail(`${param}[${i}]`, 'a user-agent with a non-empty product token', a)
      if (seen === null) {
        if (tokens.includes(token)) continue
        tokens.push(token)
        if (tokens.length > DEDUPE_SCAN) seen = new Set(tokens)
      } else if (!seen.has(token)) {
        seen.add(token)
        tokens.push(token)
      }
    }
    return tokens
  }
  return fail(param, 'a user-agent string or an array of them', agent)
}

const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as object
const intrinsic = (name: string): (this: unknown) => unknown => Object.getOwnPropertyDescriptor(typedArray, name)!.get!
const bufferOf = intrinsic('buffer')
const offsetOf = intrinsic('byteOffset')
const lengthOf = intrinsic('length')
/** Node's Buffer.prototype (a Uint8Array subclass that overrides no accessor), where there is one. */
const BUFFER_PROTO: unknown = (globalThis as { Buffer?: { prototype: unknown } }).Buffer?.prototype

/**
 * A typed array argument (bytes read, or an `out` array written) as a plain view of its memory,
 * read through the built-in accessors: a subclass's own `length` made the engine read past the
 * bytes (stale wasm memory came back as verdicts) or drop verdicts past an `out`'s real end, and a
 * detached buffer failed deep inside with an internal error. `value` must be an instance of `type`.
 */
export function plainView<T extends Uint8Array | Int32Array>(value: T, type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; prototype: T }, param: string): T {
  const length = lengthOf.call(value) as number
  // A plain array (or a Node Buffer) with elements is what nearly every caller passes: it is used
  // as it is, with no view allocated (a detached buffer reads length 0, so it is not one of these).
  const proto: unknown = Object.getPrototypeOf(value)
  if (length > 0 && (proto === type.prototype || (proto === BUFFER_PROTO && (type as unknown) === Uint8Array)) && value.length === length) return value
  try {
    return new type(bufferOf.call(value) as ArrayBufferLike, offsetOf.call(value) as number, length)
  } catch {
    // Only a detached buffer (its length reads 0) makes the view fail.
    return fail(param, `a${(type as unknown) === Int32Array ? 'n Int32Array' : ' Uint8Array'} whose buffer is not detached (transferred)`, value)
  }
}

/** plainView of a Uint8Array argument. */
export function plainBytes(value: Uint8Array, param: string): Uint8Array {
  return plainView(value, Uint8Array, param)
}

/** A URL argument as the string the matcher reads: a URL object through its href. */
export function urlString(url: unknown, param = 'url'): string {
  if (typeof url === 'string') return url
  if (url instanceof URL) {
    // A subclass may give anything as its href; only a string goes on to the matcher.
    const href: unknown = url.href
    if (typeof href === 'string') return href
  }
  return fail(param, 'a string or a URL', url)
}

/**
 * Google's documented limit: only the first 500 KiB of a robots.txt are read.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_BYTES, parseRobots } from 'robotstxt-wasm'
 *
 * // A rule past the first 500 KiB is not read, as Google does not read it.
 * const body = `User-agent: *\n${'#'.repeat(DEFAULT_MAX_BYTES)}\nDisallow: /late\n`
 * parseRobots(body).isAllowed('https://example.com/late', 'MyBot') // → true
 * parseRobots(body, { maxBytes: Infinity }).isAllowed('https://example.com/late', 'MyBot') // → false
 * ```
 */
export const DEFAULT_MAX_BYTES = 512_000

/**
 * What a numeric option takes. Every number is checked: NaN never passes, nor a string of digits.
 * Without `unlimited`, Infinity does not pass either (`integer` means a safe integer).
 */
export interface NumberRule {
  /** Whole numbers only. */
  readonly integer?: true
  /** The least value taken; -Infinity for no least. */
  readonly min: number
  /** `min` itself is not taken: the value must be greater. */
  readonly above?: true
  /** The greatest value taken; none when absent. */
  readonly max?: number
  /** Infinity is taken, and means no limit. */
  readonly unlimited?: true
  /** A value taken is rounded down. */
  readonly floor?: true
  /** 0 is taken for "none given", as undefined (Crawlee's own convention for its timeouts). */
  readonly zeroIsDefault?: true
  /** What the number counts ('ms', 'bytes'), said in the message. */
  readonly unit?: string
  /** The value when none is given; absent when the option's default is worked out where it is used. */
  readonly default?: number
}

const DAY_MS = 86_400_000
/** A lifetime or keep time: finite, 0 keeps nothing. */
const LIFETIME_MS = { min: 0, unit: 'ms' } as const
/** A time limit: 0 would fail everything at once, and Infinity waits for ever. */
const TIME_LIMIT_MS = { min: 0, above: true, unlimited: true, unit: 'ms' } as const

/**
 * Every numeric option of the API, by its options interface and property: the one description that
 * numberOption checks them by, and that test/numeric-options.test.ts holds each API call to. Names
 * that two interfaces share keep their own rules where they count different things (ParseOptions'
 * maxBytes cuts a body, RobotsCacheOptions' bounds what the cache keeps) or where what takes the
 * number needs it whole (Redis PX takes whole ms; a survey's fetches are bounded to 10 minutes).
 */
export const NUMERIC_OPTIONS = {
  ParseOptions: {
    maxBytes: { min: 1, floor: true, unlimited: true, default: DEFAULT_MAX_BYTES },
  },
  FetchOptions: {
    timeoutMs: { ...TIME_LIMIT_MS, default: 10_000 },
  },
  RobotsCacheOptions: {
    // RFC 9309 2.4: a robots.txt SHOULD NOT be cached beyond 24 hours.
    ttlMs: { ...LIFETIME_MS, default: DAY_MS },
    maxTtlMs: { ...LIFETIME_MS, default: 7 * DAY_MS },
    retryMs: { ...LIFETIME_MS, default: 60_000 },
    maxEntries: { integer: true, min: 0, default: 10_000 },
    maxBytes: { integer: true, min: 0, unit: 'bytes', default: 64 * 2 ** 20 },
    // Default: the cache's timeoutMs, at most 10 s.
    storageMs: TIME_LIMIT_MS,
  },
  RobotsFromResponseOptions: {
    // Default: Date.now().
    now: { min: -Infinity, unit: 'ms since the epoch' },
    ttlMs: { ...LIFETIME_MS, default: DAY_MS },
    maxTtlMs: { ...LIFETIME_MS, default: 7 * DAY_MS },
    retryMs: { ...LIFETIME_MS, default: 60_000 },
  },
  CheckUrlsOptions: {
    concurrency: { integer: true, min: 1, default: 16 },
    maxPending: { integer: true, min: 1, default: 10_000 },
  },
  WorkersCacheStorageOptions: {
    keepMs: { ...LIFETIME_MS, default: 30 * DAY_MS },
  },
  RedisStorageOptions: {
    lockMs: { integer: true, min: 1, unit: 'ms', default: 10_000 },
    ttlMs: { integer: true, min: 1, unit: 'ms', default: 30 * DAY_MS },
  },
  RobotsTxtFileFindOptions: {
    // Default: fetchRobots' timeoutMs.
    timeoutMillis: { ...TIME_LIMIT_MS, zeroIsDefault: true },
  },
  GoogleRobotsOptions: {
    unavailableRetries: { integer: true, min: 0, default: 3 },
    maxUnavailableWaitMs: { min: 0, unlimited: true, unit: 'ms', default: 600_000 },
  },
  SurveyOptions: {
    threads: { integer: true, min: 1, max: 256, default: 1 },
    concurrency: { integer: true, min: 1, max: 1024, default: 16 },
    timeoutMs: { integer: true, min: 1, max: 600_000, unit: 'ms', default: 10_000 },
    // A pipe's copy is on disk, not in memory: a few GiB takes a large WARC file and stops an
    // endless pipe long before a disk fills.
    maxPipeBytes: { integer: true, min: 1, unit: 'bytes', default: 4 * 2 ** 30 },
  },
} as const satisfies Record<string, Record<string, NumberRule>>

/** True when `value` is a number `rule` takes. */
export function numberFits(rule: NumberRule, value: unknown): value is number {
  if (typeof value !== 'number' || Number.isNaN(value)) return false
  if (value === Infinity) return rule.unlimited === true
  if (rule.integer === true ? !Number.isSafeInteger(value) : !Number.isFinite(value)) return false
  if (rule.above === true ? value <= rule.min : value < rule.min) return false
  return rule.max === undefined || value <= rule.max
}

/** What `rule` takes, in words: the text after "expected" in its TypeError. */
export function expectedNumber(rule: NumberRule): string {
  const unit = rule.unit === undefined ? '' : ` of ${rule.unit}`
  const kind = rule.integer === true
    ? (unit === '' ? 'an integer' : `a whole number${unit}`)
    : `a ${rule.unlimited === true ? '' : 'finite '}number${unit}`
  const range = rule.max !== undefined
    ? ` from ${rule.min} to ${rule.max}`
    : rule.min === -Infinity ? '' : ` ${rule.above === true ? '>' : '>='} ${rule.min}`
  const rounded = rule.floor === true ? ' (rounded down)' : ''
  const unlimited = rule.unlimited === true ? ', or Infinity for no limit' : ''
  const zero = rule.zeroIsDefault === true ? ', or 0 for the default' : ''
  return kind + range + rounded + unlimited + zero
}

/** A rule's default: undefined for a rule without one. */
type DefaultOf<R> = R extends { readonly default: infer D } ? D : undefined

/**
 * A numeric option checked by its rule (a NUMERIC_OPTIONS entry): the rule's default when none is
 * given, else the number (rounded down if the rule says so); a TypeError naming `param` otherwise.
 */
export function numberOption<R extends NumberRule>(param: string, value: unknown, rule: R): number | DefaultOf<R> {
  if (value === undefined || (value === 0 && rule.zeroIsDefault === true)) return rule.default as DefaultOf<R>
  if (!numberFits(rule, value)) fail(param, expectedNumber(rule), value)
  return rule.floor === true && value !== Infinity ? Math.floor(value) : value
}
