// A model of robots-parser 3.0.1's verdicts with switches, one per documented difference between it
// and this library (docs/migrating-from-robots-parser.md). With no switch on, the model is
// robots-parser; each switch replaces one of its behaviours by Google's (docs/semantics.md); with every
// switch on, it is this library. test/compat.test.ts holds both ends to the real thing on every
// labelled case, so a disagreement between robots-parser and compat is explained by the smallest set
// of switches that turns the model's answer into compat's, and every switch is a named category.
//
// It works on the robots.txt as a JS string (what both packages are given) and is written for
// clarity over speed.

import { referencePath } from '../../src/engine/reference.js'

/** The documented differences, in the order the migration guide lists them. */
export const SWITCHES = [
  'url', // the path is taken from the URL text (Google's GetPathParamsQuery), not from WHATWG URL parsing
  'encoding', // patterns: only non-ASCII bytes are escaped, not what encodeURI escapes
  'uaToken', // a user-agent line names the [A-Za-z_-]* prefix of its value
  'globalAgent', // `*` followed by nothing or whitespace is the global agent (`* x` yes, `*/1.0` no)
  'groups', // only allow/disallow lines end a run of user-agent lines
  'named', // an agent named by any user-agent line never falls back to the `*` groups
  'keys', // keys by prefix and with Google's accepted typos
  'colon', // `key value` without a colon
  'whitespace', // keys and values trimmed of ASCII whitespace only; a BOM only skipped at the start
  'indexHtml', // `Allow: /a/index.html` also allows `/a/`
  'emptyRule', // an empty allow/disallow value is a rule (it can be the matching line)
  'nul', // a NUL byte ends the line
  'longLine', // only the first 16,663 bytes of a line are read
  'size', // only the first 512,000 bytes of the file are read
] as const

export type Switch = (typeof SWITCHES)[number]

interface Rule {
  allow: boolean
  value: string
  line: number
}

interface Run {
  /** Agents named by the run's user-agent lines. */
  ids: string[]
  global: boolean
  rules: Rule[]
  /** An allow, disallow or crawl-delay line applied to the run (robots-parser then keys its agents). */
  entry: boolean
}

export interface ModelVerdict {
  allowed: boolean
  /** The matching line, -1 when none (robots-parser's convention). */
  line: number
}

const RELATIVE_BASE = 'http://robots-relative.samclarke.com/'
const MAX_BYTES = 512_000
const MAX_LINE_BYTES = 16_663

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const latin1 = new TextDecoder('latin1')

/** robots-parser's user-agent reduction. */
export function rpAgent(ua: string): string {
  const lower = ua.toLowerCase()
  const slash = lower.indexOf('/')
  return (slash < 0 ? lower : lower.slice(0, slash)).trim()
}

function asciiTrim(s: string): string {
  return s.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '')
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase())
}

/** The first `max` UTF-8 bytes of `s` (a split character becomes U+FFFD). */
function cutUtf8(s: string, max: number): string {
  if (s.length * 3 <= max) return s
  const bytes = encoder.encode(s)
  return bytes.length <= max ? s : decoder.decode(bytes.subarray(0, max))
}

type Kind = 'ua' | 'allow' | 'disallow' | 'other'

function rpKind(key: string): Kind {
  const k = key.toLowerCase()
  return k === 'user-agent' ? 'ua' : k === 'allow' ? 'allow' : k === 'disallow' ? 'disallow' : 'other'
}

const DISALLOW_PREFIXES = ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']

function googleKind(key: string): Kind {
  const k = asciiLower(key)
  if (k.startsWith('user-agent') || k.startsWith('useragent') || k.startsWith('user agent')) return 'ua'
  if (k.startsWith('allow')) return 'allow'
  if (DISALLOW_PREFIXES.some((p) => k.startsWith(p))) return 'disallow'
  return 'other'
}

function googleToken(value: string): string {
  return asciiLower(/^[A-Za-z_-]*/.exec(value)![0])
}

function googleGlobal(value: string): boolean {
  return value === '*' || (value[0] === '*' && ' \t\v\f'.includes(value[1]!))
}

