// diffRobots: which URLs change verdict between two versions of a robots.txt, for which agents, and
// which line decides on each side. Without a URL list the probes are made from the rules, and they
// are complete: every (agent, old verdict and line, new verdict and line) that some path has, some
// probe has too, unless MAX_PROBES, MAX_STEPS or MAX_CHANGES cut it short (`truncated`). Why:
//
// * Terms. The matcher compares the path after our URL normalization (`%hh` gets upper-case digits,
//   a byte >= 0x80 becomes `%XX`) with patterns escaped the same way (RFC 9309 2.2.2; Google's
//   MaybeEscapePattern). A pattern is literal segments between `*`s: the first is held to the path's
//   start unless the pattern opens with `*`; a final `$` holds the last one to the path's end
//   (RFC 9309 2.2.3); a `$` anywhere else is a literal byte. The deciding rule of a file on a path
//   is the one behind its verdict and line: the longest match, an allow on a tie, the earliest line
//   among equals, none when no pattern longer than the empty one matches (Google's RobotsMatcher).
// * The witness. Let a path P change verdict, R deciding it in the old file and S in the new. Keep
//   P's leading '/' and the bytes one placement of R's and S's segments covers, and replace each run
//   of other bytes by one neutral byte z, a byte that no pattern holds, no hex digit, not `%`: call
//   it Q. R and S match Q (their segments keep order, anchors and adjacency; a `*` spans z as well).
//   Any pattern T that matches Q matches P: T's segments hold no z, so each lies in one kept run,
//   and those runs stand in P in the same order; T's start is Q's leading '/', which is P's; a `$`
//   ending T after a segment ends Q only when Q ends in a kept byte, and that byte ends P. So Q
//   matches a subset of what P matches, R and S included, each pattern no longer than on P (the
//   index.html rule of RobotsMatcher::HandleAllow is one more, shorter pattern of its allow), and R
//   and S decide Q as they decide P: Q has P's verdicts and lines.
// * The probes are every such Q of every pair of rules R (old) and S (new, or none for either) with
//   different verdicts: all placements of their segments, in order, each segment overlapping what
//   is placed (the bytes agreeing), touching it, or one z after it; then ending there or in one z.
// * `%`: z is no hex digit and not `%`, and a `%hh` of Q lies in one kept run of the normalized P,
//   so Q is its own normalization: the matcher reads Q exactly as built. That is why a placement
//   never joins two pieces into a new `%hh` (`%a` and `b` give `%ab`, which reads as `%AB`): pieces
//   apart in P stay apart by z.
// * `?`: Google's GetPathParamsQuery keeps the query in the path, and every probe starts with '/',
//   so `?` is a byte like any other for the matcher; a probe never holds `#` or NUL (a pattern
//   cannot: `#` starts a comment and NUL ends the line), the only bytes that end the path early.
// * `$`: only a final `$` anchors; a probe ends in z or in the last segment of an anchored rule
//   placed at the end, so both sides of every anchor are probed.
// * Only pairs that can change a verdict: if R is also among the new file's rules for the agent
//   and S among the old file's, both match P in both files with the same priorities, so the rule
//   that decides in one decides in the other. A pair needs a rule that is new on its side, so the
//   pairs grow with the change rather than the files. (None counts as in both files.) The argument
//   holds per agent, so each selection of groups is checked only on the probes of its own pairs.
// * Reading back: a probe is a path on its own, except one starting with "//", which a URL reader
//   takes for a host ("//a" is host a, path /): that one is checked and reported behind
//   PROBE_ORIGIN. Every reported URL is the string that was checked, so `check` gives it the
//   reported verdicts.

import { agentTokens, fail, urlString } from './args.js'
import { decodeUtf8, utf8 } from './bytes.js'
import { namedGroups, R_ALLOW, RULE_STRIDE, rulePattern, selectRules, valueAgentToken, type ParsedRobots } from './parse.js'
import { indexHtmlPattern } from './reference.js'
import { matcherOver, type Matcher } from './matcher.js'
import { parseRobots, type Robots } from './robots.js'
import { getEngine } from './wasm.js'
import { compileRules } from './wasm-body.js'

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
  /**
   * The URL as given, or the probe made from the rules: a path, or behind http://probe.invalid when
   * the path starts with "//" (which alone would read as a host). `check` reads it as it was compared.
   */
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
  /** The agents compared. */
  agents: string[]
  /** How many URLs were made from the rules (or given); an agent is checked on those its own rules can change. */
  probes: number
  /** True when the rules would have yielded more than MAX_PROBES probes (or search steps past MAX_STEPS), or the changes more than MAX_CHANGES, and the rest were left out. */
  truncated: boolean
  /** Every verdict change, by agent, then in probe order. */
  changes: VerdictChange[]
}

