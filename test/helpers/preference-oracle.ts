// The readable twin of Robots.usagePreferences, for the property tests that hold the engine to it:
// preference values read with split, String.prototype.trim and a RegExp, as the drafts word them,
// and lines chosen from the per-line report (the user-agent lines' tokens) and Robots.directives,
// with no index. Slow and plain on purpose.
import type { Directive, LineReport, Robots, UsagePreference } from '../../src/index.js'

interface Member {
  category: string
  allowed: boolean
  value: string
}
interface Problem {
  line: number
  member: string
  reason: string
}

function truthOf(value: string): boolean | undefined {
  const v = value.toLowerCase()
  return v === 'yes' || v === 'y' ? true : v === 'no' || v === 'n' ? false : undefined
}

/** `[path ]key=value, key=value, …` (the path for Content-Usage only): members and problems. */
export function oracleRead(line: number, name: string, value: string): { path: string | null; members: Member[]; problems: Problem[] } {
  let text = value
  let path: string | null = null
  if (name === 'content-usage' && (text.startsWith('/') || text.startsWith('*'))) {
    const space = text.search(/[ \t]/)
    path = space < 0 ? text : text.slice(0, space)
    text = space < 0 ? '' : text.slice(space + 1)
  }
  const members: Member[] = []
  const problems: Problem[] = []
  for (const raw of text.split(',')) {
    const member = raw.trim()
    if (member === '') continue
    const eq = member.indexOf('=')
    if (eq <= 0) {
      problems.push({ line, member, reason: 'expected category=value' })
      continue
    }
    const category = member.slice(0, eq).trim().toLowerCase()
    const v = member.slice(eq + 1).trim()
    const truth = truthOf(v)
    if (!/^[a-z][a-z0-9_.*-]*$/.test(category)) problems.push({ line, member, reason: `"${category}" is not a category name` })
    else if (truth === undefined) problems.push({ line, member, reason: name === 'content-signal' ? 'expected yes or no' : 'expected y or n' })
    else members.push({ category, allowed: truth, value: v })
  }
  if (members.length === 0 && problems.length === 0) problems.push({ line, member: value, reason: 'no preference given' })
  return { path, members, problems }
}

/** The groups that name `token` (lower-cased) and the global groups, from the user-agent lines' reports. */
function groupsOf(lines: readonly LineReport[], token: string): { named: Set<number>; global: Set<number> } {
  const named = new Set<number>()
  const global = new Set<number>()
  for (const r of lines) {
    if (r.type !== 'user-agent') continue
    const v = r.value!
    if (v === '*' || /^\*[ \t\v\f]/.test(v)) global.add(r.group)
    else if (/^[A-Za-z_-]+/.exec(v)?.[0].toLowerCase() === token) named.add(r.group)
  }
  return { named, global }
}

/** usagePreferences(agent) for a one-token agent, as the documentation states it. */
export function oraclePreferences(robots: Robots, token: string): Record<string, UsagePreference> {
  const lines = robots.directives.filter((d: Directive) => d.name === 'content-signal' || d.name === 'content-usage')
  const { named, global } = groupsOf(robots.lines, token)
  let chosen = lines.filter((d) => (named.size > 0 ? named : global).has(d.group))
  if (chosen.length === 0) chosen = lines.filter((d) => d.group < 0)
  const out: Record<string, UsagePreference> = Object.create(null)
  for (const d of chosen) {
    const source = d.name === 'content-signal' ? 'Content-Signal' : 'Content-Usage'
    const { path, members } = oracleRead(d.line, d.name, d.value)
    for (const m of members) {
      let p = out[m.category]
      if (path !== null && path !== '/') {
        if (p === undefined) p = out[m.category] = { allowed: null, line: 0, source, value: '', paths: [] }
        p.paths.push({ path, allowed: m.allowed, line: d.line })
        continue
      }
      if (p === undefined) out[m.category] = { allowed: m.allowed, line: d.line, source, value: m.value, paths: [] }
      else if (p.allowed === null || (p.allowed && !m.allowed)) Object.assign(p, { allowed: m.allowed, line: d.line, source, value: m.value })
    }
  }
  return out
}
