// Results out in a set order, bounded: items are numbered as they are read, their results handed
// in as they finish (in any order), and released in input order (InputOrder) or as they arrive
// (ArrivalOrder). `capacity` bounds the items numbered and not yet released, so a reader that
// numbers only within `room` holds at most that many, however large its input.
// checkUrls and the worker pool (threads/pool.ts) both release their results through it.

/** Numbered items whose results leave in the order of the implementation, at most `capacity` out. */
export interface Release<T> {
  /** Items numbered and not yet released. */
  readonly outstanding: number
  /** Results handed in and not yet released. */
  readonly held: number
  /** How many more items may be numbered now: capacity - outstanding. */
  readonly room: number
  /** Numbers `count` more items (at most `room`); returns the first one's number. */
  number(count: number): number
  /** The result of item `seq` (a number that `number` gave, handed in once). */
  put(seq: number, result: T): void
  /** True when release() has a result to give. */
  ready(): boolean
  /** The next result; call only after ready(). */
  release(): T
}

/** The counting both orders share: numbers given, results released, and the bound. */
abstract class Counted<T> implements Release<T> {
  readonly capacity: number
  #numbered = 0
  protected released = 0

  constructor(capacity: number) {
    this.capacity = capacity
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity: expected an integer >= 1, got ${String(capacity)}`)
    }
  }

  get outstanding(): number {
    return this.#numbered - this.released
  }

  get room(): number {
    return this.capacity - this.outstanding
  }

  number(count: number): number {
    // An invariant of the callers, not an input check: past the bound, memory is no longer bounded.
    if (count > this.room) throw new RangeError(`${count} items numbered with room for ${this.room}`)
    const first = this.#numbered
    this.#numbered += count
    return first
  }

  abstract readonly held: number
  abstract put(seq: number, result: T): void
  abstract ready(): boolean
  abstract release(): T
}

/** Results released in the order their items were numbered: each waits for every earlier one. */
export class InputOrder<T> extends Counted<T> {
  readonly #done = new Map<number, T>()

  get held(): number {
    return this.#done.size
  }

  put(seq: number, result: T): void {
    this.#done.set(seq, result)
  }

  ready(): boolean {
    return this.#done.has(this.released)
  }

  release(): T {
    const result = this.#done.get(this.released) as T
    this.#done.delete(this.released++)
    return result
  }
}

/** Results released as they are handed in, whatever their number. */
export class ArrivalOrder<T> extends Counted<T> {
  #fifo: T[] = []
  #head = 0

  get held(): number {
    return this.#fifo.length - this.#head
  }

  put(_seq: number, result: T): void {
    this.#fifo.push(result)
  }

  ready(): boolean {
    return this.#head < this.#fifo.length
  }

  release(): T {
    const result = this.#fifo[this.#head++]!
    this.released++
    // Emptied: start over rather than let the array grow with every result ever released.
    if (this.#head === this.#fifo.length) {
      this.#fifo.length = 0
      this.#head = 0
    }
    return result
  }
}
