// The expectations file of `robotstxt test`: one expectation a line, `AGENT allow|disallow
// URL-OR-PATH`, fields separated by spaces or tabs, blank lines and `#` comments skipped. Parsing
// never throws on content: a line that is not an expectation becomes an error with its line
// number and what was expected, and every good line is still returned, in file order. Judging
// (judgeExpectations) is pure: the verdicts are the engine's (one Robots.checkMatrix), or the fetch outcome's
// when the robots.txt fetch decided; the command only reads, prints and exits.

import type { Robots } from '../engine/robots.js'
import { agentChoice, isUrlOrPath, URL_OR_PATH } from './options.js'

/** One expectation: `agent` should (or should not) be allowed to fetch `url`. */
export interface Expectation {
  /** Line number in the expectations file, from 1. */
  line: number
  /** The AGENT word as written. */
  agent: string
  /** The agent argument for Robots.check: a crawler preset's tokens, or the word itself. */
  tokens: readonly string[]
  expected: 'allow' | 'disallow'
  /** An absolute URL, or a path on the site (starting with one '/'), as written. */
  url: string
  /** What is checked instead of `url`: its path, when `--origin` maps the URL to ROBOTS' site. */
  checkedAs?: string
}

/** A line that is not an expectation. */
export interface ExpectationError {
  line: number
  /** What was expected and what the line holds (field values JSON-quoted). */
  message: string
}

/** Every expectation of a file and every malformed line, each in file order. */
export interface ParsedExpectations {
  expectations: Expectation[]
  errors: ExpectationError[]
}

/** An expectation with the engine's verdict on it. */
export interface TestResult extends Expectation {
  passed: boolean
  allowed: boolean
  /** The robots.txt line that decided, 0 when no rule matched or the fetch outcome decided. */
  robotsLine: number
  /** The rule on that line. */
  rule: { kind: 'allow' | 'disallow'; pattern: string } | null
}

const SHAPE = '"AGENT allow|disallow URL-OR-PATH"'
const FIELD_SEPARATOR = /[ \t]+/
/** An AGENT written `token:NAME` is the product token NAME alone, never a preset (the CLI's --token NAME). */
const RAW_TOKEN = /^token:/i

/**
 * Parses the text of an expectations file. A comment starts at a `#` that begins a field, so a
 * URL's fragment (`/page#top`) is part of the URL; CRLF line ends and a leading byte order mark
 * are accepted.
 */
export function parseExpectations(text: string): ParsedExpectations {
  const expectations: Expectation[] = []
  const errors: ExpectationError[] = []
  const lines = text.replace(/^\ufeff/, '').split('\n')
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '').trim()
    let fields = raw === '' ? [] : raw.split(FIELD_SEPARATOR)
    const comment = fields.findIndex((f) => f.startsWith('#'))
    if (comment >= 0) fields = fields.slice(0, comment)
    if (fields.length === 0) continue
    const parsed = parseFields(fields, i + 1)
    if (typeof parsed === 'string') errors.push({ line: i + 1, message: parsed })
    else expectations.push(parsed)
  }
  return { expectations, errors }
}

/** The expectation in `fields`, or why they are not one. */
function parseFields(fields: string[], line: number): Expectation | string {
  if (fields.length < 3) {
    const missing = fields.length === 1 ? 'allow|disallow and URL-OR-PATH are missing' : 'URL-OR-PATH is missing'
    return `expected ${SHAPE}, got ${JSON.stringify(fields.join(' '))}: ${missing}`
  }
  if (fields.length > 3) {
    return `expected ${SHAPE}, got ${fields.length} fields (a space in a URL is written %20; a comment starts with " #")`
  }
  const [agent, verdict, url] = fields as [string, string, string]
  const expected = verdict.toLowerCase()
  if (expected !== 'allow' && expected !== 'disallow') return `expected "allow" or "disallow" after the agent, got ${JSON.stringify(verdict)}`
  const raw = RAW_TOKEN.test(agent)
  const choice = agentChoice(raw ? agent.slice('token:'.length) : agent, raw)
  if (typeof choice === 'string' || (raw && agent.length === 'token:'.length)) {
    return `expected an AGENT (a crawler name such as Googlebot-Image, a user-agent token, or token:NAME), got ${JSON.stringify(agent)}`
  }
  if (!isUrlOrPath(url)) return `expected ${URL_OR_PATH}, got ${JSON.stringify(url)}`
  const tokens = typeof choice.agent === 'string' ? [choice.agent] : choice.agent
  return { line, agent, tokens, expected, url }
}

/**
 * Each expectation judged against `robots`, in order: its verdict and deciding line are
 * `robots.check`'s for the expectation's tokens, or, when `decided` is a fetch outcome that stands
 * for the whole site (a 4xx: 'allow-all'; a failed fetch: 'disallow-all'), that outcome's with line
 * 0. No I/O: the command prints what this returns.
 *
 * The verdicts come from one `checkMatrix` over the distinct URLs and agents (a file's
 * expectations name a few crawlers and a few pages each), so no agent pays a compile; the rule on
 * a deciding line is `check`'s own, asked once per distinct line.
 */
export function judgeExpectations(robots: Robots, expectations: readonly Expectation[], decided: 'allow-all' | 'disallow-all' | null): TestResult[] {
  if (decided !== null) return expectations.map((e) => resultOf(e, decided === 'allow-all', 0, null))
  const urls = new Index<string>()
  const agents = new Index<readonly string[]>()
  const cells = expectations.map((e) => [agents.add(e.tokens.join('\n'), e.tokens), urls.add(e.checkedAs ?? e.url)] as const)
  const matrix = robots.checkMatrix(urls.values, agents.values)
  const rules = new Map<number, TestResult['rule']>()
  return expectations.map((e, i) => {
    const [a, u] = cells[i]!
    const v = matrix[a * urls.values.length + u]!
    const line = Math.abs(v)
    let rule = rules.get(line)
    if (rule === undefined && line !== 0) {
      rule = robots.check(urls.values[u]!, agents.values[a]!).rule ?? null
      rules.set(line, rule)
    }
    return resultOf(e, v >= 0, line, rule ?? null)
  })
}

function resultOf(e: Expectation, allowed: boolean, robotsLine: number, rule: TestResult['rule']): TestResult {
  return { ...e, passed: allowed === (e.expected === 'allow'), allowed, robotsLine, rule }
}

/** Distinct values in order of first appearance, each with its index. */
class Index<T> {
  readonly values: T[] = []
  readonly #at = new Map<string, number>()

  /** The index of the value keyed `key` (`value` defaults to the key itself), added when new. */
  add(key: string, value: T = key as T): number {
    let i = this.#at.get(key)
    if (i === undefined) {
      i = this.values.length
      this.values.push(value)
      this.#at.set(key, i)
    }
    return i
  }
}
