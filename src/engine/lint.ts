// Lint: findings about a robots.txt, from the parser's per-line report (Robots.lines) and from
// checks on the file as a whole (UTF-16 or binary instead of text, HTML instead of robots.txt,
// size limit, encoding, BOM, groups Google merges, a trailing group without rules, a redirect to
// another host). Findings never depend on a crawler: they say what Google's parser does with each
// line and where other crawlers may disagree. Pure (no Node API), so it sits in the engine layer:
// `robotstxt lint`, the playground and the survey's lint counts all read the same checks.

import { firstInvalidUtf8, isAscii } from './bytes.js'
import { MAX_LINE_BYTES } from './layout.js'
import { readPreference } from './preference-values.js'
import { reportLines, type LineReport } from './line-report.js'
import { valueAgentToken, type Group } from './parse.js'
import { DEFAULT_MAX_BYTES, scanBodyLines, type Robots } from './robots.js'

/** How bad a finding is: `error` = a line or part of the file has no effect or the wrong one. */
export type Severity = 'error' | 'warning' | 'info'

/** One problem or remark. */
export interface Finding {
  /** Line number from 1, or null for the file as a whole. */
  line: number | null
  severity: Severity
  /** Stable identifier of the check (for filtering in scripts). */
  code: string
  message: string
}

/** What lint needs: the parsed file, the bytes that were parsed and whether there were more. */
export interface LintInput {
  robots: Robots
  /** The bytes parsed (at most DEFAULT_MAX_BYTES). */
  body: Uint8Array
  /** Total size of the input when known. */
  size: number | null
  /** The input was longer than DEFAULT_MAX_BYTES. */
  truncated: boolean
  /**
   * When the file was fetched: the origin asked for and, when known, the URL whose body was used
   * after redirects (null when none answered).
   */
  fetched?: { origin: string; url?: string | null } | null
}

/** The result of lint, also its `--json` form (with `lines` = the per-line report). */
export interface LintResult {
  findings: Finding[]
  errors: number
  warnings: number
  infos: number
}

