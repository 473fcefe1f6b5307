// The reference matcher: readable first, fast never. It follows Google's C++ RobotsMatcher step by
// step (file-order rule handling, the position-set `Matches`, the index.html retry) and shares only
// the parser with the fast path. Tests hold the wasm matcher to it; it is not used at run time.

import { escapeBytes } from './bytes.js'
import { R_ALLOW, R_LINE, RULE_STRIDE, rulePattern, type ParsedRobots } from './parse.js'

/** SEMANTICS.md 1 then 8: normalize the whole URL's bytes, take the path, stop at a NUL. */
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
export function positionSetMatches(path: Uint8Array, pattern: Uint8Array): boolean {
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

interface Match {
  priority: number
  line: number
}

/** Verdict and matching line for `tokens` (lower-cased product tokens) and a URL's bytes. */
export function referenceCheck(parsed: ParsedRobots, tokens: readonly string[], url: Uint8Array): { allowed: boolean; line: number } {
  const path = referencePath(url)
  const allow = { specific: { priority: -1, line: 0 }, global: { priority: -1, line: 0 } }
  const disallow = { specific: { priority: -1, line: 0 }, global: { priority: -1, line: 0 } }
  let everSeenSpecific = false

  for (const group of parsed.groups) {
    const seenGlobal = group.global
    const seenSpecific = group.agents.some((a) => tokens.includes(a))
    if (seenSpecific) everSeenSpecific = true
    if (!seenGlobal && !seenSpecific) continue
    for (let r = group.ruleStart; r < group.ruleEnd; r++) {
      const [bytes, s, e] = rulePattern(parsed, r)
      const pattern = bytes.subarray(s, e)
      const line = parsed.rules[r * RULE_STRIDE + R_LINE]!
      const isAllow = parsed.rules[r * RULE_STRIDE + R_ALLOW] === 1
      const target = isAllow ? allow : disallow
      handle(isAllow, pattern, line, seenSpecific ? target.specific : target.global, path)
    }
  }

  let disallowed: boolean
  let decider: Match
  if (allow.specific.priority > 0 || disallow.specific.priority > 0) {
    disallowed = disallow.specific.priority > allow.specific.priority
  } else if (everSeenSpecific) {
    disallowed = false
  } else if (allow.global.priority > 0 || disallow.global.priority > 0) {
    disallowed = disallow.global.priority > allow.global.priority
  } else {
    disallowed = false
  }
  const set = everSeenSpecific ? 'specific' : 'global'
  decider = disallow[set].priority > allow[set].priority ? disallow[set] : allow[set]
  return { allowed: !disallowed, line: decider.line }
}

function handle(isAllow: boolean, pattern: Uint8Array, line: number, best: Match, path: Uint8Array): void {
  const priority = positionSetMatches(path, pattern) ? pattern.length : -1
  if (priority >= 0) {
    if (best.priority < priority) {
      best.priority = priority
      best.line = line
    }
    return
  }
  if (!isAllow) return
  // Google-specific: an allow of .../index.htm(l) also allows the directory itself.
  const slash = pattern.lastIndexOf(SLASH)
  if (slash < 0) return
  const tail = pattern.subarray(slash, slash + 10)
  if (String.fromCharCode(...tail) !== '/index.htm') return
  const derived = new Uint8Array(slash + 2)
  derived.set(pattern.subarray(0, slash + 1))
  derived[slash + 1] = 0x24
  handle(true, derived, line, best, path)
}
