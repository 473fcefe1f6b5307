// AgentCache: one site's compiled matchers by agent, for `Robots.isAllowed(url, agent)`, the call
// most users write. It owns the policy of when a site compiles (not on its very first check, which
// is streamed) and the cost of the common call: the agent of the last call is taken without any
// lookup, and any other one costs one memo lookup and a scan of at most MATCHER_CACHE keys.
//
// Invariants: at most MATCHER_CACHE entries, the least recently used evicted first; a key is the
// JSON of the agent's product tokens, so two spellings of one agent share an entry; an entry holds
// no matcher only when it is the site's first agent and has had just its streamed check. One entry
// is kept without an array (most sites are checked for one agent), so a cached site stays small.

import { agentTokens } from './args.js'
import type { Matcher } from './matcher.js'

const MATCHER_CACHE = 16

interface Entry {
  readonly key: string
  matcher: Matcher | null
  used: number
}

export class AgentCache {
  #one: Entry | null = null
  #many: Entry[] | null = null
  #tick = 0
  /** The string agent of the last call that got a matcher, and its entry (agent null: none). */
  #lastAgent: string | null = null
  #last: Entry | null = null

  /** The last string agent's matcher when `agent` is that agent, else null. */
  hit(agent: string | readonly string[]): Matcher | null {
    if (agent !== this.#lastAgent || typeof agent !== 'string') return null
    const e = this.#last!
    e.used = ++this.#tick
    return e.matcher
  }

  /**
   * The matcher of `agent` (validated: TypeError for a bad one), compiled by `compile` when
   * missing; null for the site's very first check, which the caller streams instead.
   */
  get(agent: string | readonly string[], compile: (tokens: string[]) => Matcher): Matcher | null {
    const key = typeof agent === 'string' ? agentKey(agent) : JSON.stringify(agentTokens(agent))
    let e = this.#find(key)
    if (e === undefined) {
      const first = this.#tick === 0
      e = { key, matcher: first ? null : compile(JSON.parse(key) as string[]), used: 0 }
      this.#add(e)
      if (first) {
        e.used = ++this.#tick
        return null
      }
    }
    e.used = ++this.#tick
    e.matcher ??= compile(JSON.parse(key) as string[])
    if (typeof agent === 'string') {
      this.#lastAgent = agent
      this.#last = e
    }
    return e.matcher
  }

  /** The keys held, least recently used first. */
  keys(): string[] {
    const all = this.#many ?? (this.#one === null ? [] : [this.#one])
    return [...all].sort((a, b) => a.used - b.used).map((e) => e.key)
  }

  #find(key: string): Entry | undefined {
    if (this.#many === null) return this.#one?.key === key ? this.#one : undefined
    for (const e of this.#many) if (e.key === key) return e
    return undefined
  }

  #add(e: Entry): void {
    if (this.#one === null) {
      this.#one = e
      return
    }
    this.#many ??= [this.#one]
    if (this.#many.length >= MATCHER_CACHE) {
      let oldest = 0
      for (let i = 1; i < this.#many.length; i++) if (this.#many[i]!.used < this.#many[oldest]!.used) oldest = i
      if (this.#many[oldest] === this.#last) this.#lastAgent = null
      this.#many.splice(oldest, 1)
    }
    this.#many.push(e)
  }
}

/** Cache keys of string agents seen before (so valid): raw string -> JSON of its tokens. */
const agentKeys = new Map<string, string>()
/** Distinct agent strings a process uses are few; a flood of them only resets the memo. */
const AGENT_KEYS_MAX = 1024

/** The cache key of a string agent, validating it (TypeError) the first time it is seen. */
function agentKey(agent: string): string {
  let key = agentKeys.get(agent)
  if (key === undefined) {
    key = JSON.stringify(agentTokens(agent))
    if (agentKeys.size >= AGENT_KEYS_MAX) agentKeys.clear()
    agentKeys.set(agent, key)
  }
  return key
}
