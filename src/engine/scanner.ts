// The line scanner's TypeScript twin (RFC 9309 2.2; Google's ParseRobotsTxt and ParseKeyAndValue):
// `scanBodyTs` reads a body the way assembly/scanner.ts does and hands every line's record (SCAN_*
// in layout.ts) to a LineSink. The tests hold the wasm scanner to it on every labelled body and on
// random ones; it also serves bodies too large to place in wasm memory (only possible with a raised
// maxBytes). The record interface both scanners feed, LineSink, is defined here.
//
// Never throws on content: every byte sequence is a valid input, and the scan is linear in the body.

import { encoder, isSpace } from './bytes.js'
import {
  KIND_ALLOW, KIND_COMMENT, KIND_DISALLOW, KIND_EMPTY, KIND_INVALID, KIND_MASK, KIND_OTHER, KIND_SITEMAP,
  KIND_USER_AGENT, MAX_LINE_BYTES, SCAN_F_COMMENT, SCAN_F_ESCAPE, SCAN_F_GLOBAL, SCAN_F_NO_COLON,
  SCAN_F_TOO_LONG, SCAN_F_TYPO,
} from './layout.js'

/** Receives a scan's records (SCAN_* in layout.ts): every line of the body, once, in order. */
export interface LineSink {
  line(line: number, kindFlags: number, lineStart: number, lineEnd: number, keyStart: number, keyEnd: number, valStart: number, valEnd: number): void
  /**
   * Optional: `count` records at once, as the wasm scan wrote them (SCAN_RECORD_SIZE bytes each,
   * from word `at` of `words`), each to be read as `line` would be called with it. A sink whose own
   * loop calls its own `line` is spared the scan's call per line, which sees every kind of sink.
   */
  records?(words: Uint32Array, at: number, count: number): void
}

/** A scanner: feeds every line of `body` to `sink`. */
export type Scanner = (body: Uint8Array, sink: LineSink) => void


// Lower-case key prefixes (Google's ParsedRobotsKey::Parse and its
// KeyIs*/allow_frequent_typos list).
const P_USER_AGENT = bytesOf('user-agent')
const P_USER_AGENT_TYPOS = [bytesOf('useragent'), bytesOf('user agent')]
const P_ALLOW = bytesOf('allow')
const P_DISALLOW = bytesOf('disallow')
const P_DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'].map(bytesOf)
const P_SITEMAP = bytesOf('sitemap')
const P_SITEMAP_TYPOS = [bytesOf('site-map')]

// At import time: TextEncoder, not Uint8Array.from with a mapping function, whose iteration cost
// every process 0.1 ms of its start (the words are ASCII, so the bytes are the same).
function bytesOf(s: string): Uint8Array {
  return encoder.encode(s)
}

function startsWithIgnoreCase(body: Uint8Array, start: number, end: number, prefix: Uint8Array): boolean {
  if (end - start < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) {
    let c = body[start + i]!
    if (c >= 0x41 && c <= 0x5a) c += 0x20
    if (c !== prefix[i]) return false
  }
  return true
}

function anyPrefix(body: Uint8Array, start: number, end: number, prefixes: Uint8Array[]): boolean {
  for (const p of prefixes) if (startsWithIgnoreCase(body, start, end, p)) return true
  return false
}

/** The key words in the order they are tried, each with its accepted misspellings. */
const KEY_WORDS = [
  { kind: KIND_USER_AGENT, word: P_USER_AGENT, typos: P_USER_AGENT_TYPOS },
  { kind: KIND_ALLOW, word: P_ALLOW, typos: [] },
  { kind: KIND_DISALLOW, word: P_DISALLOW, typos: P_DISALLOW_TYPOS },
  { kind: KIND_SITEMAP, word: P_SITEMAP, typos: P_SITEMAP_TYPOS },
]

/** Google's ParsedRobotsKey::Parse: the key's kind by case-insensitive prefix, with SCAN_F_TYPO for a misspelling. */
function classifyKey(body: Uint8Array, start: number, end: number): number {
  const first = body[start]! | 0x20
  for (const k of KEY_WORDS) {
    // A word and its misspellings share their first letter: any other first byte rules them out.
    if (k.word[0] !== first) continue
    if (startsWithIgnoreCase(body, start, end, k.word)) return k.kind
    if (anyPrefix(body, start, end, k.typos)) return k.kind | SCAN_F_TYPO
  }
  return KIND_OTHER
}

