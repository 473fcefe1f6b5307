// `robotstxt test ROBOTS EXPECTATIONS [--format text|json|github|junit] [--origin ORIGIN]
// [--allow-unavailable]`: a site's robots.txt held to what its owner expects (expectations.ts), for
// CI. Every verdict and deciding line comes from judgeExpectations (the engine's Robots.check, or
// the fetch outcome's when ROBOTS was a URL that gave no file); this module reads, reports and
// picks the exit status: 0 when every expectation is met, 1 when one is not, 2 on a usage error,
// unreadable input or a malformed expectation line (reported with its line number; the good lines
// are still checked), 4 when ROBOTS was fetched and gave no usable robots.txt (a network error, a
// timeout, 429, 5xx, a cut or undecodable body): a gate that cannot see the file never passes.

import { reportFetch } from './cmd-check.js'
import { InputError, UsageError } from './errors.js'
import { judgeExpectations, parseExpectations, type Expectation, type ExpectationError, type TestResult } from './expectations.js'
import { HELP } from './help.js'
import { COMMON_OPTIONS, FETCH_OPTIONS, notOnOrigin, onOrigin, optionError, parse } from './options.js'
import { fetchJson, fetchSettings, fetchStatus, loadRobots, readInput, type LoadedRobots } from './source.js'
import { escapeControls, printableJson, styleFor, type Style } from './style.js'
import type { RobotsFetch } from '../http/fetch.js'

const OPTIONS = {
  ...COMMON_OPTIONS, ...FETCH_OPTIONS,
  format: { type: 'string' }, origin: { type: 'string' }, 'allow-unavailable': { type: 'boolean' },
} as const

const FORMATS = ['text', 'json', 'github', 'junit'] as const
type Format = (typeof FORMATS)[number]

/** Exit status of a run whose ROBOTS was fetched and gave no usable robots.txt. */
export const EXIT_UNAVAILABLE = 4

/**
 * Bytes of an expectations file. Every result is held until the report is written (JUnit's
 * counts come first), about 2 KB of memory per line: 1 MiB is some 100,000 of the
 * shortest lines, a few hundred MB, and far more than a site's expectations.
 */
export const MAX_EXPECTATIONS_BYTES = 1 << 20

export type { TestResult }

/**
 * What a fetched ROBOTS means for the run, when it gave no rules: `unavailable` (429, 5xx, no
 * response, a cut or undecodable body: crawlers treat every URL as disallowed) or `missing` (a 4xx:
 * no robots.txt, every URL allowed). `judged` says whether the expectations were checked against it.
 */
interface FetchState {
  kind: 'unavailable' | 'missing'
  fetched: RobotsFetch
  judged: boolean
}

/** What every format reports. */
interface Report {
  robots: LoadedRobots
  /** EXPECTATIONS as given, '(stdin)' for '-'. */
  expectations: string
  results: TestResult[]
  errors: ExpectationError[]
  /** A fetch that gave no rules, or null (a file, or a fetch that gave one). */
  fetch: FetchState | null
  /** Expectations not checked, because the fetch gave no usable robots.txt. */
  notChecked: Expectation[]
}

