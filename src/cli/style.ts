// Terminal styling: ANSI colours only when the stream is a terminal and NO_COLOR is unset or empty
// (https://no-color.org), so pipes and files always get plain text; and the escaping of untrusted
// text, which no stream may print raw.

import type { Writable } from 'node:stream'

/** Colour functions for one output stream; each is the identity when colour is off. */
export interface Style {
  bold(s: string): string
  dim(s: string): string
  red(s: string): string
  yellow(s: string): string
  cyan(s: string): string
  green(s: string): string
}

const plain = (s: string) => s
const PLAIN: Style = { bold: plain, dim: plain, red: plain, yellow: plain, cyan: plain, green: plain }

function sgr(open: number, close: number): (s: string) => string {
  return (s) => `\x1b[${open}m${s}\x1b[${close}m`
}

/** The style for `stream` under the current environment. */
export function styleFor(stream: Writable & { isTTY?: boolean }): Style {
  const noColor = process.env.NO_COLOR
  if (stream.isTTY !== true || (noColor !== undefined && noColor !== '')) return PLAIN
  return { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39), cyan: sgr(36, 39), green: sgr(32, 39) }
}

// What a terminal acts on instead of showing: the C0 controls (escape sequences, carriage returns,
// backspaces), and beyond them DEL, the C1 controls, the line and paragraph separators, and the
// bidirectional marks and overrides, which reorder what is shown.
const BEYOND_C0 = '\\x7f-\\x9f\\u2028\\u2029\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069'
const UNPRINTABLE = new RegExp(`[\\x00-\\x1f${BEYOND_C0}]`, 'g')
// In JSON text the C0 controls are escaped already, and the line breaks left are the indentation's.
const UNPRINTABLE_IN_JSON = new RegExp(`[${BEYOND_C0}]`, 'g')

/**
 * Untrusted text (a file name, a URL, a robots.txt pattern) made safe to print on a terminal: each
 * character that could move the cursor, run an escape sequence or reorder the line becomes a
 * visible `\xHH` or `\uHHHH`. Everything else, other non-ASCII text included, is kept.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

/**
 * `value` as indented JSON that is also safe on a terminal: JSON.stringify escapes the C0 controls,
 * and the other characters printable() escapes become `\uHHHH` escapes, which parse back to the
 * same string, so the JSON stays exact.
 */
export function printableJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNPRINTABLE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
