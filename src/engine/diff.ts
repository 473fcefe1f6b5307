// diffRobots: which URLs change verdict between two versions of a robots.txt, for which agents, and
// which line decides on each side. Without a URL list the probes come from the rules of both files:
// a verdict can only change where some pattern starts or stops matching, so each pattern yields the
// paths on both sides of its boundary (the path itself, one step longer and shorter, the wildcards
// filled empty and with a byte, the end anchor's edge) and each pair of patterns the paths where
// both match (one continued by the other, or holding the other in its wildcards), since a change
// can hinge on which of two matching rules is longer. A property test holds this to a brute-force
// comparison of every short path. The probe count is bounded (MAX_PROBES); a bounded diff says so.

import { agentTokens, fail, urlString } from './args.js'
import { valueAgentToken } from './parse.js'
import { parseRobots, type Robots } from './robots.js'

/**
 * Options of `diffRobots`.
 *
 * @example
 * ```ts
 * import { diffRobots, type DiffOptions } from 'robotstxt-wasm'
 *
 * const options: DiffOptions = { agents: ['Googlebot'], urls: ['/', '/shop/cart'] }
 * diffRobots('User-agent: *\nAllow: /\n', 'User-agent: *\nDisallow: /shop/\n', options).changes.length // → 1
 * ```
 */
export interface DiffOptions {
  /**
   * The agents to compare; default `*`, Googlebot and every agent named in either file. An element
   * may be several agents whose groups merge (a crawler's `crawlerTokens`), reported as its first.
   */
  agents?: readonly (string | readonly string[])[]
  /** The URLs to compare (any mix of URLs and paths); default: probes made from both files' rules. */
  urls?: readonly (string | URL)[]
}

/**
 * One URL whose verdict differs, for one agent.
 *
 * @example
 * ```ts
 * import { diffRobots, type VerdictChange } from 'robotstxt-wasm'
 *
 * const [change]: VerdictChange[] = diffRobots('', 'User-agent: *\nDisallow: /\n', { agents: ['MyBot'], urls: ['/page'] }).changes
 * change // → { agent: 'MyBot', url: '/page', old: { allowed: true, line: 0 }, new: { allowed: false, line: 2 } }
 * ```
 */
export interface VerdictChange {
  /** The agent as given (or as the file spells it, for the default agents). */
  agent: string
  /** The URL as given, or the probe path made from the rules. */
  url: string
  /** The verdict and deciding line (0 when no rule matched) under the old file. */
  old: {
    /** May the agent fetch the URL under the old file. */
    allowed: boolean
    /** The deciding line of the old file, 0 when no rule matched. */
    line: number
  }
  /** The same under the new file. */
  new: {
    /** May the agent fetch the URL under the new file. */
    allowed: boolean
    /** The deciding line of the new file, 0 when no rule matched. */
    line: number
  }
}

/**
 * The result of `diffRobots`.
 *
 * @example
 * ```ts
 * import { diffRobots, type RobotsDiff } from 'robotstxt-wasm'
 *
 * const diff: RobotsDiff = diffRobots('User-agent: *\nDisallow: /a\n', 'User-agent: *\nDisallow: /a\n')
 * diff.changes // → []
 * diff.truncated // → false
 * ```
 */
export interface RobotsDiff {
  /** The agents compared. Probes made from the rules are reported as paths. */
  agents: string[]
  /** How many URLs were compared per agent. */
  probes: number
  /** True when the rules would have yielded more than MAX_PROBES probes and the rest were left out. */
  truncated: boolean
  /** Every verdict change, by agent, then in probe order. */
  changes: VerdictChange[]
}

const PROBE_ORIGIN = 'http://probe.invalid'

/** At most this many probe URLs per diff (per agent). */
export const MAX_PROBES = 200_000

/**
 * Compares the verdicts of two robots.txt versions. Never throws on content, only on bad arguments.
 *
 * @example
 * ```ts
 * import { diffRobots } from 'robotstxt-wasm'
 *
 * const before = 'User-agent: *\nDisallow: /cart\n'
 * const after = 'User-agent: *\nDisallow: /cart\nDisallow: /blog\n'
 * diffRobots(before, after, { agents: ['Googlebot'] }).changes.map((c) => c.url).includes('/blog') // → true
 * ```
 */
