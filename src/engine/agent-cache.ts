// A site's compiled matchers by agent, for `Robots.isAllowed(url, agent)`, the call most users
// write, and `Robots.matcher(agent)`. Owns the policy of when a site compiles (not on its very first
// check, which is streamed) and the cost of a lookup in a crawler that switches sites on almost every
// check, where each object reached is a cache miss: a site's matchers sit in one flat array
// (AgentSlots) on its Robots, as (agent, matcher) pairs, most recently used first; the agent is a
// memoized object per list of product tokens, compared by identity, so a lookup reads that array
// (usually its first cache line) and the matcher, and nothing else.
//
// Invariants: at most MATCHER_CACHE entries per site, the least recently used evicted first; an
// agent object stands for its product tokens (two spellings of one agent share it); an entry holds
// no matcher only when it is the site's first agent and has had just its streamed check.

import { agentTokens } from './args.js'
import type { Matcher } from './matcher.js'

const MATCHER_CACHE = 16
/** An entry in AgentSlots: the agent, its matcher (null: streamed once). */
const E_AGENT = 0
const E_MATCHER = 1
const E_SIZE = 2

/** A site's matchers: (agent, matcher) per entry, most recently used first. Created by `firstSlots`. */
export type AgentSlots = (Agent | Matcher | null)[]

/**
 * The slots of a site's very first check, for `agent` (validated: TypeError for a bad one): an
 * entry with no matcher, since that check is streamed. Sized exactly: most sites keep one agent.
 */
export function firstSlots(agent: string | readonly string[]): AgentSlots {
  return [agentOf(agent), null]
}

/** The slots of a site whose first use is `Robots.matcher`: no entry yet. */
export function emptySlots(): AgentSlots {
  return []
}

/** The site's matchers, for a new table to share one's when it has the same rules. */
export function siteMatchers(slots: AgentSlots): (Matcher | null)[] {
  const out: (Matcher | null)[] = []
  for (let at = 0; at < slots.length; at += E_SIZE) out.push(slots[at + E_MATCHER] as Matcher | null)
  return out
}

/**
 * The matcher of `agent` (validated: TypeError for a bad one) in a site's slots, compiled by
 * `compile(site, tokens)` when missing; its entry becomes the first. `compile` and `site` come
 * apart so that a lookup, the check-by-check path, allocates no closure.
 */
export function slotMatcher<S>(slots: AgentSlots, agent: string | readonly string[], compile: (site: S, tokens: string[]) => Matcher, site: S): Matcher {
  const a = agentOf(agent)
  let at = 0
  while (at < slots.length && slots[at] !== a) at += E_SIZE
  let m: Matcher | null
  if (at === slots.length) {
    m = null
    // A new entry: the least recently used, the last, makes room for it.
    if (slots.length >= MATCHER_CACHE * E_SIZE) slots.length -= E_SIZE
    slots.push(a, null)
    at = slots.length - E_SIZE
  } else m = slots[at + E_MATCHER] as Matcher | null
  // Move to the front: entries before it shift back by one.
  for (; at > 0; at -= E_SIZE) {
    slots[at] = slots[at - E_SIZE]!
    slots[at + E_MATCHER] = slots[at - E_SIZE + E_MATCHER]!
  }
  slots[E_AGENT] = a
  if (m === null) m = compile(site, [...a.tokens])
  slots[E_MATCHER] = m
  return m
}

/** The agents held, as the JSON of their tokens, least recently used first. */
export function slotKeys(slots: AgentSlots): string[] {
  const keys: string[] = []
  for (let at = slots.length - E_SIZE; at >= 0; at -= E_SIZE) keys.push(JSON.stringify((slots[at + E_AGENT] as Agent).tokens))
  return keys
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

/** A string agent's memo entry, validated (TypeError) the first time the string is seen. */
function stringMemo(agent: string): { readonly agent: Agent; readonly key: string } {
  let m = byString.get(agent)
  if (m === undefined) {
    m = { agent: tokensAgent(agentTokens(agent)), key: agent }
    if (byString.size >= MEMO_MAX) byString.clear()
    byString.set(agent, m)
  }
  return m
}

function stringAgent(agent: string): Agent {
  return stringMemo(agent).agent
}

/**
 * The memo's own copy of a string agent (validated): an equal string that a caller may keep to
 * compare the next agent with, reading memory that is in cache rather than the caller's string.
 */
export function agentKey(agent: string): string {
  return stringMemo(agent).key
}

function agentOf(agent: string | readonly string[]): Agent {
  return typeof agent === 'string' ? stringAgent(agent) : tokensAgent(agentTokens(agent))
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