/** The counts of a lint result as words: `1 error, 2 warnings, 0 infos`. */
export function lintCounts(result: Pick<LintResult, 'errors' | 'warnings' | 'infos'>): string {
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`
  return `${count(result.errors, 'error')}, ${count(result.warnings, 'warning')}, ${count(result.infos, 'info')}`
}

// Keyed by a file's own keys, so Maps: an object literal would answer "constructor" or
// "__proto__" from Object.prototype.
// Keys with a known meaning outside Google's parser: said once, as info, not as unknown keys.
const KNOWN_OTHER = new Map(Object.entries({
  'crawl-delay': 'Crawl-delay is ignored by Google; Bing, Yandex and many other crawlers honour it',
  'host': 'Host is a Yandex extension (no longer used by Yandex either); other crawlers ignore it',
  'clean-param': 'Clean-param is a Yandex extension; other crawlers ignore it',
  'request-rate': 'Request-rate is not standard; Google and most crawlers ignore it',
  'visit-time': 'Visit-time is not standard; Google and most crawlers ignore it',
  'content-signal': 'Content-Signal is Cloudflare\'s AI usage preference (Content Signals Policy); Google ignores it for crawling',
  'content-usage': 'Content-Usage is the IETF AIPREF usage preference (draft-ietf-aipref-attach); Google ignores it for crawling',
}))
const UNSUPPORTED = new Map(Object.entries({
  noindex: 'Noindex is not supported in robots.txt (Google stopped reading it in 2019); use a robots meta tag or an X-Robots-Tag header',
  nofollow: 'Nofollow is not a robots.txt directive; use a robots meta tag or an X-Robots-Tag header',
  noarchive: 'Noarchive is not a robots.txt directive; use a robots meta tag or an X-Robots-Tag header',
}))
// Keys that differ from a real one only by case, punctuation or spacing, for "did you mean".
const CANONICAL = new Map(Object.entries({
  useragent: 'User-agent', allow: 'Allow', disallow: 'Disallow', sitemap: 'Sitemap', crawldelay: 'Crawl-delay',
}))
const TYPO_OF: Record<LineReport['type'], string> = {
  'user-agent': 'User-agent', 'allow': 'Allow', 'disallow': 'Disallow', 'sitemap': 'Sitemap',
  'empty': '', 'comment': '', 'invalid': '', 'other': '',
}
const CRAWL_DELAY = /^[0-9]+(\.[0-9]+)?$/
const ABSOLUTE_HTTP = /^https?:\/\/[^\s/?#]+\S*$/i
const HTML_TAG = /<(?:!doctype\s+html|html|head|body|title|meta|script|div|p)[\s>]/i
const FULL_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//
const windows1252 = new TextDecoder('latin1')

/** Runs every check; findings come sorted by line, file-wide ones first. */
export function lint(input: LintInput): LintResult {
  const { robots, body } = input
  const findings: Finding[] = []
  const add = (line: number | null, severity: Severity, code: string, message: string) => {
    findings.push({ line, severity, code, message })
  }

  const redirect = redirectNote(input.fetched)
  if (redirect !== null) add(null, 'info', 'redirect', redirect)
  // Whether the body holds a NUL or ill-formed UTF-8 at all: most files have neither, and need
  // neither the not-text checks nor the per-line byte checks below.
  const hasNul = body.indexOf(0) >= 0
  const invalidUtf8 = !isAscii(body) && firstInvalidUtf8(body, 0, body.length) >= 0
  // A body that is not UTF-8 text has no line worth reporting: one error says why, and nothing else.
  const notText = notTextProblem(body, hasNul, invalidUtf8)
  if (notText !== null) {
    add(null, 'error', notText.code, notText.message)
    return counted(findings)
  }

  const htmlLine = htmlStart(body)
  if (htmlLine !== null) {
    add(htmlLine, 'error', 'html', 'this looks like an HTML page, not a robots.txt (a server answering every path with a page?); its lines are not rules')
  }
  // The size finding comes here, once the line scan below has counted the lines.
  const tooLargeAt = findings.length
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) {
    add(1, 'info', 'bom', 'the file starts with a UTF-8 byte order mark; Google skips it, some other parsers read it as part of the first key')
  }
  // Per-line byte checks on the scanner's line bounds (the lines the report numbers), only when the
  // body holds a NUL or ill-formed UTF-8 at all (a line break never splits a UTF-8 sequence, so a
  // well-formed body has well-formed lines).
  if (hasNul || invalidUtf8) {
    scanBodyLines(body, {
      line(line, _kindFlags, start, end) {
        const bad = invalidUtf8 ? firstInvalidUtf8(body, start, end) : -1
        // A character cut in two by the size limit is not the author's mistake.
        if (bad >= 0 && !(input.truncated && end === body.length && incompleteTail(body, bad, end))) {
          add(line, 'warning', 'invalid-utf8', 'not valid UTF-8: save the file as UTF-8 (its bytes are percent-encoded and only match URLs with the same bytes)')
        }
        if (hasNul && body.subarray(start, end).indexOf(0) >= 0) add(line, 'warning', 'nul', 'a NUL byte ends the line here; the rest of the line is ignored')
      },
    })
  }

  let directives = 0
  const groups = new GroupChecks(robots.parsed.groups)
  // Each line's report as it is made, none kept (Robots.lines would keep them all), from the wasm
  // scanner (faster than forEachLine's twin on real files; nothing below calls into wasm), whose
  // scan also parses the body if nothing has yet.
  reportLines(robots.bodyBytes, (_body, sink) => robots.scanWith(sink), (r) => {
    groups.line(r, add)
    if (r.type === 'empty' || r.type === 'comment') return
    // In an HTML page every line of markup would be reported; the one html finding says it all.
    if (htmlLine !== null && (r.type === 'invalid' || r.type === 'other')) return
    if (r.tooLong) add(r.line, 'warning', 'line-too-long', `longer than ${MAX_LINE_BYTES.toLocaleString('en-US')} bytes; the rest of the line is ignored`)
    if (r.type === 'invalid') {
      add(r.line, 'warning', 'invalid-line', 'not a "key: value" line; ignored')
      return
    }
    directives++
    const key = r.key ?? ''
    const value = r.value ?? ''
    if (r.typo) add(r.line, 'warning', 'typo', `"${key}" is read as ${TYPO_OF[r.type]} by Google, but other crawlers may not accept the misspelling`)
    if (r.missingColon) add(r.line, 'warning', 'missing-colon', `no ":" after "${key}"; Google accepts it, other crawlers may not`)
    switch (r.type) {
      case 'user-agent':
        lintAgent(r, value, add)
        break
      case 'allow':
      case 'disallow':
        lintRule(r, value, add)
        break
      case 'sitemap':
        if (!ABSOLUTE_HTTP.test(value)) add(r.line, 'warning', 'sitemap-url', `sitemap "${value}" is not an absolute http(s) URL; crawlers need the full URL`)
        break
      case 'other':
        lintOther(r, key, value, add)
        break
    }
  })

  if (input.truncated) {
    const last = robots.parsed.lineCount
    const cutAtBreak = body.length > 0 && (body[body.length - 1] === 0x0a || body[body.length - 1] === 0x0d)
    const size = input.size !== null ? `${input.size.toLocaleString('en-US')} bytes` : 'more than 500 KiB'
    const where = cutAtBreak ? `everything from line ${last} on is ignored` : `line ${last} is cut and everything after it is ignored`
    findings.splice(tooLargeAt, 0, { line: last, severity: 'error', code: 'too-large', message: `the file is ${size}; crawlers read only the first ${DEFAULT_MAX_BYTES.toLocaleString('en-US')} bytes (500 KiB): ${where}` })
  }

  groups.finish(add)
  const lastGroup = robots.parsed.groups[robots.parsed.groups.length - 1]
  if (lastGroup !== undefined && lastGroup.ruleEnd === lastGroup.ruleStart) {
    const at = lastGroup.agentLines
    const which = at.length === 1 ? `User-agent line ${at[0]} is` : `User-agent lines ${at[0]}-${at[at.length - 1]} are`
    add(at[0]!, 'warning', 'empty-group', lastGroup.agents.length > 0
      ? `${which} followed by no rules: the crawlers named there may fetch everything (the * group no longer applies to them)`
      : `${which} followed by no rules`)
  }
  if (directives === 0 && htmlLine === null) {
    add(null, 'info', 'no-rules', body.length === 0 ? 'the file is empty: every crawler may fetch everything' : 'no directives: every crawler may fetch everything')
  }

  return counted(findings)
}

/** The findings sorted by line (file-wide ones first), with their counts. */
function counted(findings: Finding[]): LintResult {
  findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
  let errors = 0
  let warnings = 0
  let infos = 0
  for (const f of findings) {
    if (f.severity === 'error') errors++
    else if (f.severity === 'warning') warnings++
    else infos++
  }
  return { findings, errors, warnings, infos }
}

type Add = (line: number | null, severity: Severity, code: string, message: string) => void

/**
 * Two checks on how Google groups the file (RFC 9309 2.2.1; Google's RobotsMatcher::HandleUserAgent
 * and its robots.txt documentation):
 * - a group's user-agent lines that something other than a comment separates (a blank line, a
 *   Crawl-delay, a Sitemap): the author likely meant two groups, but a user-agent line after no
 *   Allow or Disallow line continues the group, so its rules apply to the agents of both;
 * - an agent (or `*`) named in two groups: Google merges their rules, other crawlers may read one.
 * Fed every line in order; `finish` adds the merged-group findings.
 */
class GroupChecks {
  /** Runs of a group's user-agent lines with other lines between them, in line order. */
  private readonly gaps: { from: number; to: number; first: number; separator: LineReport | null }[] = []
  private next = 0
  /** The text of the user-agent lines the gaps name (line number to value). */
  private readonly agentText = new Map<number, string>()
  /** Where each agent token ('*' for the global agent) was first named: its group and line. */
  private readonly named = new Map<string, { group: number; line: number }>()
  private readonly reported = new Set<string>()

  constructor(groups: readonly Group[]) {
    for (const g of groups) {
      const lines = g.agentLines
      for (let i = 1; i < lines.length; i++) {
        if (lines[i]! - lines[i - 1]! > 1) this.gaps.push({ from: lines[i - 1]!, to: lines[i]!, first: lines[0]!, separator: null })
      }
    }
    for (const gap of this.gaps) this.agentText.set(gap.from, '').set(gap.to, '')
  }

  line(r: LineReport, add: Add): void {
    while (this.next < this.gaps.length && this.gaps[this.next]!.to <= r.line) this.next++
    const gap = this.gaps[this.next]
    if (gap !== undefined && r.line > gap.from && r.type !== 'comment') gap.separator ??= r
    if (r.type !== 'user-agent') return
    const value = r.value ?? ''
    if (this.agentText.has(r.line)) this.agentText.set(r.line, value)
    const token = value === '*' || /^\*[ \t\v\f]/.test(value) ? '*' : valueAgentToken(value)
    if (token === '') return
    const first = this.named.get(token)
    if (first === undefined) {
      this.named.set(token, { group: r.group, line: r.line })
      return
    }
    if (first.group === r.group || this.reported.has(`${token}\n${r.group}`)) return
    this.reported.add(`${token}\n${r.group}`)
    add(r.line, 'warning', 'duplicate-group', token === '*'
      ? `a second "User-agent: *" group (the first is on line ${first.line}): Google merges the rules of both, other crawlers may read only the first`
      : `"${token}" already has a group (line ${first.line}): Google merges the rules of both groups for it, other crawlers may read only the first`)
  }

  finish(add: Add): void {
    for (const gap of this.gaps) {
      const sep = gap.separator
      if (sep === null) continue
      const between = sep.type === 'empty' ? `the blank line ${sep.line}` : sep.type === 'invalid' ? `line ${sep.line}` : `the ${sep.key ?? ''} line ${sep.line}`
      const a = this.agentText.get(gap.from)!
      const b = this.agentText.get(gap.to)!
      const everyone = a === '*' || b === '*' ? ' (with "*": every crawler no other group names)' : ''
      add(gap.to, 'warning', 'merged-group', `User-agent lines ${gap.from} ("${a}") and ${gap.to} ("${b}") are one group for Google: a User-agent line after no Allow or Disallow line continues the group (${between} does not end it), so the group's rules apply to both agents${everyone}`)
    }
  }
}

