// `npm run bench:crawl`: checkUrls on a crawler-shaped frontier, 1,000,000 URLs interleaved over
// 1,000 origins served by a local node:http server (127.0.x.y, one robots.txt each). Cold is the
// first pass (every robots.txt fetched through the RobotsCache); warm passes reuse the cache.
// Prints URLs/s, robots.txt fetches and the heap after a full GC, with machine, runtime and date,
// and records them as the run `crawl` of bench/results.json (its other runs kept), then redraws the
// pages from it (bench/report.mjs). CRAWL_URLS sets the number of URLs.
import http from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'
import vm from 'node:vm'
import { checkUrls, RobotsCache } from '../dist/index.js'
import { ReportError, sectionTable, writeReport } from './report.mjs'
import { describeMachine, recordRun, row, today } from './results.mjs'

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
for (const [id, label, ordered] of [['cold', 'cold, in order', true], ['warm', 'warm, in order', true], ['warm-unordered', 'warm, unordered', false], ['warm-again', 'warm, in order', true]]) {
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
  rows.push(row(`crawl.${id}`, label, 'M/s', (n / ms) * 1000, { cells: { fetches: fetches - before, heap: process.memoryUsage().heapUsed / 2 ** 20, peak: peak / 2 ** 20 } }))
  process.stderr.write(`${label}: ${(n / ms / 1000).toFixed(2)}M URLs/s, ${fetches - before} fetches\n`)
}
server.close()
const runtime = typeof Bun !== 'undefined' ? `Bun ${Bun.version}` : `Node ${process.version}`
const section = {
  id: 'crawl', title: 'pass',
  intro: [`checkUrls, ${N.toLocaleString('en')} URLs over ${ORIGINS} origins, concurrency 16, a RobotsCache of ${2 * ORIGINS} entries.`],
  columns: [{ key: 'ours', label: 'URLs/s' }, { key: 'fetches', label: 'robots.txt fetches', unit: 'count' }, { key: 'heap', label: 'heap after (GC)', unit: 'MiB' }, { key: 'peak', label: 'heap peak (sampled)', unit: 'MiB' }],
  rows,
}
const run = { command: 'npm run bench:crawl', date: today(), machine: describeMachine(), runtime, sections: [section] }
console.log(`${section.intro[0]} ${run.date}, ${runtime}, ${run.machine}\n`)
console.log(sectionTable(section).join('\n'))
recordRun(join(dirname(fileURLToPath(import.meta.url)), 'results.json'), 'crawl', run)
try {
  writeReport(join(dirname(fileURLToPath(import.meta.url)), '..'))
} catch (error) {
  if (!(error instanceof ReportError)) throw error
  process.stderr.write(`bench/report.mjs: ${error.message}\n`)
  process.exit(error.status)
}
