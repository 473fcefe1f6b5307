// One runtime's row of the README "Runtimes" table: single and batch checks of robotstxt-wasm and
// robots-parser on the synthetic workload, interleaved in one process, medians of BENCH_ROUNDS.
// Runs on Node, Bun and Deno alike (no tinybench): `npm run bench -- --runtime bun` starts it on
// that runtime (see bench/run.mjs), or directly: `<runtime> bench/runtime.mjs`.
import { cpus } from 'node:os'
import robotsParser from 'robots-parser'
import { parseRobots } from 'robotstxt-wasm'
import { syntheticRobots, syntheticUrls } from './synthetic.mjs'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const body = syntheticRobots()
const urls = syntheticUrls()
const agent = 'Googlebot'
const matcher = parseRobots(body).matcher(agent)
const rp = robotsParser('https://www.example.com/robots.txt', body)
const chunks = []
for (let i = 0; i < urls.length; i += 1000) chunks.push(urls.slice(i, i + 1000))
const out = new Uint8Array(1000)
let sink = 0

/** ns per URL of one pass of `fn` over `n` URLs, best of 3 runs. */
function time(fn, n) {
  let best = Infinity
  for (let k = 0; k < 3; k++) {
    const t = performance.now()
    fn()
    best = Math.min(best, ((performance.now() - t) * 1e6) / n)
  }
  return best
}
const single = () => { for (let i = 0; i < urls.length; i++) sink += matcher.isAllowed(urls[i]) ? 1 : 0 }
const batch = () => { for (const c of chunks) sink += matcher.isAllowedMany(c, out)[0] }
const theirs = () => { for (let i = 0; i < 20_000; i++) sink += rp.isAllowed(urls[i], agent) ? 1 : 0 }

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const s = [], b = [], t = []
for (let r = 0; r < ROUNDS; r++) {
  // Alternating order, so neither library always runs on a warmer (or hotter) machine.
  if (r % 2 === 0) { s.push(time(single, urls.length)); b.push(time(batch, urls.length)); t.push(time(theirs, 20_000)) }
  else { t.push(time(theirs, 20_000)); b.push(time(batch, urls.length)); s.push(time(single, urls.length)) }
}
const runtime = typeof Deno !== 'undefined' ? `Deno ${Deno.version.deno}` : typeof Bun !== 'undefined' ? `Bun ${Bun.version}` : `Node ${process.versions.node}`
const row = { runtime, single: median(s), batch: median(b), robotsParser: median(t), date: new Date().toISOString().slice(0, 10), machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores`, sink }
console.log(JSON.stringify(row))
