// `robotstxt explain ROBOTS AGENT URL [--json]`.

import { cutLine, reportCut, reportFetch, robotsAndAgent } from './cmd-check.js'
import { InputError, UsageError } from './errors.js'
import { explain, type Explanation, type RuleMatch } from './explain.js'
import { HELP } from './help.js'
import { COMMON_OPTIONS, FETCH_OPTIONS, notOnOrigin, onOrigin, parse, urlArgument, type AgentChoice } from './options.js'
import { fetchJson, fetchOutcome, fetchSettings, fetchStatus, loadRobots, type LoadedRobots } from './source.js'
import { escapeControls as esc, printableJson, styleFor, type Style } from './style.js'
import { valueAgentToken } from '../engine/parse.js'
import { DEFAULT_MAX_BYTES } from '../engine/robots.js'

const OPTIONS = { ...COMMON_OPTIONS, ...FETCH_OPTIONS, token: { type: 'string' }, json: { type: 'boolean' } } as const

/** Runs `explain`; resolves to the exit status (0 once explained, whatever the verdict). */
export async function runExplain(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, 'explain')
  if (values.help === true) {
    process.stdout.write(HELP.explain!)
    return 0
  }
  const { robotsArg, agent, rest } = robotsAndAgent(positionals, values.token, 'explain')
  const [url, ...extra] = rest
  if (url === undefined) throw new UsageError('missing URL', 'explain')
  if (extra.length > 0) throw new UsageError(`explain takes one URL, got ${extra.length + 1} (check takes several)`, 'explain')
  urlArgument(url, 'explain')
  const loaded = await loadRobots(robotsArg, fetchSettings(values, 'explain', agent.name), 'explain')
  reportFetch(loaded)
  reportCut(loaded)
  if (agent.note !== null) process.stderr.write(`${esc(agent.note)}\n`)
  const fetched = loaded.fetched
  if (fetched !== null && !onOrigin(url, fetched.origin)) {
    throw new InputError(notOnOrigin(url, fetched.origin))
  }

  const e = explain(loaded.robots, agent.agent, url)
  // The AGENT as given, or the preset's name (its tokens are in `tokens`).
  e.agent = agent.name
  if (fetched !== null && fetched.outcome !== 'ok') {
    // The fetch decided: the (empty) file's explanation would say "no group", which is not why.
    e.allowed = fetched.outcome === 'allow-all'
    e.reason = fetched.outcome === 'allow-all'
      ? `the robots.txt fetch got ${fetchStatus(fetched)}: ${fetched.error?.code === 'redirects' ? 'a redirect chain that leads to no robots.txt counts as a 404, and' : 'a 4xx means there is no robots.txt, so'} every URL is allowed`
      : `the robots.txt fetch got ${fetchStatus(fetched)}: a server error or an unreachable server means every URL is disallowed until a fetch succeeds`
  } else {
    // The explanation follows the reference algorithm; the matcher is what crawlers run. They
    // are tested to agree on every labelled case; a disagreement here is a bug worth reporting.
    const v = loaded.robots.check(url, agent.agent)
    if (v.allowed !== e.allowed || v.line !== e.line) {
      process.stderr.write(`robotstxt: internal error: the explanation (${e.allowed ? 'allowed' : 'disallowed'}, line ${e.line}) disagrees with the matcher (${v.allowed ? 'allowed' : 'disallowed'}, line ${v.line}); please report it\n`)
      return 2
    }
  }

  if (values.json === true) {
    const cut = cutLine(loaded)
    const json = {
      robots: loaded.label,
      fetch: fetched === null ? null : fetchJson(fetched),
      // Where the 500 KiB limit cut the file (the rules after it were not read), or null.
      cut: cut === null ? null : { bytes: DEFAULT_MAX_BYTES, line: cut.line, midLine: cut.mid },
      ...e,
    }
    process.stdout.write(printableJson(json) + '\n')
  } else {
    process.stdout.write(render(loaded, e, styleFor(process.stdout), agent))
  }
  return 0
}

const GROUP_WHY: Record<Explanation['group'], (token: string) => string> = {
  specific: (t) => `specific: a user-agent line names ${t}, so the * groups do not apply`,
  global: (t) => `global: no user-agent line names ${t}, so the * groups apply`,
  none: (t) => `none: no user-agent line names ${t} and there is no * group`,
}

