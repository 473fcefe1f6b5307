// `robotstxt explain`: which groups apply to the agent, every rule of them that matches the URL's
// path with its priority, the deciding rule, and the verdict. Not a hot path: it follows the
// reference matcher (src/engine/reference.ts) rule by rule in file order, so it can show the losers too.

import { agentTokens } from '../engine/args.js'
import { decodeUtf8, utf8 } from '../engine/bytes.js'
import type { Robots } from '../engine/robots.js'
import { R_ALLOW, R_END, R_LINE, R_START, RULE_STRIDE, rulePattern, selectRules } from '../engine/parse.js'
import { positionSetMatches, referencePath } from '../engine/reference.js'

/** A rule of the chosen groups that matches the path. */
export interface RuleMatch {
  line: number
  kind: 'allow' | 'disallow'
  /** The line as written: key and value, comment removed. */
  text: string
  /** The pattern as written (what `Verdict.rule.pattern` reports). */
  pattern: string
  /** Byte length of the escaped pattern that matched (SEMANTICS.md 7); 0 for an empty pattern. */
  priority: number
  /** Set when the match came from the index.html rule (SEMANTICS.md 10): the derived pattern. */
  indexHtml?: string
}

/** A user-agent line of a chosen group. */
export interface AgentLine {
  line: number
  text: string
  /** This line names one of the caller's tokens (false for `*` and for other agents of the run). */
  names: boolean
}

/** Everything `explain` shows; also its `--json` form. */
export interface Explanation {
  url: string
  /** The path the rules are matched against (SEMANTICS.md 1 and 8). */
  path: string
  agent: string
  /** The caller's product token, lower-cased, as it is compared. */
  token: string
  /**
   * Why these groups: `specific` = a user-agent line names the token (the `*` groups are then
   * ignored), `global` = only `*` groups apply, `none` = no group applies (everything allowed).
   */
  group: 'specific' | 'global' | 'none'
  /** The user-agent lines of the chosen groups, in file order. */
  agentLines: AgentLine[]
  /** Every rule of the chosen groups that matches the path, in file order. */
  matches: RuleMatch[]
  /** The rule on the matching line (SEMANTICS.md 7), or null when no rule matched. */
  decidingRule: RuleMatch | null
  allowed: boolean
  /** The matching line, as `Robots.check` reports it; 0 when none. */
  line: number
  /** One sentence saying why. */
  reason: string
}

const SLASH = 0x2f
const INDEX_HTM = '/index.htm'

/**
 * Explains the verdict for `agent` (a user-agent string) and `url`. The verdict and line equal
 * `robots.check(url, agent)`; test/cli.test.ts holds it to that on every labelled case.
 */