/**
 * A file that is not UTF-8 text, as one error: UTF-16 (by its byte order mark, or a NUL in every
 * other byte of mostly-ASCII text) or bytes that are not text at all (a compressed or binary file).
 * Crawlers read robots.txt as UTF-8 (RFC 9309 2.3), so no line of such a file is a rule.
 */
function notTextProblem(body: Uint8Array, hasNul: boolean, invalidUtf8: boolean): { code: string; message: string } | null {
  const utf16 = utf16Of(body, hasNul)
  if (utf16 !== null) {
    return { code: 'utf16', message: `the file is UTF-16 (${utf16}): crawlers read robots.txt as UTF-8, so none of its lines is read as a rule; save it as UTF-8` }
  }
  // Binary data holds NULs or ill-formed UTF-8 (text with neither is text, whatever else it holds).
  const share = hasNul || invalidUtf8 ? nonTextShare(body) : null
  if (share !== null) {
    return { code: 'binary', message: `the file is not text: ${share}% of its first ${Math.min(body.length, TEXT_SAMPLE).toLocaleString('en-US')} bytes are control bytes or invalid UTF-8 (a compressed or binary file served as robots.txt?); crawlers find no rules in it` }
  }
  return null
}

/** Bytes looked at to decide whether a body is text, as tools that guess file types do. */
const TEXT_SAMPLE = 8192

