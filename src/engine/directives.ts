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
  // Files repeat a few keys: a key with the last one's bytes reuses its strings (no slice, no lower case).
  let key = ''
  let name = ''
  let lastStart = 0
  let lastEnd = 0
  for (let i = 0, d = 0; i < outline.othersLength; i += OTHER_STRIDE, d++) {
    const g = o[i + O_GROUP]!
    let agents = g < 0 ? none : agentsOf[g]
    if (agents === undefined) {
      // The index is this call's own: its lists can be frozen and handed out as they are.
      const own = index.agents[g] ?? []
      agents = agentsOf[g] = Object.freeze(global[g] === 1 ? ['*', ...own] : own)
    }
    const keyStart = o[i + O_KEY_START]!
    const keyEnd = o[i + O_KEY_END]!
    if (i === 0 || !sameBytes(body, keyStart, keyEnd, lastStart, lastEnd)) {
      key = text(keyStart, keyEnd)
      name = key.toLowerCase()
    }
    lastStart = keyStart
    lastEnd = keyEnd
    out[d] = Object.freeze({ line: o[i + O_LINE]!, key, name, value: text(o[i + O_VAL_START]!, o[i + O_VAL_END]!), group: g, agents })
  }
  outline.release()
  return Object.freeze(out)
}
