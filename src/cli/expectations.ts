// The expectations file of `robotstxt test`: one expectation a line, `AGENT allow|disallow
// URL-OR-PATH`, fields separated by spaces or tabs, blank lines and `#` comments skipped. Parsing
// never throws on content: a line that is not an expectation becomes an error with its line
// number and what was expected, and every good line is still returned, in file order. Nothing
// here decides a verdict; the command asks the engine's Robots.check.

import { agentTokens } from '../engine/args.js'
import { crawlerTokens } from '../engine/crawlers.js'
import { isUrlOrPath, URL_OR_PATH } from './options.js'

/** One expectation: `agent` should (or should not) be allowed to fetch `url`. */
export interface Expectation {
  /** Line number in the expectations file, from 1. */
  line: number
  /** The AGENT word as written. */
  agent: string
  /** The agent argument for Robots.check: a crawler preset's tokens, or the word itself. */
  tokens: readonly string[]
  expected: 'allow' | 'disallow'
  /** An absolute URL, or a path on the site (starting with one '/'). */
  url: string
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

const SHAPE = '"AGENT allow|disallow URL-OR-PATH"'
const FIELD_SEPARATOR = /[ \t]+/

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
  const tokens = agentArgument(agent)
  if (tokens === null) return `expected an AGENT (a crawler name such as Googlebot-Image, or a user-agent token), got ${JSON.stringify(agent)}`
  if (!isUrlOrPath(url)) return `expected ${URL_OR_PATH}, got ${JSON.stringify(url)}`
  return { line, agent, tokens, expected, url }
}

/**
 * The agent argument for a word: a crawler preset's tokens (Googlebot-Image obeys its own group and
 * Googlebot's), else the word as a user-agent; null when it names no agent.
 */
function agentArgument(word: string): readonly string[] | null {
  try {
    return crawlerTokens(word)
  } catch {
    // Not a preset name: a user-agent of its own.
  }
  try {
    agentTokens(word)
  } catch {
    return null
  }
  return [word]
}
