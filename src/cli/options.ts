// Command-line parsing shared by the subcommands, on node:util's parseArgs: an unknown option, a
// missing value or a value where none belongs is a usage error in the CLI's own words, with the
// help's line for the option; never silently ignored. Also AGENT: a crawler preset's name or a
// user-agent.

import { parseArgs } from 'node:util'
import {
  agentTokens, expectedNumber, NAMING_TOKEN, numberFits, NUMERIC_OPTIONS, type NumberRule,
} from '../engine/args.js'
import { findCrawler } from '../engine/crawlers.js'
import { UsageError } from './errors.js'
import { HELP } from './help.js'

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

/**
 * Parses `argv` for `command`. Option mistakes are usage errors in the CLI's own words, each with
 * the help's line for the option: an unknown option (and the command's options), a missing value,
 * a value that looks like another option, a value given to a flag.
 */
export function parse<T extends OptionSpec>(argv: string[], options: T, command: string): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  // Not strict: the tokens are checked here, so that every message is ours.
  const { values, positionals, tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true })
  for (const t of tokens) {
    if (t.kind !== 'option') continue
    const spec = Object.hasOwn(options, t.name) ? options[t.name] : undefined
    if (spec === undefined) {
      const known = Object.keys(options).filter((name) => name !== 'help').map((name) => `--${name}`)
      const takes = known.length === 0 ? 'no options but --help' : `the options ${known.join(', ')} and --help`
      // A negative number or a path starting with "-" reads as a short option.
      const hint = /^-[^-]/.test(t.rawName) ? ' (an argument starting with "-" goes after "--")' : ''
      throw new UsageError(`unknown option ${JSON.stringify(t.rawName)}: ${command} takes ${takes}${hint}`, command)
    }
    const usage = optionUsage(command, t.name)
    if (spec.type === 'boolean' && t.value !== undefined) throw new UsageError(`${t.rawName} takes no value, got ${JSON.stringify(t.value)}`, command, usage)
    if (spec.type === 'string') {
      if (t.value === undefined) throw new UsageError(`${t.rawName} needs a value`, command, usage)
      if (!t.inlineValue && t.value.startsWith('-') && t.value !== '-') {
        throw new UsageError(`${t.rawName} needs a value, got the option-like ${JSON.stringify(t.value)}; a value starting with "-" is written ${t.rawName}=${t.value}`, command, usage)
      }
    }
  }
  return { values: values as Record<string, string | boolean | undefined>, positionals }
}

/** The first line of `command`'s help that describes `--name` (trimmed), if there is one. */
export function optionUsage(command: string, name: string): string | undefined {
  const help = Object.hasOwn(HELP, command) ? HELP[command]! : ''
  const line = help.split('\n').find((l) => new RegExp(`^\\s+(-\\w, )?--${name}(\\s|$)`).test(l))
  return line?.trim().replace(/\s{2,}/, '  ')
}

/** A usage error about the value of `--name`, with its line of help. */
export function optionError(name: string, message: string, command: string): UsageError {
  return new UsageError(`--${name}: ${message}`, command, optionUsage(command, name))
}

/** A NumberRule in the CLI's words: "a whole number" where the API says "an integer", units spelt out. */
function flagExpected(rule: NumberRule): string {
  const words = expectedNumber(rule.unit === 'ms' ? { ...rule, unit: 'milliseconds' } : rule)
  return words.replace(/^an integer\b/, 'a whole number')
}

/**
 * `--name N`: digits, held to the rule of the API option it becomes (NUMERIC_OPTIONS) or to the
 * CLI's own; the rule's default when absent.
 */
export function numberFlag(
  name: string,
  value: string | boolean | undefined,
  rule: NumberRule & { default: number },
  command: string,
): number {
  if (value === undefined) return rule.default
  const n = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : NaN
  if (!numberFits(rule, n)) throw optionError(name, `expected ${flagExpected(rule)}, got "${String(value)}"`, command)
  return n
}

