// The robots.txt parser's host half (RFC 9309 2.2; Google's ParseRobotsTxt): the line records of a
// scan in (scanner.ts), groups, rules, sitemaps and the indexes accessors repeat out. The records come
// from the wasm scanner (assembly/scanner.ts, through Engine.scan) for every body, or from its
// TypeScript twin `scanBodyTs`; either way one record format (SCAN_* in layout.ts) feeds one Builder,
// so the group logic of RFC 9309 2.2.1 (Google's RobotsMatcher::HandleUserAgent) exists once, in
// GroupTracker, which the per-line report (line-report.ts) and the outline (outline.ts) follow too.
//
// Never throws on content: every byte sequence is a valid input. Every step is linear in the body:
// agent lists are deduplicated through sets, and the lookups that accessors repeat (the groups of
// an agent token, the global groups, each group's crawl-delay) are indexed once while building.

import { escapeBytes, textReader, type TextReader } from './bytes.js'
import {
  KIND_ALLOW, KIND_DISALLOW, KIND_MASK, KIND_OTHER, KIND_SITEMAP, KIND_USER_AGENT, SCAN_F_ESCAPE, SCAN_F_GLOBAL,
  SCAN_KIND, SCAN_RECORD_SIZE, SCAN_VAL_END, SCAN_VAL_START,
} from './layout.js'
import { scanBodyTs, type LineSink, type Scanner } from './scanner.js'

/** A run of user-agent lines and the rules after it (RFC 9309 2.2.1; Google's RobotsMatcher::HandleUserAgent). */
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

/** Fields of one rule in `ParsedRobots.rules` (flat, RULE_STRIDE numbers per rule). */
export const R_ALLOW = 0 // 1 allow, 0 disallow
export const R_LINE = 1
export const R_GROUP = 2
export const R_START = 3 // value as written: body[start, end)
export const R_END = 4
export const R_ESC = 5 // index into `escaped`, or -1 when escaping changed nothing
export const RULE_STRIDE = 6

export interface ParsedRobots {
  /** The body after the size cut. */
  body: Uint8Array
  groups: Group[]
  /** Allow/disallow lines inside groups, in file order (see R_* for the layout). */
  rules: number[]
  /** Escaped patterns that differ from the text as written. */
  escaped: Uint8Array[]
  sitemaps: readonly string[]
  /** For each agent token named in the file, the groups naming it, in file order. */
  agentGroups: Map<string, number[]>
  /** The groups with a `User-agent: *` line, in file order. */
  globalGroups: number[]
  /** Per group, its first valid Crawl-delay in seconds; -1 when it has none. */
  crawlDelays: number[]
  /** Number of lines, counting the final one. */
  lineCount: number
}

/** RFC 9309 2.2.1; Google's RobotsMatcher::HandleUserAgent: the end of the longest prefix of body[start, end) made of A-Z a-z - _. */
function agentTokenEnd(body: Uint8Array, start: number, end: number): number {
  let e = start
  while (e < end) {
    const c = body[e]! | 0x20
    if ((c >= 0x61 && c <= 0x7a) || body[e] === 0x2d || body[e] === 0x5f) e++
    else break
  }
  return e
}

/** The token of a user-agent value already decoded (as the report and explain show it). */
export function valueAgentToken(value: string): string {
  let e = 0
  while (e < value.length) {
    const c = value.charCodeAt(e) | 0x20
    if ((c >= 0x61 && c <= 0x7a) || value[e] === '-' || value[e] === '_') e++
    else break
  }
  return value.slice(0, e).toLowerCase()
}

const CRAWL_DELAY_KEY = 'crawl-delay'
const CRAWL_DELAY_VALUE = /^[0-9]+(\.[0-9]+)?$/

