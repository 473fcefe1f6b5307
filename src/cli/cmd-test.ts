// `robotstxt test ROBOTS EXPECTATIONS [--format text|json|github|junit]`: a site's robots.txt held
// to what its owner expects (expectations.ts), for CI. Every verdict and deciding line is
// Robots.check's, or the fetch outcome's when ROBOTS was a URL that did not give a file; this
// module only compares and reports. Exit status 0 when every expectation is met, 1 when one is
// not, 2 on a usage error, unreadable input or a malformed expectation line: those are reported
// with their line numbers, and the good lines are still checked and reported.

import { reportFetch } from './cmd-check.js'
import { InputError, UsageError } from './errors.js'
import { parseExpectations, type Expectation, type ExpectationError } from './expectations.js'
import { HELP } from './help.js'
import { COMMON_OPTIONS, FETCH_OPTIONS, notOnOrigin, onOrigin, parse } from './options.js'
import { fetchJson, fetchSettings, fetchStatus, loadRobots, readInput, type LoadedRobots } from './source.js'
import { escapeControls, printableJson, styleFor, type Style } from './style.js'

const OPTIONS = { ...COMMON_OPTIONS, ...FETCH_OPTIONS, format: { type: 'string' } } as const

const FORMATS = ['text', 'json', 'github', 'junit'] as const
type Format = (typeof FORMATS)[number]

/**
 * Bytes of an expectations file. Every result is held until the report is written (JUnit's
 * counts come first), about 2 KB of memory per line: 1 MiB is some 100,000 of the
 * shortest lines, a few hundred MB, and far more than a site's expectations.
 */
export const MAX_EXPECTATIONS_BYTES = 1 << 20

/** An expectation with the engine's verdict on it. */
export interface TestResult extends Expectation {
  passed: boolean
  allowed: boolean
  /** The robots.txt line that decided, 0 when no rule matched or the fetch outcome decided. */
  robotsLine: number
  /** The rule on that line. */
  rule: { kind: 'allow' | 'disallow'; pattern: string } | null
}