/** `--timeout MS`: whole milliseconds, a time limit (default 10,000, as fetchRobots). */
const TIMEOUT_FLAG = {
  integer: true, min: 1, unit: 'ms', default: NUMERIC_OPTIONS.FetchOptions.timeoutMs.default,
} as const

export function timeoutOption(value: string | boolean | undefined, command: string): number {
  return numberFlag('timeout', value, TIMEOUT_FLAG, command)
}

/** `--threads N`: as the survey's `threads` (default 1: no worker threads; at most 256). */
export function threadsOption(value: string | boolean | undefined, command: string): number {
  return numberFlag('threads', value, NUMERIC_OPTIONS.SurveyOptions.threads, command)
}

/** What an AGENT is checked as, and how output names it. */
export interface AgentChoice {
  /** The agent argument of Robots.check: a preset's tokens, or the user-agent as given. */
  agent: string | readonly string[]
  /** The preset's name, or the word as given. */
  name: string
  /** How output names it: the word, or a preset's name with its tokens when it has several ("Googlebot-Image (Googlebot-Image, Googlebot)"). */
  label: string
  /** A remark for stderr when what is checked may not be what the word suggests; null otherwise. */
  note: string | null
}

/**
 * What the AGENT `word` is checked as: a crawler preset's name (any case) stands for every token the
 * crawler obeys, as in the playground and `survey`; any other word, or any word with `raw` (the
 * CLI's `--token NAME`), is one user-agent whose product token is checked alone. A string says why
 * the word names no agent.
 */
export function agentChoice(word: string, raw = false): AgentChoice | string {
  const preset = raw ? undefined : findCrawler(word)
  if (preset !== undefined) {
    const label = preset.tokens.length > 1 ? `${preset.name} (${preset.tokens.join(', ')})` : preset.name
    return { agent: preset.tokens, name: preset.name, label, note: preset.tokens.length > 1 ? `agent: ${label}, every token that crawler obeys` : null }
  }
  let token: string
  try {
    token = agentTokens(word)[0]!
  } catch {
    return `expected a user-agent with a product token (the text before any "/", e.g. "Googlebot"), got ${JSON.stringify(word)}`
  }
  let note: string | null = null
  if (!NAMING_TOKEN.test(token)) {
    // RFC 9309 2.2.1; Google's RobotsMatcher::ExtractUserAgent: a line names its leading letters, "-" and "_".
    note = `agent: ${JSON.stringify(word)} is checked as the token ${JSON.stringify(token)}, which no User-agent line can name (a line names only its leading letters, "-" and "_"), so only the * groups apply`
  } else {
    const named = findCrawler(token)
    if (!raw && named !== undefined && named.tokens.length > 1 && token !== asciiLowerWord(word)) {
      note = `agent: ${JSON.stringify(word)} is checked as the token ${JSON.stringify(token)} alone; the preset ${named.name} stands for every token it obeys (${named.tokens.join(', ')})`
    }
  }
  return { agent: word, name: word, label: word, note }
}

function asciiLowerWord(word: string): string {
  return word.replace(/[A-Z]/g, (c) => c.toLowerCase())
}

/** AGENT: a user-agent with a non-empty product token, else a usage error (filter's AGENT, also its User-Agent). */
export function agentArgument(agent: string, command: string): string {
  const choice = agentChoice(agent, true)
  if (typeof choice === 'string') throw new UsageError(`AGENT: ${choice}`, command)
  return agent
}

/** AGENT (or `--token NAME` when `raw`) for `command`: its choice, or a usage error. */
export function agentOption(word: string, command: string, raw = false): AgentChoice {
  const choice = agentChoice(word, raw)
  if (typeof choice === 'string') throw raw ? optionError('token', choice, command) : new UsageError(`AGENT: ${choice}`, command)
  return choice
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