/** RFC 9309 2.2.1; Google's RobotsMatcher::HandleUserAgent: `*` alone or followed by space, tab, \v or \f. */
function isGlobalAgent(body: Uint8Array, start: number, end: number): boolean {
  if (end - start < 1 || body[start] !== 0x2a) return false
  if (end - start === 1) return true
  const c = body[start + 1]!
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c
}

function bomLength(body: Uint8Array): number {
  let i = 0
  while (i < 3 && i < body.length && body[i] === [0xef, 0xbb, 0xbf][i]) i++
  return i
}

/** Scans `body` the way assembly/scanner.ts does, one record per line, in plain TypeScript. */
export function scanBodyTs(body: Uint8Array, sink: LineSink): void {
  let lineNo = 0
  const n = body.length
  let i = bomLength(body)

  for (;;) {
    // One pass finds the line's end and its first '#' or NUL.
    let j = i
    let stop = -1
    while (j < n) {
      const c = body[j]!
      if (c === 0x0a || c === 0x0d) break
      if ((c === 0x23 || c === 0) && stop < 0) stop = j
      j++
    }
    lineNo++

    // RFC 9309 2.2; Google's ParseRobotsTxt: keep 16,663 bytes, then stop at the first NUL.
    let flags = 0
    let e = j
    if (j - i > MAX_LINE_BYTES) {
      e = i + MAX_LINE_BYTES
      flags |= SCAN_F_TOO_LONG
    }
    // Google's ParseKeyAndValue: a '#' starts a comment; a NUL (first) ends the line.
    if (stop >= 0 && stop < e) {
      if (body[stop] === 0x23) flags |= SCAN_F_COMMENT
      e = stop
    }
    let s = i
    while (s < e && isSpace(body[s]!)) s++
    while (e > s && isSpace(body[e - 1]!)) e--

    let kind = flags & SCAN_F_COMMENT ? KIND_COMMENT : KIND_EMPTY
    let keyEnd = s
    let valStart = s
    if (s < e) {
      kind = KIND_INVALID
      let ok = false
      let colon = -1
      for (let k = s; k < e; k++) {
        if (body[k] === 0x3a) {
          colon = k
          break
        }
      }
      if (colon >= 0) {
        keyEnd = colon
        while (keyEnd > s && isSpace(body[keyEnd - 1]!)) keyEnd--
        valStart = colon + 1
        ok = keyEnd > s
      } else {
        // No colon: exactly two runs of non-space/tab, separated by spaces/tabs.
        let sep = s
        while (sep < e && body[sep] !== 0x20 && body[sep] !== 0x09) sep++
        if (sep < e) {
          let v = sep
          while (v < e && (body[v] === 0x20 || body[v] === 0x09)) v++
          let more = v
          while (more < e && body[more] !== 0x20 && body[more] !== 0x09) more++
          if (more === e) {
            keyEnd = sep
            valStart = sep + 1
            flags |= SCAN_F_NO_COLON
            ok = true
          }
        }
      }
      if (ok) {
        while (valStart < e && isSpace(body[valStart]!)) valStart++
        const k = classifyKey(body, s, keyEnd)
        kind = k & KIND_MASK
        flags |= k & ~KIND_MASK
        if (kind === KIND_USER_AGENT && isGlobalAgent(body, valStart, e)) flags |= SCAN_F_GLOBAL
        if (kind === KIND_ALLOW || kind === KIND_DISALLOW) {
          for (let k = valStart; k < e; k++) {
            if (body[k] === 0x25 || body[k]! >= 0x80) {
              flags |= SCAN_F_ESCAPE
              break
            }
          }
        }
      } else {
        keyEnd = s
        valStart = s
      }
    }
    sink.line(lineNo, kind | flags, i, j, s, keyEnd, valStart, e)

    if (j >= n) break
    // RFC 9309 2.2; Google's ParseRobotsTxt: \n, \r and \r\n are one break each.
    i = body[j] === 0x0d && j + 1 < n && body[j + 1] === 0x0a ? j + 2 : j + 1
  }
}

