// The robots.txt parser (SEMANTICS.md 2-6 and 11): bytes in, groups and rules out. It never throws
// on content: every byte sequence is a valid input, parsed as the reference parses it.

import { decodeUtf8, escapeBytes, isSpace } from './bytes.js'

/** Only the first 16,663 bytes of a line are kept (the reference's 2083 * 8 - 1 byte buffer). */
export const MAX_LINE_BYTES = 16663

export const KEY_USER_AGENT = 0
export const KEY_ALLOW = 1
export const KEY_DISALLOW = 2
export const KEY_SITEMAP = 3
export const KEY_OTHER = 4

/** A run of user-agent lines and the rules after it (SEMANTICS.md 6). */
export interface Group {
  /** Some user-agent line of the run is the global `*`. */
  global: boolean
  /** Lower-cased product tokens of the run's other user-agent lines (empty tokens left out). */
  agents: string[]
  /** Line numbers of the run's user-agent lines. */
  agentLines: number[]
  /** Its allow/disallow rules: indexes [ruleStart, ruleEnd) into `ParsedRobots.rules`. */
  ruleStart: number
  ruleEnd: number
}

/** One line of the per-line report (SEMANTICS.md 11), as `Robots.lines` returns it. */
export interface LineReport {
  /** Line number, from 1. */
  line: number
  /** What the line is: a directive kind, or `empty`, `comment` (only a comment) or `invalid` (text without a usable key and value). */
  type: 'empty' | 'comment' | 'invalid' | 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'other'
  /** The key as written (directives only). */
  key?: string
  /** The value as written, after trimming and comment removal (directives only). */
  value?: string
  /** The line has a `#` comment. */
  comment: boolean
  /** The key is an accepted misspelling (`useragent`, `dissallow`, `site-map`, ...). */
  typo: boolean
  /** Key and value were separated by whitespace instead of a colon. */
  missingColon: boolean
  /** The line was longer than 16,663 bytes; the rest was ignored. */
  tooLong: boolean
  /** An allow/disallow line before any user-agent line: it applies to nobody. */
  outsideGroup: boolean
  /** An allow/disallow pattern that can never match (non-empty, starts with neither `/` nor `*`). */
  neverMatches: boolean
  /** Index of the group the line stands in, -1 outside any group. */
  group: number
}

/** Fields of one rule in `ParsedRobots.rules` (flat, RULE_STRIDE numbers per rule). */
export const R_ALLOW = 0 // 1 allow, 0 disallow
export const R_LINE = 1
export const R_GROUP = 2
export const R_START = 3 // value as written: body[start, end)
export const R_END = 4
export const R_ESC = 5 // index into `escaped`, or -1 when escaping changed nothing
export const RULE_STRIDE = 6

/** Fields of one other-key line in `ParsedRobots.others` (flat, OTHER_STRIDE numbers each). */
export const O_LINE = 0
export const O_GROUP = 1
export const O_KEY_START = 2
export const O_KEY_END = 3
export const O_VAL_START = 4
export const O_VAL_END = 5
export const OTHER_STRIDE = 6

export interface ParsedRobots {
  /** The body after the size cut. */
  body: Uint8Array
  groups: Group[]
  /** Allow/disallow lines inside groups, in file order (see R_* for the layout). */
  rules: number[]
  /** Escaped patterns that differ from the text as written. */
  escaped: Uint8Array[]
  sitemaps: string[]
  /** Other-key lines (crawl-delay, host, ...) in file order (see O_* for the layout). */
  others: number[]
  /** Number of lines, counting the final one. */
  lineCount: number
  /** The per-line report, when asked for. */
  report: LineReport[] | null
}

// Lower-case key prefixes (SEMANTICS.md 4).
const P_USER_AGENT = bytesOf('user-agent')
const P_USER_AGENT_TYPOS = [bytesOf('useragent'), bytesOf('user agent')]
const P_ALLOW = bytesOf('allow')
const P_DISALLOW = bytesOf('disallow')
const P_DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'].map(bytesOf)
const P_SITEMAP = bytesOf('sitemap')
const P_SITEMAP_TYPOS = [bytesOf('site-map')]