const PROBE_ORIGIN = 'http://probe.invalid'

/** At most this many probe URLs per diff (every agent is checked on the same ones). */
export const MAX_PROBES = 200_000

/** At most this many changes per diff: many agents sharing a group of many changed rules multiply. */
export const MAX_CHANGES = 1_000_000

/** At most this many placement steps per diff: the search ends there even when it yields few probes. */
export const MAX_STEPS = 4_000_000

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
  // Each option read once: a getter read again could hand back a value never checked (a string as
  // urls became one URL per character).
  const givenAgents: unknown = options?.agents
  const givenUrls: unknown = options?.urls
  const asked = givenAgents === undefined ? defaultAgents(before, after) : agentList(givenAgents)
  const agents = asked.map((a) => (typeof a === 'string' ? a : a[0]!))
  // Agents that select the same groups in both files get the same verdicts everywhere (selectRules):
  // each selection is probed and checked once, through its first agent, however many share it. One
  // whose rules are the same on both sides (by kind and pattern: lines never change a verdict)
  // cannot change, and costs no matcher at all.
  const selections = new Map<string, Selection | null>()
  const selectionOf = asked.map((agent, i) => {
    const tokens = agentTokens(agent, `options.agents[${i}]`)
    const key = `${namedGroups(before.parsed, tokens).join(',')}|${namedGroups(after.parsed, tokens).join(',')}`
    if (!selections.has(key)) {
      const was = decidingRules(before.parsed, tokens)
      const is = decidingRules(after.parsed, tokens)
      const same = was.size === is.size && [...was.keys()].every((k) => is.has(k))
      selections.set(key, same ? null : { tokens, was, is })
    }
    return key
  })
  let urls: string[]
  let truncated = false
  // Per selection, the indexes of the URLs it is checked on: the probes of its own pairs of rules,
  // which hold every change it has; or every URL of a given list.
  let checkedOn: (key: string) => readonly number[]
  if (givenUrls === undefined) {
    const made = probesOf(before.parsed, after.parsed, selections)
    ;({ urls, truncated } = made)
    checkedOn = (key) => made.of.get(key) ?? []
  } else {
    if (!Array.isArray(givenUrls)) fail('options.urls', 'an array of strings or URLs', givenUrls)
    // Array.from, not map: a hole is an element too, and map would skip it unchecked.
    urls = Array.from(givenUrls as unknown[], (u, i) => urlString(u, `options.urls[${i}]`))
    const all = urls.map((_, i) => i)
    checkedOn = () => all
  }
  const was = new Int32Array(urls.length)
  const is = new Int32Array(urls.length)
  // Per selection, once its first agent comes: the URLs whose verdict changes, as [index, old,
  // new] in a row. Checked on demand, so a diff cut at MAX_CHANGES checks no further selection.
  const changed = new Map<string, number[]>()
  const changesOf = (key: string): number[] => {
    let list = changed.get(key)
    if (list !== undefined) return list
    list = []
    changed.set(key, list)
    const selection = selections.get(key)!
    if (selection === null) return list
    const at = checkedOn(key)
    const some = at.length === urls.length ? urls : at.map((i) => urls[i]!)
    matcherOf(before.parsed, selection.tokens).checkMany(some, was)
    matcherOf(after.parsed, selection.tokens).checkMany(some, is)
    // checkMany: the line when allowed, minus the line when disallowed (a disallow has a line).
    for (let j = 0; j < at.length; j++) if (was[j]! < 0 !== is[j]! < 0) list.push(at[j]!, was[j]!, is[j]!)
    return list
  }
  const changes: VerdictChange[] = []
  outer: for (let k = 0; k < agents.length; k++) {
    const list = changesOf(selectionOf[k]!)
    for (let j = 0; j < list.length; j += 3) {
      if (changes.length === MAX_CHANGES) {
        truncated = true
        break outer
      }
      changes.push({ agent: agents[k]!, url: urls[list[j]!]!, old: verdict(list[j + 1]!), new: verdict(list[j + 2]!) })
    }
  }
  return { agents, probes: urls.length, truncated, changes }
}

function verdict(r: number): { allowed: boolean; line: number } {
  return { allowed: r >= 0, line: Math.abs(r) }
}