/** "little-endian, with a byte order mark" and the like, or null when the body is not UTF-16. */
function utf16Of(body: Uint8Array, hasNul: boolean): string | null {
  if (body[0] === 0xff && body[1] === 0xfe) return 'little-endian, with a byte order mark'
  if (body[0] === 0xfe && body[1] === 0xff) return 'big-endian, with a byte order mark'
  if (!hasNul) return null
  const pairs = Math.min(body.length, TEXT_SAMPLE) >> 1
  if (pairs < 2) return null
  let evenNul = 0
  let oddNul = 0
  for (let i = 0; i < pairs * 2; i += 2) {
    if (body[i] === 0) evenNul++
    if (body[i + 1] === 0) oddNul++
  }
  // ASCII characters in UTF-16 have a zero high byte: after the low one (LE) or before it (BE).
  if (oddNul >= pairs * 0.4 && evenNul <= pairs * 0.05) return 'little-endian, without a byte order mark'
  if (evenNul >= pairs * 0.4 && oddNul <= pairs * 0.05) return 'big-endian, without a byte order mark'
  return null
}

/**
 * The share (in %) of control bytes and invalid UTF-8 in the body's first TEXT_SAMPLE bytes when
 * it marks the body as not text: at least 30%, with some control bytes (text in a legacy encoding
 * such as Shift_JIS or Latin-1 is invalid UTF-8 but holds no controls); else null.
 */
