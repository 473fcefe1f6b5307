// A site's compiled matchers by agent, for `Robots.isAllowed(url, agent)`, the call most users
// write. Owns the policy of when a site compiles (not on its very first check, which is streamed)
// and the cost of a lookup in a crawler that switches sites on almost every check, where each object
// reached is a cache miss: a site's matchers sit in one flat array (AgentSlots) on its Robots, keyed
// by a small integer per agent, so a lookup reads that array and the matcher and nothing else.
//
// Invariants: at most MATCHER_CACHE entries per site, the least recently used evicted first; an
// agent's id stands for its product tokens (two spellings of one agent share it); an entry holds no
// matcher only when it is the site's first agent and has had just its streamed check. A site with
// only that streamed check holds its agent alone (shared, no array): most sites a crawler keeps are
// checked once, and an array would cost each of them ~90 bytes.

import { agentTokens } from './args.js'
import type { Matcher } from './matcher.js'

const MATCHER_CACHE = 16
/** An entry in AgentSlots: the agent's id, its matcher (null: streamed once), when last used, its tokens. */
const E_ID = 0
const E_MATCHER = 1
const E_USED = 2
const E_TOKENS = 3
const E_SIZE = 4
/** Slot 0 is the site's use counter; entries follow. */
const TICK = 0

/** A site's matchers: [tick, then (id, matcher, used, tokens) per agent]. Made by `grownSlots`. */
export type AgentSlots = (number | Matcher | readonly string[] | null)[]

/** What a site holds for its agents: the agent of its streamed first check alone, or its slots. */
export type SiteAgents = Agent | AgentSlots

/**
 * What a site holds after its very first check, for `agent` (validated: TypeError for a bad one):
 * the agent alone, since that check is streamed and leaves no matcher.
 */
export function firstSlots(agent: string | readonly string[]): SiteAgents {
  return agentOf(agent)
}

/** The product tokens of the agent a site holds alone (its streamed first check's; see firstSlots). */
export function firstTokens(site: SiteAgents): readonly string[] {
  return (site as Agent).tokens
}

/**
 * The slots of a site that compiles: `site` itself once it has slots, else slots holding its first
 * agent with no matcher (sized exactly: most sites keep one agent). The caller keeps what it gets.
 */
export function grownSlots(site: SiteAgents): AgentSlots {
  return Array.isArray(site) ? site : [1, (site as Agent).id, null, 1, (site as Agent).tokens]
}

/**
 * The matcher of `agent` (validated: TypeError for a bad one) in a site's slots, compiled by
 * `compile` from its tokens when missing.
 */
export function slotMatcher(slots: AgentSlots, agent: string | readonly string[], compile: (tokens: string[]) => Matcher): Matcher {
  const a = agentOf(agent)
  const tick = (slots[TICK] as number) + 1
  slots[TICK] = tick
  let at = find(slots, a.id)
  if (at < 0) at = add(slots, a)
  slots[at + E_USED] = tick
  let m = slots[at + E_MATCHER] as Matcher | null
  if (m === null) slots[at + E_MATCHER] = m = compile([...a.tokens])
  return m
}

/** The agents held, as the JSON of their tokens, least recently used first. */
export function slotKeys(site: SiteAgents): string[] {
  const slots = grownSlots(site)
  const entries: { key: string; used: number }[] = []
  for (let at = 1; at < slots.length; at += E_SIZE) {
    entries.push({ key: JSON.stringify(slots[at + E_TOKENS]), used: slots[at + E_USED] as number })
  }
  return entries.sort((a, b) => a.used - b.used).map((e) => e.key)
}

function find(slots: AgentSlots, id: number): number {
  for (let at = 1; at < slots.length; at += E_SIZE) if (slots[at + E_ID] === id) return at
  return -1
}

/** Appends an entry for `a` (no matcher yet), first evicting the least recently used when full. */
function add(slots: AgentSlots, a: Agent): number {
  if (slots.length >= 1 + MATCHER_CACHE * E_SIZE) {
    let oldest = 1
    for (let at = 1 + E_SIZE; at < slots.length; at += E_SIZE) if ((slots[at + E_USED] as number) < (slots[oldest + E_USED] as number)) oldest = at
    slots.splice(oldest, E_SIZE)
  }
  const at = slots.length
  slots.push(a.id, null, 0, a.tokens)
  return at
}

// ─── Agent ids ─────────────────────────────────────────────────────────────────────────────────
// One id per distinct list of product tokens. Ids only count up (a number), so one a Robots still
// holds is never given to another agent; the memos are bounded and, when full, only forget.

export interface Agent {
  readonly id: number
  readonly tokens: readonly string[]
}

let nextId = 0
const byKey = new Map<string, Agent>()
const byString = new Map<string, Agent>()
/** Distinct agents a process uses are few; a flood of them only resets the memos. */
const MEMO_MAX = 1024

/** A string agent, validated (TypeError) the first time it is seen. */
function stringAgent(agent: string): Agent {
  let a = byString.get(agent)
  if (a === undefined) {
    a = tokensAgent(agentTokens(agent))
    if (byString.size >= MEMO_MAX) byString.clear()
    byString.set(agent, a)
  }
  return a
}

function agentOf(agent: string | readonly string[]): Agent {
  return typeof agent === 'string' ? stringAgent(agent) : tokensAgent(agentTokens(agent))
}

function tokensAgent(tokens: string[]): Agent {
  const key = JSON.stringify(tokens)
  let a = byKey.get(key)
  if (a === undefined) {
    if (byKey.size >= MEMO_MAX) byKey.clear()
    a = Object.freeze({ id: nextId++, tokens: Object.freeze(tokens) })
    byKey.set(key, a)
  }
  return a
}
