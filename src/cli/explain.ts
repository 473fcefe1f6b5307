// `robotstxt explain`: which groups apply to the agent, every rule of them that matches the URL's
// path with its priority, the deciding rule, and the verdict. It renders the reference matcher's
// decision trace (src/engine/reference.ts), so it shows the losers too and decides nothing itself.

import { agentTokens } from '../engine/args.js'
import type { UsagePreference } from '../engine/preferences.js'
import { decodeUtf8, utf8 } from '../engine/bytes.js'
import { R_END, R_START, RULE_STRIDE, valueAgentToken } from '../engine/parse.js'
import { referenceTrace, type TracedRule } from '../engine/reference.js'
import type { Robots } from '../engine/robots.js'

/** A rule of the chosen groups that matches the path. */
export interface RuleMatch {
  line: number
  kind: 'allow' | 'disallow'
  /** The line as written: key and value, comment removed. */
  text: string
  /** The pattern as written (what `Verdict.rule.pattern` reports). */
  pattern: string
  /** Byte length of the escaped pattern that matched (RFC 9309 2.2.2; Google's RobotsMatcher); 0 for an empty pattern. */
  priority: number
  /** Set when the match came from the index.html rule (Google's RobotsMatcher::HandleAllow): the derived pattern. */
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
  /** The path the rules are matched against (our URL normalization, then Google's GetPathParamsQuery). */
  path: string
  /** The agent as given; several agents joined with ", ". */
  agent: string
  /** The caller's product token, lower-cased, as it is compared (the first, for several agents). */
  token: string
  /** Every product token of the caller, lower-cased, in the order given. */
  tokens: string[]
  /**
   * Why these groups: `specific` = a user-agent line names the token (the `*` groups are then
   * ignored), `global` = only `*` groups apply, `none` = no group applies (everything allowed).
   */
  group: 'specific' | 'global' | 'none'
  /** The user-agent lines of the chosen groups, in file order. */
  agentLines: AgentLine[]
  /** Every rule of the chosen groups that matches the path, in file order. */
  matches: RuleMatch[]
  /** The rule on the matching line (RFC 9309 2.2.2; Google's RobotsMatcher), or null when no rule matched. */
  decidingRule: RuleMatch | null
  allowed: boolean
  /** The matching line, as `Robots.check` reports it; 0 when none. */
  line: number
  /** One sentence saying why. */
  reason: string
  /** The AI usage preferences for the agent (Content-Signal, Content-Usage), by category. */
  usage: Record<string, UsagePreference>
}

/**
 * Explains the verdict for `agent` (a user-agent string, or several whose groups merge, such as a
 * crawler's `crawlerTokens`) and `url`. The verdict and line equal `robots.check(url, agent)`;
 * test/cli.test.ts holds it to that on every labelled case.
 */
export function explain(robots: Robots, agent: string | readonly string[], url: string): Explanation {
  const tokens = agentTokens(agent)
  const parsed = robots.parsed
  const lines = robots.lines
  const trace = referenceTrace(parsed, tokens, utf8(url))

  const agentLines: AgentLine[] = []
  for (const g of trace.groups) {
    if (g.specific !== trace.specific) continue
    for (const line of parsed.groups[g.index]!.agentLines) {
      const report = lines[line - 1]!
      agentLines.push({ line, text: lineText(report.key, report.value), names: tokens.includes(valueAgentToken(report.value ?? '')) })
    }
  }

  const shown = new Map<TracedRule, RuleMatch>()
  const matches: RuleMatch[] = []
  for (const t of trace.rules) {
    if (t.specific !== trace.specific || t.priority < 0) continue
    const report = lines[t.line - 1]!
    const base = t.rule * RULE_STRIDE
    const match: RuleMatch = {
      line: t.line,
      kind: t.allow ? 'allow' : 'disallow',
      text: lineText(report.key, report.value),
      pattern: decodeUtf8(parsed.body, parsed.rules[base + R_START]!, parsed.rules[base + R_END]!),
      priority: t.priority,
    }
    if (t.indexHtml !== null) match.indexHtml = decodeUtf8(t.indexHtml)
    matches.push(match)
    shown.set(t, match)
  }
  const of = (t: TracedRule | null): RuleMatch | null => (t === null ? null : shown.get(t)!)
  const bestAllow = of(trace.bestAllow)
  const bestDisallow = of(trace.bestDisallow)
  const group = trace.specific ? 'specific' : trace.groups.length > 0 ? 'global' : 'none'
  return {
    url,
    path: decodeUtf8(trace.path),
    agent: typeof agent === 'string' ? agent : agent.join(', '),
    token: tokens[0]!,
    tokens,
    group,
    agentLines,
    matches,
    decidingRule: of(trace.decidingRule),
    allowed: trace.allowed,
    line: trace.line,
    reason: reasonFor(group, tokens, bestAllow, bestDisallow, trace.allowed),
    usage: robots.usagePreferences(agent),
  }
}

function lineText(key: string | undefined, value: string | undefined): string {
  return value === undefined || value === '' ? `${key ?? ''}:` : `${key ?? ''}: ${value}`
}

function describe(m: RuleMatch): string {
  return `line ${m.line} (${m.text}${m.indexHtml !== undefined ? `, as ${m.indexHtml} by the index.html rule` : ''}, priority ${m.priority})`
}

function reasonFor(group: Explanation['group'], tokens: readonly string[], allow: RuleMatch | null, disallow: RuleMatch | null, allowed: boolean): string {
  const token = tokens.join('" or "')
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
