// The lines Google's matcher ignores: every directive other than allow, disallow, user-agent and
// sitemap (Crawl-delay, Host, Clean-param, Content-Signal, Content-Usage, unknown keys), each with
// the group it stands in and that group's agents. Derived from the outline (outline.ts) of one
// scan, so they add nothing to parsing, change no verdict, and cost the lines they report rather
// than the length of the file. The usage preferences two of them carry are preferences.ts'.
//
// Invariant: what is handed out is frozen (the array, each directive, its agents), so no caller can
// change what another call returns.

import { sameBytes, type TextReader } from './bytes.js'
import { O_GROUP, O_KEY_END, O_KEY_START, O_LINE, O_VAL_END, O_VAL_START, OTHER_STRIDE, type Outline } from './outline.js'

/**
 * A line that is not allow, disallow, user-agent or sitemap.
 *
 * @example
 * ```ts
 * import { parseRobots, type Directive } from 'robotstxt-wasm'
 *
 * const [noindex]: readonly Directive[] = parseRobots('User-agent: *\nNoindex: /tmp/\n').directives
 * noindex // → { line: 2, key: 'Noindex', name: 'noindex', value: '/tmp/', group: 0, agents: [ '*' ] }
 * ```
 */
export interface Directive {
  /** Line number, from 1. */
  line: number
  /** The key as written (`Crawl-Delay`). */
  key: string
  /** The key lower-cased (`crawl-delay`): what to compare. */
  name: string
  /** The value as written, trimmed, comment removed. */
  value: string
  /** Index of the group the line stands in, -1 before the first user-agent line (file-wide). */
  group: number
  /** That group's agents: lower-cased product tokens, and `*` for a global group; empty when file-wide. */
  agents: readonly string[]
}

/** How many keys directivesOf remembers the strings of. */
const RECENT = 4

/**
 * The strings of the last few distinct keys, found by their bytes: files repeat a few keys, in
 * turn, and a key found makes no string and no lower-casing. A file whose keys are all distinct
 * would pay the comparisons for nothing: past 64 lines with fewer than one found in four, only the
 * last key is tried.
 */
class RecentKeys {
  /** Per remembered key, its bytes [start, end) in the body. */
  readonly #at = new Int32Array(2 * RECENT)
  readonly #keys: string[] = []
  readonly #names: string[] = []
  #last = 0
  #next = 0
  #found = 0
  #missed = 0

  constructor(private readonly body: Uint8Array, private readonly reader: TextReader) {}

  /** The remembered key of the bytes [start, end), remembered now if need be: its strings are key() and name(). */
  find(start: number, end: number): number {
    if (this.#holds(this.#last, start, end)) return this.#last
    if (this.#missed < 64 || this.#found * 4 >= this.#missed) {
      for (let k = 0; k < this.#keys.length; k++) {
        if (k !== this.#last && this.#holds(k, start, end)) {
          this.#found++
          return (this.#last = k)
        }
      }
      this.#missed++
    }
    const k = this.#next
    this.#next = (k + 1) % RECENT
    this.#at[2 * k] = start
    this.#at[2 * k + 1] = end
    this.#keys[k] = this.reader.text(start, end)
    this.#names[k] = this.#keys[k]!.toLowerCase()
    return (this.#last = k)
  }

  key(k: number): string {
    return this.#keys[k]!
  }

  name(k: number): string {
    return this.#names[k]!
  }

  #holds(k: number, start: number, end: number): boolean {
    return k < this.#keys.length && sameBytes(this.body, start, end, this.#at[2 * k]!, this.#at[2 * k + 1]!)
  }
}

/**
 * Every other-key line of the outline, in file order, frozen, with its group's agents (frozen, one
 * list per group). Releases the outline.
 */
export function directivesOf(body: Uint8Array, outline: Outline, reader: TextReader): readonly Directive[] {
  const o = outline.others
  // Agent tokens are read only for the groups that have such lines.
  const wanted = new Uint8Array(outline.groupCount)
  for (let i = 0; i < outline.othersLength; i += OTHER_STRIDE) if (o[i + O_GROUP]! >= 0) wanted[o[i + O_GROUP]!] = 1
  const index = outline.agents(body, reader, (g) => wanted[g] === 1)
  const global = new Uint8Array(outline.groupCount)
  for (const g of index.globalGroups) global[g] = 1
  const agentsOf: (readonly string[])[] = []
  const none: readonly string[] = Object.freeze([])
  const text = reader.text
  // As many as there are lines: an array made to size grows no copy of itself.
  const out = new Array<Directive>(outline.othersLength / OTHER_STRIDE)
  const keys = new RecentKeys(body, reader)
  for (let i = 0, d = 0; i < outline.othersLength; i += OTHER_STRIDE, d++) {
    const g = o[i + O_GROUP]!
    let agents = g < 0 ? none : agentsOf[g]
    if (agents === undefined) {
      // The index is this call's own: its lists can be frozen and handed out as they are.
      const own = index.agents[g] ?? []
      agents = agentsOf[g] = Object.freeze(global[g] === 1 ? ['*', ...own] : own)
    }
    const k = keys.find(o[i + O_KEY_START]!, o[i + O_KEY_END]!)
    out[d] = Object.freeze({ line: o[i + O_LINE]!, key: keys.key(k), name: keys.name(k), value: text(o[i + O_VAL_START]!, o[i + O_VAL_END]!), group: g, agents })
  }
  outline.release()
  return Object.freeze(out)
}
