// The AI usage preferences of a robots.txt (Robots.usagePreferences): the Content-Signal and
// Content-Usage lines of the outline (outline.ts), read once into an index of numbers, and the
// record for an agent made from it. A line's value is read by preference-values.ts.
//
// Invariants: no value is read twice: a line whose members' text has the bytes of a line read
// before takes that line's members (by reference), so the index costs about a pass over the
// preference lines' bytes, and a category's name is made once; a record is made fresh per call,
// without prototype, so a category named like an Object.prototype key (`constructor`) is an own
// data property like any other. test/helpers/preference-oracle.ts is the readable twin (split,
// trim, a RegExp) the tests hold this module and preference-values.ts to.

import { encoder, type TextReader } from './bytes.js'
import { O_GROUP, O_KEY_END, O_KEY_START, O_LINE, O_VAL_END, O_VAL_START, OTHER_STRIDE, type Outline } from './outline.js'
import { namedGroups, type ParsedRobots } from './parse.js'
import {
  asciiLower, codesOf, F_CAT_END, F_END, F_HASH, F_KIND, F_START, F_TRUTH, F_VAL_START, FIELDS, M_PREFERENCE, pathEnd,
  SIGNAL, USAGE, values, type Codes,
} from './preference-values.js'

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
  /** The value's text of each line whose members' text is not ASCII (its offsets are then into it). */
  readonly texts: string[]
  /** The text of body ranges: the values and paths of the other lines. */
  readonly reader: TextReader
  /** Null when no preference line stands in a group (the file-wide ones then always apply). */
  readonly agents: Pick<ParsedRobots, 'agentGroups' | 'globalGroups'> | null
}

const SIGNAL_BYTES = encoder.encode(SIGNAL)
const USAGE_BYTES = encoder.encode(USAGE)

/**
 * bytes[start, end) is `word` (lower-case), ASCII case-insensitively: OR-ing 0x20 into a byte
 * lower-cases a letter and leaves '-' as it is (the one other byte it turns into '-' is a CR, which
 * ends a line and is in no key). Rarely called: PreferenceKeys knows the keys it found.
 */
function isKey(body: Uint8Array, start: number, end: number, word: Uint8Array): boolean {
  if (end - start !== word.length) return false
  for (let i = 0; i < word.length; i++) if ((body[start + i]! | 0x20) !== word[i]) return false
  return true
}

/** Which keys are preference keys: the last two found, of different bytes, are known by their bytes (files repeat a key, or alternate two). */
class PreferenceKeys {
  /** Per key remembered: its bytes' start and length, and 1 for Content-Usage, 0 for Content-Signal. */
  readonly #keys = new Int32Array([-1, -1, 0, -1, -1, 0])

  constructor(private readonly body: Uint8Array, private readonly view: DataView) {}

  /** 1 when bytes[start, end) is Content-Usage, 0 when Content-Signal (any case), -1 otherwise. */
  usage(start: number, end: number): number {
    const k = this.#keys
    if (this.#holds(0, start, end)) return k[2]!
    let usage: number
    if (this.#holds(3, start, end)) usage = k[5]!
    else if (isKey(this.body, start, end, USAGE_BYTES)) usage = 1
    else if (isKey(this.body, start, end, SIGNAL_BYTES)) usage = 0
    else return -1
    k.copyWithin(3, 0, 3)
    k[0] = start
    k[1] = end - start
    k[2] = usage
    return usage
  }

  #holds(at: number, start: number, end: number): boolean {
    return this.#keys[at + 1] === end - start && sameBytes(this.view, this.#keys[at]!, start, end - start)
  }
}

/** Category names by index, found by their hash and codes: a string is made once per name. */
class Categories {
  readonly names: string[] = []
  /** The newest category of each hash, and for each category the one before it of the same hash (-1 none). */
  readonly #byHash = new Map<number, number>()
  readonly #sameHash: number[] = []

  /** The index of the category codes[start, end) (valid, so it lower-cases code by code) of hash `hash`; -1 when it is new. */
  find(codes: Codes, start: number, end: number, hash: number): number {
    for (let id = this.#byHash.get(hash) ?? -1; id >= 0; id = this.#sameHash[id]!) if (this.#same(this.names[id]!, codes, start, end)) return id
    return -1
  }

  /** Adds category `name` (lower-cased) of hash `hash`; its index. */
  add(name: string, hash: number): number {
    const id = this.names.length
    this.names.push(name)
    this.#sameHash.push(this.#byHash.get(hash) ?? -1)
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
 * The members' text of the lines read so far, when ASCII: a line whose members' text has the
 * same bytes as one read before takes its members without reading them (real files repeat their
 * lines, and list paths with the same members). The last one read is tried first; any other is
 * found by a hash of the bytes, keeping the last line read for each hash, so that no sequence of
 * lines costs more than one lookup and one comparison a line.
 */
class ReadMembers {
  /** Per line read, four numbers: where its members' text starts and how long it is, and its members [from, to). */
  readonly #reads = new Records()
  /** The last line read of each hash of its members' text. */
  readonly #byHash = new Map<number, number>()
  /** The lines read that `find` found or that were read, last and before it: files repeat a line, or alternate two. */
  #last = -1
  #before = -1

  /** The line read whose members' text has the bytes of bytes[start, start + n) (for `from` and `to`), or -1. */
  find(view: DataView, start: number, n: number): number {
    if (this.#holds(this.#last, view, start, n)) return this.#last
    let at = this.#before
    if (!this.#holds(at, view, start, n)) {
      at = this.#byHash.get(hashBytes(view, start, n)) ?? -1
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
  const keys = new PreferenceKeys(body, view)
  // Where the categories of the last line read are (start, end, index, per member): a category of
  // the same bytes at the same place of the next line read is the same one.
  const lastCategories: number[] = []
  for (let i = 0; i < outline.othersLength; i += OTHER_STRIDE) {
    const found = keys.usage(o[i + O_KEY_START]!, o[i + O_KEY_END]!)
    if (found < 0) continue
    const usage = found === 1
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
