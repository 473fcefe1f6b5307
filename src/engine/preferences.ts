// The AI usage preferences of a robots.txt (Robots.usagePreferences): the Content-Signal and
// Content-Usage lines of the outline (outline.ts), read once into an index of numbers, and the
// record for an agent made from it. Read leniently, as the drafts ask: unknown categories are kept,
// malformed members are skipped (lint reports them, through readPreference), nothing throws.
// * Cloudflare's Content Signals Policy, `Content-Signal: search=yes, ai-input=no, ai-train=no`
//   (values yes/no; also draft-romm-aipref-contentsignals-00);
// * the IETF AIPREF working group's `Content-Usage` rule, `Content-Usage: [path] train-ai=n, search=y`
//   (draft-ietf-aipref-attach-04 for the robots.txt rule and its optional path;
//   draft-ietf-aipref-vocab-05 for the categories and the y/n values).
//
// Invariants: a value is read in one pass over its numbers (an ASCII body's own bytes), with no
// string made but a category's name the first time it is seen, and a line that repeats the line
// before is not read again, so the index costs about a pass over the preference lines; a record is
// made fresh per call, without prototype, so a category named like an Object.prototype key
// (`constructor`) is an own data property like any other. test/helpers/preference-oracle.ts is the
// readable twin (split, trim, a RegExp) the tests hold this module to.

import { encoder, type TextReader } from './bytes.js'
import type { Directive } from './directives.js'
import { O_GROUP, O_KEY_END, O_KEY_START, O_LINE, O_VAL_END, O_VAL_START, OTHER_STRIDE, type Outline } from './outline.js'
import { namedGroups, type ParsedRobots } from './parse.js'

/**
 * One category of an AI usage preference, for one agent.
 *
 * @example
 * ```ts
 * import { parseRobots, type UsagePreference } from 'robotstxt-wasm'
 *
 * const prefs: Record<string, UsagePreference> = parseRobots('User-agent: *\nContent-Signal: ai-train=no\n').usagePreferences('GPTBot')
 * prefs['ai-train'] // → { allowed: false, line: 2, source: 'Content-Signal', value: 'no', paths: [] }
 * ```
 */
export interface UsagePreference {
  /** The preference: `y`/`yes` is true, `n`/`no` false; null when only path-limited rules state it. */
  allowed: boolean | null
  /** The line that decided it (with several lines for one category, `n` wins: the most restrictive). */
  line: number
  /** Which vocabulary said it. */
  source: 'Content-Signal' | 'Content-Usage'
  /** The value as written (`n`, `yes`). */
  value: string
  /**
   * Content-Usage rules for this category limited to a path (draft-ietf-aipref-attach: they apply
   * to URLs under that path, the longest matching path winning), in file order.
   */
  paths: {
    /** The path the rule is limited to, as written. */
    path: string
    /** The preference under that path. */
    allowed: boolean
    /** The rule's line. */
    line: number
  }[]
}

/** One member of a preference line that could not be read. */
export interface PreferenceProblem {
  line: number
  member: string
  reason: string
}

interface Member {
  category: string
  allowed: boolean
  value: string
}

const SIGNAL = 'content-signal'
const USAGE = 'content-usage'

// ─── One line's value: its path and members, read in one pass ─────────────────────────────────────

/** Text as numbers: a body's bytes (ASCII, so a byte a character) or a string's UTF-16 code units. */
type Codes = Uint8Array | Uint16Array

/** What a member of a value is: a preference, or why it is not one. */
const M_PREFERENCE = 0
const M_NO_EQUALS = 1
const M_BAD_CATEGORY = 2
const M_BAD_VALUE = 3
/**
 * Fields of one member in `ValueReader.found` (FIELDS numbers per member): its kind, its text
 * [start, end) trimmed, the end of its category (trimmed), the start of its value (trimmed), its
 * truth (1 yes, 0 no) and the hash of its category lower-cased.
 */
