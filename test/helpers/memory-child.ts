// Run by test/memory.test.ts as `node --expose-gc` on an esbuild bundle of this file. Prints one
// JSON object of memory readings (bytes). Not a vitest file: it needs gc() and a clean heap.
import { parseRobots } from '../../src/index.js'
import { getEngine } from '../../src/engine/wasm.js'

const gc = (globalThis as { gc?: () => void }).gc!
function used(): number {
  gc()
  gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.external
}

const bodies = Array.from({ length: 50 }, (_, i) => {
  const lines = [`User-agent: bot${i % 7}`]
  for (let r = 0; r < 10 + (i % 30); r++) lines.push(`${r % 3 ? 'Disallow' : 'Allow'}: /p${i}/${r}/*.html$`, `Disallow: /*?q${r}=`)
  lines.push('User-agent: *', `Disallow: /private${i}/`)
  return lines.join('\n')
})
const robots = bodies.map((b) => parseRobots(b))
const agents = ['bot0', 'bot1', 'bot2', 'bot3', 'bot4', 'bot5', 'bot6', 'other']
const MATCHERS = Number(process.env.MEMORY_MATCHERS ?? 1_000_000)
const CHECKS = Number(process.env.MEMORY_CHECKS ?? 10_000_000)

const urls = Array.from({ length: 1000 }, (_, i) => `https://x.com/p${i % 50}/${i % 11}/page-${i}.html?q${i % 13}=v&z=%c3%a9`)
// Warm-up: code, caches, the largest table and the largest URL batch the run will see.
for (let i = 0; i < 2000; i++) robots[i % robots.length]!.matcher(agents[i % agents.length]!).isAllowed('https://x.com/p1/2/a.html')
robots[0]!.matcher('bot0').isAllowedMany(urls)
const wasmAfterWarmup = getEngine().memoryBytes

// Create and drop matchers, each used once (its table kept in the arena, or in JS memory once the
// arena is full). Every 10,000 the event loop turns, as it does between a crawler's fetches, so
// the FinalizationRegistry frees the tables of collected matchers.
const turn = () => new Promise((resolve) => setTimeout(resolve, 0))
let allowed = 0
const readings: number[] = []
for (let i = 0; i < MATCHERS; i++) {
  const m = robots[i % robots.length]!.matcher(agents[i % agents.length]!)
  if (m.isAllowed(`https://x.com/p${i % 50}/${i % 7}/x.html?q${i % 9}=1`)) allowed++
  if ((i + 1) % 10_000 === 0) { gc(); await turn() }
  if ((i + 1) % (MATCHERS / 10) === 0) readings.push(used())
}
const wasmAfterMatchers = getEngine().memoryBytes
gc()
await turn()
const arenaLiveAfterMatchers = getEngine().tables.arena?.live ?? 0

// Many checks on a few live matchers, single and batched.
const live = agents.map((a, i) => robots[i]!.matcher(a))
const beforeChecks = used()
const out = new Uint8Array(urls.length)
let done = 0
while (done < CHECKS) {
  const m = live[(done / 1000) % live.length | 0]!
  if (done % 2000 === 0) for (const u of urls) allowed += m.isAllowed(u) ? 1 : 0
  else for (const b of m.isAllowedMany(urls, out)) allowed += b
  done += urls.length
}
const afterChecks = used()

process.stdout.write(JSON.stringify({
  matchers: MATCHERS, checks: done, allowed, readings, beforeChecks, afterChecks,
  wasmAfterWarmup, wasmAfterMatchers, arenaLiveAfterMatchers, wasmAtEnd: getEngine().memoryBytes,
}) + '\n')