/** Runs `test`; resolves to the exit status. */
export async function runTest(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, 'test')
  if (values.help === true) {
    process.stdout.write(HELP.test!)
    return 0
  }
  const [robotsArg, expectationsArg, ...extra] = positionals
  if (robotsArg === undefined) throw new UsageError('missing ROBOTS (a file path or an http(s) URL)', 'test')
  if (expectationsArg === undefined) throw new UsageError('missing EXPECTATIONS (a file of "AGENT allow|disallow URL-OR-PATH" lines)', 'test')
  if (extra.length > 0) throw new UsageError(`test takes ROBOTS and EXPECTATIONS, got ${positionals.length} arguments`, 'test')
  if (robotsArg === '-' && expectationsArg === '-') throw new UsageError('ROBOTS and EXPECTATIONS cannot both be stdin ("-")', 'test')
  const format = (values.format ?? 'text') as string
  if (!(FORMATS as readonly string[]).includes(format)) throw optionError('format', `expected one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`, 'test')
  const origin = values.origin === undefined ? null : originOption(values.origin as string)
  const allowUnavailable = values['allow-unavailable'] === true
  const settings = fetchSettings(values, 'test')

  // The expectations come first: a file that holds none is reported before any fetch.
  const label = expectationsArg === '-' ? '(stdin)' : expectationsArg
  const read = await readInput(expectationsArg, MAX_EXPECTATIONS_BYTES)
  if (read.truncated) throw new InputError(`${label}: longer than ${MAX_EXPECTATIONS_BYTES.toLocaleString('en-US')} bytes; split it into several files`)
  const { expectations, errors } = parseExpectations(new TextDecoder().decode(read.bytes))
  if (expectations.length === 0 && errors.length === 0) throw new InputError(`${label}: no expectations (each line is "AGENT allow|disallow URL-OR-PATH")`)

  const robots = await loadRobots(robotsArg, settings, 'test')
  reportFetch(robots)
  const checked: Expectation[] = []
  for (const e of expectations) {
    const placed = onSite(e, robots, origin)
    if (typeof placed === 'string') errors.push({ line: e.line, message: placed })
    else checked.push(placed)
  }
  errors.sort((a, b) => a.line - b.line)

  const fetch = fetchState(robots, allowUnavailable)
  const judged = fetch === null || fetch.judged
  const decided = fetch === null ? null : fetch.kind === 'missing' ? 'allow-all' : 'disallow-all'
  const report: Report = {
    robots, expectations: label, errors, fetch,
    results: judged ? judgeExpectations(robots.robots, checked, decided) : [],
    notChecked: judged ? [] : checked,
  }

  for (const err of errors) process.stderr.write(`robotstxt: ${escapeControls(`${label}:${err.line}: ${err.message}`)}\n`)
  process.stdout.write(RENDER[format as Format](report))
  if (fetch !== null && fetch.kind === 'unavailable' && !fetch.judged) return EXIT_UNAVAILABLE
  return errors.length > 0 ? 2 : report.results.some((r) => !r.passed) ? 1 : 0
}

/**
 * `--origin ORIGIN`: the site the expectations' absolute URLs are written for (production), as
 * `scheme://host[:port]`; a usage error for anything else.
 */
function originOption(value: string): string {
  let url: URL | null = null
  try {
    url = new URL(value)
  } catch {
    // Reported below.
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw optionError('origin', `expected an http(s) origin such as https://www.example.com (no path, query or fragment), got ${JSON.stringify(value)}`, 'test')
  }
  return url.origin
}

/**
 * The expectation placed on ROBOTS' site, or why it cannot be: a URL on `--origin` is checked as
 * its path there; when ROBOTS was fetched, a URL must be on that origin or on `--origin`; with
 * `--origin` and a file, every URL must be on `--origin`.
 */
function onSite(e: Expectation, robots: LoadedRobots, origin: string | null): Expectation | string {
  if (e.url.startsWith('/')) return e
  if (origin !== null && onOrigin(e.url, origin)) return { ...e, checkedAs: pathOf(e.url) }
  const fetched = robots.fetched
  if (fetched !== null) {
    if (onOrigin(e.url, fetched.origin)) return e
    return origin === null ? notOnOrigin(e.url, fetched.origin) : `${notOnOrigin(e.url, fetched.origin)}, nor on --origin ${origin}`
  }
  return origin === null ? e : `${JSON.stringify(e.url)} is not on --origin ${origin}`
}

/**
 * The path, query and fragment of an absolute URL as written (no re-encoding: the matcher takes
 * URLs as written); "/" when it has none.
 */
