// agentSetVerdicts: the seam between one robots.txt and many crawlers. The survey asks it, for a
// list of agent sets (each crawler's tokens) and paths, what every set may fetch, and nothing else:
// the verdicts are the engine's own (Robots.matcher and Matcher.checkMany), never a second matcher.
// Invariant: verdicts[i] of a set equals `robots.check(paths[i], tokens)` as a signed line (the
// matching line when allowed, minus it when disallowed, 0 when no rule matched); `named` is true
// exactly when some group names one of the tokens (RFC 9309 2.2.1, Google's RobotsMatcher); sets
// with equal `selection` have the same groups apply to them, so every answer derived from those
// groups (verdicts, counts, Crawl-delay, usage preferences) is the same for them. The
// counts are of the compiled rules: a pattern that can never match (one starting with neither '/'
// nor '*') is not compiled, so it is not counted either.
// This body is the plain form (one compiled matcher per distinct selection of groups); a one-pass
// evaluation may replace it behind the same signature.

import { agentTokens, fail } from './args.js'
import { namedGroups } from './parse.js'
import type { Robots } from './robots.js'

/** For each agent set (a crawler's tokens), its verdict on each path, from one read of the body. */
export interface AgentSetResult {
  named: boolean        // some group names one of the tokens (else the global group, if any, applies)
  allows: number        // allow rules with a non-empty pattern in the groups that apply
  disallows: number     // disallow rules with a non-empty pattern in the groups that apply
  /** One per path: the matching line when allowed, -line when disallowed (0: no rule matched). Frozen: the sets of one selection share it. */
  verdicts: readonly number[]
  selection: number     // index of the set's distinct selection of groups, in order of first appearance
}

export function agentSetVerdicts(robots: Robots, agentSets: readonly (readonly string[])[], paths: readonly string[]): AgentSetResult[] {
  if (!Array.isArray(agentSets)) fail('agentSets', 'an array of agent token arrays', agentSets)
  if (!Array.isArray(paths)) fail('paths', 'an array of path strings', paths)
  for (let i = 0; i < paths.length; i++) if (typeof paths[i] !== 'string') fail(`paths[${i}]`, 'a string', paths[i])
  const parsed = robots.parsed
  // Sets whose tokens select the same groups (most often: none named, so the global groups) have
  // the same rules, so one compiled matcher answers for all of them.
  const bySelection = new Map<string, { allows: number; disallows: number; verdicts: readonly number[]; selection: number }>()
  const out: AgentSetResult[] = []
  for (let i = 0; i < agentSets.length; i++) {
    const tokens = setTokens(agentSets[i], i)
    const groups = namedGroups(parsed, tokens)
    const key = groups.join(',')
    let shared = bySelection.get(key)
    if (shared === undefined) {
      const matcher = robots.matcher(tokens)
      shared = { ...matcher.ruleCounts(), verdicts: Object.freeze(Array.from(matcher.checkMany(paths))), selection: bySelection.size }
      bySelection.set(key, shared)
    }
    out.push({ named: groups.length > 0, allows: shared.allows, disallows: shared.disallows, verdicts: shared.verdicts, selection: shared.selection })
  }
  return out
}

/**
 * The product tokens of a frozen set, by identity: it cannot change, so it is checked once (a
 * survey passes the same frozen sets for every file); any other set is checked at every call.
 */
const frozenTokens = new WeakMap<object, string[]>()

function setTokens(set: unknown, i: number): string[] {
  const known = typeof set === 'object' && set !== null ? frozenTokens.get(set) : undefined
  if (known !== undefined) return known
  const tokens = agentTokens(set, `agentSets[${i}]`)
  if (Object.isFrozen(set)) frozenTokens.set(set as object, tokens)
  return tokens
}
