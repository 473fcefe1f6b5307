// The reference matcher: readable first, fast never. It follows google/robotstxt's RobotsMatcher step
// by step (file-order rule handling, RobotsMatchStrategy::Matches on position sets, the index.html
// retry of HandleAllow) and shares only the parser with the wasm matcher. It returns the whole
// decision as a trace: the tests hold the wasm matcher to its verdicts, and `robotstxt explain`
// renders it. The decision is implemented nowhere else in TypeScript.

import { escapeBytes } from './bytes.js'
import { R_ALLOW, R_LINE, RULE_STRIDE, rulePattern, type ParsedRobots } from './parse.js'

/** our URL normalization, then Google's GetPathParamsQuery: normalize the whole URL's bytes, take the path, stop at a NUL. */
export function referencePath(url: Uint8Array): Uint8Array {
  const normalized = escapeBytes(url, 0, url.length) ?? url
  const path = pathParamsQuery(normalized)
  const nul = path.indexOf(0)
  return nul < 0 ? path : path.subarray(0, nul)
}

function indexOfAny(s: Uint8Array, chars: number[], from: number): number {
  for (let i = from; i < s.length; i++) if (chars.includes(s[i]!)) return i
  return -1
}

function indexOfSeq(s: Uint8Array, seq: number[], from: number): number {
  outer: for (let i = from; i + seq.length <= s.length; i++) {
    for (let k = 0; k < seq.length; k++) if (s[i + k] !== seq[k]) continue outer
    return i
  }
  return -1
}

const SLASH = 0x2f
const PATH_CHARS = [0x2f, 0x3f, 0x3b] // / ? ;
const ROOT = new Uint8Array([SLASH])

/** GetPathParamsQuery of the reference, on bytes. */
function pathParamsQuery(url: Uint8Array): Uint8Array {
  const searchStart = url.length >= 2 && url[0] === SLASH && url[1] === SLASH ? 2 : 0
  const earlyPath = indexOfAny(url, PATH_CHARS, searchStart)
  let protocolEnd = indexOfSeq(url, [0x3a, SLASH, SLASH], searchStart)
  if (earlyPath >= 0 && (protocolEnd < 0 || earlyPath < protocolEnd)) protocolEnd = -1
  protocolEnd = protocolEnd < 0 ? searchStart : protocolEnd + 3
  const pathStart = indexOfAny(url, PATH_CHARS, protocolEnd)
  if (pathStart < 0) return ROOT
  const hashPos = indexOfAny(url, [0x23], searchStart)
  if (hashPos >= 0 && hashPos < pathStart) return ROOT
  const pathEnd = hashPos < 0 ? url.length : hashPos
  const path = url.subarray(pathStart, pathEnd)
  if (url[pathStart] === SLASH) return path
  const withSlash = new Uint8Array(path.length + 1)
  withSlash[0] = SLASH
  withSlash.set(path, 1)
  return withSlash
}

/** RobotsMatchStrategy::Matches: the set of reachable path positions, pattern byte by byte. */
function positionSetMatches(path: Uint8Array, pattern: Uint8Array): boolean {
  const pathlen = path.length
  let pos = [0]
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern[p]!
    if (c === 0x24 && p + 1 === pattern.length) return pos[pos.length - 1] === pathlen
    if (c === 0x2a) {
      const from = pos[0]!
      pos = []
      for (let i = from; i <= pathlen; i++) pos.push(i)
    } else {
      const next: number[] = []
      for (const i of pos) if (i < pathlen && path[i] === c) next.push(i + 1)
      if (next.length === 0) return false
      pos = next
    }
  }
  return true
}

/** One rule of the groups that apply, as the reference saw it. */
export interface TracedRule {
  /** Index into `ParsedRobots.rules`. */
  rule: number
  line: number
  allow: boolean
  /** Its group names one of the agents (else it stands in a global group). */
  specific: boolean
  /** Byte length of the pattern when it matches the path (RFC 9309 2.2.2; Google's RobotsMatcher), -1 when it does not. */
  priority: number
  /** When the match came from the index.html rule (Google's RobotsMatcher::HandleAllow): the derived pattern. */
  indexHtml: Uint8Array | null
}

