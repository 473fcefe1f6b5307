// The input reader of checkUrls: an Iterable or AsyncIterable read in slabs of at most `room`
// values, so that the URLs of a slab are matched together. It owns the iterator: the one read
// under way, whether the input ended or failed, and closing it.
//
// An async input that has to wait on I/O lets the event loop turn: the slab read so far is handed
// over then, rather than a full slab later. A signal of the shared Wake (a lookup settled) hands
// it over too, so that verdicts go out while the input waits; the read under way is then kept for
// the next call, since an iterator's next() is never called again before it settles.

import { fail } from '../engine/args.js'
import { SIGNALLED, type Wake } from '../flow/wake.js'

export class SlabReader {
  readonly #input: Iterator<unknown> | AsyncIterator<unknown>
  readonly #async: boolean
  readonly #wake: Wake
  /** A next() that a signal interrupted: the following read waits on it. */
  #pending: Promise<IteratorResult<unknown>> | null = null
  #ended = false
  /** The input's next() threw: the iteration is over, and its return() is not called. */
  #failed = false
  // One setImmediate at a time, however many slabs start before the loop turns.
  #armed = false
  #turned = false
  /** A slab with values in it waits on next(): the turn of the event loop hands it over. */
  #slabWaiting = false

  constructor(values: Iterable<unknown> | AsyncIterable<unknown>, wake: Wake) {
    this.#async = typeof (values as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
    this.#input = this.#async
      ? (values as AsyncIterable<unknown>)[Symbol.asyncIterator]()
      : (values as Iterable<unknown>)[Symbol.iterator]()
    this.#wake = wake
  }

  /** The input said it is done. */
  get ended(): boolean {
    return this.#ended
  }

  /**
   * Up to `room` values (room >= 1), fewer when the input ended, an async input waits, or the Wake
   * was signalled (then possibly none). Rejects with the input's own error.
   */
  read(room: number): Promise<unknown[]> | unknown[] {
    if (this.#pending !== null) return this.#readPending()
    return this.#async ? this.#readAsync(room) : this.#readSync(room)
  }

  /** Ends the reading: an input neither done nor failed is asked to return(). */
  async close(): Promise<void> {
    if (this.#ended || this.#failed) return
    const it = this.#input as AsyncIterator<unknown>
    // With a next() still pending, an async generator's return() waits for it to settle, which an
    // input waiting on something that never comes never does: the return is then not awaited.
    if (this.#pending === null) await it.return?.()
    else void Promise.resolve(it.return?.()).catch(() => {})
  }

  #readSync(room: number): unknown[] {
    const slab: unknown[] = []
    while (slab.length < room) {
      const step = stepOf(this.#pull() as IteratorResult<unknown>)
      if (step.done === true) {
        this.#ended = true
        break
      }
      slab.push(step.value)
    }
    return slab
  }

  async #readAsync(room: number): Promise<unknown[]> {
    const slab: unknown[] = []
    this.#arm()
    while (slab.length < room) {
      if (this.#turned && slab.length > 0) break
      const next = this.#pull() as Promise<IteratorResult<unknown>>
      this.#slabWaiting = slab.length > 0
      let step: IteratorResult<unknown> | typeof SIGNALLED
      try {
        step = await this.#wake.race(next)
      } catch (err) {
        this.#failed = true
        throw err
      } finally {
        this.#slabWaiting = false
      }
      if (step === SIGNALLED) {
        this.#pending = next
        break
      }
      if (stepOf(step).done === true) {
        this.#ended = true
        break
      }
      slab.push(step.value)
    }
    return slab
  }

  /** The interrupted read: its one value, or none when signalled again or when the input ended. */
  async #readPending(): Promise<unknown[]> {
    let step: IteratorResult<unknown> | typeof SIGNALLED
    try {
      step = await this.#wake.race(this.#pending!)
    } catch (err) {
      this.#failed = true
      throw err
    }
    if (step === SIGNALLED) return []
    this.#pending = null
    if (stepOf(step).done !== true) return [step.value]
    this.#ended = true
    return []
  }

  /** The input's next(); one that throws ends the iteration. */
  #pull(): IteratorResult<unknown> | Promise<IteratorResult<unknown>> {
    try {
      return this.#input.next()
    } catch (err) {
      this.#failed = true
      throw err
    }
  }

  /** Marks the next turn of the event loop, which hands over a slab waiting on the input. */
  #arm(): void {
    this.#turned = false
    if (this.#armed) return
    this.#armed = true
    later(() => {
      this.#armed = false
      this.#turned = true
      if (this.#slabWaiting) this.#wake.signal()
    })
  }
}

/** An iterator result, checked: a next() that gives anything else is a TypeError that says what was expected. */
function stepOf(step: IteratorResult<unknown>): IteratorResult<unknown> {
  if (step === null || typeof step !== 'object') {
    fail('urls', 'an iterator whose next() gives { done, value } objects', step)
  }
  return step
}

/** After pending I/O: setImmediate where it exists (Node, Bun, Deno), else a zero timeout. */
const later: (f: () => void) => void = typeof setImmediate === 'function'
  ? (f) => void setImmediate(f)
  : (f) => void setTimeout(f, 0)
