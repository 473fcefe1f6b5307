// The progress line of the long-running commands (filter, survey): one line on stderr, redrawn in
// place at most every 250 ms, and only when stderr is a terminal; other messages erase it first.

const REDRAW_MS = 250

/** A progress line; `text` is asked for only when the line is drawn. */
export class ProgressLine {
  readonly #tty: boolean
  readonly #text: (final: boolean) => string
  #last = 0
  #shown = false

  constructor(tty: boolean, text: (final: boolean) => string) {
    this.#tty = tty
    this.#text = text
  }

  /** Redraws the line if it is due (call it cheaply and often: every `every`-th call looks at the clock). */
  tick(count: number, every: number): void {
    if (!this.#tty || count % every !== 0) return
    const now = Date.now()
    if (now - this.#last < REDRAW_MS) return
    this.#last = now
    this.#shown = true
    process.stderr.write(`\r\x1b[K${this.#text(false)}`)
  }

  /** Erases the line (before another message), returning what to write first. */
  clear(): string {
    if (!this.#shown) return ''
    this.#shown = false
    return '\r\x1b[K'
  }

  /** The final state of the line, kept on the terminal. */
  done(): void {
    if (this.#tty) process.stderr.write(`${this.clear()}${this.#text(true)}\n`)
  }
}
