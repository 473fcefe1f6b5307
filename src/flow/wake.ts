// The wake-up of a stream's loop: the loop waits for "something changed" (a result came in, a
// lookup settled, the event loop turned) and the code that changed it signals.
//
// Invariants: one wait at a time, each on a fresh promise that nothing else holds, so nothing
// outlives the wait it was made for (never Promise.race on a promise that outlives the wait: a race
// leaves a reaction on each promise it is given until that promise settles); a signal with no wait
// under way is dropped, so each wait must follow a look at the state it waits on.

/** What Wake.race gives when the signal came first: no value a step can have. */
export const SIGNALLED: unique symbol = Symbol('signalled')

export class Wake {
  #wake: (() => void) | null = null

  /** Ends the wait under way, if any. */
  signal(): void {
    const w = this.#wake
    this.#wake = null
    w?.()
  }

  /**
   * The value of `step`, or SIGNALLED when a signal comes first; with no step, SIGNALLED at the
   * next signal. A rejected step rejects. Each call adds one reaction to `step`, for as long as it
   * stays pending: wait again on the same step only after a signal, never in a loop of its own.
   */
  race<T>(step: Promise<T> | null): Promise<T | typeof SIGNALLED> {
    return new Promise((resolve, reject) => {
      this.#wake = () => resolve(SIGNALLED)
      step?.then(resolve, reject)
    })
  }
}