/** The runs of user-agent lines and their rules, as the switches in `on` read the file. */
export function modelParse(text: string, on: ReadonlySet<Switch>): Run[] {
  if (on.has('size')) text = cutUtf8(text, MAX_BYTES)
  if (on.has('whitespace') && text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const trim = on.has('whitespace') ? asciiTrim : (s: string) => s.trim()
  const runs: Run[] = []
  let run: Run | null = null
  // robots-parser: the last directive line was not a user-agent line. Google: an allow/disallow
  // line came after the last user-agent line. Either way the next user-agent line starts a run.
  let ended = true
  const lines = text.split(/\r\n|\r|\n/)
  for (let i = 0; i < lines.length; i++) {
    let l = lines[i]!
    if (on.has('nul') && l.includes('\0')) l = l.slice(0, l.indexOf('\0'))
    if (on.has('longLine')) l = cutUtf8(l, MAX_LINE_BYTES)
    if (l.includes('#')) l = l.slice(0, l.indexOf('#'))
    l = trim(l)
    let key: string
    let value: string
    const colon = l.indexOf(':')
    if (colon >= 0) {
      key = l.slice(0, colon)
      value = l.slice(colon + 1)
    } else if (on.has('colon')) {
      const m = /^([^ \t]+)[ \t]+([^ \t]+)$/.exec(l)
      if (m === null) continue
      key = m[1]!
      value = m[2]!
    } else {
      continue
    }
    key = trim(key)
    value = trim(value)
    if (key === '') continue
    const kind = on.has('keys') ? googleKind(key) : rpKind(key)
    if (kind === 'ua') {
      if (run === null || ended) runs.push((run = { ids: [], global: false, rules: [], entry: false }))
      if (on.has('uaToken')) {
        const token = googleToken(value)
        if (token !== '') run.ids.push(token)
      } else if (value !== '') {
        run.ids.push(rpAgent(value))
      }
      if (on.has('globalAgent') ? googleGlobal(value) : value !== '' && rpAgent(value) === '*') run.global = true
      ended = false
      continue
    }
    if (kind === 'allow' || kind === 'disallow') {
      if (run !== null) {
        run.entry = true
        if (value !== '' || on.has('emptyRule')) run.rules.push({ allow: kind === 'allow', value, line: i + 1 })
      }
      ended = true
    } else if (run !== null && key.toLowerCase() === 'crawl-delay') {
      run.entry = true
    }
    if (!on.has('groups')) ended = true
  }
  return runs
}

/** robots-parser's pattern normalisation (encodeURI, then `%25` back to `%`, hex upper-cased). */
function rpEncode(value: string): string {
  try {
    return upperHex(encodeURI(value).replace(/%25/g, '%'))
  } catch {
    return value
  }
}

function upperHex(s: string): string {
  return s.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase())
}

/** RFC 9309 2.2.2; Google's MaybeEscapePattern: bytes >= 0x80 as %XX, existing escapes upper-cased. */
function googleEscape(value: string): string {
  let out = ''
  for (const b of encoder.encode(value)) out += b >= 0x80 ? '%' + b.toString(16).toUpperCase().padStart(2, '0') : String.fromCharCode(b)
  return upperHex(out)
}

/** robots-parser's path: `pathname + search` of the URL resolved against its relative base. */
export function rpPath(url: string): string | null {
  try {
    const u = new URL(url, RELATIVE_BASE)
    return upperHex(u.pathname + u.search)
  } catch {
    return null
  }
}

function googlePath(url: string): string {
  return latin1.decode(referencePath(encoder.encode(url)))
}

/** The position-set matcher both libraries use (robots-parser ported Google's). */
function matches(pattern: string, path: string): boolean {
  let pos = [0]
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern[p]
    if (c === '$' && p + 1 === pattern.length) return pos[pos.length - 1] === path.length
    if (c === '*') {
      const from = pos[0]!
      pos = []
      for (let i = from; i <= path.length; i++) pos.push(i)
    } else {
      const next: number[] = []
      for (const i of pos) if (i < path.length && path[i] === c) next.push(i + 1)
      if (next.length === 0) return false
      pos = next
    }
  }
  return true
}

function priority(pattern: string, path: string, allow: boolean, indexHtml: boolean): number {
  if (matches(pattern, path)) return pattern.length
  if (!allow || !indexHtml) return -1
  const slash = pattern.lastIndexOf('/')
  if (slash < 0 || !pattern.startsWith('/index.htm', slash)) return -1
  const derived = pattern.slice(0, slash + 1) + '$'
  return matches(derived, path) ? derived.length : -1
}

/**
 * The model's verdict for `url` and the caller agent `ua` (reduced as robots-parser and compat both
 * reduce it), or null when robots-parser cannot parse the URL (compat then answers `undefined`).
 */
export function modelCheck(runs: readonly Run[], on: ReadonlySet<Switch>, url: string, ua: string | undefined): ModelVerdict | null {
  const path = on.has('url') ? googlePath(url) : rpPath(url)
  if (path === null) return null
  const caller = rpAgent(ua || '*')
  const naming = runs.filter((r) => r.ids.includes(caller))
  const named = on.has('named') ? naming.length > 0 : naming.some((r) => r.entry)
  const chosen = named ? naming : runs.filter((r) => r.global)
  const best = { allow: { priority: -1, line: -1 }, disallow: { priority: -1, line: -1 } }
  for (const run of chosen) {
    for (const rule of run.rules) {
      const pattern = on.has('encoding') ? googleEscape(rule.value) : rpEncode(rule.value)
      const p = priority(pattern, path, rule.allow, on.has('indexHtml'))
      const b = rule.allow ? best.allow : best.disallow
      if (p > b.priority) {
        b.priority = p
        b.line = rule.line
      }
    }
  }
  const { allow, disallow } = best
  return {
    allowed: !(disallow.priority > allow.priority && disallow.priority > 0),
    line: disallow.priority > allow.priority ? disallow.line : allow.line,
  }
}