/** The key body[start, end) is "crawl-delay", ASCII case-insensitively. */
function isCrawlDelayKey(body: Uint8Array, start: number, end: number): boolean {
  if (end - start !== CRAWL_DELAY_KEY.length) return false
  for (let i = 0; i < CRAWL_DELAY_KEY.length; i++) {
    const c = body[start + i]!
    if ((c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== CRAWL_DELAY_KEY.charCodeAt(i)) return false
  }
  return true
}

/**
 * RFC 9309 2.2.1; Google's RobotsMatcher::HandleUserAgent: which group a line stands in. A
 * user-agent line starts a new group unless it follows the user-agent lines of a group that has no
 * rules yet; a rule before any user-agent line stands in none. The Builder and the per-line report
 * both follow it, so the group boundaries are decided in one place.
 */
export class GroupTracker {
  /** Index of the group the last line stands in, -1 before the first user-agent line. */
  current = -1
  #hasRules = false

  /** Advances over one line of `kind` (KIND_*); true when that line starts a new group. */
  line(kind: number): boolean {
    if (kind === KIND_USER_AGENT) {
      if (this.current >= 0 && !this.#hasRules) return false
      this.current++
      this.#hasRules = false
      return true
    }
    if ((kind === KIND_ALLOW || kind === KIND_DISALLOW) && this.current >= 0) this.#hasRules = true
    return false
  }
}

/**
 * Sitemap URLs in file order, exact duplicates dropped: what `Robots.sitemaps` returns. On an ASCII
 * body the text is the bytes, so duplicates are found by a hash of the bytes in an open-addressing
 * table of numbers: hashing thousands of freshly sliced strings in a Set cost more than the scan.
 * The hash is not seeded, so a file could be made of colliding URLs: past a budget of probes (a few
 * per URL) the collector moves to a Set, whose hash the engine seeds. Any other body compares
 * decoded text from the start (two invalid sequences can decode to the same URL).
 */
export class SitemapCollector {
  readonly urls: string[] = []
  #seen: Set<string> | null
  /** Index + 1 into `urls` per slot, 0 when free; kept at most half full. */
  #slots = new Int32Array(64)
  readonly #hashes: number[] = []
  #probes = 0

  constructor(private readonly body: Uint8Array, private readonly reader: TextReader) {
    this.#seen = reader.ascii ? null : new Set()
  }

  /** The sitemap line whose value is body[start, end). */
  add(start: number, end: number): void {
    const url = this.reader.text(start, end)
    if (this.#seen !== null) {
      if (this.#seen.has(url)) return
      this.#seen.add(url)
      this.urls.push(url)
      return
    }
    // FNV-1a over the bytes.
    const body = this.body
    let h = 0x811c9dc5
    for (let i = start; i < end; i++) h = Math.imul(h ^ body[i]!, 0x01000193)
    const mask = this.#slots.length - 1
    let slot = h & mask
    for (let k = this.#slots[slot]!; k !== 0; k = this.#slots[slot]!) {
      if (this.#hashes[k - 1] === h && this.urls[k - 1] === url) return
      slot = (slot + 1) & mask
      this.#probes++
    }
    this.urls.push(url)
    this.#hashes.push(h)
    this.#slots[slot] = this.urls.length
    if (this.#probes > 4 * this.urls.length + 64) this.#seen = new Set(this.urls)
    else if (this.urls.length * 2 > mask) this.#grow()
  }

  #grow(): void {
    const slots = new Int32Array(this.#slots.length * 2)
    const mask = slots.length - 1
    for (let k = 1; k <= this.urls.length; k++) {
      let slot = this.#hashes[k - 1]! & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = k
    }
    this.#slots = slots
  }
}

/**
 * The sitemaps of a body from one scan that reads nothing else: no groups, rules or indexes are
 * built, so `Robots.sitemaps` costs the scan alone (the parsed form has them too, when it exists).
 * `source` is the string the body was encoded from, if any.
 */
export function scanSitemaps(body: Uint8Array, scan: Scanner, source?: string): string[] {
  const sitemaps = new SitemapCollector(body, textReader(body, source))
  scan(body, {
    line(_line, kindFlags, _lineStart, _lineEnd, _keyStart, _keyEnd, valStart, valEnd) {
      if ((kindFlags & KIND_MASK) === KIND_SITEMAP) sitemaps.add(valStart, valEnd)
    },
    records(w, at, count) {
      for (let r = 0; r < count; r++, at += SCAN_RECORD_SIZE / 4) {
        if ((w[at + SCAN_KIND / 4]! & KIND_MASK) === KIND_SITEMAP) sitemaps.add(w[at + SCAN_VAL_START / 4]!, w[at + SCAN_VAL_END / 4]!)
      }
    },
  })
  return sitemaps.urls
}

/**
 * The agents of each group and the index from agent token to groups (RFC 9309 2.2.1; Google's
 * RobotsMatcher::HandleUserAgent), fed the user-agent lines in file order. The parsed form's
 * indexes and the directives' agent lists both come from here.
 */
export class AgentIndex {
  /** For each agent token named in the file, the groups naming it, in file order; null when not asked for. */
  readonly agentGroups: Map<string, number[]> | null
  /** The groups with a `User-agent: *` line, in file order. */
  readonly globalGroups: number[] = []
  /** Per group fed so far, its agent tokens (lower-cased, each once, empty tokens left out). */
  readonly agents: string[][] = []
  /** Without the token index: the tokens of the current group once it has two, to drop repeats. */
  #seen: Set<string> | null = null

  constructor(private readonly body: Uint8Array, private readonly reader: TextReader, indexed = true) {
    this.agentGroups = indexed ? new Map() : null
  }

  /** A user-agent line of group `g` (groups come in increasing order), its value body[valStart, valEnd). */
  add(g: number, kindFlags: number, valStart: number, valEnd: number): void {
    // Groups the caller skips stay holes: nothing reads them.
    const agents = this.agents[g]
    if (agents === undefined) this.#seen = null
    if (kindFlags & SCAN_F_GLOBAL) {
      if (agents === undefined) this.agents[g] = []
      if (this.globalGroups[this.globalGroups.length - 1] !== g) this.globalGroups.push(g)
      return
    }
    const tokenEnd = agentTokenEnd(this.body, valStart, valEnd)
    if (tokenEnd === valStart) {
      if (agents === undefined) this.agents[g] = []
      return
    }
    // Only ASCII letters, '-' and '_': toLowerCase is exact here.
    const token = this.reader.text(valStart, tokenEnd).toLowerCase()
    const index = this.agentGroups
    if (index !== null) {
      // A token already in this group is the last entry of its list: a repeat costs one lookup.
      const list = index.get(token)
      if (list !== undefined && list[list.length - 1] === g) return
      if (list === undefined) index.set(token, [g])
      else list.push(g)
    } else if (agents !== undefined && agents.length > 0) {
      // Most groups name one agent: only a second one needs a set to find repeats.
      const seen = (this.#seen ??= new Set(agents))
      if (seen.has(token)) return
      seen.add(token)
    }
    // Most groups name one agent: a list made with its token has room for one, where a list grown
    // from empty by a push has room for 17 (V8), which files of thousands of groups paid for.
    if (agents === undefined) this.agents[g] = [token]
    else agents.push(token)
  }
}

/**
 * Builds groups, rules, sitemaps and the indexes from a scan's records, in file order
 * (RFC 9309 2.2.1; Google's RobotsMatcher::HandleUserAgent: a user-agent line after a rule starts a new group; rules before any user-agent
 * line apply to nobody).
 */
export class Builder implements LineSink {
  readonly groups: Group[] = []
  readonly rules: number[] = []
  readonly escaped: Uint8Array[] = []
  readonly crawlDelays: number[] = []
  private readonly reader: TextReader
  private readonly sitemapList: SitemapCollector
  private readonly agents: AgentIndex
  private readonly tracker = new GroupTracker()
  private group: Group | null = null
  private lines = 0

  /** `source`: the string the body was encoded from, if any. */
  constructor(readonly body: Uint8Array, source?: string) {
    this.reader = textReader(body, source)
    this.sitemapList = new SitemapCollector(body, this.reader)
    this.agents = new AgentIndex(body, this.reader)
  }

  line(line: number, kindFlags: number, _lineStart: number, _lineEnd: number, keyStart: number, keyEnd: number, valStart: number, valEnd: number): void {
    this.lines = line
    const kind = kindFlags & KIND_MASK
    const body = this.body
    const starts = this.tracker.line(kind)
    if (kind === KIND_USER_AGENT) {
      let group = this.group!
      const g = this.groups.length - (starts ? 0 : 1)
      this.agents.add(g, kindFlags, valStart, valEnd)
      if (starts) {
        const at = this.rules.length / RULE_STRIDE
        group = { global: false, agents: this.agents.agents[g]!, agentLines: [], ruleStart: at, ruleEnd: at }
        this.groups.push(group)
        this.crawlDelays.push(-1)
        this.group = group
      }
      group.agentLines.push(line)
      if (kindFlags & SCAN_F_GLOBAL) group.global = true
    } else if (kind === KIND_ALLOW || kind === KIND_DISALLOW) {
      const group = this.group
      if (group === null) return // before any user-agent line: applies to nobody
      let escIdx = -1
      if (kindFlags & SCAN_F_ESCAPE) {
        const esc = escapeBytes(body, valStart, valEnd)
        if (esc !== null) {
          escIdx = this.escaped.length
          this.escaped.push(esc)
        }
      }
      this.rules.push(kind === KIND_ALLOW ? 1 : 0, line, this.groups.length - 1, valStart, valEnd, escIdx)
      group.ruleEnd = this.rules.length / RULE_STRIDE
    } else if (kind === KIND_SITEMAP) {
      this.sitemapList.add(valStart, valEnd)
    } else if (kind === KIND_OTHER && this.group !== null) {
      const g = this.groups.length - 1
      if (this.crawlDelays[g]! < 0 && isCrawlDelayKey(body, keyStart, keyEnd)) {
        const value = this.reader.text(valStart, valEnd)
        if (CRAWL_DELAY_VALUE.test(value)) this.crawlDelays[g] = Number(value)
      }
    }
  }

  finish(): ParsedRobots {
    return {
      // Frozen: Robots.sitemaps hands this very list out.
      body: this.body, groups: this.groups, rules: this.rules, escaped: this.escaped, sitemaps: Object.freeze(this.sitemapList.urls),
      agentGroups: this.agents.agentGroups!, globalGroups: this.agents.globalGroups, crawlDelays: this.crawlDelays, lineCount: this.lines,
    }
  }
}

/** Parses a body (already cut to size) with `scan`; `source` is the string it was encoded from, if any. */
export function parseWith(body: Uint8Array, scan: Scanner, source?: string): ParsedRobots {
  const builder = new Builder(body, source)
  scan(body, builder)
  return builder.finish()
}

/** Parses a body (already cut to the size limit) with the TypeScript twin of the wasm scanner. */
export function parseBody(body: Uint8Array): ParsedRobots {
  return parseWith(body, scanBodyTs)
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

/** Indexes of the groups that name one of `tokens`, in file order. */
export function namedGroups(p: Pick<ParsedRobots, 'agentGroups'>, tokens: readonly string[]): number[] {
  if (tokens.length === 1) return p.agentGroups.get(tokens[0]!) ?? []
  const named = new Set<number>()
  for (const t of tokens) for (const g of p.agentGroups.get(t) ?? []) named.add(g)
  return [...named].sort((a, b) => a - b)
}

/**
 * The Crawl-delay of `tokens` from the parsed form: the first valid value in the groups naming
 * them, else in the global groups. The twin of the wasm pass (assembly/compiler.ts, crawlDelay),
 * used for bodies too large for wasm memory.
 */
export function parsedCrawlDelay(p: ParsedRobots, tokens: readonly string[]): number | undefined {
  const named = namedGroups(p, tokens)
  for (const g of named.length > 0 ? named : p.globalGroups) {
    const delay = p.crawlDelays[g]!
    if (delay >= 0) return delay
  }
  return undefined
}

/**
 * RFC 9309 2.2.1-2.2.2; Google's RobotsMatcher: the one rule set that decides for these agents, in file order: the rules of the
 * groups naming them when any does (the global groups are then ignored), else of the global groups.
 */
export function selectRules(p: ParsedRobots, tokens: readonly string[]): { named: boolean; groups: readonly number[]; rules: number[] } {
  const namedList = namedGroups(p, tokens)
  const named = namedList.length > 0
  const groups = named ? namedList : p.globalGroups
  const rules: number[] = []
  for (const g of groups) {
    const grp = p.groups[g]!
    for (let r = grp.ruleStart; r < grp.ruleEnd; r++) rules.push(r)
  }
  return { named, groups, rules }
}

