// Child of bench/run.mjs (needs --expose-gc): bytes retained per compiled Matcher and per
// robots-parser instance, 10,000 of each, from real files (or the synthetic one when the corpus is
// absent). Prints one JSON object.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import robotsParser from 'robots-parser'
import { parseRobots } from '../dist/index.js'
import { syntheticRobots } from './synthetic.mjs'

const COUNT = 10_000
const AGENT = 'Googlebot'
const here = dirname(fileURLToPath(import.meta.url))
const dir = join(here, '..', '..', 'shared', 'corpus', 'robots')
const texts = existsSync(dir)
  ? readdirSync(dir).sort().map((f) => readFileSync(join(dir, f), 'utf8'))
  : Array.from({ length: 50 }, (_, i) => syntheticRobots(i + 1))

/** Bytes of the allow/disallow lines (key: value, as written) of the groups compiled for AGENT. */
function ruleTextBytes(robots) {
  const lines = robots.lines
  const named = new Set()
  const global = new Set()
  for (const l of lines) {
    if (l.type !== 'user-agent') continue
    if (/^\*($|[ \t\v\f])/.test(l.value)) global.add(l.group)
    else if ((/^[A-Za-z_-]*/.exec(l.value)?.[0] ?? '').toLowerCase() === AGENT.toLowerCase()) named.add(l.group)
  }
  const groups = named.size > 0 ? named : global
  let n = 0
  for (const l of lines) if ((l.type === 'allow' || l.type === 'disallow') && groups.has(l.group)) n += Buffer.byteLength(`${l.key}: ${l.value}`)
  return n
}

const used = () => { globalThis.gc(); globalThis.gc(); const m = process.memoryUsage(); return m.heapUsed + m.external }

// Warm up both libraries so code and caches are not counted.
for (let i = 0; i < 200; i++) { parseRobots(texts[i % texts.length]).matcher(AGENT).isAllowed('https://x/a'); robotsParser('https://x/robots.txt', texts[i % texts.length]).isAllowed('https://x/a', AGENT) }

let ruleBytes = 0
for (let i = 0; i < COUNT; i++) ruleBytes += ruleTextBytes(parseRobots(texts[i % texts.length]))

let before = used()
const ours = []
for (let i = 0; i < COUNT; i++) {
  const m = parseRobots(texts[i % texts.length]).matcher(AGENT)
  m.isAllowed('https://x/a')
  ours.push(m)
}
const oursBytes = used() - before

before = used()
const theirs = []
for (let i = 0; i < COUNT; i++) {
  const r = robotsParser('https://x/robots.txt', texts[i % texts.length])
  r.isAllowed('https://x/a', AGENT)
  theirs.push(r)
}
const theirsBytes = used() - before

process.stdout.write(JSON.stringify({
  count: COUNT,
  oursPerMatcher: oursBytes / COUNT,
  theirsPerInstance: theirsBytes / COUNT,
  ruleTextPerMatcher: ruleBytes / COUNT,
  oursPerRuleByte: oursBytes / ruleBytes,
  kept: ours.length + theirs.length,
}) + '\n')
