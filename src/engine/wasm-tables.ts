// The compiled tables of every Matcher: where they live and when they go. The Engine (wasm.ts)
// owns this store and reads a table's tag word on its hot path (use); everything else about
// tables is here: keeping a just-compiled table (shared with an equal one the site holds, or in an
// arena block, or in JS memory), evicting the least recently used at the arena's cap, and freeing
// a table when its owning Matcher is collected.
//
// Memory ownership: a compiled table is copied once, when compiled, into a block of the arena; its
// Matcher holds the block's address, and a FinalizationRegistry frees the block when the Matcher is
// collected (one registration per table: a Matcher sharing another's table holds that owner, so the
// owner outlives every sharer). A check on a Matcher only points the matcher at its table
// (useTable): no copy, and no JS object but the Matcher to reach. The arena grows at the end of
// memory ARENA_STEP bytes at a time; when the work area must grow and the arena lies above it, the
// work area moves to the end of memory and its old span becomes an arena region, as much of it as
// the cap leaves room for. wasm memory never shrinks, so the arena (arena.ts, which holds the cap
// for every region, however given) takes at most arenaMax() bytes. At the cap, a new table evicts the least
// recently used ones (second chance: a tag word before each table is marked by every check that
// switches to it and cleared by the arena's clock hand; an unmarked table goes, at most
// EVICT_VISITS blocks visited per table kept): an evicted table's bytes move to a JS copy, which
// its Matchers use from their next check on (use() looks an address up among the evicted ones
// only once there are some), and its block is freed whole; a new table is never placed at an
// address an evicted one still goes by (its owner alive), but a word later. So a process
// holding millions of matchers keeps the arenaMax() bytes of those it uses most resident and the
// rest in JS memory, which the garbage collector returns as usual. Where no block can be had (and
// on a runtime without FinalizationRegistry) a table is held by its Matcher in a JS Uint8Array;
// JS-held tables are copied into the table slot when used and not already there (an identity
// check, so repeated use of one Matcher copies nothing).
//
// Invariants: a table's address is its block's payload + TAG_BYTES (a word more when padded) and
// names that table alone until its owner is collected: an evicted table's address is a key of
// `#evicted` until then, and no new table is placed at one; the word before every resident table
// is its tag; `current`, the table the wasm matcher reads, never names a freed or evicted block.

import { Arena } from './arena.js'
import { TABLE_MAX_PAT } from './layout.js'
import { tableLength } from './table.js'

/** A wasm memory page. */
export const WASM_PAGE = 65536
/** The arena grows by this much at a time (the bytes it holds unused are at most this). */
const ARENA_STEP = WASM_PAGE
/**
 * Each table's arena block starts with a tag word, the table after it: TAG_USED when a check used
 * the table since the eviction clock last passed it, TAG_UNUSED when not. A table's address is its
 * block's + TAG_BYTES; when that address still names an evicted table (its owner not collected
 * yet), the block starts with TAG_PADDING instead and the tag and table follow one word later.
 */
const TAG_BYTES = 4
const TAG_UNUSED = 0
export const TAG_USED = 1
const TAG_PADDING = 2
/** Blocks the eviction clock visits at most for one table: the bound on a compile's eviction work. */
export const EVICT_VISITS = 256
/** Evicted copies one task may make: arenaMax() / this many bytes (Tables.#countTurn). */
export const EVICT_TURN_SHARE = 4
/**
 * The most bytes of wasm memory the table arena takes; past them tables stay in JS memory. A
 * Cloudflare Worker's isolate has 128 MB in all, and wasm memory never shrinks, so there the arena
 * takes at most 16 MiB (navigator.userAgent is "Cloudflare-Workers" in workerd).
 */
export function arenaCapFor(userAgent: unknown): number {
  return userAgent === 'Cloudflare-Workers' ? 16 * 2 ** 20 : 64 * 2 ** 20
}
let arenaCap = 0
/**
 * This runtime's cap (arenaCapFor), read when the arena first grows: Node builds its `navigator`
 * on first access, which at import time cost every process 0.2-0.3 ms of its start.
 */
export function arenaMax(): number {
  if (arenaCap === 0) arenaCap = arenaCapFor((globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent)
  return arenaCap
}

/**
 * A compiled table: the address of its block in the arena, or the bytes themselves when held in
 * JS memory (arena full, or no FinalizationRegistry).
 */
export type TableRef = number | Uint8Array
const NO_TABLES: readonly TableRef[] = []

/**
 * What the store needs of the Engine that owns it (wasm.ts): its current views of wasm memory, the
 * table the matcher reads, and the layout it may have to widen for a table's longest pattern.
 */
export interface TableHost {
  readonly u8: Uint8Array
  readonly u32: Uint32Array
  current: TableRef | null
  readonly residentMaxPat: number
  readonly tableCap: number
  readonly inputCap: number
  readonly workCap: number
  readonly w: { readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number } }
  relayout(tableCap: number, inputCap: number, workCap: number, maxPat: number): void
  refreshViews(): void
}

