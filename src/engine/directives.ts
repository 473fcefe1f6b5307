// The lines Google's matcher ignores: every directive other than allow, disallow, user-agent and
// sitemap (Crawl-delay, Host, Clean-param, Content-Signal, Content-Usage, unknown keys), each with
// the group it stands in; and the AI usage preferences two of them carry. Derived from the outline
// (outline.ts) of one scan, so they add nothing to parsing, change no verdict, and cost the lines
// they report rather than the length of the file.
//
// Invariants: what is handed out is frozen (directives) or made fresh per call (preferences), so no
// caller can change what another call returns; preference records have no prototype, so a category
// named like an Object.prototype key (`constructor`) is an own data property like any other.
//
// Usage preference vocabularies read (leniently, as the drafts ask: unknown categories are kept,
// malformed members are skipped and reported by lint, nothing throws):
// * Cloudflare's Content Signals Policy, `Content-Signal: search=yes, ai-input=no, ai-train=no`
//   (values yes/no; also draft-romm-aipref-contentsignals-00);
// * the IETF AIPREF working group's `Content-Usage` rule, `Content-Usage: [path] train-ai=n, search=y`
//   (draft-ietf-aipref-attach-04 for the robots.txt rule and its optional path;
//   draft-ietf-aipref-vocab-05 for the categories and the y/n values).

import { sameBytes, type TextReader } from './bytes.js'
import { O_GROUP, O_KEY_END, O_KEY_START, O_LINE, O_VAL_END, O_VAL_START, OTHER_STRIDE, type Outline } from './outline.js'
import { namedGroups, type ParsedRobots } from './parse.js'

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

/** Every other-key line of the outline, in file order, frozen, with its group's agents (frozen, one list per group). */
export function directivesOf(body: Uint8Array, outline: Outline, reader: TextReader): readonly Directive[] {
  const o = outline.others
  // Agent tokens are read only for the groups that have such lines.
  const wanted = new Uint8Array(outline.groupCount)
  for (let i = 0; i < outline.othersLength; i += OTHER_STRIDE) if (o[i + O_GROUP]! >= 0) wanted[o[i + O_GROUP]!] = 1
  const index = outline.agents(body, reader, (g) => wanted[g] === 1)
  const global = new Uint8Array(outline.groupCount)
  for (const g of index.globalGroups) global[g] = 1
  const agentsOf: (readonly string[])[] = []
  const none: readonly string[] = Object.freeze([])
  const text = reader.text
  const out: Directive[] = []
  // Files repeat a few keys: a key with the last one's bytes reuses its strings (no slice, no lower case).
  let key = ''
  let name = ''
  let lastStart = 0
  let lastEnd = 0
  for (let i = 0; i < outline.othersLength; i += OTHER_STRIDE) {
    const g = o[i + O_GROUP]!
    let agents = g < 0 ? none : agentsOf[g]
    if (agents === undefined) {
      // The index is this call's own: its lists can be frozen and handed out as they are.
      const own = index.agents[g] ?? []
      agents = agentsOf[g] = Object.freeze(global[g] === 1 ? ['*', ...own] : own)
    }
    const keyStart = o[i + O_KEY_START]!
    const keyEnd = o[i + O_KEY_END]!
    if (i === 0 || !sameBytes(body, keyStart, keyEnd, lastStart, lastEnd)) {
      key = text(keyStart, keyEnd)
      name = key.toLowerCase()
    }
    lastStart = keyStart
    lastEnd = keyEnd
    out.push(Object.freeze({ line: o[i + O_LINE]!, key, name, value: text(o[i + O_VAL_START]!, o[i + O_VAL_END]!), group: g, agents }))
  }
  return Object.freeze(out)
}

const SIGNAL = 'content-signal'
const USAGE = 'content-usage'

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
export function readPreference(d: Pick<Directive, 'line' | 'name' | 'value'> & Partial<Directive>): { path: string | null; members: Member[]; problems: PreferenceProblem[] } {
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
    const truth = truthOf(value)
    if (!/^[a-z][a-z0-9_.*-]*$/.test(category)) problems.push({ line: d.line, member, reason: `"${category}" is not a category name` })
    else if (truth === undefined) problems.push({ line: d.line, member, reason: d.name === SIGNAL ? 'expected yes or no' : 'expected y or n' })
    else members.push({ category, allowed: truth, value })
  }
  if (members.length === 0 && problems.length === 0) problems.push({ line: d.line, member: d.value, reason: 'no preference given' })
  return { path, members, problems }
}

