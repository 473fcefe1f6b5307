// The table arena: where compiled tables live in wasm memory, so that a Matcher's check reaches its
// table where the matcher reads it (no copy per check, no Uint8Array, ArrayBuffer and backing store
// per Matcher). A two-level segregated-fit allocator (TLSF) over regions of wasm memory that the
// Engine hands it (src/engine/wasm.ts decides where they are); it only keeps books in them, and
// takes at most its cap's bytes of them, whoever hands them over.
//
// Blocks: a u32 header (the block's size, a multiple of GRAIN, and the FREE / PREV_FREE bits), then
// the payload, 4-aligned as tables are (their sizes are multiples of 4, so no byte is lost to rounding). A free block also holds its list links after the header and
// its size in its last word (the footer), so that freeing merges with both neighbours in O(1).
// Each region ends with a sentinel header (size 0, in use) that stops merging.
//
// A clock hand walks the blocks in use, region after region, for the Engine's eviction of least
// recently used tables (the second-chance approximation of LRU; wasm-tables.ts keeps the reference bits).
//
// Invariants: blocks of a region tile it exactly; no two free blocks are adjacent (they merge); a
// free block is in the list of its size class; a block is split only when the rest can stand as a
// block; `bytes`, the regions' bytes, never passes the cap; `live` counts the bytes of blocks in use; the hand is always a block's start (or 0), moved
// back to the start of the free block that swallows its block. All state is in wasm memory except
// the lists' heads and bitmaps, the regions' bounds and the hand: the allocator allocates on the JS
// heap only when it is given a region.

/** Block sizes and starts are multiples of this. */
const GRAIN = 4
const GRAIN_LOG = 2
/** Header word; free blocks add their links and footer, so no block is smaller. */
const HEADER = 4
const MIN_BLOCK = 16
const FREE = 1
const PREV_FREE = 2
const SIZE_MASK = ~3
/** A free block's links: the next and previous free block of its class (0: none). */
const NEXT = 4
const PREV = 8
/** Second-level classes per power of two: a class's sizes differ by at most 1/16th. */
const SL_LOG = 4
const SL_COUNT = 1 << SL_LOG
/** Sizes below this map linearly (one class per GRAIN). */
const SMALL = SL_COUNT * GRAIN
const FL_COUNT = 32
/** Bytes at a region's end that no block covers. */
const SLACK = 64

/** log2 of a positive integer below 2^32, rounded down. */
function log2(n: number): number {
  return 31 - Math.clz32(n)
}

/** Lowest set bit's index (n != 0). */
function ctz(n: number): number {
  return 31 - Math.clz32(n & -n)
}

export class Arena {
  /** The engine's current u32 view of wasm memory: refreshed by the engine whenever memory grows. */
  mem: Uint32Array
  /** Bytes of all regions taken (at most the cap), and of the blocks in use. */
  bytes = 0
  live = 0
  /** The cap on `bytes`, asked for when a region is given (the runtime's may be costly to learn). */
  readonly #cap: () => number
  #flBits = 0
  readonly #slBits = new Uint32Array(FL_COUNT)
  readonly #heads = new Uint32Array(FL_COUNT * SL_COUNT)
  /** The last region's end and sentinel, so that a region given right after it extends it. */
  #lastEnd = -1
  #lastSentinel = -1
  /** Each region's first block and sentinel, in pairs, for the clock hand. */
  readonly #regions: number[] = []
  /** The block the clock hand is on (its header), 0 before the first turn. */
  #hand = 0

  constructor(mem: Uint32Array, cap: () => number = () => Infinity) {
    this.mem = mem
    this.#cap = cap
  }

