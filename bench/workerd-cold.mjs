// What a cold Cloudflare Worker pays for robotstxt-wasm, measured in a real workerd (wrangler's
// local engine): a Worker that answers each request with one check of a fresh robots.txt, started
// anew for each sample. Inside a Worker the clock stands still between I/O (Workers' Spectre
// mitigation), so the cost is taken from outside: the first request of a new isolate (the module
// evaluated, the wasm instantiated, first check) against the isolate's next requests (a warm check),
// and the same pair for a Worker that answers without the package. The gap between those two
// differences is what the package adds to a cold start.
//
// Alone: `node bench/workerd-cold.mjs` (Node >= 22.12: wrangler's requirement).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const SAMPLES = Number(process.env.BENCH_COLD_SAMPLES ?? 7)
const WARM = 5

const WITH = `import { parseRobots } from 'robotstxt-wasm'
export default { async fetch(req) {
  const ok = parseRobots('User-agent: *\\nDisallow: /private\\n').isAllowed(req.url, 'bot')
  return new Response(ok ? 'allowed' : 'disallowed')
} }`
const WITHOUT = `export default { async fetch(req) { return new Response(req.url.includes('/private') ? 'disallowed' : 'allowed') } }`

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Median ms of a new isolate's first request and of its next requests, over SAMPLES isolates. */
async function coldAndWarm(unstable_startWorker, source, dir, name) {
  const entry = join(dir, `${name}.mjs`)
  writeFileSync(entry, source)
  const first = []
  const warm = []
  for (let s = 0; s < SAMPLES; s++) {
    const worker = await unstable_startWorker({
      name, entrypoint: entry, compatibilityDate: '2026-04-01', sendMetrics: false,
      build: { alias: { 'robotstxt-wasm': join(root, 'dist', 'workerd.js') } },
      dev: { remote: false, server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: false, watch: false, logLevel: 'warn' },
    })
    try {
      await worker.ready
      const url = await worker.url
      const time = async (path) => {
        const t = performance.now()
        const body = await (await fetch(new URL(path, url))).text()
        if (body !== (path.includes('/private') ? 'disallowed' : 'allowed')) throw new Error(`workerd-cold: ${name} answered ${body}`)
        return performance.now() - t
      }
      first.push(await time(`/private/${s}`))
      const w = []
      for (let k = 0; k < WARM; k++) w.push(await time(`/public/${k}`))
      warm.push(median(w))
    } finally {
      await worker.dispose()
    }
  }
  return { first: median(first), warm: median(warm) }
}

/** The cold-start rows: with and without the package, and what the package adds. */
export async function workerdColdRows() {
  const { unstable_startWorker } = await import('wrangler')
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-workerd-cold-'))
  try {
    const withPkg = await coldAndWarm(unstable_startWorker, WITH, dir, 'cold-with-package')
    const without = await coldAndWarm(unstable_startWorker, WITHOUT, dir, 'cold-without-package')
    return { withPkg, without, adds: (withPkg.first - withPkg.warm) - (without.first - without.warm), samples: SAMPLES }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.WRANGLER_SEND_METRICS = 'false'
  const r = await workerdColdRows()
  const f = (ms) => `${ms.toFixed(2)} ms`
  console.log(`| workerd, ${r.samples} isolates each | first request | next requests | first minus next |`)
  console.log('|---|---:|---:|---:|')
  console.log(`| a Worker with robotstxt-wasm (one check per request) | ${f(r.withPkg.first)} | ${f(r.withPkg.warm)} | ${f(r.withPkg.first - r.withPkg.warm)} |`)
  console.log(`| the same Worker without it | ${f(r.without.first)} | ${f(r.without.warm)} | ${f(r.without.first - r.without.warm)} |`)
  console.log(`| what the package adds to a cold request | | | ${f(r.adds)} |`)
}
