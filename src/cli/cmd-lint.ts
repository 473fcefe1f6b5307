// `robotstxt lint ROBOTS [--json [--all-lines]]`.

import { reportFetch } from './cmd-check.js'
import { UsageError } from './errors.js'
import { HELP } from './help.js'
import { lint, lintCounts, type Finding, type LintResult } from '../engine/lint.js'
import { COMMON_OPTIONS, FETCH_OPTIONS, parse } from './options.js'
import { fetchJson, fetchSettings, fetchStatus, loadRobots, type LoadedRobots } from './source.js'
import { escapeControls, printableJson, styleFor, type Style } from './style.js'

const OPTIONS = { ...COMMON_OPTIONS, ...FETCH_OPTIONS, json: { type: 'boolean' }, 'all-lines': { type: 'boolean' } } as const

/** Runs `lint`; resolves to 1 when there are errors, else 0. */
export async function runLint(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, 'lint')
  if (values.help === true) {
    process.stdout.write(HELP.lint!)
    return 0
  }
  const [robotsArg, ...extra] = positionals
  if (robotsArg === undefined) throw new UsageError('missing ROBOTS (a file path or an http(s) URL)', 'lint')
  if (extra.length > 0) throw new UsageError(`lint takes one ROBOTS, got ${extra.length + 1}`, 'lint')
  if (values['all-lines'] === true && values.json !== true) throw new UsageError('--all-lines goes with --json (it adds every line\'s report to the JSON)', 'lint')
  const loaded = await loadRobots(robotsArg, fetchSettings(values, 'lint'), 'lint')
  reportFetch(loaded)
  const result = lint(loaded)
  const fetched = loaded.fetched
  if (fetched !== null && fetched.outcome !== 'ok') {
    // Nothing to lint: what the fetch means for crawlers is the finding.
    const status = fetchStatus(fetched)
    const finding: Finding = fetched.outcome === 'allow-all'
      ? { line: null, severity: 'warning', code: 'fetch-allow-all', message: `no robots.txt (${status}): crawlers may fetch everything` }
      : { line: null, severity: 'error', code: 'fetch-disallow-all', message: `fetching the robots.txt failed (${status}): crawlers treat every URL as disallowed until it succeeds` }
    result.findings = [finding]
    result.errors = finding.severity === 'error' ? 1 : 0
    result.warnings = finding.severity === 'warning' ? 1 : 0
    result.infos = 0
  }

  if (values.json === true) {
    const json = {
      source: loaded.label,
      fetch: fetched === null ? null : fetchJson(fetched),
      bytes: loaded.size,
      summary: { errors: result.errors, warnings: result.warnings, infos: result.infos },
      findings: result.findings,
      // Only the lines a finding points at, unless asked: the report of every line is some 200
      // bytes a line, 100 MB for a 500 KiB file of empty lines.
      lines: values['all-lines'] === true ? loaded.robots.lines : reportedLines(loaded, result),
    }
    process.stdout.write(printableJson(json) + '\n')
  } else {
    process.stdout.write(render(loaded, result, styleFor(process.stdout)))
  }
  return result.errors > 0 ? 1 : 0
}

/** The parser's report of each line some finding points at, in line order. */
function reportedLines(loaded: LoadedRobots, result: LintResult): LoadedRobots['robots']['lines'] {
  const pointed = new Set<number>()
  for (const f of result.findings) if (f.line !== null) pointed.add(f.line)
  return pointed.size === 0 ? [] : loaded.robots.lines.filter((r) => pointed.has(r.line))
}

const SEVERITY_STYLE: Record<Finding['severity'], keyof Style> = { error: 'red', warning: 'yellow', info: 'cyan' }

/** Compiler-style lines ("FILE:LINE: severity: message [code]") and a summary. */
export function render(loaded: LoadedRobots, result: LintResult, st: Style): string {
  const name = escapeControls(loaded.fetched !== null ? `${loaded.fetched.origin}/robots.txt` : loaded.label)
  let text = ''
  for (const f of result.findings) {
    const where = f.line === null ? `${name}:` : `${name}:${f.line}:`
    text += `${st.bold(where)} ${st[SEVERITY_STYLE[f.severity]](f.severity)}: ${escapeControls(f.message)} ${st.dim(`[${f.code}]`)}\n`
  }
  text += result.findings.length === 0 ? `${name}: no problems found\n` : `${name}: ${lintCounts(result)}\n`
  return text
}
