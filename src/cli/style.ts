// Terminal styling: ANSI colours only when the stream is a terminal and NO_COLOR is unset or empty
// (https://no-color.org), so pipes and files always get plain text.

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

/**
 * Text from an input (a file name, a crawler name, an error about a record) made safe to print on a
 * terminal: control characters (C0, DEL, C1) and the bidirectional overrides become visible
 * escapes, so a hostile input cannot move the cursor, recolour the screen or reorder a line.
 */
export function terminalText(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`
  })
}
