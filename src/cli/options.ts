// Command-line parsing shared by the subcommands, on node:util's parseArgs (strict: an unknown
// option is a usage error, never silently ignored).

import { parseArgs } from 'node:util'
import { agentTokens } from '../engine/args.js'
import { UsageError } from './errors.js'

/** Option specs in parseArgs form. */
export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>

/** Options every subcommand accepts. */
export const COMMON_OPTIONS = { help: { type: 'boolean', short: 'h' } } as const satisfies OptionSpec

/** Options of the subcommands that fetch (read through source.ts's fetchSettings). */
export const FETCH_OPTIONS = {
  'timeout': { type: 'string' },
  'user-agent': { type: 'string' },
  'proxy': { type: 'string' },
} as const satisfies OptionSpec

/** Parses `argv` for `command`; parseArgs' own messages are kept, as the usage error's text. */
export function parse<T extends OptionSpec>(argv: string[], options: T, command: string): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
    return { values: values as Record<string, string | boolean | undefined>, positionals }
  } catch (err) {
    // All of it, on one line: past the first line come the hints ("use '--threads=-XYZ'").
    throw new UsageError(err instanceof Error ? err.message.split('\n').join(' ').replace(/\.$/, '') : String(err), command)
  }
}

/** `--timeout MS`: a whole number of milliseconds >= 1 (default 10,000, as fetchRobots). */
export function timeoutOption(value: string | boolean | undefined, command: string): number {
  if (value === undefined) return 10_000
  const n = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : NaN
  if (!(n >= 1) || !Number.isSafeInteger(n)) throw new UsageError(`--timeout: expected a number of milliseconds >= 1, got "${String(value)}"`, command)
  return n
}

/** Threads a command may use: far more than any machine's cores, few enough to start. */
export const MAX_THREADS = 256

/** `--threads N`: a whole number from 1 to MAX_THREADS (default 1: no worker threads). */
export function threadsOption(value: string | boolean | undefined, command: string): number {
  if (value === undefined) return 1
  const n = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : NaN
  if (!(n >= 1 && n <= MAX_THREADS)) throw new UsageError(`--threads: expected a whole number from 1 to ${MAX_THREADS}, got "${String(value)}"`, command)
  return n
}

/** AGENT: a user-agent with a non-empty product token, else a usage error. */
export function agentArgument(agent: string, command: string): string {
  try {
    agentTokens(agent)
  } catch {
    throw new UsageError(`AGENT: expected a user-agent with a product token (the text before any "/", e.g. "Googlebot"), got ${JSON.stringify(agent)}`, command)
  }
  return agent
}

/**
 * A URL argument: an absolute URL or a path starting with '/'. The string itself is what gets
 * checked (our input rules, docs/semantics.md "Our three input rules": no re-encoding by the URL parser); parsing only catches typos such as
 * "example.com/a", which the matcher would read as the path "/a".
 */
export function urlArgument(url: string, command: string): string {
  const problem = urlProblem(url)
  if (problem !== null) throw new UsageError(`URL: ${problem}`, command)
  return url
}

/**
 * Why `url` is not what a URL argument or a `check --urls` line must be (isUrlOrPath), or null
 * when it is: one rule, one message, wherever a URL to check comes from.
 */
export function urlProblem(url: string): string | null {
  // The matcher reads "//a/b" as host a and path /b (Google's GetPathParamsQuery), so a leading
  // "//" is no path here, and new URL would reject it for its missing scheme anyway.
  if (url.startsWith('//')) {
    return `expected an absolute URL (https://host/path) or a path starting with a single "/", got ${JSON.stringify(url)}, which starts with "//" and so names a host; for a path starting with "//", write it behind a host (https://host//a)`
  }
  return isUrlOrPath(url) ? null : `expected ${URL_OR_PATH}, got ${JSON.stringify(url)}`
}

/** What a URL argument (or a `test` expectation's URL-OR-PATH) must be, for messages. */
export const URL_OR_PATH = 'an absolute URL (https://host/path) or a path starting with "/"'

/** True for a string urlArgument accepts: a path starting with one '/', or a URL that parses. */
export function isUrlOrPath(url: string): boolean {
  if (url.startsWith('/')) return !url.startsWith('//')
  return URL.canParse(url)
}

/**
 * True when `url` (an argument or a --urls line) may be checked against the robots.txt of
 * `origin`: a path, or a URL on that origin (RFC 9309 2.3-2.4 and Google's documented handling: scheme, host and port; default port dropped).
 */
/** Why a URL cannot be checked against a fetched robots.txt (see onOrigin). */
export function notOnOrigin(url: string, origin: string): string {
  return `${JSON.stringify(url)} is not on ${origin}, whose robots.txt was fetched`
}

/** onOrigin for the UTF-8 line block[start, end), without a string for the common cases. */
export function onOriginLine(block: Uint8Array, start: number, end: number, origin: string): boolean {
  if (end > start && block[start] === 0x2f && block[start + 1] !== 0x2f) return true
  if (end - start >= origin.length) {
    let k = 0
    while (k < origin.length && block[start + k] === origin.charCodeAt(k)) k++
    const c = start + k < end ? block[start + k] : -1
    if (k === origin.length && (c === -1 || c === 0x2f || c === 0x3f || c === 0x23)) return true
  }
  return onOrigin(new TextDecoder().decode(block.subarray(start, end)), origin)
}

export function onOrigin(url: string, origin: string): boolean {
  if (url.startsWith('/') && !url.startsWith('//')) return true
  if (url.startsWith(origin)) {
    const c = url.charCodeAt(origin.length)
    // The fast path: the origin spelled exactly as fetchRobots normalises it.
    if (Number.isNaN(c) || c === 0x2f || c === 0x3f || c === 0x23) return true
  }
  try {
    return new URL(url).origin === origin
  } catch {
    return false
  }
}