function bytesOf(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0))
}

function startsWithIgnoreCase(body: Uint8Array, start: number, end: number, prefix: Uint8Array): boolean {
  if (end - start < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) {
    let c = body[start + i]!
    if (c >= 0x41 && c <= 0x5a) c += 0x20
    if (c !== prefix[i]) return false
  }
  return true
}

function anyPrefix(body: Uint8Array, start: number, end: number, prefixes: Uint8Array[]): boolean {
  for (const p of prefixes) if (startsWithIgnoreCase(body, start, end, p)) return true
  return false
}

let keyWasTypo = false

/** SEMANTICS.md 4: key kind by case-insensitive prefix; sets `keyWasTypo`. */
function classifyKey(body: Uint8Array, start: number, end: number): number {
  keyWasTypo = false
  if (startsWithIgnoreCase(body, start, end, P_USER_AGENT)) return KEY_USER_AGENT
  if (anyPrefix(body, start, end, P_USER_AGENT_TYPOS)) {
    keyWasTypo = true
    return KEY_USER_AGENT
  }
  if (startsWithIgnoreCase(body, start, end, P_ALLOW)) return KEY_ALLOW
  if (startsWithIgnoreCase(body, start, end, P_DISALLOW)) return KEY_DISALLOW
  if (anyPrefix(body, start, end, P_DISALLOW_TYPOS)) {
    keyWasTypo = true
    return KEY_DISALLOW
  }
  if (startsWithIgnoreCase(body, start, end, P_SITEMAP)) return KEY_SITEMAP
  if (anyPrefix(body, start, end, P_SITEMAP_TYPOS)) {
    keyWasTypo = true
    return KEY_SITEMAP
  }
  return KEY_OTHER
}

/** SEMANTICS.md 6: `*` alone or followed by space, tab, \v or \f. */
function isGlobalAgent(body: Uint8Array, start: number, end: number): boolean {
  if (end - start < 1 || body[start] !== 0x2a) return false
  if (end - start === 1) return true
  const c = body[start + 1]!
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c
}

/** SEMANTICS.md 6: the longest prefix made of A-Z a-z - _, lower-cased. */
function agentToken(body: Uint8Array, start: number, end: number): string {
  let e = start
  while (e < end) {
    const c = body[e]! | 0x20
    if ((c >= 0x61 && c <= 0x7a) || body[e] === 0x2d || body[e] === 0x5f) e++
    else break
  }
  // Only ASCII letters, '-' and '_': toLowerCase is exact here.
  return e === start ? '' : String.fromCharCode.apply(null, body.subarray(start, e) as unknown as number[]).toLowerCase()
}

function bomLength(body: Uint8Array): number {
  let i = 0
  while (i < 3 && i < body.length && body[i] === [0xef, 0xbb, 0xbf][i]) i++
  return i
}

/**
 * Builds groups, rules, sitemaps and other lines from directive lines, in file order. Fed by the
 * TS line splitter below (parseBody) and by the wasm line scanner (its records), so the group
 * logic of SEMANTICS.md 6 exists once.
 */
export class Builder {
  readonly groups: Group[] = []
  readonly rules: number[] = []
  readonly escaped: Uint8Array[] = []
  readonly sitemaps: string[] = []
  readonly others: number[] = []
  private readonly seenSitemaps = new Set<string>()
  private group: Group | null = null

  constructor(readonly body: Uint8Array) {}

  /** Index of the group the last line stands in, -1 before the first user-agent line. */
  get currentGroup(): number {
    return this.group === null ? -1 : this.groups.length - 1
  }

