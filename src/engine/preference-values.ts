// One line's usage preference value, read: its path and its members (the drafts' grammar), in one
// pass over numbers, a body's own bytes or a string's code units, writing offsets only. The index
// of a file's preference lines (preferences.ts) makes what it keeps of them; readPreference makes
// the members and problems of one value (lint, and the tests' readable twin compares it).
// * Content-Signal (Cloudflare's Content Signals Policy; draft-romm-aipref-contentsignals-00):
//   `search=yes, ai-train=no`, values yes/no;
// * Content-Usage (draft-ietf-aipref-attach-04 for the rule and its optional path,
//   draft-ietf-aipref-vocab-05 for the categories and y/n values): `[path] train-ai=n, search=y`.
// Members that are not `category=value` with a known truth value are problems, never thrown; both
// vocabularies' values are read in either form, which the drafts' "ignore what you do not
// understand" makes harmless.

import type { Directive } from './directives.js'

/** One member of a preference line that could not be read. */
export interface PreferenceProblem {
  line: number
  member: string
  reason: string
}

export interface Member {
  category: string
  allowed: boolean
  value: string
}

export const SIGNAL = 'content-signal'
export const USAGE = 'content-usage'

// ─── One line's value: its path and members, read in one pass ─────────────────────────────────────

/** Text as numbers: a body's bytes (ASCII, so a byte a character) or a string's UTF-16 code units. */
export type Codes = Uint8Array | Uint16Array

/** What a member of a value is: a preference, or why it is not one. */
export const M_PREFERENCE = 0
const M_NO_EQUALS = 1
const M_BAD_CATEGORY = 2
const M_BAD_VALUE = 3
/**
 * Fields of one member in `ValueReader.found` (FIELDS numbers per member): its kind, its text
 * [start, end) trimmed, the end of its category (trimmed), the start of its value (trimmed), its
 * truth (1 yes, 0 no) and the hash of its category lower-cased.
 */
export const F_KIND = 0
export const F_START = 1
export const F_END = 2
export const F_CAT_END = 3
export const F_VAL_START = 4
export const F_TRUTH = 5
export const F_HASH = 6
export const FIELDS = 7

/** The characters String.prototype.trim removes: ECMAScript's WhiteSpace and LineTerminator. */
function isTrimmed(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d)
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/**
 * `c` lower-cased, when that is one ASCII character; -1 otherwise. Besides A-Z only the Kelvin sign
 * lower-cases to ASCII alone (`k`); every other character is non-ASCII lower-cased, or lower-cases
 * to more than one character (U+0130 to `i` and a combining dot), so it can never be part of a
 * category name.
 */
export function asciiLower(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c
  return c === 0x212a ? 0x6b : -1
}

