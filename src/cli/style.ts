// Terminal text: ANSI colours only when the stream is a terminal and NO_COLOR is unset or empty
// (https://no-color.org), so pipes and files always get plain text; and `escapeControls`, the one
// escape every text printer applies to what it did not write itself (robots.txt lines, URLs,
// agents, file names, error messages), on a terminal or not: a hostile file must not be able to
// drive the terminal of whoever reads the output. JSON output is exact and never goes through it
// (printableJson writes the controls JSON.stringify leaves raw as JSON's own escapes).

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
 * What a terminal acts on: C0 controls (ESC starts every escape sequence, CR overwrites a line),
 * DEL, C1 controls (U+009B is a one-character CSI) and every Unicode Bidi_Control: the embeddings,
 * overrides and isolates (U+202A-U+202E, U+2066-U+2069), which reorder the text shown after them,
 * and the marks (U+061C, U+200E, U+200F), which move the digits and punctuation around them.
 */
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/
const CONTROLS = new RegExp(CONTROL.source, 'g')
const SHORT: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** `s` with every control character written as an escape (`\x1b`, `\n`, `\u202e`); `s` itself when it has none. */
export function escapeControls(s: string): string {
  return CONTROL.test(s) ? s.replace(CONTROLS, escapeOne) : s
}

function escapeOne(c: string): string {
  const code = c.charCodeAt(0)
  return SHORT[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
}

/**
 * UTF-8 bytes as text for a terminal, in the one escape: well-formed text through escapeControls,
 * and each byte of an ill-formed sequence as `\xHH` (so the bytes read can be told from the text,
 * where a decoder would have put U+FFFD for them).
 */
export function escapeBytes(bytes: Uint8Array): string {
  let out = ''
  let run = 0
  for (let i = 0; i < bytes.length;) {
    if (bytes[i]! < 0x80) {
      i++
      continue
    }
    const n = utf8Length(bytes, i)
    if (n > 0) {
      i += n
      continue
    }
    out += escapeControls(utf8.decode(bytes.subarray(run, i))) + `\\x${bytes[i]!.toString(16).padStart(2, '0')}`
    run = ++i
  }
  return out + escapeControls(utf8.decode(bytes.subarray(run)))
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** The length of the well-formed UTF-8 sequence at bytes[i] (a byte >= 0x80), or 0 when there is none. */
function utf8Length(bytes: Uint8Array, i: number): number {
  const c = bytes[i]!
  const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0
  if (need === 0 || i + need >= bytes.length) return 0
  const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80
  const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf
  const d = bytes[i + 1]!
  if (d < lo || d > hi) return 0
  for (let k = 2; k <= need; k++) if (bytes[i + k]! < 0x80 || bytes[i + k]! > 0xbf) return 0
  return need + 1
}

/**
 * `value` as JSON (indented by `indent`; 0: one line) in which the controls JSON.stringify leaves raw (DEL, C1, bidi) are
 * `\uHHHH` escapes too: the same value when parsed, and inert on a terminal. The only raw C0
 * control in that text is the indentation's line feed.
 */
export function printableJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(CONTROLS, (c) => (c === '\n' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))
}