  /**
   * One directive line. `global`: a user-agent value that is the global `*`. `mayEscape`: the
   * value may need escaping (false only when it has neither '%' nor a byte >= 0x80).
   */
  directive(line: number, kind: number, global: boolean, mayEscape: boolean, keyStart: number, keyEnd: number, valStart: number, valEnd: number): void {
    const body = this.body
    if (kind === KEY_USER_AGENT) {
      let group = this.group
      if (group === null || group.ruleEnd > group.ruleStart) {
        const at = this.rules.length / RULE_STRIDE
        group = { global: false, agents: [], agentLines: [], ruleStart: at, ruleEnd: at }
        this.groups.push(group)
        this.group = group
      }
      group.agentLines.push(line)
      if (global) group.global = true
      else {
        const token = agentToken(body, valStart, valEnd)
        if (token !== '' && !group.agents.includes(token)) group.agents.push(token)
      }
    } else if (kind === KEY_ALLOW || kind === KEY_DISALLOW) {
      const group = this.group
      if (group === null) return // before any user-agent line: applies to nobody
      let escIdx = -1
      if (mayEscape) {
        const esc = escapeBytes(body, valStart, valEnd)
        if (esc !== null) {
          escIdx = this.escaped.length
          this.escaped.push(esc)
        }
      }
      this.rules.push(kind === KEY_ALLOW ? 1 : 0, line, this.groups.length - 1, valStart, valEnd, escIdx)
      group.ruleEnd = this.rules.length / RULE_STRIDE
    } else if (kind === KEY_SITEMAP) {
      const url = decodeUtf8(body, valStart, valEnd)
      if (!this.seenSitemaps.has(url)) {
        this.seenSitemaps.add(url)
        this.sitemaps.push(url)
      }
    } else {
      this.others.push(line, this.currentGroup, keyStart, keyEnd, valStart, valEnd)
    }
  }

  finish(lineCount: number, report: LineReport[] | null): ParsedRobots {
    return { body: this.body, groups: this.groups, rules: this.rules, escaped: this.escaped, sitemaps: this.sitemaps, others: this.others, lineCount, report }
  }
}

/** Record layout of the wasm line scanner (assembly/index.ts, "Line scanner"). */
export const SCAN_RECORD_WORDS = 6
const SCAN_GLOBAL = 16 << 8
const SCAN_ESCAPE = 32 << 8

/** Feeds `count` scanner records (u32 words from `at`) to the builder. */
export function buildFromRecords(builder: Builder, words: Uint32Array, at: number, count: number): void {
  for (let r = 0; r < count; r++, at += SCAN_RECORD_WORDS) {
    const flags = words[at + 1]!
    builder.directive(words[at]!, flags & 0xff, (flags & SCAN_GLOBAL) !== 0, (flags & SCAN_ESCAPE) !== 0, words[at + 2]!, words[at + 3]!, words[at + 4]!, words[at + 5]!)
  }
}

/**
 * Parses a robots.txt body (already cut to the size limit). With `withReport`, also builds the
 * per-line report; the matcher's path leaves it off.
 */
