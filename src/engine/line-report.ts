// The per-line report (`Robots.lines`, `Robots.forEachLine`, lint, the playground): for each line of
// a scan, its kind, key, value, flags and group, as a fresh LineReport. Group boundaries come from
// GroupTracker, the parser's own, so a report's group is the group the parsed form puts the line in.
//
// Never throws on content; linear in the body. Text is decoded only for lines with a key and value.

import { textReader } from './bytes.js'
import {
  KIND_ALLOW, KIND_DISALLOW, KIND_MASK, KIND_OTHER, SCAN_F_COMMENT, SCAN_F_NO_COLON, SCAN_F_TOO_LONG, SCAN_F_TYPO,
  SCAN_KEY_END, SCAN_KEY_START, SCAN_KIND, SCAN_LINE, SCAN_LINE_END, SCAN_RECORD_SIZE, SCAN_VAL_END, SCAN_VAL_START,
} from './layout.js'
import { GroupTracker } from './parse.js'
import type { LineSink, Scanner } from './scanner.js'

/**
 * One line of the per-line report, as `Robots.lines` returns it.
 *
 * @example
 * ```ts
 * import { parseRobots, type LineReport } from 'robotstxt-wasm'
 *
 * const lines: readonly LineReport[] = parseRobots('Dissallow: /x\nUser-agent: *').lines
 * lines.map((l) => `${l.line} ${l.type}${l.typo ? ' typo' : ''}${l.outsideGroup ? ' outside-group' : ''}`) // → [ '1 disallow typo outside-group', '2 user-agent' ]
 * ```
 */
export interface LineReport {
  /** Line number, from 1. */
  line: number
  /** What the line is: a directive kind, or `empty`, `comment` (only a comment) or `invalid` (text without a usable key and value). */
  type: 'empty' | 'comment' | 'invalid' | 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'other'
  /** The key as written (directives only: an empty, comment or invalid line has no `key` property). */
  key?: string
  /** The value as written, after trimming and comment removal (directives only, as `key`). */
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

const TYPE_NAMES: LineReport['type'][] = ['user-agent', 'allow', 'disallow', 'sitemap', 'other', 'empty', 'comment', 'invalid']

/**
 * Makes each line's report from its scan record, in order, and hands it to `emit`, or keeps it,
 * frozen, in `kept` (Robots.lines: there every object is kept as long as the Robots, so every byte
 * of it is one the garbage collector copies).
 */
class LineReporter implements LineSink {
  readonly #groups = new GroupTracker()
  #text: ((start: number, end: number) => string) | null = null
  /** The reports kept (null when they are emitted), the first `keptCount` of its slots. */
  kept: LineReport[] | null
  keptCount = 0

  /** `source`: the string the body was encoded from, if any; `emit` null to keep the reports. */
  constructor(private readonly body: Uint8Array, private readonly emit: ((report: LineReport) => void) | null, private readonly source?: string) {
    this.kept = emit === null ? [] : null
  }

  line(line: number, kindFlags: number, _lineStart: number, _lineEnd: number, keyStart: number, keyEnd: number, valStart: number, valEnd: number): void {
    const kind = kindFlags & KIND_MASK
    const groups = this.#groups
    groups.line(kind)
    const isRule = kind === KIND_ALLOW || kind === KIND_DISALLOW
    const body = this.body
    const type = TYPE_NAMES[kind]!
    const comment = (kindFlags & SCAN_F_COMMENT) !== 0
    const typo = (kindFlags & SCAN_F_TYPO) !== 0
    const missingColon = (kindFlags & SCAN_F_NO_COLON) !== 0
    const tooLong = (kindFlags & SCAN_F_TOO_LONG) !== 0
    const outsideGroup = isRule && groups.current < 0
    const neverMatches = isRule && valEnd > valStart && body[valStart] !== 0x2f && body[valStart] !== 0x2a
    const group = groups.current
    let report: LineReport
    if (kind <= KIND_OTHER) {
      // Decoding waits for the first line with text: a file of empty lines never pays for it.
      const text = (this.#text ??= textReader(body, this.source).text)
      report = { line, type, comment, typo, missingColon, tooLong, outsideGroup, neverMatches, group, key: text(keyStart, keyEnd), value: text(valStart, valEnd) }
    } else {
      // No key and value (the fields are optional): two fewer fields on every line of nothing. The
      // fields in one order, the directives' two last: their object shape extends this one.
      report = { line, type, comment, typo, missingColon, tooLong, outsideGroup, neverMatches, group }
    }
    if (this.kept !== null) this.kept[this.keptCount++] = Object.freeze(report)
    else this.emit!(report)
  }

  records(w: Uint32Array, at: number, count: number): void {
    // A first batch that ends short of the body tells how many lines it has, about: an array of
    // that size from the start is filled without being grown, copied and grown again.
    const kept = this.kept
    if (kept !== null && this.keptCount === 0 && count >= 1024) {
      const bytes = w[at + (count - 1) * (SCAN_RECORD_SIZE / 4) + SCAN_LINE_END / 4]!
      if (bytes > 0 && bytes < this.body.length) this.kept = new Array<LineReport>(Math.ceil((count * 1.05 * this.body.length) / bytes))
    }
    for (let r = 0; r < count; r++, at += SCAN_RECORD_SIZE / 4) {
      this.line(
        w[at + SCAN_LINE / 4]!, w[at + SCAN_KIND / 4]!, 0, 0,
        w[at + SCAN_KEY_START / 4]!, w[at + SCAN_KEY_END / 4]!, w[at + SCAN_VAL_START / 4]!, w[at + SCAN_VAL_END / 4]!,
      )
    }
  }
}

/**
 * The per-line report of a body, from `scan`'s records: each line's report, a fresh object, to
 * `emit`, in order. `source` is the string the body was encoded from, if any.
 */
export function reportLines(body: Uint8Array, scan: Scanner, emit: (report: LineReport) => void, source?: string): void {
  scan(body, new LineReporter(body, emit, source))
}

/** Every line's report, each frozen, in a frozen array: what Robots.lines keeps. */
export function lineReports(body: Uint8Array, scan: Scanner, source?: string): readonly LineReport[] {
  const reporter = new LineReporter(body, null, source)
  scan(body, reporter)
  const kept = reporter.kept!
  kept.length = reporter.keptCount
  return Object.freeze(kept)
}
