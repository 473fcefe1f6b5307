// agentSetVerdicts: the seam between one robots.txt and many crawlers. The survey asks it, for a
// list of agent sets (each crawler's tokens) and paths, what every set may fetch, and nothing else:
// the verdicts are the engine's own (the matrix pass, Robots.checkMatrix's), never a second matcher.
// Invariant: verdicts[i] of a set equals `robots.check(paths[i], tokens)` as a signed line (the
// matching line when allowed, minus it when disallowed, 0 when no rule matched); `named` is true
// exactly when some group names one of the tokens (RFC 9309 2.2.1, Google's RobotsMatcher); sets
// with equal `selection` have the same groups apply to them, so every answer derived from those
// groups (verdicts, counts, Crawl-delay, usage preferences) is the same for them. The
// counts are of the rules that can match: a pattern starting with neither '/' nor '*' never
// matches (every path starts with '/'), so it is not counted, nor is an empty one.
// Every set and path is answered by one pass over the body (assembly/matrix.ts); a body too large
// for the wasm pass gets one compiled matcher per distinct selection of groups instead.

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
  const sets = agentSets.map((set, i) => setTokens(set, i))
  const matrix = robots.matrixOf(sets, paths)
  if (matrix === null) return compiledVerdicts(robots, sets, paths)
  // Sets whose tokens select the same groups (most often: none named, so the global groups) have
  // the same verdicts: one frozen array serves them all.
  const bySelection = new Map<string, { verdicts: readonly number[]; selection: number }>()
  const out: AgentSetResult[] = []
  const n = paths.length
  for (let i = 0; i < sets.length; i++) {
    const a = matrix.agents[i]!
    let shared = bySelection.get(a.selection)
    if (shared === undefined) {
      shared = { verdicts: Object.freeze(Array.from(matrix.verdicts.subarray(i * n, (i + 1) * n))), selection: bySelection.size }
      bySelection.set(a.selection, shared)
    }
    out.push({ named: a.named, allows: a.allows, disallows: a.disallows, verdicts: shared.verdicts, selection: shared.selection })
  }
  return out
}

/** agentSetVerdicts for a body too large for the matrix pass: a matcher per distinct selection of groups. */
function compiledVerdicts(robots: Robots, sets: readonly string[][], paths: readonly string[]): AgentSetResult[] {
  const parsed = robots.parsed
  const bySelection = new Map<string, { allows: number; disallows: number; verdicts: readonly number[]; selection: number }>()
  const out: AgentSetResult[] = []
  for (const tokens of sets) {
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
