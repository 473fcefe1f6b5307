// The lines Google's matcher ignores: every directive other than allow, disallow, user-agent and
// sitemap (Crawl-delay, Host, Clean-param, Content-Signal, Content-Usage, unknown keys), each with
// the group it stands in; and the AI usage preferences two of them carry. Derived from the per-line
// report and the parsed groups, so they add nothing to parsing and change no verdict.
//
// Usage preference vocabularies read (leniently, as the drafts ask: unknown categories are kept,
// malformed members are skipped and reported by lint, nothing throws):
// * Cloudflare's Content Signals Policy, `Content-Signal: search=yes, ai-input=no, ai-train=no`
//   (values yes/no; also draft-romm-aipref-contentsignals-00);
// * the IETF AIPREF working group's `Content-Usage` rule, `Content-Usage: [path] train-ai=n, search=y`
//   (draft-ietf-aipref-attach-04 for the robots.txt rule and its optional path;
//   draft-ietf-aipref-vocab-05 for the categories and the y/n values).

import type { LineReport, ParsedRobots } from './parse.js'
import { namedGroups } from './parse.js'

/**
 * A line that is not allow, disallow, user-agent or sitemap.
 *
 * @example
 * ```ts
 * import { parseRobots, type Directive } from 'robotstxt-wasm'
 *
 * const [noindex]: readonly Directive[] = parseRobots('User-agent: *\nNoindex: /tmp/\n').directives
 * noindex // → { line: 2, key: 'Noindex', name: 'noindex', value: '/tmp/', group: 0, agents: [ '*' ] }
 * ```
 */
export interface Directive {
  /** Line number, from 1. */
  line: number
  /** The key as written (`Crawl-Delay`). */
  key: string
  /** The key lower-cased (`crawl-delay`): what to compare. */
  name: string
  /** The value as written, trimmed, comment removed. */
  value: string
  /** Index of the group the line stands in, -1 before the first user-agent line (file-wide). */
  group: number
  /** That group's agents: lower-cased product tokens, and `*` for a global group; empty when file-wide. */
  agents: readonly string[]
}

/**
 * One category of an AI usage preference, for one agent.
 *
 * @example
 * ```ts
 * import { parseRobots, type UsagePreference } from 'robotstxt-wasm'
 *
 * const prefs: Record<string, UsagePreference> = parseRobots('User-agent: *\nContent-Signal: ai-train=no\n').usagePreferences('GPTBot')
 * prefs['ai-train'] // → { allowed: false, line: 2, source: 'Content-Signal', value: 'no', paths: [] }
 * ```
 */
export interface UsagePreference {
  /** The preference: `y`/`yes` is true, `n`/`no` false; null when only path-limited rules state it. */
  allowed: boolean | null
  /** The line that decided it (with several lines for one category, `n` wins: the most restrictive). */
  line: number
  /** Which vocabulary said it. */
  source: 'Content-Signal' | 'Content-Usage'
  /** The value as written (`n`, `yes`). */
  value: string
  /**
   * Content-Usage rules for this category limited to a path (draft-ietf-aipref-attach: they apply
   * to URLs under that path, the longest matching path winning), in file order.
   */
  paths: {
    /** The path the rule is limited to, as written. */
    path: string
    /** The preference under that path. */
    allowed: boolean
    /** The rule's line. */
    line: number
  }[]
}

/** One member of a preference line that could not be read. */
export interface PreferenceProblem {
  line: number
  member: string
  reason: string
}

/** Every non-rule directive of a parsed file, with its group. */
export function directivesOf(lines: readonly LineReport[], parsed: ParsedRobots): Directive[] {
  const agentsOf: (readonly string[])[] = parsed.groups.map((g) => (g.global ? ['*', ...g.agents] : g.agents))
  const out: Directive[] = []
  for (const r of lines) {
    if (r.type !== 'other') continue
    const key = r.key ?? ''
    out.push({ line: r.line, key, name: key.toLowerCase(), value: r.value ?? '', group: r.group, agents: r.group < 0 ? [] : agentsOf[r.group]! })
  }
  return out
}