// Content-Signal says yes/no; the AIPREF vocabulary y/n. Each is read leniently in the other form
// too, which the drafts' "ignore what you do not understand" makes harmless. A switch, not a lookup
// table: a value such as `constructor` must find nothing.
function truthOf(value: string): boolean | undefined {
  switch (value.toLowerCase()) {
    case 'yes':
    case 'y':
      return true
    case 'no':
    case 'n':
      return false
    default:
      return undefined
  }
}

/** One preference line, read once: its group, where it comes from, its path and members. */
interface PreferenceLine {
  line: number
  group: number
  source: UsagePreference['source']
  path: string | null
  members: Member[]
}

/** The preference lines of a file, read once, and the group index that selects among them. */
export interface PreferenceIndex {
  lines: readonly PreferenceLine[]
  /** Null when no preference line stands in a group (the file-wide ones then always apply). */
  groups: Pick<ParsedRobots, 'agentGroups' | 'globalGroups'> | null
}

/** Reads every preference line of the outline once: what each call of `preferencesFor` starts from. */
export function preferenceIndex(body: Uint8Array, outline: Outline, reader: TextReader): PreferenceIndex {
  const o = outline.others
  const lines: PreferenceLine[] = []
  let grouped = false
  for (let i = 0; i < outline.othersLength; i += OTHER_STRIDE) {
    const keyStart = o[i + O_KEY_START]!
    const keyEnd = o[i + O_KEY_END]!
    // Only a key of that many bytes can name a vocabulary: most lines are passed over unread.
    if (keyEnd - keyStart !== SIGNAL.length && keyEnd - keyStart !== USAGE.length) continue
    const name = reader.text(keyStart, keyEnd).toLowerCase()
    if (name !== SIGNAL && name !== USAGE) continue
    const line = o[i + O_LINE]!
    const group = o[i + O_GROUP]!
    const { path, members } = readPreference({ line, name, value: reader.text(o[i + O_VAL_START]!, o[i + O_VAL_END]!) })
    lines.push({ line, group, source: name === SIGNAL ? 'Content-Signal' : 'Content-Usage', path, members })
    if (group >= 0) grouped = true
  }
  const agents = grouped ? outline.agents(body, reader) : null
  return { lines, groups: agents === null ? null : { agentGroups: agents.agentGroups!, globalGroups: agents.globalGroups } }
}

/**
 * The preferences for these agents (lower-cased product tokens): those in the groups that name
 * them, else in the global groups, else the file-wide ones (lines before any user-agent line).
 * A fresh record without prototype, of fresh objects, on every call.
 */
export function preferencesFor(index: PreferenceIndex, tokens: readonly string[]): Record<string, UsagePreference> {
  let chosen: readonly PreferenceLine[] = []
  if (index.groups !== null) {
    const named = namedGroups(index.groups, tokens)
    const groups = new Set(named.length > 0 ? named : index.groups.globalGroups)
    chosen = index.lines.filter((p) => groups.has(p.group))
  }
  if (chosen.length === 0) chosen = index.lines.filter((p) => p.group < 0)
  const out: Record<string, UsagePreference> = Object.create(null)
  for (const { line, source, path, members } of chosen) {
    for (const m of members) {
      let p = out[m.category]
      if (path !== null && path !== '/') {
        if (p === undefined) p = out[m.category] = { allowed: null, line: 0, source, value: '', paths: [] }
        p.paths.push({ path, allowed: m.allowed, line })
        continue
      }
      // The most restrictive wins when lines disagree (draft-ietf-aipref-vocab: combining).
      if (p === undefined) out[m.category] = { allowed: m.allowed, line, source, value: m.value, paths: [] }
      else if (p.allowed === null || (p.allowed && !m.allowed)) Object.assign(p, { allowed: m.allowed, line, source, value: m.value })
    }
  }
  return out
}