export class Tables {
  readonly #e: TableHost
  /** The table arena, or null where the runtime cannot tell when a Matcher is collected. */
  readonly arena: Arena | null
  readonly #collected: FinalizationRegistry<number> | null
  /** Copies of evicted tables by their arena address, until their owning Matcher is collected. */
  readonly #evicted = new Map<number, Uint8Array>()
  /** Blocks of tables placed a word later (TAG_PADDING), by table address: rare, see keep(). */
  readonly #padded = new Map<number, number>()
  /** Tables evicted so far (the bench and tests read it). */
  evictions = 0
  /** Bytes of copies evicted since the event loop last turned, and whether a turn is awaited. */
  #turnBytes = 0
  #turnAwaited = false

  constructor(e: TableHost) {
    this.#e = e
    const canCollect = typeof FinalizationRegistry === 'function'
    this.arena = canCollect ? new Arena(e.u32, arenaMax) : null
    this.#collected = canCollect ? new FinalizationRegistry((at: number) => this.free(at)) : null
  }

  /**
   * How many copies are held (their owning Matchers not yet collected): the Engine's use() looks a
   * table up only when this is not 0.
   */
  get evictedCount(): number {
    return this.#evicted.size
  }

  /** The bytes of those copies (a sum: for tests and the bench). */
  get evictedHeldBytes(): number {
    let n = 0
    for (const copy of this.#evicted.values()) n += copy.length
    return n
  }

  /** The JS copy of table `at` if it was evicted. */
  evictedCopy(at: number): Uint8Array | undefined {
    return this.#evicted.get(at)
  }

  /**
   * Keeps the table of `size` bytes at `from` (in the work area, just compiled): in an arena block
   * (for `track` to tie to its Matcher), or as a JS copy when the arena is full. When one of `like`
   * (the site's tables) holds the same bytes, that one is returned and nothing is kept: compared
   * here, before a block is taken, a site's agents that fall to the same groups (three compiles in
   * four on the corpus' labelled checks) cost no alloc, copy and free.
   */
  keep(from: number, size: number, like: readonly TableRef[] = NO_TABLES): TableRef {
    const e = this.#e
    for (let k = 0; k < like.length; k++) if (this.#holds(like[k]!, from, size)) return like[k]!
    const arena = this.arena
    if (arena === null) return e.u8.slice(from, from + size)
    // Once tables have been evicted, a new block may start where an evicted table's did, whose
    // address still names it: each block then has room to place its table a word later.
    let padding = this.evictedCount !== 0 ? TAG_BYTES : 0
    let b = arena.alloc(size + TAG_BYTES + padding)
    if (b === 0 && this.#grow(size + TAG_BYTES + padding)) b = arena.alloc(size + TAG_BYTES + padding)
    if (b === 0) {
      // The block an eviction frees is the likeliest to come back: where the evicted table was.
      padding = TAG_BYTES
      b = this.#evictFor(size + TAG_BYTES + padding)
    }
    if (b === 0) return e.u8.slice(from, from + size)
    let at = b + TAG_BYTES
    if (padding !== 0 && this.#evicted.has(at)) {
      at += TAG_BYTES
      if (this.#evicted.has(at)) {
        arena.free(b)
        return e.u8.slice(from, from + size)
      }
      e.u32[b >>> 2] = TAG_PADDING
      this.#padded.set(at, b)
    }
    e.u32[(at >>> 2) - 1] = TAG_USED
    e.u8.copyWithin(at, from, from + size)
    const maxPat = e.u32[(at + TABLE_MAX_PAT) >>> 2]!
    if (maxPat > e.residentMaxPat) {
      try {
        e.relayout(e.tableCap, e.inputCap, e.workCap, maxPat)
      } catch (err) {
        this.free(at)
        throw err
      }
    }
    return at
  }

  /**
   * Evicts least recently used tables until a block of `size` bytes can be had, visiting at most
   * EVICT_VISITS blocks; the block, or 0. Second chance: a table used since the hand last passed
   * keeps its place once (its mark is cleared), one not used is evicted: its Matchers find its
   * copy, in JS memory, from their next check on (use), and its block is freed whole, so evicted
   * neighbours merge into room for tables of any size.
   */
  #evictFor(size: number): number {
    const e = this.#e
    const arena = this.arena!
    const m = e.u32
    if (this.#turnBytes >= arenaMax() / EVICT_TURN_SHARE) return 0
    for (let visits = 0; visits < EVICT_VISITS; visits++) {
      const b = arena.clockNext()
      if (b === 0) return 0
      const tag = m[b >>> 2] === TAG_PADDING ? b + TAG_BYTES : b
      const at = tag + TAG_BYTES
      // The current table is the one in use: Engine.use marks a table only when it becomes current,
      // so one checked again and again while compiles pass would otherwise lose its mark and go.
      if (m[tag >>> 2] === TAG_USED || at === e.current) {
        m[tag >>> 2] = TAG_UNUSED
        continue
      }
      const copy = e.u8.slice(at, at + tableLength(e.u8.subarray(at)))
      this.#evicted.set(at, copy)
      this.evictions++
      this.#countTurn(copy.length)
      if (e.current === at) e.current = null
      this.#padded.delete(at)
      arena.free(b)
      const got = arena.alloc(size)
      if (got !== 0) return got
    }
    return 0
  }

  /**
   * Counts `bytes` of evicted copies against this turn of the event loop. A FinalizationRegistry
   * only calls back between tasks, so within one task the copies of tables whose Matchers are
   * already dead cannot be released: a synchronous loop compiling past the cap would keep every
   * one. So eviction stops for the rest of a task once arenaMax() / EVICT_TURN_SHARE bytes went,
   * and new tables stay in JS memory (collectable as soon as they are dead) until the next turn.
   */
  #countTurn(bytes: number): void {
    this.#turnBytes += bytes
    if (this.#turnAwaited) return
    this.#turnAwaited = true
    const timer = setTimeout(() => {
      this.#turnBytes = 0
      this.#turnAwaited = false
    }, 0) as { unref?: () => void }
    timer.unref?.()
  }

  /**
   * Does `table` hold the table of `size` bytes at `from`? Its first `size` bytes decide: they hold
   * the header and every rule's offsets, so equal they give it the same length. Compared a word at
   * a time (tables and their sizes are 4-aligned): a byte loop over the corpus' duplicate tables was
   * a tenth of the field benchmark's time.
   */
  #holds(table: TableRef, from: number, size: number): boolean {
    const e = this.#e
    if (typeof table === 'number') table = this.#evicted.get(table) ?? table
    if (typeof table === 'number' ? this.#room(table) < size : table.length !== size) return false
    if (typeof table === 'number' && ((table | from | size) & 3) === 0) {
      const w = e.u32
      for (let i = table >>> 2, j = from >>> 2, end = (from + size) >>> 2; j < end; i++, j++) if (w[i] !== w[j]) return false
      return true
    }
    const t = this.bytes(table)
    const u8 = e.u8
    for (let i = 0; i < size; i++) if (t[i] !== u8[from + i]) return false
    return true
  }

  /** The bytes the block of arena table `at` holds from `at` on. */
  #room(at: number): number {
    const b = this.#padded.get(at) ?? at - TAG_BYTES
    return this.arena!.payloadSize(b) - (at - b)
  }

  /** Frees arena table `table` once `owner` is collected (a JS-held table needs nothing). */
  track(owner: object, table: TableRef): void {
    if (typeof table === 'number') this.#collected!.register(owner, table)
  }

  /** A view of an arena table (up to the end of memory: a table's reads stay within its own offsets). */
  bytes(table: TableRef): Uint8Array {
    if (typeof table !== 'number') return table
    return this.#evicted.get(table) ?? this.#e.u8.subarray(table)
  }

  /** Frees an arena table (when its owning Matcher is collected, or at once for one no Matcher owns). */
  free(at: number): void {
    const e = this.#e
    // The block may be reused at once: the matcher must not take a new table there for the old one.
    if (e.current === at) e.current = null
    const copy = this.#evicted.get(at)
    if (copy !== undefined) {
      // Evicted: its block went then; only the copy is left.
      this.#evicted.delete(at)
      if (e.current === copy) e.current = null
      return
    }
    const b = this.#padded.get(at)
    if (b !== undefined) this.#padded.delete(at)
    this.arena!.free(b ?? at - TAG_BYTES)
  }

  /** A new arena region of at least `size` bytes at the end of memory, unless the cap or the runtime refuses. */
  #grow(size: number): boolean {
    const e = this.#e
    const arena = this.arena!
    const grow = Math.ceil(Math.max(size + 128, ARENA_STEP) / WASM_PAGE)
    if (grow * WASM_PAGE > arena.room) return false
    const have = e.w.memory.buffer.byteLength
    try {
      e.w.memory.grow(grow)
    } catch {
      return false
    }
    e.refreshViews()
    arena.addRegion(have, e.w.memory.buffer.byteLength)
    return true
  }
}