function nonTextShare(body: Uint8Array): number | null {
  const n = Math.min(body.length, TEXT_SAMPLE)
  if (n < 32) return null
  let controls = 0
  for (let i = 0; i < n; i++) {
    const c = body[i]!
    // C0 controls other than tab, LF, VT, FF and CR, and DEL.
    if ((c < 0x20 && (c < 0x09 || c > 0x0d)) || c === 0x7f) controls++
  }
  if (controls * 100 < n) return null
  let invalid = 0
  for (let at = firstInvalidUtf8(body, 0, n); at >= 0; at = firstInvalidUtf8(body, at + 1, n)) invalid++
  const share = Math.round(((controls + invalid) * 100) / n)
  return share >= 30 ? share : null
}

/** The info for a fetch redirected to another host: whose robots.txt the rules are. */
function redirectNote(fetched: LintInput['fetched']): string | null {
  const url = fetched?.url
  if (fetched === undefined || fetched === null || typeof url !== 'string') return null
  let final: URL
  try {
    final = new URL(url)
  } catch {
    return null
  }
  if (final.origin === fetched.origin) return null
  // RFC 9309 2.3.1.2; Google follows at least five redirect hops and uses the file it lands on.
  return `${fetched.origin}/robots.txt redirects to ${final.href}: the rules here are ${final.host}'s file, and crawlers apply them to the URLs of ${fetched.origin}`
}

function lintAgent(r: LineReport, value: string, add: Add): void {
  if (value === '*' || /^\*[ \t\v\f]/.test(value)) return
  const token = value.slice(0, valueAgentToken(value).length)
  if (value.startsWith('*')) {
    add(r.line, 'warning', 'agent-wildcard', `"${value}" is not the global agent: "*" means every crawler only on its own, and names no crawler here`)
  } else if (token === '') {
    add(r.line, 'warning', 'agent-no-token', value === '' ? 'empty user-agent: it names no crawler' : `"${value}" names no crawler: a user-agent is matched by its leading letters, "-" and "_", and it has none`)
  } else if (token !== value) {
    add(r.line, 'info', 'agent-token', `matched as "${token}": only the leading letters, "-" and "_" of a user-agent count`)
  }
}