function agentList(agents: unknown): (string | readonly string[])[] {
  if (!Array.isArray(agents) || agents.length === 0) fail('options.agents', 'a non-empty array of user-agent strings', agents)
  // Array.from, not map: a hole is an element too, and map would skip it unchecked.
  return Array.from(agents as unknown[], (a, i) => {
    if (typeof a === 'string' && a !== '') return a
    if (!Array.isArray(a)) return fail(`options.agents[${i}]`, 'a user-agent string or an array of them', a)
    // A copy, checked: its elements are read again for the tokens and the agent's name.
    const copy = Array.from(a as unknown[])
    agentTokens(copy, `options.agents[${i}]`)
    return copy as string[]
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

/** A pattern as the matcher reads it: literal segments between `*`s and where they are held. */
interface Shape {
  segments: string[]
  /** The first segment starts the path. */
  start: boolean
  /** The last segment ends the path (a final `$` after a segment). */
  end: boolean
}

const NONE: Shape = { segments: [], start: false, end: false }

function shapeOf(pattern: string): Shape {
  const anchored = pattern.endsWith('$')
  const parts = (anchored ? pattern.slice(0, -1) : pattern).split('*')
  const segments = parts.filter((s) => s !== '')
  return { segments, start: parts[0] !== '', end: anchored && parts[parts.length - 1] !== '' }
}

/** A rule that can decide a verdict, keyed by its kind and escaped pattern. */
interface DecidingRule {
  key: string
  disallow: boolean
  /** Its escaped pattern (ASCII: every byte >= 0x80 became `%XX`). */
  pattern: string
}

/** The deciding rules of one agent (and of every other agent that selects the same groups). */
interface Selection {
  tokens: string[]
  was: Map<string, DecidingRule>
  is: Map<string, DecidingRule>
}

/**
 * The matcher of `tokens` compiled from the parsed form: only the selected rules are read, where
 * `Robots.matcher` passes over the whole body (as it does for bodies too large for wasm memory).
 * A diff of many agents, each in its own group, then costs each one its own rules.
 */
function matcherOf(parsed: ParsedRobots, tokens: readonly string[]): Matcher {
  return matcherOver(compileRules(getEngine(), parsed, selectRules(parsed, tokens).rules))
}

/** A rule's pattern, and for an allow the index.html rule's pattern when it has one. */
function shapesOf(rule: DecidingRule): Shape[] {
  const shapes = [shapeOf(rule.pattern)]
  const derived = rule.disallow ? null : indexHtmlPattern(utf8(rule.pattern))
  if (derived !== null) shapes.push(shapeOf(decodeUtf8(derived)))
  return shapes
}

/**
 * The rules that decide for `tokens` (the groups selectRules picks), by key. The empty pattern
 * never decides a verdict and matches every path, and a pattern starting with neither '/' nor '*'
 * never matches: neither needs probes of its own.
 */
function decidingRules(parsed: ParsedRobots, tokens: readonly string[]): Map<string, DecidingRule> {
  const out = new Map<string, DecidingRule>()
  for (const r of selectRules(parsed, tokens).rules) {
    const [bytes, s, e] = rulePattern(parsed, r)
    if (e === s || (bytes[s] !== 0x2f && bytes[s] !== 0x2a)) continue
    const disallow = parsed.rules[r * RULE_STRIDE + R_ALLOW] !== 1
    const pattern = decodeUtf8(bytes, s, e)
    const key = (disallow ? 'd' : 'a') + pattern
    if (!out.has(key)) out.set(key, { key, disallow, pattern })
  }
  return out
}

/** A byte in no pattern of either file, no hex digit and not `%`; letters first, for readable probes. */
function neutralByte(a: ParsedRobots, b: ParsedRobots): string {
  const used = new Uint8Array(128)
  for (const parsed of [a, b]) {
    for (let r = 0; r * RULE_STRIDE < parsed.rules.length; r++) {
      const [bytes, s, e] = rulePattern(parsed, r)
      for (let i = s; i < e; i++) used[bytes[i]!] = 1
    }
  }
  for (const c of 'zqxjkwvyZQXJKWVY~_!-') if (used[c.charCodeAt(0)] === 0) return c
  for (let c = 0x21; c < 0x7f; c++) {
    if (used[c] === 0 && !/[0-9A-Fa-f%#/?;$*]/.test(String.fromCharCode(c))) return String.fromCharCode(c)
  }
  // A '*' in a pattern is a wildcard, never a literal byte of a segment.
  return '*'
}

/**
 * The probe URLs of every pair of deciding rules that can change a verdict, and per selection of
 * groups (by key) the indexes of those its own pairs made, in order.
 */
function probesOf(a: ParsedRobots, b: ParsedRobots, selections: ReadonlyMap<string, Selection | null>): { urls: string[]; of: Map<string, number[]>; truncated: boolean } {
  const z = neutralByte(a, b)
  const index = new Map<string, number>()
  const urls: string[] = []
  const of = new Map<string, number[]>()
  // The probes of each pair, made once for all the selections that share it.
  const pairProbes = new Map<string, number[]>()
  const budget = { steps: MAX_STEPS }
  const full = (): boolean => urls.length >= MAX_PROBES || budget.steps <= 0
  for (const [key, selection] of selections) {
    if (selection === null) continue
    const { was, is } = selection
    const own = new Set<number>()
    // R decides the old verdict and S the new one: one disallows, the other allows (or is none),
    // and R is gone from the new file or S added to it.
    const [gone, kept] = split([...was.values()], (r) => !is.has(r.key))
    const [added, stays] = split([...is.values()], (s) => !was.has(s.key))
    const allowing = (rules: DecidingRule[], none: boolean): (DecidingRule | null)[] => [...(none ? [null] : []), ...rules.filter((r) => !r.disallow)]
    const disallowing = (rules: DecidingRule[]): DecidingRule[] => rules.filter((r) => r.disallow)
    const pairs: [(DecidingRule | null)[], (DecidingRule | null)[]][] = [
      [allowing(gone, false), disallowing([...added, ...stays])],
      [allowing(kept, true), disallowing(added)],
      [disallowing(gone), allowing([...added, ...stays], true)],
      [disallowing(kept), allowing(added, false)],
    ]
    for (const [rs, ss] of pairs) {
      for (const r of rs) {
        for (const s of ss) {
          if (full()) break
          budget.steps--
          const pairKey = `${r?.key ?? ''}\u0000${s?.key ?? ''}`
          let made = pairProbes.get(pairKey)
          if (made === undefined) {
            const list: number[] = []
            const emit = (q: string): boolean => {
              const url = q.startsWith('//') ? PROBE_ORIGIN + q : q
              let i = index.get(url)
              if (i === undefined) {
                i = urls.push(url) - 1
                index.set(url, i)
              }
              list.push(i)
              return !full()
            }
            for (const x of r === null ? [NONE] : shapesOf(r)) for (const y of s === null ? [NONE] : shapesOf(s)) placements(x, y, z, budget, emit)
            pairProbes.set(pairKey, (made = list))
          }
          for (const i of made) own.add(i)
        }
      }
    }
    of.set(key, [...own].sort((x, y) => x - y))
  }
  return { urls, of, truncated: full() }
}

/** The elements that pass `test`, then the others. */
function split<T>(xs: T[], test: (x: T) => boolean): [T[], T[]] {
  const yes: T[] = []
  const no: T[] = []
  for (const x of xs) (test(x) ? yes : no).push(x)
  return [yes, no]
}

/**
 * Every path on which `x` and `y` match with each byte covered by a segment of either (or the
 * leading '/'), except single z bytes between and after them. Segments are placed in the order of
 * their starts, so each path comes from few placements. `emit` returns false to stop.
 */
function placements(x: Shape, y: Shape, z: string, budget: { steps: number }, emit: (path: string) => boolean): void {
  const shapes = [x, y]
  // Per shape: segments placed so far, and the end of its last placed segment.
  const next = [0, 0]
  const cursor = [0, 0]
  let stop = false
  const done = (k: number): boolean => next[k] === shapes[k]!.segments.length
  // An anchored shape whose last segment is placed holds the path's end there.
  const ended = (path: string): boolean => shapes.some((s, k) => s.end && done(k) && cursor[k] !== path.length)
  const visit = (path: string, lastStart: number): void => {
    if (stop) return
    if (--budget.steps < 0) {
      stop = true
      return
    }
    if (done(0) && done(1)) {
      if (!ended(path)) stop = !emit(path)
      if (!stop && !shapes.some((s) => s.end)) stop = !emit(path + z)
      return
    }
    for (let k = 0; k < 2 && !stop; k++) {
      if (done(k)) continue
      const shape = shapes[k]!
      const seg = shape.segments[next[k]!]!
      const from = Math.max(cursor[k]!, lastStart)
      const held = next[k] === 0 && shape.start
      const last = held ? 0 : path.length + 1
      for (let pos = from; pos <= last && !stop; pos++) {
        let grown: string
        if (pos > path.length) grown = path + z + seg
        else {
          const overlap = Math.min(seg.length, path.length - pos)
          if (path.slice(pos, pos + overlap) !== seg.slice(0, overlap)) continue
          grown = path + seg.slice(overlap)
        }
        const saved = cursor[k]!
        next[k]!++
        cursor[k] = pos + seg.length
        if (!ended(grown)) visit(grown, pos)
        next[k]!--
        cursor[k] = saved
      }
    }
  }
  visit('/', 0)
}