function pathOf(url: string): string {
  const authority = url.indexOf('//') + 2
  let at = authority
  while (at < url.length && url[at] !== '/' && url[at] !== '?' && url[at] !== '#') at++
  const rest = url.slice(at)
  return rest.startsWith('/') ? rest : `/${rest}`
}

/** The fetch's state when it gave no rules; null for a file or a fetch that gave one. */
function fetchState(robots: LoadedRobots, allowUnavailable: boolean): FetchState | null {
  const f = robots.fetched
  if (f === null || f.outcome === 'ok') return null
  if (f.outcome === 'allow-all') return { kind: 'missing', fetched: f, judged: true }
  return { kind: 'unavailable', fetched: f, judged: allowUnavailable }
}

/**
 * Why a fetch gave no robots.txt, in a few words: "HTTP 503", "no response: connection refused".
 * The one place a failed fetch is put in words for `test`.
 */
export function fetchProblem(f: RobotsFetch): string {
  return f.status === null ? fetchStatus(f) : `HTTP ${f.status}`
}

/** What the fetch means, as one sentence for every format; null when ROBOTS gave rules. */
function fetchMessage(report: Report): { level: 'error' | 'warning' | 'notice'; title: string; message: string } | null {
  const state = report.fetch
  if (state === null) return null
  const where = robotsName(report.robots)
  const problem = fetchProblem(state.fetched)
  if (state.kind === 'missing') {
    return { level: 'notice', title: 'no robots.txt', message: `${where}: no robots.txt (${problem}): crawlers may fetch every URL, and the expectations are checked against that` }
  }
  const unavailable = `${where}: no usable robots.txt (${problem}): crawlers treat every URL as disallowed until a fetch succeeds`
  if (state.judged) return { level: 'warning', title: 'robots.txt unavailable', message: `${unavailable}; with --allow-unavailable the expectations are checked against that` }
  const n = report.notChecked.length
  return { level: 'error', title: 'robots.txt unavailable', message: `${unavailable}; ${n} expectation${n === 1 ? '' : 's'} not checked (--allow-unavailable checks them against disallow-all)` }
}

/** How ROBOTS is named in messages: the file as given, or the URL fetched. */
function robotsName(loaded: LoadedRobots): string {
  return loaded.fetched === null ? loaded.label : `${loaded.fetched.origin}/robots.txt`
}

/** The verdict and what decided it: "disallowed by robots.txt:4 (Disallow: /private/)". */
function verdictText(r: TestResult, report: Report): string {
  const verdict = r.allowed ? 'allowed' : 'disallowed'
  const state = report.fetch
  if (state !== null) {
    const problem = fetchProblem(state.fetched)
    return state.kind === 'missing'
      ? `${verdict}: ${robotsName(report.robots)} gave no robots.txt (${problem}), so every URL is allowed`
      : `${verdict}: ${robotsName(report.robots)} gave no usable robots.txt (${problem}), so every URL is disallowed`
  }
  if (r.robotsLine === 0) return `${verdict}: no rule of ${robotsName(report.robots)} matches`
  const rule = r.rule === null ? '' : ` (${r.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${r.rule.pattern})`
  return `${verdict} by ${robotsName(report.robots)}:${r.robotsLine}${rule}`
}

/** The agent as written, with a preset's tokens when it stands for several. */
function agentText(e: Expectation): string {
  return e.tokens.length > 1 ? `${e.agent} (${e.tokens.join(', ')})` : e.agent
}

function expectationText(r: Expectation): string {
  return `${agentText(r)} ${r.expected} ${r.url}`
}

/** The one-line message of a failed expectation. */
function failureText(r: TestResult, report: Report): string {
  return `expected ${expectationText(r)}, but it is ${verdictText(r, report)}`
}

