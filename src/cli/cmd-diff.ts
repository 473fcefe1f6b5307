// `robotstxt diff OLD NEW [--agents A,B,…] [--urls FILE] [--json]`: the URLs whose verdict changes
// between two versions of a robots.txt, for which agents, with the deciding line on each side.
// Exit status 1 when something changed, 0 when nothing did, 2 on usage errors: a CI guard.

import { diffRobots, MAX_CHANGES, MAX_PROBES, type RobotsDiff } from '../engine/diff.js'
import { reportFetch } from './cmd-check.js'
import { UsageError } from './errors.js'
import { HELP } from './help.js'
import { COMMON_OPTIONS, FETCH_OPTIONS, parse } from './options.js'
import { fetchSettings, loadRobots, readList, type LoadedRobots } from './source.js'
import { escapeControls, printableJson } from './style.js'

const OPTIONS = { ...COMMON_OPTIONS, ...FETCH_OPTIONS, agents: { type: 'string' }, urls: { type: 'string' }, json: { type: 'boolean' } } as const

/** What a fetched robots.txt means as a file: its body, nothing for allow-all, `Disallow: /` for disallow-all. */
function effectiveBody(loaded: LoadedRobots): Uint8Array | string {
  const f = loaded.fetched
  if (f === null || f.outcome === 'ok') return loaded.body
  return f.outcome === 'allow-all' ? '' : 'User-agent: *\nDisallow: /\n'
}

/** Runs `diff`; resolves to 1 when a verdict changes, else 0. */
export async function runDiff(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, 'diff')
  if (values.help === true) {
    process.stdout.write(HELP.diff!)
    return 0
  }
  const [oldArg, newArg, ...extra] = positionals
  if (oldArg === undefined || newArg === undefined) throw new UsageError('expected OLD and NEW (files, "-" or http(s) URLs)', 'diff')
  if (extra.length > 0) throw new UsageError(`diff takes two files, got ${positionals.length}`, 'diff')
  if (oldArg === '-' && newArg === '-') throw new UsageError('OLD and NEW cannot both be stdin ("-")', 'diff')
  const agentsOpt = values.agents as string | undefined
  const agents = agentsOpt === undefined ? undefined : agentsOpt.split(',').map((a) => a.trim()).filter((a) => a !== '')
  if (agents !== undefined && agents.length === 0) throw new UsageError('--agents: expected a comma-separated list of user-agents', 'diff')
  const urlsFile = values.urls as string | undefined
  const load = fetchSettings(values, 'diff')

  const before = await loadRobots(oldArg, load, 'diff')
  reportFetch(before)
  const after = await loadRobots(newArg, load, 'diff')
  reportFetch(after)
  const urls = urlsFile === undefined ? undefined : await readList(urlsFile, '--urls', MAX_DIFF_URLS, 'URLs; split the list', (line) => (line === '' ? null : line))
  let diff: RobotsDiff
  try {
    diff = diffRobots(effectiveBody(before), effectiveBody(after), { agents, urls })
  } catch (err) {
    // An agent diffRobots refuses (no product token: "/1.0") is the command line's.
    if (err instanceof TypeError && err.message.startsWith('options.agents')) throw new UsageError(`--agents: ${err.message.slice(err.message.indexOf(':') + 2)}`, 'diff')
    throw err
  }
  if (values.json === true) process.stdout.write(printableJson({ old: before.label, new: after.label, ...diff }) + '\n')
  else process.stdout.write(render(diff))
  if (diff.truncated) process.stderr.write(`robotstxt: diff: cut short at ${diff.probes.toLocaleString('en-US')} probe URLs and ${diff.changes.length.toLocaleString('en-US')} changes (at most ${MAX_PROBES.toLocaleString('en-US')} and ${MAX_CHANGES.toLocaleString('en-US')}); the rest were not compared (give --urls or --agents to choose)\n`)
  return diff.changes.length > 0 ? 1 : 0
}

/**
 * One tab-separated line per change: agent, URL, old verdict and line, new verdict and line. Agent
 * and URL come from the files: escaped, which also keeps a tab in them from adding a column.
 */
function render(diff: RobotsDiff): string {
  let out = ''
  for (const c of diff.changes) {
    out += `${escapeControls(c.agent)}\t${escapeControls(c.url)}\t${c.old.allowed ? 'allowed' : 'disallowed'}\t${c.old.line}\t${c.new.allowed ? 'allowed' : 'disallowed'}\t${c.new.line}\n`
  }
  return out
}

/**
 * The most URLs --urls may list: every one is held, with its verdicts on both sides, so the list is
 * bounded as the probes made from the rules are (MAX_PROBES).
 */
export const MAX_DIFF_URLS = MAX_PROBES