/** What every format reports. */
interface Report {
  robots: LoadedRobots
  /** EXPECTATIONS as given, '(stdin)' for '-'. */
  expectations: string
  results: TestResult[]
  errors: ExpectationError[]
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
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format: expected one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`, 'test')
  const fetch = fetchSettings(values, 'test')

  // The expectations come first: a file that holds none is reported before any fetch.
  const label = expectationsArg === '-' ? '(stdin)' : expectationsArg
  const read = await readInput(expectationsArg, MAX_EXPECTATIONS_BYTES)
  if (read.truncated) throw new InputError(`${label}: longer than ${MAX_EXPECTATIONS_BYTES.toLocaleString('en-US')} bytes; split it into several files`)
  const { expectations, errors } = parseExpectations(new TextDecoder().decode(read.bytes))
  if (expectations.length === 0 && errors.length === 0) throw new InputError(`${label}: no expectations (each line is "AGENT allow|disallow URL-OR-PATH")`)

  const robots = await loadRobots(robotsArg, fetch, 'test')
  reportFetch(robots)
  const fetched = robots.fetched
  const checked: Expectation[] = []
  for (const e of expectations) {
    // A fetched robots.txt says nothing about another origin's URLs.
    if (fetched !== null && !onOrigin(e.url, fetched.origin)) errors.push({ line: e.line, message: notOnOrigin(e.url, fetched.origin) })
    else checked.push(e)
  }
  errors.sort((a, b) => a.line - b.line)
  const report: Report = { robots, expectations: label, results: checked.map((e) => judge(robots, e)), errors }

  for (const err of errors) process.stderr.write(`robotstxt: ${escapeControls(`${label}:${err.line}: ${err.message}`)}\n`)
  process.stdout.write(RENDER[format as Format](report))
  return errors.length > 0 ? 2 : report.results.some((r) => !r.passed) ? 1 : 0
}

/** The expectation against the loaded robots.txt. */
function judge(loaded: LoadedRobots, e: Expectation): TestResult {
  const f = loaded.fetched
  const v = f === null || f.outcome === 'ok' ? loaded.robots.check(e.url, e.tokens) : { allowed: f.outcome === 'allow-all', line: 0 }
  return { ...e, passed: v.allowed === (e.expected === 'allow'), allowed: v.allowed, robotsLine: v.line, rule: v.rule ?? null }
}

/** How ROBOTS is named in messages: the file as given, or the URL fetched. */
function robotsName(loaded: LoadedRobots): string {
  return loaded.fetched === null ? loaded.label : `${loaded.fetched.origin}/robots.txt`
}

/** The verdict and what decided it: "disallowed by robots.txt:4 (Disallow: /private/)". */
function verdictText(r: TestResult, loaded: LoadedRobots): string {
  const verdict = r.allowed ? 'allowed' : 'disallowed'
  const f = loaded.fetched
  if (f !== null && f.outcome !== 'ok') return `${verdict}: the robots.txt fetch got ${fetchStatus(f)} (${f.outcome})`
  if (r.robotsLine === 0) return `${verdict}: no rule of ${robotsName(loaded)} matches`
  const rule = r.rule === null ? '' : ` (${r.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${r.rule.pattern})`
  return `${verdict} by ${robotsName(loaded)}:${r.robotsLine}${rule}`
}

function expectationText(r: Expectation): string {
  return `${r.agent} ${r.expected} ${r.url}`
}

/** The one-line message of a failed expectation. */
function failureText(r: TestResult, loaded: LoadedRobots): string {
  return `expected ${expectationText(r)}, but it is ${verdictText(r, loaded)}`
}

function summaryText(report: Report): string {
  const failed = report.results.filter((r) => !r.passed).length
  const total = report.results.length
  const met = failed === 0 ? `all ${total} expectations met` : `${total - failed} of ${total} expectations met, ${failed} failed`
  const bad = report.errors.length === 0 ? '' : `; ${report.errors.length} malformed line${report.errors.length === 1 ? '' : 's'} in ${report.expectations}`
  return `${robotsName(report.robots)}: ${met}${bad}`
}

const RENDER: Record<Format, (report: Report) => string> = {
  text: (report) => renderText(report, styleFor(process.stdout)),
  json: renderJson,
  github: renderGithub,
  junit: renderJunit,
}

/** One line per expectation, "pass" or "FAIL", its place, and the verdict that decided; then a summary. */
function renderText(report: Report, st: Style): string {
  let out = ''
  for (const r of report.results) {
    const status = r.passed ? st.green('pass') : st.red('FAIL')
    const where = st.dim(escapeControls(`${report.expectations}:${r.line}`))
    out += `${status}  ${where}  ${escapeControls(expectationText(r))}  ->  ${escapeControls(verdictText(r, report.robots))}\n`
  }
  return out + escapeControls(summaryText(report)) + '\n'
}

/** The whole report as one JSON object, every field as the engine gave it. */
function renderJson(report: Report): string {
  const f = report.robots.fetched
  const failed = report.results.filter((r) => !r.passed).length
  return printableJson({
    robots: report.robots.label,
    expectations: report.expectations,
    fetch: f === null ? null : fetchJson(f),
    summary: { total: report.results.length, passed: report.results.length - failed, failed, malformed: report.errors.length },
    results: report.results,
    errors: report.errors,
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
 * An `::error` annotation for each failed expectation and each malformed line, at its line of the
 * expectations file (the message names the robots.txt line that decided); then the summary.
 */
function renderGithub(report: Report): string {
  const file = githubProperty(report.expectations)
  const annotation = (line: number, title: string, message: string) => `::error file=${file},line=${line},title=${githubProperty(title)}::${githubData(message)}\n`
  const out = report.errors.map((e) => ({ line: e.line, text: annotation(e.line, 'malformed expectation', e.message) }))
  for (const r of report.results) {
    if (!r.passed) out.push({ line: r.line, text: annotation(r.line, `robots.txt: ${expectationText(r)}`, failureText(r, report.robots)) })
  }
  out.sort((a, b) => a.line - b.line)
  return out.map((a) => a.text).join('') + githubData(summaryText(report)) + '\n'
}

/**
 * Text for XML content and attribute values. Of what XML 1.0 forbids, escapeControls() escapes
 * the controls, UTF-8 output turns a lone surrogate into U+FFFD, and U+FFFE and U+FFFF are left.
 */
function xml(text: string): string {
  return escapeControls(text).replace(/[&<>"'\ufffe\uffff]/g, (c) => XML_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16)}`)
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/** JUnit XML: one testcase per expectation (a failure when not met), one with an error per malformed line. */
function renderJunit(report: Report): string {
  const failed = report.results.filter((r) => !r.passed).length
  const tests = report.results.length + report.errors.length
  const counts = `tests="${tests}" failures="${failed}" errors="${report.errors.length}"`
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
        : `    <testcase ${name}>\n      <failure type="${failure}" message="${xml(failureText(r, report.robots))}">${xml(failureText(r, report.robots))}</failure>\n    </testcase>\n`,
    })
  }
  cases.sort((a, b) => a.line - b.line)
  return '<?xml version="1.0" encoding="UTF-8"?>\n'
    + `<testsuites name="robotstxt test" ${counts}>\n`
    + `  <testsuite name="${xml(robotsName(report.robots))}" ${counts} skipped="0">\n`
    + cases.map((c) => c.text).join('')
    + '  </testsuite>\n</testsuites>\n'
}