  /** Bytes a region may still add before the cap. */
  get room(): number {
    return Math.max(0, this.#cap() - this.bytes)
  }

  /**
   * Adds the bytes [start, end) of wasm memory, or as many from `start` as the cap leaves room for;
   * the bytes taken, 0 when too few to hold a block. The last SLACK bytes stay unused (the matcher's
   * vector loads read up to 15 bytes past a table). A region that starts where the last one ended
   * extends it instead, merging with a free block at its end.
   */
  addRegion(start: number, end: number): number {
    end = Math.min(end, start + this.room)
    const extend = start === this.#lastEnd
    // Address 0 is the lists' null: no block starts there (wasm's static data is below any region).
    const b = extend ? this.#lastSentinel : (Math.max(start, GRAIN) + GRAIN - 1) & SIZE_MASK
    const sentinel = (end - SLACK - HEADER) & SIZE_MASK
    if (sentinel - b < MIN_BLOCK) return 0
    const m = this.mem
    // The new block takes over the old sentinel's PREV_FREE bit when it extends the last region.
    const prevFree = extend ? m[b >>> 2]! & PREV_FREE : 0
    m[sentinel >>> 2] = 0
    this.#setFree(b, sentinel - b, prevFree)
    this.#mergeWithPrev(b)
    this.bytes += end - start
    if (extend) this.#regions[this.#regions.length - 1] = sentinel
    else this.#regions.push(b, sentinel)
    this.#lastSentinel = sentinel
    this.#lastEnd = end
    return end - start
  }

  /**
   * Moves the clock hand to the next block in use (wrapping from the last region to the first) and
   * returns its payload, or 0 when no block is in use. Free blocks never touch, so a step passes at
   * most one free block per block in use, and `n` steps visit every block in use once when there
   * are `n`.
   */
  clockNext(): number {
    const m = this.mem
    const regions = this.#regions
    if (this.live === 0 || regions.length === 0) return 0
    let b = this.#hand
    let r = 0
    if (b === 0) b = regions[0]!
    else {
      while (!(b >= regions[r]! && b < regions[r + 1]!)) r += 2
      b += m[b >>> 2]! & SIZE_MASK
    }
    for (;;) {
      if (b === regions[r + 1]) {
        r = r + 2 === regions.length ? 0 : r + 2
        b = regions[r]!
      }
      const word = m[b >>> 2]!
      if ((word & FREE) === 0) {
        this.#hand = b
        return b + HEADER
      }
      b += word & SIZE_MASK
    }
  }

  /** A payload of at least `size` bytes (4-aligned), or 0 when no free block is large enough. */
  alloc(size: number): number {
    const need = Math.max(MIN_BLOCK, (size + HEADER + GRAIN - 1) & SIZE_MASK)
    // Search from the class above need's rounding, so any block found fits.
    const rounded = need >= SMALL ? need + (1 << (log2(need) - SL_LOG)) - 1 : need
    let fl = rounded < SMALL ? 0 : log2(rounded) - log2(SMALL) + 1
    let sl = rounded < SMALL ? rounded >>> GRAIN_LOG : (rounded >>> (log2(rounded) - SL_LOG)) - SL_COUNT
    if (fl >= FL_COUNT) return 0
    let slMap = this.#slBits[fl]! & (~0 << sl)
    if (slMap === 0) {
      const flMap = fl + 1 < FL_COUNT ? this.#flBits & (~0 << (fl + 1)) : 0
      if (flMap === 0) return 0
      fl = ctz(flMap)
      slMap = this.#slBits[fl]!
    }
    sl = ctz(slMap)
    const b = this.#heads[fl * SL_COUNT + sl]!
    const m = this.mem
    this.#unlink(b, fl, sl)
    const blockSize = m[b >>> 2]! & SIZE_MASK
    const prevFree = m[b >>> 2]! & PREV_FREE
    if (blockSize - need >= MIN_BLOCK) {
      m[b >>> 2] = need | prevFree
      this.#setFree(b + need, blockSize - need, 0)
    } else {
      m[b >>> 2] = blockSize | prevFree
      m[(b + blockSize) >>> 2] = m[(b + blockSize) >>> 2]! & ~PREV_FREE
    }
    this.live += m[b >>> 2]! & SIZE_MASK
    return b + HEADER
  }

  /** The bytes a payload (from alloc) spans: what was asked, rounded up to GRAIN, or a little more. */
  payloadSize(payload: number): number {
    return (this.mem[(payload - HEADER) >>> 2]! & SIZE_MASK) - HEADER
  }

  /** Returns the block of `payload` (from alloc) to the free lists, merged with free neighbours. */
  free(payload: number): void {
    const m = this.mem
    const b = payload - HEADER
    let size = m[b >>> 2]! & SIZE_MASK
    this.live -= size
    const next = b + size
    const nextWord = m[next >>> 2]!
    if (nextWord & FREE) {
      const nextSize = nextWord & SIZE_MASK
      this.#unlinkBlock(next, nextSize)
      if (this.#hand === next) this.#hand = b
      size += nextSize
    }
    const prevFree = m[b >>> 2]! & PREV_FREE
    this.#setFree(b, size, prevFree)
    this.#mergeWithPrev(b)
  }

  /** Marks [b, b + size) free (keeping `prevFree`), writes its footer, flags its successor, and lists it. */
  #setFree(b: number, size: number, prevFree: number): void {
    const m = this.mem
    m[b >>> 2] = size | FREE | prevFree
    m[(b + size - 4) >>> 2] = size
    m[(b + size) >>> 2] = m[(b + size) >>> 2]! | PREV_FREE
    this.#link(b, size)
  }

  /** Merges the free block at b into a free predecessor, if it has one. */
  #mergeWithPrev(b: number): void {
    const m = this.mem
    const word = m[b >>> 2]!
    if ((word & PREV_FREE) === 0) return
    const size = word & SIZE_MASK
    const prevSize = m[(b - 4) >>> 2]!
    const p = b - prevSize
    if (this.#hand === b) this.#hand = p
    this.#unlinkBlock(b, size)
    this.#unlinkBlock(p, prevSize)
    this.#setFree(p, prevSize + size, m[p >>> 2]! & PREV_FREE)
  }

  #link(b: number, size: number): void {
    const fl = size < SMALL ? 0 : log2(size) - log2(SMALL) + 1
    const sl = size < SMALL ? size >>> GRAIN_LOG : (size >>> (log2(size) - SL_LOG)) - SL_COUNT
    const m = this.mem
    const at = fl * SL_COUNT + sl
    const head = this.#heads[at]!
    m[(b + NEXT) >>> 2] = head
    m[(b + PREV) >>> 2] = 0
    if (head !== 0) m[(head + PREV) >>> 2] = b
    this.#heads[at] = b
    this.#flBits |= 1 << fl
    this.#slBits[fl] = this.#slBits[fl]! | (1 << sl)
  }

  #unlinkBlock(b: number, size: number): void {
    const fl = size < SMALL ? 0 : log2(size) - log2(SMALL) + 1
    const sl = size < SMALL ? size >>> GRAIN_LOG : (size >>> (log2(size) - SL_LOG)) - SL_COUNT
    this.#unlink(b, fl, sl)
  }

  #unlink(b: number, fl: number, sl: number): void {
    const m = this.mem
    const next = m[(b + NEXT) >>> 2]!
    const prev = m[(b + PREV) >>> 2]!
    if (next !== 0) m[(next + PREV) >>> 2] = prev
    if (prev !== 0) m[(prev + NEXT) >>> 2] = next
    else {
      const at = fl * SL_COUNT + sl
      this.#heads[at] = next
      if (next === 0) {
        this.#slBits[fl] = this.#slBits[fl]! & ~(1 << sl)
        if (this.#slBits[fl] === 0) this.#flBits &= ~(1 << fl)
      }
    }
  }
}
