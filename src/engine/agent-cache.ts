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
//
// A pair other than the site's first compiles at its first check, not after a few streamed ones: a
// streamed check scans the whole compact body, and that scan is most of a compile (the table of a
// selection's few rules adds little), so streaming pays only for pairs checked fewer times than the
// crossover of compile / (streamed - table), and it delays the one compile the site's unnamed
// agents then share (bench/per-site.mjs measures the three costs and the crossover beside the field
// benchmark, whose pairs are checked more often than that; bench/RESULTS.md's notes give the A/B
// of streaming first). Many agents checked for a few URLs each are Robots.checkMatrix's shape.
//
// Agents that no group names all get the global groups (RFC 9309 2.2.1), so one matcher serves them
// all: once a compile has given the site's named-token signature (layout.ts NAMED_*) and a matcher
// for an agent each of whose tokens has a bit clear there, every later such agent takes that
// matcher with no compile. A crawler checking a site for several agents (the field benchmark checks 6.6 a site)
// compiled each of them before, to find that three in four had the same table.

import { agentTokens, namingHash } from './args.js'
import { NAMED_BIT_SHIFT, NAMED_HASH_PRIME, NAMED_SECOND, NAMED_WORDS } from './layout.js'
import type { Matcher } from './matcher.js'

const MATCHER_CACHE = 16
/** An entry in AgentSlots: the agent, its matcher (null: streamed once), when last used. */
const E_AGENT = 0
const E_MATCHER = 1
const E_USED = 2
const E_SIZE = 3
/** Slot 0 is the site's use counter. Use marks are small integers: storing one costs no write
 * barrier, where moving entries (pointers) in an old array costs one per store. */
const TICK = 0
/**
 * Slots NAMED to NAMED + 2 * NAMED_WORDS - 1: the body's named-token signature (layout.ts NAMED_*)
 * in 16-bit halves, so that each is a small integer (a V8 Smi, stored in place); -1 in slot NAMED
 * while unknown.
 */
const NAMED = 1
/** The matcher of the global groups (of an agent no group names), or null while unknown. */
const GLOBAL = NAMED + 2 * NAMED_WORDS
/** Where the entries start. */
const FIRST = GLOBAL + 1

/** A site's matchers: [tick, the named-token signature, the global matcher, then (agent, matcher, used) per entry]. Made by `grownSlots`. */
export type AgentSlots = (Agent | Matcher | number | null)[]

/** What a site holds for its agents: the agent of its streamed first check alone, or its slots. */
export type SiteAgents = Agent | AgentSlots

/**
 * The slots of a site that compiles: `site` itself once it has slots; slots holding its first agent
 * with no matcher (sized exactly: most sites keep one agent); or, for a site whose first use is
 * `Robots.matcher` (null), no entry yet. The caller keeps what it gets.
 */
export function grownSlots(site: SiteAgents | null): AgentSlots {
  if (Array.isArray(site)) return site
  if (site === null) return NO_ENTRIES.slice()
  const slots = NO_ENTRIES.concat([site, null, 1])
  slots[TICK] = 1
  return slots
}

/** Slots with no entry: tick 0, the signature unknown, no global matcher. Copies are sized exactly. */
const NO_ENTRIES: AgentSlots = [0, -1, ...new Array<number>(2 * NAMED_WORDS - 1).fill(0), null]

/** The site's matchers, for a new table to share one's when it has the same rules. */
export function siteMatchers(slots: AgentSlots): (Matcher | null)[] {
  const out: (Matcher | null)[] = []
  for (let at = FIRST; at < slots.length; at += E_SIZE) out.push(slots[at + E_MATCHER] as Matcher | null)
  return out
}

/** The product tokens of the agent a site holds alone (its streamed first check's). */
export function firstTokens(site: SiteAgents): readonly string[] {
  return (site as Agent).tokens
}

/**
 * Keeps the named-token signature a compile of the site's body gave, `word(w)` for each u32 word,
 * unless the slots have it already (it is the body's, whichever agents were compiled).
 */
export function noteNamed(slots: AgentSlots, word: (w: number) => number): void {
  if ((slots[NAMED] as number) >= 0) return
  for (let w = 0; w < NAMED_WORDS; w++) {
    const v = word(w)
    slots[NAMED + 2 * w] = v & 0xffff
    slots[NAMED + 2 * w + 1] = v >>> 16
  }
}

/** The agent's tokens are known to name no group of the site's body (its signature is known). */
function namesNoGroup(slots: AgentSlots, tokens: readonly string[]): boolean {
  if ((slots[NAMED] as number) < 0) return false
  for (const t of tokens) {
    const h = namingHash(t)
    if (h !== -1 && isSet(slots, h) && isSet(slots, Math.imul(h ^ NAMED_SECOND, NAMED_HASH_PRIME))) return false
  }
  return true
}

/** The signature bit of hash `h`. */
function isSet(slots: AgentSlots, h: number): boolean {
  const bit = h >>> NAMED_BIT_SHIFT
  return (((slots[NAMED + (bit >> 4)] as number) >>> (bit & 15)) & 1) !== 0
}

/**
 * The matcher of agent `a` in a site's slots, compiled by `compile(site, tokens)` when missing.
 * `compile` and `site` come apart so that a lookup, the check-by-check path, allocates no closure.
 */
export function slotMatcher<S>(slots: AgentSlots, a: Agent, compile: (site: S, tokens: string[]) => Matcher, site: S): Matcher {
  const tick = (slots[TICK] as number) + 1
  slots[TICK] = tick
  let at = FIRST
  while (at < slots.length && slots[at + E_AGENT] !== a) at += E_SIZE
  if (at === slots.length) at = add(slots, a)
  slots[at + E_USED] = tick
  let m = slots[at + E_MATCHER] as Matcher | null
  if (m === null) {
    if (namesNoGroup(slots, a.tokens)) m = slots[GLOBAL] as Matcher | null
    if (m === null) {
      m = compile(site, [...a.tokens])
      // The compile may have just told the signature.
      if (namesNoGroup(slots, a.tokens)) slots[GLOBAL] = m
    }
    slots[at + E_MATCHER] = m
  }
  return m
}

/** Appends an entry for `a` (no matcher yet), first evicting the least recently used when full. */
function add(slots: AgentSlots, a: Agent): number {
  if (slots.length >= FIRST + MATCHER_CACHE * E_SIZE) {
    let oldest = FIRST
    for (let at = FIRST + E_SIZE; at < slots.length; at += E_SIZE) if ((slots[at + E_USED] as number) < (slots[oldest + E_USED] as number)) oldest = at
    slots.splice(oldest, E_SIZE)
  }
  slots.push(a, null, 0)
  return slots.length - E_SIZE
}

/** The agents held, as the JSON of their tokens, least recently used first. */
export function slotKeys(site: SiteAgents): string[] {
  const slots = grownSlots(site)
  const entries: { key: string; used: number }[] = []
  for (let at = FIRST; at < slots.length; at += E_SIZE) {
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
 * A string agent's memo entry, validated (TypeError naming `param`) the first time the string is seen: its agent,
 * and the memo's own copy of the string, equal to it, that a caller may keep to compare the next
 * agent with (reading memory that is in cache rather than the caller's string).
 */
export function stringMemo(agent: string, param = 'agent'): { readonly agent: Agent; readonly key: string } {
  let m = byString.get(agent)
  if (m === undefined) {
    m = { agent: tokensAgent(agentTokens(agent, param)), key: agent }
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