function lintRule(r: LineReport, value: string, add: Add): void {
  const name = r.type === 'allow' ? 'Allow' : 'Disallow'
  if (r.outsideGroup) add(r.line, 'error', 'outside-group', `${name} before any User-agent line: it applies to no crawler`)
  if (r.neverMatches) {
    const hint = FULL_URL.test(value) ? ': patterns are paths, write the path without scheme and host' : ': it never matches (paths start with "/")'
    add(r.line, 'error', 'never-matches', `pattern "${value}" starts with neither "/" nor "*"${hint}`)
  }
  const dollar = value.indexOf('$')
  if (dollar >= 0 && dollar < value.length - 1) {
    add(r.line, 'info', 'literal-dollar', '"$" anchors the end of the URL only as the last character of a pattern; here it matches a literal "$"')
  }
  if (r.type === 'allow' && value === '' && !r.outsideGroup) {
    add(r.line, 'info', 'empty-allow', 'an empty Allow matches every path with priority 0; it has no effect')
  }
}

function lintOther(r: LineReport, key: string, value: string, add: Add): void {
  const lower = key.toLowerCase()
  if (lower.startsWith('\ufeff')) {
    add(r.line, 'error', 'bom-in-key', 'a byte order mark (U+FEFF) before the key makes it unrecognised: the line is ignored')
    return
  }
  const known = KNOWN_OTHER.get(lower)
  if (known !== undefined) {
    add(r.line, 'info', 'extension', known)
    if (lower === 'crawl-delay' && !CRAWL_DELAY.test(value)) add(r.line, 'warning', 'crawl-delay-value', `crawl-delay "${value}" is not a number of seconds (digits, optionally with a decimal point)`)
    if (lower === 'content-signal' || lower === 'content-usage') {
      for (const p of readPreference({ line: r.line, key, name: lower, value, group: r.group, agents: [] }).problems) {
        add(r.line, 'warning', 'usage-preference', `"${p.member}" in ${key}: ${p.reason}; crawlers skip it`)
      }
    }
    return
  }
  const unsupported = UNSUPPORTED.get(lower)
  if (unsupported !== undefined) {
    add(r.line, 'warning', 'unsupported', unsupported)
    return
  }
  const canonical = CANONICAL.get(lower.replace(/[^a-z]/g, ''))
  const hint = canonical !== undefined ? `; did you mean "${canonical}"?` : ''
  add(r.line, 'warning', 'unknown-key', `unknown key "${key}": ignored${hint}`)
}

/** Line number of the first HTML tag when the file starts (after BOM and whitespace) with '<'. */
function htmlStart(body: Uint8Array): number | null {
  let i = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0
  while (i < body.length && (body[i] === 0x20 || (body[i]! >= 0x09 && body[i]! <= 0x0d))) i++
  if (body[i] !== 0x3c) return null
  // One character per byte, so an index in the text is one in the bytes. TextDecoder's latin1
  // (windows-1252 on most runtimes) may turn 0x80-0x9f into other characters than
  // String.fromCharCode does, but none is '<', '>', '!', an ASCII letter or \s: the tag pattern
  // matches alike.
  const head = windows1252.decode(body.subarray(i, i + 4096))
  const m = HTML_TAG.exec(head)
  if (m === null) return null
  return lineAt(body, i + m.index)
}

/** Line number (RFC 9309 2.2; Google's ParseRobotsTxt: LF, CR and CRLF are one break each) of byte offset `at`. */
function lineAt(body: Uint8Array, at: number): number {
  let line = 1
  for (let i = 0; i < at; i++) {
    const c = body[i]
    if (c === 0x0a) line++
    else if (c === 0x0d) {
      line++
      if (body[i + 1] === 0x0a && i + 1 < at) i++
    }
  }
  return line
}

/** body[at, e) is the start of a valid multi-byte sequence that merely runs past `e`. */
function incompleteTail(b: Uint8Array, at: number, e: number): boolean {
  const c = b[at]!
  const need = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0
  if (need === 0 || at + need <= e) return false
  for (let k = at + 1; k < e; k++) if ((b[k]! & 0xc0) !== 0x80) return false
  return true
}