/** A lower-cased category character may be [a-z0-9_.*-]; the first only [a-z]. */
function isCategoryChar(c: number, first: boolean): boolean {
  if (c >= 0x61 && c <= 0x7a) return true
  return !first && ((c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x2a || c === 0x2d)
}

/** The truth of codes[start, end): `y`/`yes` true, `n`/`no` false (any case), else -1. */
function truthAt(codes: Codes, start: number, end: number): number {
  const n = end - start
  const a = codes[start]! | 0x20
  if (n === 1) return a === 0x79 ? 1 : a === 0x6e ? 0 : -1
  if (n === 2) return a === 0x6e && (codes[start + 1]! | 0x20) === 0x6f ? 0 : -1
  if (n === 3) return a === 0x79 && (codes[start + 1]! | 0x20) === 0x65 && (codes[start + 2]! | 0x20) === 0x73 ? 1 : -1
  return -1
}

/**
 * The end of a value's path: a Content-Usage value's first word, when it starts with '/' or '*'
 * (draft-ietf-aipref-attach). `start` when the value has none.
 */
export function pathEnd(codes: Codes, start: number, end: number, usage: boolean): number {
  if (!usage || start === end || (codes[start] !== 0x2f && codes[start] !== 0x2a)) return start
  let at = start
  while (at < end && codes[at] !== 0x20 && codes[at] !== 0x09) at++
  return at
}

/**
 * Reads the members of a preference line's value, `key=value, key=value, …` (after its path, if
 * any): they are split at commas and trimmed as String.prototype.trim does, and a category is
 * valid when, lower-cased, it matches /^[a-z][a-z0-9_.*-]*$/. One pass over numbers, not a string;
 * only offsets are written (into `found`, reused from line to line), and the index and
 * readPreference make what they need of them.
 */
class ValueReader {
  found = new Int32Array(FIELDS * 8)
  /** Members in `found`. */
  count = 0

  read(codes: Codes, start: number, end: number): void {
    this.count = 0
    // One member per comma-separated segment: s its first untrimmed code (-1 none yet), t one past
    // its last, eq its first '=' (-1 none yet), catEnd one past the category's last untrimmed code.
    let s = -1
    let t = 0
    let eq = -1
    let catEnd = 0
    let valStart = -1
    let valid = true
    let gap = false
    let hash = 0
    for (let i = start; ; i++) {
      const c = i < end ? codes[i]! : 0x2c
      if (c === 0x2c) {
        if (s >= 0) this.#member(codes, s, t, eq, catEnd, valStart, valid, hash)
        if (i >= end) return
        s = eq = valStart = -1
        valid = true
        gap = false
        hash = 0
        continue
      }
      if (isTrimmed(c)) {
        // Inside a category, a space is one of its codes: the name is then no valid one.
        if (s >= 0 && eq < 0) gap = true
        continue
      }
      if (s < 0) s = i
      t = i + 1
      if (eq >= 0) {
        if (valStart < 0) valStart = i
        continue
      }
      if (c === 0x3d) {
        eq = i
        continue
      }
      if (gap) valid = false
      const lower = asciiLower(c)
      if (!isCategoryChar(lower, i === s)) valid = false
      hash = Math.imul(hash ^ lower, 0x01000193)
      catEnd = i + 1
    }
  }

  #member(codes: Codes, s: number, t: number, eq: number, catEnd: number, valStart: number, valid: boolean, hash: number): void {
    if (this.count * FIELDS === this.found.length) {
      const grown = new Int32Array(this.found.length * 2)
      grown.set(this.found)
      this.found = grown
    }
    const f = this.found
    const at = this.count++ * FIELDS
    f[at + F_START] = s
    f[at + F_END] = t
    if (eq <= s) {
      f[at + F_KIND] = M_NO_EQUALS
      return
    }
    if (valStart < 0) valStart = t
    const truth = valStart < t ? truthAt(codes, valStart, t) : -1
    f[at + F_KIND] = !valid ? M_BAD_CATEGORY : truth < 0 ? M_BAD_VALUE : M_PREFERENCE
    f[at + F_CAT_END] = catEnd
    f[at + F_VAL_START] = valStart
    f[at + F_TRUTH] = truth
    f[at + F_HASH] = hash
  }
}

export const values = new ValueReader()

/** A string's UTF-16 code units, for the value reader. */
export function codesOf(text: string): Uint16Array {
  const codes = new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i)
  return codes
}

/**
 * Reads a preference line's value: `[path ]key=value, key=value, …`. The path (Content-Usage only)
 * is the first word when it starts with '/' or '*'. Members that are not `key=token` with a known
 * truth value are returned as problems, never thrown.
 */
export function readPreference(d: Pick<Directive, 'line' | 'name' | 'value'> & Partial<Directive>): { path: string | null; members: Member[]; problems: PreferenceProblem[] } {
  const text = d.value
  const codes = codesOf(text)
  const path = pathEnd(codes, 0, text.length, d.name === USAGE)
  values.read(codes, path < text.length && path > 0 ? path + 1 : path, text.length)
  const members: Member[] = []
  const problems: PreferenceProblem[] = []
  const f = values.found
  for (let at = 0; at < values.count * FIELDS; at += FIELDS) {
    const member = text.slice(f[at + F_START]!, f[at + F_END]!)
    const kind = f[at + F_KIND]!
    if (kind === M_NO_EQUALS) {
      problems.push({ line: d.line, member, reason: 'expected category=value' })
      continue
    }
    const category = text.slice(f[at + F_START]!, f[at + F_CAT_END]!).toLowerCase()
    if (kind === M_BAD_CATEGORY) problems.push({ line: d.line, member, reason: `"${category}" is not a category name` })
    else if (kind === M_BAD_VALUE) problems.push({ line: d.line, member, reason: d.name === SIGNAL ? 'expected yes or no' : 'expected y or n' })
    else members.push({ category, allowed: f[at + F_TRUTH] === 1, value: text.slice(f[at + F_VAL_START]!, f[at + F_END]!) })
  }
  if (members.length === 0 && problems.length === 0) problems.push({ line: d.line, member: d.value, reason: 'no preference given' })
  return { path: path > 0 ? text.slice(0, path) : null, members, problems }
}