const SIGNAL = 'content-signal'
const USAGE = 'content-usage'

/** Is this directive one of the two preference vocabularies? */
export function isPreference(d: Directive): boolean {
  return d.name === SIGNAL || d.name === USAGE
}

interface Member {
  category: string
  allowed: boolean
  value: string
}

/**
 * Reads a preference line's value: `[path ]key=value, key=value, …`. The path (Content-Usage only)
 * is the first word when it starts with '/' or '*'. Members that are not `key=token` with a known
 * truth value are returned as problems, never thrown.
 */
export function readPreference(d: Directive): { path: string | null; members: Member[]; problems: PreferenceProblem[] } {
  let text = d.value
  let path: string | null = null
  if (d.name === USAGE && (text.startsWith('/') || text.startsWith('*'))) {
    const space = text.search(/[ \t]/)
    path = space < 0 ? text : text.slice(0, space)
    text = space < 0 ? '' : text.slice(space + 1)
  }
  const members: Member[] = []
  const problems: PreferenceProblem[] = []
  for (const raw of text.split(',')) {
    const member = raw.trim()
    if (member === '') continue
    const eq = member.indexOf('=')
    if (eq <= 0) {
      problems.push({ line: d.line, member, reason: 'expected category=value' })
      continue
    }
    const category = member.slice(0, eq).trim().toLowerCase()
    const value = member.slice(eq + 1).trim()
    const truth = TRUTH[d.name === SIGNAL ? 'signal' : 'usage'][value.toLowerCase()]
    if (!/^[a-z][a-z0-9_.*-]*$/.test(category)) problems.push({ line: d.line, member, reason: `"${category}" is not a category name` })
    else if (truth === undefined) problems.push({ line: d.line, member, reason: d.name === SIGNAL ? 'expected yes or no' : 'expected y or n' })
    else members.push({ category, allowed: truth, value })
  }
  if (members.length === 0 && problems.length === 0) problems.push({ line: d.line, member: d.value, reason: 'no preference given' })
  return { path, members, problems }
}

// Content-Signal says yes/no; the AIPREF vocabulary y/n. Each is read leniently in the other form
// too, which the drafts' "ignore what you do not understand" makes harmless.
const TRUTH: Record<'signal' | 'usage', Record<string, boolean>> = {
  signal: { yes: true, no: false, y: true, n: false },
  usage: { y: true, n: false, yes: true, no: false },
}

/**
 * The preferences for these agents (lower-cased product tokens): those in the groups that name
 * them, else in the global groups, else the file-wide ones (lines before any user-agent line).
 */
export function preferencesFor(directives: readonly Directive[], parsed: ParsedRobots, tokens: readonly string[]): Record<string, UsagePreference> {
  const named = namedGroups(parsed, tokens)
  const groups = new Set(named.length > 0 ? named : parsed.globalGroups)
  let chosen = directives.filter((d) => isPreference(d) && groups.has(d.group))
  if (chosen.length === 0) chosen = directives.filter((d) => isPreference(d) && d.group < 0)
  const out: Record<string, UsagePreference> = {}
  for (const d of chosen) {
    const { path, members } = readPreference(d)
    const source = d.name === SIGNAL ? 'Content-Signal' : 'Content-Usage'
    for (const m of members) {
      let p = out[m.category]
      if (path !== null && path !== '/') {
        if (p === undefined) p = out[m.category] = { allowed: null, line: 0, source, value: '', paths: [] }
        p.paths.push({ path, allowed: m.allowed, line: d.line })
        continue
      }
      // The most restrictive wins when lines disagree (draft-ietf-aipref-vocab: combining).
      if (p === undefined) out[m.category] = { allowed: m.allowed, line: d.line, source, value: m.value, paths: [] }
      else if (p.allowed === null || (p.allowed && !m.allowed)) Object.assign(p, { allowed: m.allowed, line: d.line, source, value: m.value })
    }
  }
  return out
}
