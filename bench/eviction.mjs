// The arena's eviction at its cap (src/engine/wasm-tables.ts), for `npm run bench`: what a compile costs
// with room in the arena, at the cap with every table cold (one eviction), and at the cap with
// every table in use (the clock's worst case: EVICT_VISITS blocks visited, most of them marks
// cleared). Engine internals are not in the bundle, so the source is bundled for a child process.
//
//   evictionBench(log): { room, cold, allUsed, visits, bound, evictions } (µs CPU per compile,
//   the most blocks one compile visited, EVICT_VISITS)
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')

// Runs in the child: each compile is of a site of its own, 40 rules (about 3 KB of table).
const CHILD = `
import { parseRobots } from '../src/index.js'
import { getEngine } from '../src/engine/wasm.js'
import { arenaMax, EVICT_VISITS } from '../src/engine/wasm-tables.js'
const engine = getEngine()
const arena = engine.tables.arena
const body = (i) => 'User-agent: *\\n' + Array.from({ length: 40 }, (_, k) => 'Disallow: /s' + i + '/r' + k + '/' + 'p'.repeat(20) + '*.php$').join('\\n') + '\\n'
const cpu = () => { const u = process.cpuUsage(); return u.user + u.system }
let site = 0
const kept = []
/** CPU µs per compile over n compiles; before(m) runs ahead of each (untimed). */
function compiles(n, before) {
  let spent = 0
  for (let i = 0; i < n; i++) {
    before()
    const r = parseRobots(body(site++))
    const t = cpu()
    kept.push(r.matcher('bot'))
    spent += cpu() - t
  }
  return spent / n
}
const N = 300
// Warm: code compiled, the arena holding some tables.
compiles(N, () => {})
const room = compiles(N, () => {})
arena.bytes = arenaMax()
// Fill what the arena has free, then every compile must evict.
while (engine.tables.evictions === 0) compiles(1, () => {})
const cold = compiles(N, () => {})
// Every table marked in use before each compile: the clock clears marks until its bound.
let visits = 0
let most = 0
const clock = arena.clockNext.bind(arena)
arena.clockNext = () => (visits++, clock())
const resident = kept.slice(-400)
const allUsed = compiles(N, () => {
  for (const m of resident) m.isAllowed('https://h/')
  most = Math.max(most, visits)
  visits = 0
})
process.stdout.write(JSON.stringify({ room, cold, allUsed, visits: Math.max(most, visits), bound: EVICT_VISITS, evictions: engine.tables.evictions }) + '\\n')
`

export async function evictionBench(log) {
  const { build } = await import('esbuild')
  const dir = join(root, 'build', 'bench-eviction')
  mkdirSync(dir, { recursive: true })
  const out = join(dir, 'child.mjs')
  await build({ stdin: { contents: CHILD, resolveDir: here, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', outfile: out, loader: { '.wasm': 'base64' }, logLevel: 'error' })
  const r = JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8', timeout: 300_000 }))
  log(`eviction: a compile ${r.room.toFixed(1)} µs with room, ${r.cold.toFixed(1)} µs at the cap evicting a cold table, ${r.allUsed.toFixed(1)} µs with every table in use (at most ${r.visits} blocks visited, bound ${r.bound}); ${r.evictions} evictions`)
  return r
}