const F_KIND = 0
const F_START = 1
const F_END = 2
const F_CAT_END = 3
const F_VAL_START = 4
const F_TRUTH = 5
const F_HASH = 6
const FIELDS = 7

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
function asciiLower(c: number): number {
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
function pathEnd(codes: Codes, start: number, end: number, usage: boolean): number {
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

const values = new ValueReader()

/** A string's UTF-16 code units, for the value reader. */
function codesOf(text: string): Uint16Array {
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

// ─── The preference lines of a file, read once ────────────────────────────────────────────────────

/** Fields of one preference line in `PreferenceIndex.lines` (LINE_STRIDE numbers each). */
const L_LINE = 0 // its line number
const L_GROUP = 1
const L_VAL_START = 2 // where its value starts in the body
const L_USAGE = 3 // 1 Content-Usage, 0 Content-Signal
const L_PATH_END = 4 // the end of its path, relative to its value, when the path limits it; else 0
const L_REST = 5 // where its members' text starts (after the path), relative to its value
const L_FROM = 6 // its members: [from, to) in `members`, shared by every line of the same members' text
const L_TO = 7
const LINE_STRIDE = 8
/** Fields of one preference in `PreferenceIndex.members` (MEMBER_STRIDE numbers each). */
const P_CATEGORY = 0 // index into `categories`
const P_TRUTH = 1
const P_VAL_START = 2 // its value, relative to where its line's members' text starts
const P_VAL_END = 3
const MEMBER_STRIDE = 4

/** The preference lines of a file, read once, and the group index that selects among them. */
export interface PreferenceIndex {
  /** The preference lines in file order (L_* layout). */
  readonly lines: Int32Array
  /** Their well-formed members in file order (P_* layout). */
  readonly members: Int32Array
  /** Category names (lower-cased), each once, by the index a member holds. */
  readonly categories: string[]
  /** Each line's value as text when the body is not ASCII (offsets are then into it); empty when it is. */
  readonly texts: string[]
  /** The text of body ranges, for the values and paths of an ASCII body. */
  readonly reader: TextReader
  /** Null when no preference line stands in a group (the file-wide ones then always apply). */
  readonly agents: Pick<ParsedRobots, 'agentGroups' | 'globalGroups'> | null
}

/** A key the index looks for: its length, and its bytes as big-endian words (the last one zero-padded). */
interface KeyWords {
  length: number
  words: Int32Array
}

function keyWords(word: string): KeyWords {
  const bytes = new Uint8Array((word.length + 3) & ~3)
  bytes.set(encoder.encode(word))
  const view = new DataView(bytes.buffer)
  return { length: word.length, words: Int32Array.from({ length: bytes.length / 4 }, (_, k) => view.getInt32(4 * k)) }
}

const SIGNAL_KEY = keyWords(SIGNAL)
const USAGE_KEY = keyWords(USAGE)

/**
 * bytes[start, end) is `key`, ASCII case-insensitively, compared four bytes at a time: OR-ing 0x20
 * into every byte lower-cases a letter and leaves the key's other bytes ('-') as they are.
 */
function isKey(view: DataView, start: number, end: number, key: KeyWords): boolean {
  if (end - start !== key.length) return false
  const whole = key.length >>> 2
  for (let k = 0; k < whole; k++) if ((view.getInt32(start + 4 * k) | 0x20202020) !== key.words[k]) return false
  // The last word, partly: its bytes past the key are zero in `words`.
  let last = 0
  for (let b = 4 * whole; b < key.length; b++) last |= (view.getUint8(start + b) | 0x20) << (24 - 8 * (b - 4 * whole))
  return whole === key.words.length || last === key.words[whole]
}

/**
 * 32-bit keys (hashes) to values >= 0, by open addressing over typed arrays: a Map of numbers cost
 * each line of the index more than reading it. The hashes are not seeded, so a file could be made
 * of colliding ones: past a budget of probes (a few per key) the table moves to a Map.
 */
class IntMap {
  #keys = new Int32Array(256)
  #values = new Int32Array(256).fill(-1)
  /** 32 - log2 of the slots: a slot is the top bits of the key times an odd constant (Fibonacci hashing). */
  #shift = 24
  #count = 0
  #probes = 0
  #map: Map<number, number> | null = null

  /** The value of `key`, -1 when none. */
  get(key: number): number {
    if (this.#map !== null) return this.#map.get(key) ?? -1
    const mask = this.#keys.length - 1
    for (let s = Math.imul(key, 0x9e3779b1) >>> this.#shift; ; s = (s + 1) & mask) {
      const v = this.#values[s]!
      if (v < 0 || this.#keys[s] === key) return v
    }
  }

  set(key: number, value: number): void {
    if (this.#map !== null) {
      this.#map.set(key, value)
      return
    }
    const mask = this.#keys.length - 1
    let s = Math.imul(key, 0x9e3779b1) >>> this.#shift
    while (this.#values[s]! >= 0 && this.#keys[s] !== key) {
      s = (s + 1) & mask
      this.#probes++
    }
    if (this.#values[s]! < 0) this.#count++
    this.#keys[s] = key
    this.#values[s] = value
    if (this.#probes > 8 * this.#count + 1024) this.#map = this.#toMap()
    else if (this.#count * 2 > mask) this.#grow()
  }

  #toMap(): Map<number, number> {
    const map = new Map<number, number>()
    for (let s = 0; s < this.#keys.length; s++) if (this.#values[s]! >= 0) map.set(this.#keys[s]!, this.#values[s]!)
    return map
  }

  /** Twice the slots, every key placed again. */
  #grow(): void {
    const keys = this.#keys
    const values = this.#values
    this.#keys = new Int32Array(keys.length * 2)
    this.#values = new Int32Array(keys.length * 2).fill(-1)
    this.#shift--
    const mask = this.#keys.length - 1
    for (let k = 0; k < keys.length; k++) {
      if (values[k]! < 0) continue
      let s = Math.imul(keys[k]!, 0x9e3779b1) >>> this.#shift
      while (this.#values[s]! >= 0) s = (s + 1) & mask
      this.#keys[s] = keys[k]!
      this.#values[s] = values[k]!
    }
  }
}

/** Category names by index, found by their hash and codes: a string is made once per name. */
class Categories {
  readonly names: string[] = []
  /** The newest category of each hash, and for each category the one before it of the same hash (-1 none). */
  readonly #byHash = new IntMap()
  readonly #sameHash: number[] = []

  /** The index of the category codes[start, end) (valid, so it lower-cases code by code) of hash `hash`; -1 when it is new. */
  find(codes: Codes, start: number, end: number, hash: number): number {
    for (let id = this.#byHash.get(hash); id >= 0; id = this.#sameHash[id]!) if (this.#same(this.names[id]!, codes, start, end)) return id
    return -1
  }

  /** Adds category `name` (lower-cased) of hash `hash`; its index. */
  add(name: string, hash: number): number {
    const id = this.names.length
    this.names.push(name)
    this.#sameHash.push(this.#byHash.get(hash))
    this.#byHash.set(hash, id)
    return id
  }

  #same(name: string, codes: Codes, start: number, end: number): boolean {
    if (name.length !== end - start) return false
    for (let i = 0; i < name.length; i++) if (asciiLower(codes[start + i]!) !== name.charCodeAt(i)) return false
    return true
  }
}

/** A growing list of records of 32-bit integers (the index's lines and members). */
class Records {
  at: Int32Array
  length = 0

  /** `room`: the numbers it is expected to hold, at most (it grows past them if need be). */
  constructor(room = 1536) {
    this.at = new Int32Array(Math.max(room, 64))
  }

  /** Room for `n` more numbers; the array to write them to, from `length` on. */
  room(n: number): Int32Array {
    if (this.length + n > this.at.length) {
      const a = new Int32Array(Math.max(this.at.length * 2, this.length + n))
      a.set(this.at)
      this.at = a
    }
    return this.at
  }

  /** The records: a view, or a copy when the view would keep more than twice their room. */
  done(): Int32Array {
    return 2 * this.length < this.at.length ? this.at.slice(0, this.length) : this.at.subarray(0, this.length)
  }
}

/** bytes[a, a + n) and bytes[b, b + n) are the same, compared four at a time. */
function sameBytes(view: DataView, a: number, b: number, n: number): boolean {
  let k = 0
  for (; k + 4 <= n; k += 4) if (view.getUint32(a + k) !== view.getUint32(b + k)) return false
  for (; k < n; k++) if (view.getUint8(a + k) !== view.getUint8(b + k)) return false
  return true
}

/** No byte of bytes[start, end) has its high bit set. */
function asciiBytes(view: DataView, start: number, end: number): boolean {
  let acc = 0
  let k = start
  for (; k + 4 <= end; k += 4) acc |= view.getInt32(k)
  for (; k < end; k++) acc |= view.getUint8(k)
  return (acc & 0x80808080) === 0
}

/** FNV-1a over bytes[start, start + n), four at a time. */
function hashBytes(view: DataView, start: number, n: number): number {
  let h = 0x811c9dc5
  let k = 0
  for (; k + 4 <= n; k += 4) h = Math.imul(h ^ view.getInt32(start + k), 0x01000193)
  for (; k < n; k++) h = Math.imul(h ^ view.getUint8(start + k), 0x01000193)
  return h
}

/**
 * The members' text of the lines read so far, in an ASCII body: a line whose members' text has the
 * same bytes as one read before takes its members without reading them (real files repeat their
 * lines, and list paths with the same members). The last one read is tried first; any other is
 * found by a hash of the bytes, keeping the last line read for each hash, so that no sequence of
 * lines costs more than one lookup and one comparison a line.
 */
class ReadMembers {
  /** Per line read (READ_STRIDE numbers): where its members' text starts and how long it is, and its members [from, to). */
  readonly #reads = new Records()
  readonly #byHash = new IntMap()
  /** The lines read that `find` found or that were read, last and before it: files repeat a line, or alternate two. */
  #last = -1
  #before = -1

  /** The line read whose members' text has the bytes of bytes[start, start + n) (for `from` and `to`), or -1. */
  find(view: DataView, start: number, n: number): number {
    if (this.#holds(this.#last, view, start, n)) return this.#last
    let at = this.#before
    if (!this.#holds(at, view, start, n)) {
      at = this.#byHash.get(hashBytes(view, start, n))
      if (!this.#holds(at, view, start, n)) return -1
    }
    this.#before = this.#last
    this.#last = at
    return at
  }

  #holds(at: number, view: DataView, start: number, n: number): boolean {
    const r = this.#reads.at
    return at >= 0 && r[at + 1] === n && sameBytes(view, r[at]!, start, n)
  }

  from(at: number): number {
    return this.#reads.at[at + 2]!
  }

  to(at: number): number {
    return this.#reads.at[at + 3]!
  }

  /** Keeps the members [from, to) of a line just read, its members' text at bytes[start, start + n). */
  add(view: DataView, start: number, n: number, from: number, to: number): void {
    const r = this.#reads.room(4)
    const at = this.#reads.length
    r[at] = start
    r[at + 1] = n
    r[at + 2] = from
    r[at + 3] = to
    this.#reads.length = at + 4
    this.#byHash.set(hashBytes(view, start, n), at)
    this.#before = this.#last
    this.#last = at
  }
}

/** Reads every preference line of the outline once: what each call of `preferencesFor` starts from. Releases the outline. */
export function preferenceIndex(body: Uint8Array, outline: Outline, reader: TextReader): PreferenceIndex {
  const o = outline.others
  // At most a record per other-key line.
  const lines = new Records((outline.othersLength / OTHER_STRIDE) * LINE_STRIDE)
  const members = new Records()
  const texts: string[] = []
  const categories = new Categories()
  const read = new ReadMembers()
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  let grouped = false
  // The keys of the last two preference lines of different bytes, and whether each is
  // Content-Usage: files repeat their keys, or alternate two.
  let lastKey = -1
  let lastKeyLength = -1
  let lastUsage = false
  let otherKey = -1
  let otherKeyLength = -1
  let otherUsage = false
  // Where the categories of the last line read are (start, end, index, per member): a category of
  // the same bytes at the same place of the next line read is the same one.
  const lastCategories: number[] = []
  for (let i = 0; i < outline.othersLength; i += OTHER_STRIDE) {
    const keyStart = o[i + O_KEY_START]!
    const keyEnd = o[i + O_KEY_END]!
    let usage: boolean = lastUsage
    if (keyEnd - keyStart !== lastKeyLength || !sameBytes(view, lastKey, keyStart, lastKeyLength)) {
      if (keyEnd - keyStart === otherKeyLength && sameBytes(view, otherKey, keyStart, otherKeyLength)) {
        usage = otherUsage
      } else {
        usage = isKey(view, keyStart, keyEnd, USAGE_KEY)
        if (!usage && !isKey(view, keyStart, keyEnd, SIGNAL_KEY)) continue
      }
      otherKey = lastKey
      otherKeyLength = lastKeyLength
      otherUsage = lastUsage
      lastKey = keyStart
      lastKeyLength = keyEnd - keyStart
      lastUsage = usage
    }
    const valStart = o[i + O_VAL_START]!
    const valEnd = o[i + O_VAL_END]!
    const group = o[i + O_GROUP]!
    if (group >= 0) grouped = true
    // The path is found in the bytes (a space or tab is never part of a longer UTF-8 sequence).
    let path = pathEnd(body, valStart, valEnd, usage)
    let rest = path < valEnd && path > valStart ? path + 1 : path
    let base = valStart
    // The members of a line read before with the same members' text; else, when that text is
    // ASCII, read where it is, in the body; else read from the value's text (offsets then from 0).
    const seen = read.find(view, rest, valEnd - rest)
    let from = members.length
    let to = from
    if (seen >= 0) {
      from = read.from(seen)
      to = read.to(seen)
    } else if (asciiBytes(view, rest, valEnd)) {
      readMembers(body, rest, valEnd, members, categories, reader, view, lastCategories)
      to = members.length
      read.add(view, rest, valEnd - rest, from, to)
    } else {
      const text = reader.text(valStart, valEnd)
      const codes = codesOf(text)
      texts[lines.length / LINE_STRIDE] = text
      base = 0
      path = pathEnd(codes, 0, text.length, usage)
      rest = path < text.length && path > 0 ? path + 1 : path
      readMembers(codes, rest, text.length, members, categories, text, view, lastCategories)
      to = members.length
    }
    const l = lines.room(LINE_STRIDE)
    const at = lines.length
    l[at + L_LINE] = o[i + O_LINE]!
    l[at + L_GROUP] = group
    l[at + L_VAL_START] = valStart
    l[at + L_USAGE] = usage ? 1 : 0
    l[at + L_PATH_END] = path - base > 1 || (path - base === 1 && body[valStart] !== 0x2f) ? path - base : 0
    l[at + L_REST] = rest - base
    l[at + L_FROM] = from
    l[at + L_TO] = to
    lines.length = at + LINE_STRIDE
  }
  const index = grouped ? outline.agents(body, reader) : null
  outline.release()
  return {
    lines: lines.done(), members: members.done(), categories: categories.names, texts, reader,
    agents: index === null ? null : { agentGroups: index.agentGroups!, globalGroups: index.globalGroups },
  }
}

/**
 * Reads the members' text codes[rest, end) of one line into `members` (its well-formed members:
 * category index, truth, value relative to `rest`). `source` makes a new category's name: the body's
 * reader (codes are the body's) or the value's text (codes are its code units).
 */
function readMembers(codes: Codes, rest: number, end: number, members: Records, categories: Categories, source: TextReader | string, view: DataView, lastCategories: number[]): void {
  values.read(codes, rest, end)
  const f = values.found
  const inBody = typeof source !== 'string'
  for (let at = 0, k = 0; at < values.count * FIELDS; at += FIELDS) {
    if (f[at + F_KIND] !== M_PREFERENCE) continue
    const start = f[at + F_START]!
    const catEnd = f[at + F_CAT_END]!
    let category = -1
    if (inBody && 3 * k < lastCategories.length) {
      const c = 3 * k
      const length = lastCategories[c + 1]! - lastCategories[c]!
      if (length === catEnd - start && sameBytes(view, lastCategories[c]!, start, length)) category = lastCategories[c + 2]!
    }
    if (category < 0) category = categories.find(codes, start, catEnd, f[at + F_HASH]!)
    if (category < 0) category = categories.add((inBody ? source.text(start, catEnd) : source.slice(start, catEnd)).toLowerCase(), f[at + F_HASH]!)
    if (inBody) {
      lastCategories[3 * k] = start
      lastCategories[3 * k + 1] = catEnd
      lastCategories[3 * k + 2] = category
    }
    k++
    const m = members.room(MEMBER_STRIDE)
    const to = members.length
    m[to + P_CATEGORY] = category
    m[to + P_TRUTH] = f[at + F_TRUTH]!
    m[to + P_VAL_START] = f[at + F_VAL_START]! - rest
    m[to + P_VAL_END] = f[at + F_END]! - rest
    members.length = to + MEMBER_STRIDE
  }
}

// ─── The record for an agent ──────────────────────────────────────────────────────────────────────

/**
 * Which preference lines apply to these agents (lower-cased product tokens): those in the groups
 * that name them, else in the global groups, else the file-wide ones (lines before any user-agent
 * line). One flag per line. Lines come in file order, so in increasing group order, as the chosen
 * groups do: one merge of the two lists.
 */
function chosenLines(index: PreferenceIndex, tokens: readonly string[]): Uint8Array {
  const lines = index.lines
  const chosen = new Uint8Array(lines.length / LINE_STRIDE)
  let any = false
  if (index.agents !== null) {
    const named = namedGroups(index.agents, tokens)
    const wanted = named.length > 0 ? named : index.agents.globalGroups
    for (let l = 0, w = 0; l < chosen.length && w < wanted.length; l++) {
      const g = lines[l * LINE_STRIDE + L_GROUP]!
      while (w < wanted.length && wanted[w]! < g) w++
      if (wanted[w] === g) {
        chosen[l] = 1
        any = true
      }
    }
  }
  if (!any) for (let l = 0; l < chosen.length && lines[l * LINE_STRIDE + L_GROUP]! < 0; l++) chosen[l] = 1
  return chosen
}

/** The text [start, end) of preference line `l`'s value. */
function valueText(index: PreferenceIndex, l: number, start: number, end: number): string {
  const text = index.texts[l]
  if (text !== undefined) return text.slice(start, end)
  const at = index.lines[l * LINE_STRIDE + L_VAL_START]!
  return index.reader.text(at + start, at + end)
}

/** The value of member `m` (an offset into the index's members) on preference line `l`, as written. */
function memberValue(index: PreferenceIndex, l: number, m: number): string {
  const rest = index.lines[l * LINE_STRIDE + L_REST]!
  return valueText(index, l, rest + index.members[m + P_VAL_START]!, rest + index.members[m + P_VAL_END]!)
}

function sourceOf(index: PreferenceIndex, l: number): UsagePreference['source'] {
  return index.lines[l * LINE_STRIDE + L_USAGE] === 1 ? 'Content-Usage' : 'Content-Signal'
}

/**
 * The preferences for these agents (lower-cased product tokens), from the lines chosenLines picks.
 * A fresh record without prototype, of fresh objects, on every call; its categories in the order
 * the chosen lines first name them. With several lines for a category, `n` wins (the most
 * restrictive: draft-ietf-aipref-vocab, combining): the first `n`, else the first `y`; a line
 * limited to a path adds to the category's `paths` instead.
 */
export function preferencesFor(index: PreferenceIndex, tokens: readonly string[]): Record<string, UsagePreference> {
  const chosen = chosenLines(index, tokens)
  const lines = index.lines
  const mem = index.members
  const count = index.categories.length
  // Per category: the line and member that decide (-1 none yet), and the first line naming it.
  const winnerLine = new Int32Array(count).fill(-1)
  const winner = new Int32Array(count)
  const first = new Int32Array(count).fill(-1)
  const order: number[] = []
  let limited = false
  for (let l = 0; l < chosen.length; l++) {
    if (chosen[l] === 0) continue
    const at = l * LINE_STRIDE
    const pathLimited = lines[at + L_PATH_END] !== 0
    for (let m = lines[at + L_FROM]!; m < lines[at + L_TO]!; m += MEMBER_STRIDE) {
      const c = mem[m + P_CATEGORY]!
      if (first[c]! < 0) {
        first[c] = l
        order.push(c)
      }
      if (pathLimited) {
        limited = true
        continue
      }
      if (winnerLine[c]! < 0 || (mem[winner[c]! + P_TRUTH] === 1 && mem[m + P_TRUTH] === 0)) {
        winnerLine[c] = l
        winner[c] = m
      }
    }
  }
  const out: Record<string, UsagePreference> = Object.create(null)
  const entries: UsagePreference[] = []
  for (const c of order) {
    const l = winnerLine[c]!
    const entry: UsagePreference = l < 0
      ? { allowed: null, line: 0, source: sourceOf(index, first[c]!), value: '', paths: [] }
      : { allowed: mem[winner[c]! + P_TRUTH] === 1, line: lines[l * LINE_STRIDE + L_LINE]!, source: sourceOf(index, l), value: memberValue(index, l, winner[c]!), paths: [] }
    entries[c] = entry
    out[index.categories[c]!] = entry
  }
  if (limited) {
    for (let l = 0; l < chosen.length; l++) {
      const at = l * LINE_STRIDE
      const pathEnd = lines[at + L_PATH_END]!
      if (chosen[l] === 0 || pathEnd === 0) continue
      const path = valueText(index, l, 0, pathEnd)
      const line = lines[at + L_LINE]!
      for (let m = lines[at + L_FROM]!; m < lines[at + L_TO]!; m += MEMBER_STRIDE) {
        entries[mem[m + P_CATEGORY]!]!.paths.push({ path, allowed: mem[m + P_TRUTH] === 1, line })
      }
    }
  }
  return out
}