export function parseBody(body: Uint8Array, withReport = false): ParsedRobots {
  const builder = new Builder(body)
  const report: LineReport[] | null = withReport ? [] : null
  let lineNo = 0
  const n = body.length
  let i = bomLength(body)

  for (;;) {
    let j = i
    while (j < n) {
      const c = body[j]!
      if (c === 0x0a || c === 0x0d) break
      j++
    }
    lineNo++

    // SEMANTICS.md 2: keep 16,663 bytes, then stop at the first NUL.
    let e = j - i > MAX_LINE_BYTES ? i + MAX_LINE_BYTES : j
    const tooLong = j - i > MAX_LINE_BYTES
    for (let k = i; k < e; k++) {
      if (body[k] === 0) {
        e = k
        break
      }
    }

    // SEMANTICS.md 3.
    let s = i
    let comment = false
    for (let k = s; k < e; k++) {
      if (body[k] === 0x23) {
        e = k
        comment = true
        break
      }
    }
    while (s < e && isSpace(body[s]!)) s++
    while (e > s && isSpace(body[e - 1]!)) e--

    let keyStart = -1
    let keyEnd = -1
    let valStart = -1
    let missingColon = false
    if (s < e) {
      let colon = -1
      for (let k = s; k < e; k++) {
        if (body[k] === 0x3a) {
          colon = k
          break
        }
      }
      if (colon >= 0) {
        keyStart = s
        keyEnd = colon
        while (keyEnd > keyStart && isSpace(body[keyEnd - 1]!)) keyEnd--
        valStart = colon + 1
      } else {
        // No colon: exactly two runs of non-space/tab, separated by spaces/tabs.
        let sep = -1
        for (let k = s; k < e; k++) {
          const c = body[k]!
          if (c === 0x20 || c === 0x09) {
            sep = k
            break
          }
        }
        if (sep >= 0) {
          let v = sep
          while (v < e && (body[v] === 0x20 || body[v] === 0x09)) v++
          let more = false
          for (let k = v; k < e; k++) {
            const c = body[k]!
            if (c === 0x20 || c === 0x09) {
              more = true
              break
            }
          }
          if (!more) {
            keyStart = s
            keyEnd = sep
            valStart = sep + 1
            missingColon = true
          }
        }
      }
      if (keyEnd <= keyStart) keyStart = -1
      else while (valStart < e && isSpace(body[valStart]!)) valStart++
    }

    if (keyStart < 0) {
      if (report) report.push(lineReport(lineNo, s < e ? 'invalid' : comment ? 'comment' : 'empty', comment, tooLong, builder.currentGroup))
    } else {
      const kind = classifyKey(body, keyStart, keyEnd)
      const typo = keyWasTypo
      builder.directive(lineNo, kind, kind === KEY_USER_AGENT && isGlobalAgent(body, valStart, e), true, keyStart, keyEnd, valStart, e)
      if (report) {
        const isRule = kind === KEY_ALLOW || kind === KEY_DISALLOW
        const r = lineReport(lineNo, KIND_NAMES[kind]!, comment, tooLong, builder.currentGroup)
        r.key = decodeUtf8(body, keyStart, keyEnd)
        r.value = decodeUtf8(body, valStart, e)
        r.typo = typo
        r.missingColon = missingColon
        r.outsideGroup = isRule && builder.currentGroup < 0
        r.neverMatches = isRule && e > valStart && body[valStart] !== 0x2f && body[valStart] !== 0x2a
        report.push(r)
      }
    }

    if (j >= n) break
    // SEMANTICS.md 2: \n, \r and \r\n are one break each.
    i = body[j] === 0x0d && j + 1 < n && body[j + 1] === 0x0a ? j + 2 : j + 1
  }

  return builder.finish(lineNo, report)
}

const KIND_NAMES: LineReport['type'][] = ['user-agent', 'allow', 'disallow', 'sitemap', 'other']

function lineReport(line: number, type: LineReport['type'], comment: boolean, tooLong: boolean, group: number): LineReport {
  return { line, type, comment, typo: false, missingColon: false, tooLong, outsideGroup: false, neverMatches: false, group }
}

/** The escaped pattern of rule `r` as [bytes, start, end). */
export function rulePattern(p: ParsedRobots, r: number): [Uint8Array, number, number] {
  const base = r * RULE_STRIDE
  const esc = p.rules[base + R_ESC]!
  if (esc >= 0) {
    const e = p.escaped[esc]!
    return [e, 0, e.length]
  }
  return [p.body, p.rules[base + R_START]!, p.rules[base + R_END]!]
}

/** Indexes of the groups that name one of `tokens`, and whether there were any. */
export function namedGroups(p: ParsedRobots, tokens: readonly string[]): number[] {
  const named: number[] = []
  for (let g = 0; g < p.groups.length; g++) {
    const agents = p.groups[g]!.agents
    for (let a = 0; a < agents.length; a++) {
      if (tokens.includes(agents[a]!)) {
        named.push(g)
        break
      }
    }
  }
  return named
}

/**
 * SEMANTICS.md 6-7: the one rule set that decides for these agents, in file order: the rules of the
 * groups naming them when any does (the global groups are then ignored), else of the global groups.
 */
export function selectRules(p: ParsedRobots, tokens: readonly string[]): { named: boolean; groups: number[]; rules: number[] } {
  let groups = namedGroups(p, tokens)
  const named = groups.length > 0
  if (!named) {
    groups = []
    for (let g = 0; g < p.groups.length; g++) if (p.groups[g]!.global) groups.push(g)
  }
  const rules: number[] = []
  for (const g of groups) {
    const grp = p.groups[g]!
    for (let r = grp.ruleStart; r < grp.ruleEnd; r++) rules.push(r)
  }
  return { named, groups, rules }
}