function summaryText(report: Report): string {
  const failed = report.results.filter((r) => !r.passed).length
  const total = report.results.length
  const skipped = report.notChecked.length
  const met = skipped > 0
    ? `no usable robots.txt, ${skipped} expectation${skipped === 1 ? '' : 's'} not checked`
    : failed === 0 ? `all ${total} expectations met` : `${total - failed} of ${total} expectations met, ${failed} failed`
  const bad = report.errors.length === 0 ? '' : `; ${report.errors.length} malformed line${report.errors.length === 1 ? '' : 's'} in ${report.expectations}`
  return `${robotsName(report.robots)}: ${met}${bad}`
}

const RENDER: Record<Format, (report: Report) => string> = {
  text: (report) => renderText(report, styleFor(process.stdout)),
  json: renderJson,
  github: renderGithub,
  junit: renderJunit,
}

const TEXT_LEVEL: Record<'error' | 'warning' | 'notice', [label: string, style: keyof Style]> = {
  error: ['ERROR', 'red'], warning: ['WARNING', 'yellow'], notice: ['NOTE', 'cyan'],
}

/**
 * What the fetch means, when it gave no rules ("ERROR", "WARNING" or "NOTE"); one line per
 * expectation, "pass" or "FAIL", its place, and the verdict that decided; then a summary.
 */
function renderText(report: Report, st: Style): string {
  let out = ''
  const notice = fetchMessage(report)
  if (notice !== null) {
    const [label, style] = TEXT_LEVEL[notice.level]
    out += `${st[style](label)}  ${escapeControls(notice.message)}\n`
  }
  for (const r of report.results) {
    const status = r.passed ? st.green('pass') : st.red('FAIL')
    const where = st.dim(escapeControls(`${report.expectations}:${r.line}`))
    out += `${status}  ${where}  ${escapeControls(expectationText(r))}  ->  ${escapeControls(verdictText(r, report))}\n`
  }
  return out + escapeControls(summaryText(report)) + '\n'
}

/**
 * The whole report as one JSON object, every field as the engine gave it. `fetch` (null for a
 * file) has `passed: false` when the fetch gave no usable robots.txt, and `message` when it gave
 * no rules.
 */
function renderJson(report: Report): string {
  const f = report.robots.fetched
  const failed = report.results.filter((r) => !r.passed).length
  const notice = fetchMessage(report)
  return printableJson({
    robots: report.robots.label,
    expectations: report.expectations,
    fetch: f === null ? null : {
      ...fetchJson(f), passed: f.outcome !== 'disallow-all',
      ...(notice !== null ? { message: notice.message } : {}),
    },
    summary: { total: report.results.length, passed: report.results.length - failed, failed, malformed: report.errors.length, notChecked: report.notChecked.length },
    results: report.results,
    errors: report.errors,
    notChecked: report.notChecked,
  }) + '\n'
}

