// A site's compiled matchers by agent, for `Robots.isAllowed(url, agent)`, the call most users
// write, and `Robots.matcher(agent)`. Owns the policy of when a site compiles (not on its very first
// check, which is streamed) and the cost of a lookup in a crawler that switches sites on almost every
// check, where each object reached is a cache miss: a site's matchers sit in one flat array
// (AgentSlots) on its Robots, (agent, matcher, last use) per entry; the agent is a memoized object
// per list of product tokens, compared by identity, so a lookup reads that array and the matcher,
// and writes only small integers.
//
// Invariants: at most MATCHER_CACHE entries per site, the least recently used evicted first; an
// agent object stands for its product tokens (two spellings of one agent share it); an entry holds
// no matcher only when it is the site's first agent and has had just its streamed check. A site with
// only that streamed check holds its agent alone (shared, no array): most sites a crawler keeps are
// checked once, and an array would cost each of them its own bytes.

import { agentTokens } from './args.js'
import type { Matcher } from './matcher.js'

const MATCHER_CACHE = 16
/** An entry in AgentSlots: the agent, its matcher (null: streamed once), when last used. */
const E_AGENT = 0
const E_MATCHER = 1
const E_USED = 2
const E_SIZE = 3
/** Slot 0 is the site's use counter; entries follow. Use marks are small integers: storing one
 * costs no write barrier, where moving entries (pointers) in an old array costs one per store. */
const TICK = 0

/** A site's matchers: [tick, then (agent, matcher, used) per entry]. Made by `grownSlots`. */
export type AgentSlots = (Agent | Matcher | number | null)[]

/** What a site holds for its agents: the agent of its streamed first check alone, or its slots. */
export type SiteAgents = Agent | AgentSlots

/**
 * The slots of a site that compiles: `site` itself once it has slots; slots holding its first agent
 * with no matcher (sized exactly: most sites keep one agent); or, for a site whose first use is
 * `Robots.matcher` (null), no entry yet. The caller keeps what it gets.
 */
export function grownSlots(site: SiteAgents | null): AgentSlots {
  if (site === null) return [0]
  return Array.isArray(site) ? site : [1, site, null, 1]
}

/** The site's matchers, for a new table to share one's when it has the same rules. */
export function siteMatchers(slots: AgentSlots): (Matcher | null)[] {
  const out: (Matcher | null)[] = []
  for (let at = 1; at < slots.length; at += E_SIZE) out.push(slots[at + E_MATCHER] as Matcher | null)
  return out
}

/** The product tokens of the agent a site holds alone (its streamed first check's). */
export function firstTokens(site: SiteAgents): readonly string[] {
  return (site as Agent).tokens
}

/**
 * The matcher of agent `a` in a site's slots, compiled by `compile(site, tokens)` when missing.
 * `compile` and `site` come apart so that a lookup, the check-by-check path, allocates no closure.
 */
export function slotMatcher<S>(slots: AgentSlots, a: Agent, compile: (site: S, tokens: string[]) => Matcher, site: S): Matcher {
  const tick = (slots[TICK] as number) + 1
  slots[TICK] = tick
  let at = 1
  while (at < slots.length && slots[at + E_AGENT] !== a) at += E_SIZE
  if (at === slots.length) at = add(slots, a)
  slots[at + E_USED] = tick
  let m = slots[at + E_MATCHER] as Matcher | null
  if (m === null) slots[at + E_MATCHER] = m = compile(site, [...a.tokens])
  return m
}

/** Appends an entry for `a` (no matcher yet), first evicting the least recently used when full. */
function add(slots: AgentSlots, a: Agent): number {
  if (slots.length >= 1 + MATCHER_CACHE * E_SIZE) {
    let oldest = 1
    for (let at = 1 + E_SIZE; at < slots.length; at += E_SIZE) if ((slots[at + E_USED] as number) < (slots[oldest + E_USED] as number)) oldest = at
    slots.splice(oldest, E_SIZE)
  }
  slots.push(a, null, 0)
  return slots.length - E_SIZE
}

/** The agents held, as the JSON of their tokens, least recently used first. */
export function slotKeys(site: SiteAgents): string[] {
  const slots = grownSlots(site)
  const entries: { key: string; used: number }[] = []
  for (let at = 1; at < slots.length; at += E_SIZE) {
    entries.push({ key: JSON.stringify((slots[at + E_AGENT] as Agent).tokens), used: slots[at + E_USED] as number })
  }
  return entries.sort((x, y) => x.used - y.used).map((e) => e.key)
}

// ─── Agents ───────────────────────────────────────────────────────────────────────────────────
// One frozen object per distinct list of product tokens, compared by identity. An object a Robots
// holds is never taken for another agent's; the memos are bounded and, when full, only forget (an
// agent seen again then gets a new object, and a site a second entry for it: a cache miss, never a
// wrong matcher).

export interface Agent {
  readonly tokens: readonly string[]
}

const byKey = new Map<string, Agent>()
/** A string agent's memo: its agent, and the string as first seen (the one kept, so often in cache). */
const byString = new Map<string, { readonly agent: Agent; readonly key: string }>()
/** Distinct agents a process uses are few; a flood of them only resets the memos. */
const MEMO_MAX = 1024

/**
 * A string agent's memo entry, validated (TypeError) the first time the string is seen: its agent,
 * and the memo's own copy of the string, equal to it, that a caller may keep to compare the next
 * agent with (reading memory that is in cache rather than the caller's string).
 */
export function stringMemo(agent: string): { readonly agent: Agent; readonly key: string } {
  let m = byString.get(agent)
  if (m === undefined) {
    m = { agent: tokensAgent(agentTokens(agent)), key: agent }
    if (byString.size >= MEMO_MAX) byString.clear()
    byString.set(agent, m)
  }
  return m
}

/** The agent of a user-agent string or list, validated (TypeError for a bad one). */
export function agentOf(agent: string | readonly string[]): Agent {
  return typeof agent === 'string' ? stringMemo(agent).agent : tokensAgent(agentTokens(agent))
}

function tokensAgent(tokens: string[]): Agent {
  const key = JSON.stringify(tokens)
  let a = byKey.get(key)
  if (a === undefined) {
    if (byKey.size >= MEMO_MAX) byKey.clear()
    a = Object.freeze({ tokens: Object.freeze(tokens) })
    byKey.set(key, a)
  }
  return a
}