/** The human-readable explanation; `agent` is how the command line named the agent. */
export function render(loaded: LoadedRobots, e: Explanation, st: Style, agent?: AgentChoice): string {
  const out: string[] = []
  const field = (name: string, value: string) => out.push(`${st.bold(name.padEnd(9))}${value}`)
  // Every value shown comes from the file, the command line or the fetch: escaped (style.ts).
  field('robots', loaded.fetched === null ? esc(loaded.label) : `${loaded.fetched.origin}/robots.txt (${esc(fetchOutcome(loaded.fetched))})`)
  const cut = cutLine(loaded)
  if (cut !== null) {
    out.push(`  ${st.yellow('cut')}: crawlers read only the first ${DEFAULT_MAX_BYTES.toLocaleString('en-US')} bytes (500 KiB): ${cut.mid ? `line ${cut.line} is cut and the lines after it are` : `the lines from ${cut.line} on are`} not read`)
  }
  if (agent !== undefined && typeof agent.agent !== 'string') field('agent', esc(agent.label))
  else field('agent', e.token === e.agent.toLowerCase() ? esc(e.agent) : `${esc(e.agent)} (matched as "${esc(e.token)}")`)
  field('url', esc(e.url))
  field('path', esc(e.path))
  out.push('')
  if (loaded.fetched === null || loaded.fetched.outcome === 'ok') {
    field('group', GROUP_WHY[e.group](e.tokens.map((t) => `"${esc(t)}"`).join(' or ')))
    if (e.group !== 'specific' && !/^[a-z_-]+$/.test(e.token)) {
      // RFC 9309 2.2.1; Google's RobotsMatcher::HandleUserAgent: a User-agent line's name stops at the first other character.
      out.push(`  ${st.yellow('note')}: no User-agent line can name "${esc(e.token)}": their names are matched up to the first character that is not a letter, "-" or "_"`)
    }
    const w = lineWidth(e)
    for (const a of e.agentLines) out.push(`  ${st.dim(`line ${String(a.line).padEnd(w)}`)}${esc(a.text)}${a.names ? st.cyan(`   <- names ${esc(valueAgentToken(a.text.slice(a.text.indexOf(':') + 1).trim()))}`) : ''}`)
    out.push('')
    if (e.matches.length === 0) {
      field('rules', 'no rule of these groups matches the path')
    } else {
      field('rules', 'matching the path (priority = pattern length in bytes; the longest wins, an allow wins a tie)')
      const width = e.matches.reduce((w, m) => Math.max(w, esc(m.text).length), 0)
      for (const m of e.matches) out.push(`  ${matchLine(m, lineWidth(e), width, m === e.decidingRule, st)}`)
    }
    out.push('')
  }
  const usage = Object.entries(e.usage)
  if (usage.length > 0) {
    field('usage', 'AI usage preferences for this agent (Google ignores them for crawling)')
    for (const [category, p] of usage) {
      const base = p.allowed === null ? 'only for some paths' : `${p.allowed ? 'yes' : 'no'}  (${p.source}, line ${p.line})`
      out.push(`  ${esc(category).padEnd(12)}${base}`)
      for (const at of p.paths) out.push(`  ${''.padEnd(12)}${at.allowed ? 'yes' : 'no'} under ${esc(at.path)}  (Content-Usage, line ${at.line})`)
    }
    out.push('')
  }
  const verdict = e.allowed ? st.green('allowed') : st.red('disallowed')
  field('verdict', `${verdict}${e.line > 0 ? ` by line ${e.line}` : ''}`)
  out.push(`  ${esc(e.reason)}`)
  return out.join('\n') + '\n'
}

/** Width of the line-number column: the longest number shown, plus two spaces. */
function lineWidth(e: Explanation): number {
  // A reduce, not Math.max(...lines): a group can have more lines than a call takes arguments.
  let max = 0
  for (const a of e.agentLines) max = Math.max(max, a.line)
  for (const m of e.matches) max = Math.max(max, m.line)
  return String(max).length + 2
}

function matchLine(m: RuleMatch, lineW: number, width: number, decides: boolean, st: Style): string {
  const via = m.indexHtml !== undefined ? ` (as ${esc(m.indexHtml)}, the index.html rule)` : ''
  const text = `${st.dim(`line ${String(m.line).padEnd(lineW)}`)}${esc(m.text).padEnd(width)}  priority ${m.priority}${via}`
  return decides ? `${text}${st.cyan('   <- decides')}` : text
}
