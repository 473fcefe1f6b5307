// The outline of a robots.txt that the views beside the matcher (Robots.directives and
// Robots.usagePreferences) are built from: one scan's records of the user-agent lines and of the
// lines with another key, each with the group it stands in, as numbers (offsets into the body).
//
// Invariants: a line of no interest to these views (empty, comment, invalid, allow, disallow,
// sitemap) costs the group tracker's step and nothing else, so a view pays for the lines it reports,
// not for the length of the file; group boundaries come from GroupTracker and agent tokens from
// AgentIndex, the parser's own, so the views and the parsed form always agree.

import type { TextReader } from './bytes.js'
import { KIND_MASK, KIND_OTHER, KIND_SITEMAP, KIND_USER_AGENT, SCAN_KEY_END, SCAN_KEY_START, SCAN_KIND, SCAN_LINE, SCAN_RECORD_SIZE, SCAN_VAL_END, SCAN_VAL_START } from './layout.js'
import { AgentIndex, GroupTracker } from './parse.js'
import type { LineSink, Scanner } from './scanner.js'

/** Fields of one other-key line in `Outline.others` (flat, OTHER_STRIDE numbers per line). */
export const O_LINE = 0
export const O_GROUP = 1 // -1 before the first user-agent line
export const O_KEY_START = 2
export const O_KEY_END = 3
export const O_VAL_START = 4
export const O_VAL_END = 5
export const OTHER_STRIDE = 6

/** Fields of one user-agent line in the outline's own list (AGENT_STRIDE numbers per line). */
const A_GROUP = 0
const A_FLAGS = 1
const A_VAL_START = 2
const A_VAL_END = 3
const AGENT_STRIDE = 4

/**
 * The arrays of outlines released, for the next outlines to fill: an outline lives only while the
 * view made from it is built, and allocating its arrays afresh (hundreds of KB for a file of short
 * lines, four times over as they grow) cost as much as the scan. At most SPARES arrays of at most
 * SPARE_MAX numbers each are kept.
 */
const spares: Int32Array[] = []
const SPARES = 2
const SPARE_MAX = 1 << 18

/** A spare array, or a new one of `n` numbers. */
function buffer(n: number): Int32Array {
  return spares.pop() ?? new Int32Array(n)
}

export class Outline implements LineSink {
  /** The lines whose key is not allow, disallow, user-agent or sitemap, in file order (O_* layout). */
  others: Int32Array = buffer(OTHER_STRIDE * 256)
  /** Numbers used in `others`. */
  othersLength = 0
  #agentLines: Int32Array = buffer(AGENT_STRIDE * 256)
  #agentLength = 0
  readonly #groups = new GroupTracker()

  line(line: number, kindFlags: number, _lineStart: number, _lineEnd: number, keyStart: number, keyEnd: number, valStart: number, valEnd: number): void {
    const kind = kindFlags & KIND_MASK
    this.#groups.line(kind)
    // Typed arrays written by index: a many-argument push on a plain array cost more than the scan.
    if (kind === KIND_USER_AGENT) {
      if (this.#agentLength + AGENT_STRIDE > this.#agentLines.length) this.#agentLines = grown(this.#agentLines)
      const a = this.#agentLines
      const i = this.#agentLength
      a[i + A_GROUP] = this.#groups.current
      a[i + A_FLAGS] = kindFlags
      a[i + A_VAL_START] = valStart
      a[i + A_VAL_END] = valEnd
      this.#agentLength = i + AGENT_STRIDE
    } else if (kind === KIND_OTHER) {
      if (this.othersLength + OTHER_STRIDE > this.others.length) this.others = grown(this.others)
      const o = this.others
      const i = this.othersLength
      o[i + O_LINE] = line
      o[i + O_GROUP] = this.#groups.current
      o[i + O_KEY_START] = keyStart
      o[i + O_KEY_END] = keyEnd
      o[i + O_VAL_START] = valStart
      o[i + O_VAL_END] = valEnd
      this.othersLength = i + OTHER_STRIDE
    }
  }

  records(w: Uint32Array, at: number, count: number): void {
    for (let r = 0; r < count; r++, at += SCAN_RECORD_SIZE / 4) {
      // The lines this outline neither keeps nor counts in a group (sitemap, empty, comment,
      // invalid) cost a read of their kind: files of nothing but those must not pay more.
      const kind = w[at + SCAN_KIND / 4]! & KIND_MASK
      if (kind === KIND_SITEMAP || kind > KIND_OTHER) continue
      if (kind !== KIND_OTHER) {
        this.line(w[at + SCAN_LINE / 4]!, w[at + SCAN_KIND / 4]!, 0, 0, w[at + SCAN_KEY_START / 4]!, w[at + SCAN_KEY_END / 4]!, w[at + SCAN_VAL_START / 4]!, w[at + SCAN_VAL_END / 4]!)
        continue
      }
      // An other-key line, the one kind kept line by line: its record copied here, with no call.
      if (this.othersLength + OTHER_STRIDE > this.others.length) this.others = grown(this.others)
      const o = this.others
      const i = this.othersLength
      o[i + O_LINE] = w[at + SCAN_LINE / 4]!
      o[i + O_GROUP] = this.#groups.current
      o[i + O_KEY_START] = w[at + SCAN_KEY_START / 4]!
      o[i + O_KEY_END] = w[at + SCAN_KEY_END / 4]!
      o[i + O_VAL_START] = w[at + SCAN_VAL_START / 4]!
      o[i + O_VAL_END] = w[at + SCAN_VAL_END / 4]!
      this.othersLength = i + OTHER_STRIDE
    }
  }

  /**
   * Hands the outline's arrays back for the next outline: the view made from it (directivesOf,
   * preferenceIndex) calls this when done, and the outline is empty after it.
   */
  release(): void {
    for (const a of [this.others, this.#agentLines]) if (a.length > 0 && a.length <= SPARE_MAX && spares.length < SPARES) spares.push(a)
    this.others = this.#agentLines = new Int32Array(0)
    this.othersLength = this.#agentLength = 0
  }

  /** Number of groups in the file. */
  get groupCount(): number {
    return this.#groups.current + 1
  }

  /**
   * The agents of every group with the index from agent token to groups or, given `wanted`, the
   * agents of the groups it accepts alone (no index).
   */
  agents(body: Uint8Array, reader: TextReader, wanted?: (group: number) => boolean): AgentIndex {
    const index = new AgentIndex(body, reader, wanted === undefined)
    const a = this.#agentLines
    for (let i = 0; i < this.#agentLength; i += AGENT_STRIDE) {
      const g = a[i + A_GROUP]!
      if (wanted === undefined || wanted(g)) index.add(g, a[i + A_FLAGS]!, a[i + A_VAL_START]!, a[i + A_VAL_END]!)
    }
    return index
  }
}

/**
 * A copy of `a` with four times the room: amortized growth. Four, not two: allocating a typed array
 * costs far more than copying one, and an outline lives only as long as the view made from it.
 */
function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 4)
  b.set(a)
  return b
}

/** The outline of a body (already cut to size), from one scan. */
export function outlineOf(body: Uint8Array, scan: Scanner): Outline {
  const outline = new Outline()
  scan(body, outline)
  return outline
}