// GitHub's workflow commands (docs.github.com, "Workflow commands for GitHub Actions"; the
// toolkit's escapeData and escapeProperty): '%', CR and LF are percent-escaped in the message, and
// ':' and ',' too in a property, where they would end the value. Control characters are made
// visible first, so no raw byte of the input reaches the log.
function githubData(text: string): string {
  return escapeControls(text).replace(/[%\r\n]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
}

function githubProperty(text: string): string {
  return githubData(text).replace(/[:,]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/**
 * An annotation for a fetch that gave no rules (`::error` when it fails the run, `::warning` with
 * --allow-unavailable, `::notice` for a 4xx), then an `::error` for each failed expectation and
 * each malformed line, at its line of the expectations file (the message names the robots.txt line
 * that decided); then the summary.
 */
function renderGithub(report: Report): string {
  const file = githubProperty(report.expectations)
  const annotation = (line: number, title: string, message: string) => `::error file=${file},line=${line},title=${githubProperty(title)}::${githubData(message)}\n`
  const out = report.errors.map((e) => ({ line: e.line, text: annotation(e.line, 'malformed expectation', e.message) }))
  for (const r of report.results) {
    if (!r.passed) out.push({ line: r.line, text: annotation(r.line, `robots.txt: ${expectationText(r)}`, failureText(r, report)) })
  }
  out.sort((a, b) => a.line - b.line)
  const notice = fetchMessage(report)
  const head = notice === null ? '' : `::${notice.level} title=${githubProperty(notice.title)}::${githubData(notice.message)}\n`
  return head + out.map((a) => a.text).join('') + githubData(summaryText(report)) + '\n'
}

/**
 * Text for XML content and attribute values. Of what XML 1.0 forbids, escapeControls() escapes
 * the controls, UTF-8 output turns a lone surrogate into U+FFFD, and U+FFFE and U+FFFF are left.
 */
function xml(text: string): string {
  return escapeControls(text).replace(/[&<>"'\ufffe\uffff]/g, (c) => XML_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16)}`)
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/**
 * JUnit XML: one testcase per expectation (a failure when not met, skipped when not checked), one
 * with an error per malformed line, and, when the fetch gave no rules, a "robots.txt fetch"
 * testcase first: an error when it fails the run, skipped with --allow-unavailable, passed with
 * its message for a 4xx.
 */
function renderJunit(report: Report): string {
  const failed = report.results.filter((r) => !r.passed).length
  const notice = fetchMessage(report)
  const fetchCase = notice === null ? null : { level: notice.level, text: notice.message }
  const errors = report.errors.length + (fetchCase?.level === 'error' ? 1 : 0)
  const skipped = report.notChecked.length + (fetchCase?.level === 'warning' ? 1 : 0)
  const tests = report.results.length + report.notChecked.length + report.errors.length + (fetchCase === null ? 0 : 1)
  const counts = `tests="${tests}" failures="${failed}" errors="${errors}"`
  const where = (line: number) => `classname="${xml(report.expectations)}" file="${xml(report.expectations)}" line="${line}"`
  const cases: { line: number; text: string }[] = report.errors.map((e) => ({
    line: e.line,
    text: `    <testcase name="line ${e.line}" ${where(e.line)}>\n      <error type="malformed" message="${xml(e.message)}"/>\n    </testcase>\n`,
  }))
  for (const r of report.results) {
    const name = `name="${xml(expectationText(r))}" ${where(r.line)}`
    const failure = `expected ${r.expected}, got ${r.allowed ? 'allowed' : 'disallowed'}`
    cases.push({
      line: r.line,
      text: r.passed
        ? `    <testcase ${name}/>\n`
        : `    <testcase ${name}>\n      <failure type="${failure}" message="${xml(failureText(r, report))}">${xml(failureText(r, report))}</failure>\n    </testcase>\n`,
    })
  }
  for (const e of report.notChecked) {
    cases.push({ line: e.line, text: `    <testcase name="${xml(expectationText(e))}" ${where(e.line)}>\n      <skipped message="not checked: no usable robots.txt"/>\n    </testcase>\n` })
  }
  cases.sort((a, b) => a.line - b.line)
  let first = ''
  if (fetchCase !== null) {
    const name = `name="robots.txt fetch" classname="${xml(robotsName(report.robots))}"`
    const message = xml(fetchCase.text)
    first = fetchCase.level === 'error'
      ? `    <testcase ${name}>\n      <error type="unavailable" message="${message}">${message}</error>\n    </testcase>\n`
      : fetchCase.level === 'warning'
        ? `    <testcase ${name}>\n      <skipped message="${message}"/>\n    </testcase>\n`
        : `    <testcase ${name}>\n      <system-out>${message}</system-out>\n    </testcase>\n`
  }
  return '<?xml version="1.0" encoding="UTF-8"?>\n'
    + `<testsuites name="robotstxt test" ${counts}>\n`
    + `  <testsuite name="${xml(robotsName(report.robots))}" ${counts} skipped="${skipped}">\n`
    + first
    + cases.map((c) => c.text).join('')
    + '  </testsuite>\n</testsuites>\n'
}