export function diffRobots(oldBody: string | Uint8Array, newBody: string | Uint8Array, options?: DiffOptions): RobotsDiff {
  const before = parseRobots(oldBody)
  const after = parseRobots(newBody)
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object or undefined', options)
  const asked = options?.agents === undefined ? defaultAgents(before, after) : agentList(options.agents)
  const agents = asked.map((a) => (typeof a === 'string' ? a : a[0]!))
  let probes: string[]
  // What the matcher reads: a probe path behind a scheme and host, since a path such as "//a"
  // alone would read as a host; a given URL as it is.
  let checked: string[]
  let truncated = false
  if (options?.urls === undefined) {
    ;({ probes, truncated } = probesOf(before, after))
    checked = probes.map((p) => PROBE_ORIGIN + p)
  } else {
    if (!Array.isArray(options.urls)) fail('options.urls', 'an array of strings or URLs', options.urls)
    probes = options.urls.map((u, i) => urlString(u, `options.urls[${i}]`))
    checked = probes
  }
  const changes: VerdictChange[] = []
  const was = new Int32Array(probes.length)
  const is = new Int32Array(probes.length)
  for (let k = 0; k < asked.length; k++) {
    const agent = agents[k]!
    before.matcher(asked[k]!).checkMany(checked, was)
    after.matcher(asked[k]!).checkMany(checked, is)
    for (let i = 0; i < probes.length; i++) {
      // checkMany: the line when allowed, minus the line when disallowed (a disallow has a line).
      if (was[i]! < 0 === is[i]! < 0) continue
      changes.push({ agent, url: probes[i]!, old: verdict(was[i]!), new: verdict(is[i]!) })
    }
  }
  return { agents, probes: probes.length, truncated, changes }
}

function verdict(r: number): { allowed: boolean; line: number } {
  return { allowed: r >= 0, line: Math.abs(r) }
}

function agentList(agents: unknown): (string | readonly string[])[] {
  if (!Array.isArray(agents) || agents.length === 0) fail('options.agents', 'a non-empty array of user-agent strings', agents)
  return agents.map((a: unknown, i) => {
    if (typeof a === 'string' && a !== '') return a
    if (!Array.isArray(a)) return fail(`options.agents[${i}]`, 'a user-agent string or an array of them', a)
    agentTokens(a, `options.agents[${i}]`)
    return a as string[]
  })
}

/** `*`, Googlebot and every agent either file names (as the file spells it first). */
function defaultAgents(a: Robots, b: Robots): string[] {
  const seen = new Set<string>(['*', 'googlebot'])
  const out = ['*', 'Googlebot']
  for (const robots of [a, b]) {
    for (const r of robots.lines) {
      if (r.type !== 'user-agent' || r.value === undefined) continue
      const token = r.value.slice(0, valueAgentToken(r.value).length)
      if (token === '' || seen.has(token.toLowerCase())) continue
      seen.add(token.toLowerCase())
      out.push(token)
    }
  }
  return out
}

/**
 * A pattern as the paths on its boundary: its literal with the wildcards filled (empty, a '/', or
 * `neutral`, a byte no pattern holds), each also one byte longer and one shorter.
 */
function boundaryPaths(pattern: string, neutral: string): string[] {
  const anchored = pattern.endsWith('$')
  const body = anchored ? pattern.slice(0, -1) : pattern
  const out: string[] = []
  for (const fill of ['', '/', neutral]) {
    let p = body.split('*').join(fill)
    if (!p.startsWith('/')) p = '/' + p
    out.push(p, p + neutral, p + '/', p.slice(0, -1) || '/')
  }
  return out
}

/** A byte that occurs in no pattern, so a path filled with it matches only what wildcards allow. */
function neutralByte(patterns: readonly string[]): string {
  for (const c of ['z', 'q', '~', 'Z', '0', '_']) if (!patterns.some((p) => p.includes(c))) return c
  return '\u00e9'
}

/** Probe paths from the allow/disallow patterns of both files, bounded by MAX_PROBES. */
function probesOf(a: Robots, b: Robots): { probes: string[]; truncated: boolean } {
  const patterns = new Set<string>()
  for (const robots of [a, b]) {
    for (const r of robots.lines) {
      if ((r.type === 'allow' || r.type === 'disallow') && r.value !== undefined && (r.value.startsWith('/') || r.value.startsWith('*'))) patterns.add(r.value)
    }
  }
  const probes = new Set<string>(['/'])
  const add = (p: string): boolean => {
    if (probes.size >= MAX_PROBES) return false
    probes.add(p)
    return true
  }
  const list = [...patterns]
  const neutral = neutralByte(list)
  for (const p of list) for (const q of boundaryPaths(p, neutral)) if (!add(q)) return { probes: [...probes], truncated: true }
  // Where two patterns both match: one's boundary path continued by the other's (its leading '/'
  // dropped, or kept), and one's wildcards filled with the other's literal.
  const bases = list.map((p) => boundaryPaths(p, neutral)[0]!)
  for (let i = 0; i < list.length; i++) {
    const body = list[i]!.endsWith('$') ? list[i]!.slice(0, -1) : list[i]!
    const parts = body.includes('*') ? body.split('*') : null
    for (let j = 0; j < list.length; j++) {
      if (i === j) continue
      const other = bases[j]!
      const paths = [bases[i]! + other.slice(1), bases[i]! + other]
      if (parts !== null) {
        for (const fill of [other.slice(1), other]) {
          const p = parts.join(fill)
          paths.push(p.startsWith('/') ? p : '/' + p)
        }
      }
      for (const p of paths) if (!add(p)) return { probes: [...probes], truncated: true }
    }
  }
  return { probes: [...probes], truncated: false }
}