/** How the reference decided: everything `explain` shows, and the verdict the tests check. */
export interface DecisionTrace {
  /** The path the rules are matched against (our URL normalization, then Google's GetPathParamsQuery). */
  path: Uint8Array
  /** The groups whose rules were considered: each one naming an agent, and each global one. */
  groups: { index: number; specific: boolean }[]
  /** Some group names an agent: then only those groups' rules decide (the * groups are ignored). */
  specific: boolean
  /** Every rule of those groups, in file order, with its match. */
  rules: TracedRule[]
  /** The best allow and disallow of the deciding set: highest priority, earliest line on a tie. */
  bestAllow: TracedRule | null
  bestDisallow: TracedRule | null
  /** The rule on the matching line: the best disallow when strictly longer, else the best allow. */
  decidingRule: TracedRule | null
  allowed: boolean
  /** The matching line (RFC 9309 2.2.2; Google's RobotsMatcher), 0 when no rule matched. */
  line: number
}

/**
 * RobotsMatcher::AllowedByRobots, step by step: every group is visited in file order; a group that
 * names one of `tokens` (lower-cased product tokens) feeds the specific set, a `*` group the global
 * set, and each rule is matched on its own (the position-set Matches, and the index.html retry of
 * an allow). The specific set decides when any group named an agent, else the global set. A
 * priority of 0 (the empty pattern) matches but never decides.
 */
export function referenceTrace(parsed: ParsedRobots, tokens: readonly string[], url: Uint8Array): DecisionTrace {
  const path = referencePath(url)
  const groups: DecisionTrace['groups'] = []
  const rules: TracedRule[] = []
  let specific = false
  for (let g = 0; g < parsed.groups.length; g++) {
    const group = parsed.groups[g]!
    const names = group.agents.some((a) => tokens.includes(a))
    if (names) specific = true
    if (!group.global && !names) continue
    groups.push({ index: g, specific: names })
    for (let r = group.ruleStart; r < group.ruleEnd; r++) {
      const [bytes, s, e] = rulePattern(parsed, r)
      const allow = parsed.rules[r * RULE_STRIDE + R_ALLOW] === 1
      rules.push({ rule: r, line: parsed.rules[r * RULE_STRIDE + R_LINE]!, allow, specific: names, ...match(allow, bytes.subarray(s, e), path) })
    }
  }

  let bestAllow: TracedRule | null = null
  let bestDisallow: TracedRule | null = null
  for (const t of rules) {
    if (t.specific !== specific || t.priority < 0) continue
    // Only a strictly higher priority replaces the best, so the earliest line wins a tie.
    if (t.allow) {
      if (bestAllow === null || t.priority > bestAllow.priority) bestAllow = t
    } else if (bestDisallow === null || t.priority > bestDisallow.priority) bestDisallow = t
  }
  const allowP = bestAllow?.priority ?? -1
  const disallowP = bestDisallow?.priority ?? -1
  const allowed = Math.max(allowP, disallowP) > 0 ? !(disallowP > allowP) : true
  const decidingRule = disallowP > allowP ? bestDisallow : bestAllow
  return { path, groups, specific, rules, bestAllow, bestDisallow, decidingRule, allowed, line: decidingRule?.line ?? 0 }
}

/** Verdict and matching line for `tokens` (lower-cased product tokens) and a URL's bytes. */
export function referenceCheck(parsed: ParsedRobots, tokens: readonly string[], url: Uint8Array): { allowed: boolean; line: number } {
  const t = referenceTrace(parsed, tokens, url)
  return { allowed: t.allowed, line: t.line }
}

const INDEX_HTM = [0x2f, 0x69, 0x6e, 0x64, 0x65, 0x78, 0x2e, 0x68, 0x74, 0x6d] // "/index.htm"

/** A rule's match: its priority, and the derived pattern when the index.html rule matched. */
function match(allow: boolean, pattern: Uint8Array, path: Uint8Array): { priority: number; indexHtml: Uint8Array | null } {
  if (positionSetMatches(path, pattern)) return { priority: pattern.length, indexHtml: null }
  const derived = allow ? indexHtmlPattern(pattern) : null
  return derived !== null && positionSetMatches(path, derived) ? { priority: derived.length, indexHtml: derived } : { priority: -1, indexHtml: null }
}

/**
 * Google-specific (RobotsMatcher::HandleAllow): an allow of .../index.htm(l) that does not match
 * also allows the directory itself, as ".../$". The pattern tried then, or null when there is none.
 */
export function indexHtmlPattern(pattern: Uint8Array): Uint8Array | null {
  const slash = pattern.lastIndexOf(SLASH)
  if (slash < 0 || pattern.length - slash < INDEX_HTM.length) return null
  for (let i = 0; i < INDEX_HTM.length; i++) if (pattern[slash + i] !== INDEX_HTM[i]) return null
  const derived = new Uint8Array(slash + 2)
  derived.set(pattern.subarray(0, slash + 1))
  derived[slash + 1] = 0x24
  return derived
}
