// `npm run bench:crawl`: checkUrls on a crawler-shaped frontier, 1,000,000 URLs interleaved over
// 1,000 origins served by a local node:http server (127.0.x.y, one robots.txt each). Cold is the
// first pass (every robots.txt fetched through the RobotsCache); warm passes reuse the cache.
// Reports URLs/s, robots.txt fetches and the heap after a full GC, with machine, runtime and date.
import http from 'node:http'
import { cpus, totalmem } from 'node:os'
import v8 from 'node:v8'
import vm from 'node:vm'
import { checkUrls, RobotsCache } from '../dist/index.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc')
const N = Number(process.env.CRAWL_URLS ?? 1_000_000)
const ORIGINS = 1000
let fetches = 0
const server = http.createServer((req, res) => {
  fetches++
  res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: other\nDisallow: /\n')
})
await new Promise((r) => server.listen(0, '0.0.0.0', r))
const port = server.address().port
const origins = Array.from({ length: ORIGINS }, (_, i) => `http://127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}:${port}`)
function* frontier() {
  for (let i = 0; i < N; i++) yield `${origins[(i * 7919) % ORIGINS]}/${i % 3 === 0 ? 'private/' : 'page/'}${i}`
}

const cache = new RobotsCache({ maxEntries: 2 * ORIGINS })
const rows = []
for (const [label, ordered] of [['cold, in order', true], ['warm, in order', true], ['warm, unordered', false], ['warm, in order', true]]) {
  gc()
  const before = fetches
  let n = 0
  let peak = 0
  const t0 = performance.now()
  for await (const v of checkUrls(frontier(), { agent: 'MyBot', cache, ordered, concurrency: 16 })) {
    if (v.allowed === undefined) throw new Error('no verdict')
    if (++n % 200_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  const ms = performance.now() - t0
  gc()
  rows.push({ label, urlsPerSec: (n / ms) * 1000, fetches: fetches - before, heapMiB: process.memoryUsage().heapUsed / 2 ** 20, peakMiB: peak / 2 ** 20 })
  process.stderr.write(`${label}: ${(n / ms / 1000).toFixed(2)}M URLs/s, ${fetches - before} fetches\n`)
}
server.close()
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB`
const runtime = typeof Bun !== 'undefined' ? `Bun ${Bun.version}` : `Node ${process.version}`
console.log(`checkUrls, ${N.toLocaleString('en')} URLs over ${ORIGINS} origins; ${new Date().toISOString().slice(0, 10)}, ${runtime}, ${machine}\n`)
console.log('| pass | URLs/s | robots.txt fetches | heap after (GC) | heap peak (sampled) |\n|---|---:|---:|---:|---:|')
for (const r of rows) console.log(`| ${r.label} | ${(r.urlsPerSec / 1e6).toFixed(2)}M | ${r.fetches} | ${r.heapMiB.toFixed(0)} MiB | ${r.peakMiB.toFixed(0)} MiB |`)