export function explain(robots: Robots, agent: string, url: string): Explanation {
  const [token] = agentTokens(agent) as [string]
  const parsed = robots.parsed
  const lines = robots.lines
  const path = referencePath(utf8(url))
  const { named, groups, rules } = selectRules(parsed, [token])

  const agentLines: AgentLine[] = []
  for (const g of groups) {
    for (const line of parsed.groups[g]!.agentLines) {
      const report = lines[line - 1]!
      agentLines.push({ line, text: lineText(report.key, report.value), names: tokenOf(report.value ?? '') === token })
    }
  }

  const matches: RuleMatch[] = []
  let bestAllow: RuleMatch | null = null
  let bestDisallow: RuleMatch | null = null
  for (const r of rules) {
    const base = r * RULE_STRIDE
    const isAllow = parsed.rules[base + R_ALLOW] === 1
    const [bytes, s, e] = rulePattern(parsed, r)
    const pattern = bytes.subarray(s, e)
    let priority = positionSetMatches(path, pattern) ? pattern.length : -1
    let indexHtml: string | undefined
    if (priority < 0 && isAllow) {
      const derived = indexHtmlPattern(pattern)
      if (derived !== null && positionSetMatches(path, derived)) {
        priority = derived.length
        indexHtml = decodeUtf8(derived)
      }
    }
    if (priority < 0) continue
    const line = parsed.rules[base + R_LINE]!
    const report = lines[line - 1]!
    const match: RuleMatch = {
      line,
      kind: isAllow ? 'allow' : 'disallow',
      text: lineText(report.key, report.value),
      pattern: decodeUtf8(parsed.body, parsed.rules[base + R_START]!, parsed.rules[base + R_END]!),
      priority,
    }
    if (indexHtml !== undefined) match.indexHtml = indexHtml
    matches.push(match)
    // SEMANTICS.md 7: only a strictly higher priority replaces the best, so the earliest line wins ties.
    if (isAllow) {
      if (bestAllow === null || priority > bestAllow.priority) bestAllow = match
    } else if (bestDisallow === null || priority > bestDisallow.priority) bestDisallow = match
  }

  const allowP = bestAllow?.priority ?? -1
  const disallowP = bestDisallow?.priority ?? -1
  // Priority 0 (an empty pattern) never decides; with nothing above it the URL is allowed, which
  // also covers "a group names the agent but none of its rules match" (the * groups are ignored).
  const allowed = Math.max(allowP, disallowP) > 0 ? !(disallowP > allowP) : true
  const decidingRule = disallowP > allowP ? bestDisallow : bestAllow
  const group = named ? 'specific' : groups.length > 0 ? 'global' : 'none'
  return {
    url,
    path: decodeUtf8(path),
    agent,
    token,
    group,
    agentLines,
    matches,
    decidingRule,
    allowed,
    line: decidingRule?.line ?? 0,
    reason: reasonFor(group, token, bestAllow, bestDisallow, allowed),
  }
}

/** SEMANTICS.md 10: for an allow pattern whose part from its last '/' starts with "/index.htm", `…/$`. */
function indexHtmlPattern(pattern: Uint8Array): Uint8Array | null {
  const slash = pattern.lastIndexOf(SLASH)
  if (slash < 0 || pattern.length - slash < INDEX_HTM.length) return null
  for (let i = 0; i < INDEX_HTM.length; i++) if (pattern[slash + i] !== INDEX_HTM.charCodeAt(i)) return null
  const derived = new Uint8Array(slash + 2)
  derived.set(pattern.subarray(0, slash + 1))
  derived[slash + 1] = 0x24
  return derived
}

/** SEMANTICS.md 6: the product token of a user-agent value, lower-cased. */
function tokenOf(value: string): string {
  const m = /^[A-Za-z_-]*/.exec(value)
  return m![0].toLowerCase()
}

function lineText(key: string | undefined, value: string | undefined): string {
  return value === undefined || value === '' ? `${key ?? ''}:` : `${key ?? ''}: ${value}`
}

function describe(m: RuleMatch): string {
  return `line ${m.line} (${m.text}${m.indexHtml !== undefined ? `, as ${m.indexHtml} by the index.html rule` : ''}, priority ${m.priority})`
}

function reasonFor(group: Explanation['group'], token: string, allow: RuleMatch | null, disallow: RuleMatch | null, allowed: boolean): string {
  const allowP = allow?.priority ?? -1
  const disallowP = disallow?.priority ?? -1
  if (Math.max(allowP, disallowP) <= 0) {
    if (group === 'none') return `no user-agent line names "${token}" and there is no "User-agent: *" group, so every URL is allowed`
    const zero = allow ?? disallow
    const matched = zero === null ? 'none of their rules matches this path' : `only the empty pattern on line ${zero.line} matches this path, and an empty pattern never decides`
    if (group === 'specific') return `a group names "${token}" and ${matched}; the * groups do not apply to it, so the URL is allowed`
    return `the * groups apply and ${matched}, so the URL is allowed`
  }
  if (!allowed) {
    return allow !== null
      ? `the disallow on ${describe(disallow!)} is longer than the best allow on ${describe(allow)}`
      : `the disallow on ${describe(disallow!)} matches and no allow does`
  }
  if (disallow !== null && disallowP === allowP) return `the allow on ${describe(allow!)} ties with the disallow on ${describe(disallow)}, and a tie is allowed`
  if (disallow !== null) return `the allow on ${describe(allow!)} is longer than the best disallow on ${describe(disallow)}`
  return `the allow on ${describe(allow!)} matches and no disallow does`
}
