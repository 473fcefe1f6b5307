// What a cold Cloudflare Worker pays for robotstxt-wasm, measured in a real workerd (the runtime
// wrangler runs locally): the CPU time a new isolate costs with the package (its module evaluated,
// the wasm compiled and instantiated, one check) against a new isolate that answers without it.
//
// Method, and why: a parent Worker creates each isolate through a Worker Loader binding (a fresh name
// is a fresh isolate), and the workerd process's CPU time (all its threads, from /proc schedstat, in
// ns) is read around batches of such requests, the four kinds interleaved: a new isolate with the
// package, a new one without, and a request to an isolate of each kind already warm. A Worker cannot
// time itself (its clock stands still between I/O), and wall time from outside was noise: through
// wrangler's dev proxy a new isolate's first request took 220-780 ms, so the package's few ms came
// out anywhere between -4 and +125 ms. CPU time, per batch and medians over the rounds, repeats
// within a few tenths of a ms on a loaded machine.
//
//   adds = (cold with - warm with) - (cold without - warm without)
//
// Linux only (schedstat); elsewhere the rows say why they are missing. Every loaded isolate stays in
// memory until workerd exits (about 2 MB each), so the counts below stay small.
//
// Alone: `node bench/workerd-cold.mjs` (BENCH_COLD_BATCH, BENCH_COLD_ROUNDS as below).
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const WORKERD = join(root, 'node_modules', 'workerd', 'bin', 'workerd')
const BATCH = Number(process.env.BENCH_COLD_BATCH ?? 10)
const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 9)
const COMPAT_DATE = '2026-04-01'

// The two Workers a new isolate runs: one check through the package, or the same answer without it.
const WITH = `import { parseRobots } from './workerd.js'
export default { async fetch(req) {
  return new Response(parseRobots('User-agent: *\\nDisallow: /private\\n').isAllowed(req.url, 'bot') ? 'allowed' : 'disallowed')
} }`
const WITHOUT = `export default { async fetch(req) { return new Response(req.url.includes('/private') ? 'disallowed' : 'allowed') } }`

// The parent: loads the isolate named in the query (the package's dist/workerd.js and robots.wasm as
// its modules) and forwards one request to it.
const PARENT = `import pkg from './workerd.js.txt'
const WITH = ${JSON.stringify(WITH)}
const WITHOUT = ${JSON.stringify(WITHOUT)}
export default { async fetch(req, env) {
  const q = new URL(req.url).searchParams
  const withPkg = q.get('with') === '1'
  const worker = env.LOADER.get(q.get('name'), () => ({
    compatibilityDate: ${JSON.stringify(COMPAT_DATE)},
    mainModule: 'main.js',
    modules: withPkg ? { 'main.js': WITH, 'workerd.js': pkg, 'robots.wasm': { wasm: env.WASM } } : { 'main.js': WITHOUT },
  }))
  return worker.getEntrypoint().fetch('http://example.com/private/a')
} }`

const CONFIG = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .parent) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const parent :Workerd.Worker = (
  modules = [ (name = "parent.js", esModule = embed "parent.js"), (name = "workerd.js.txt", text = embed "workerd.js.txt") ],
  compatibilityDate = "${COMPAT_DATE}",
  compatibilityFlags = ["experimental"],
  bindings = [ (name = "LOADER", workerLoader = ()), (name = "WASM", data = embed "robots.wasm") ],
);
`

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

/** CPU time of every thread of `pid` so far, in ns. */
function cpuNs(pid) {
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ns
}

/** Why this machine cannot take the measurement, or null. */
function unavailable() {
  if (!existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`)) return 'needs Linux (/proc schedstat) for CPU time'
  if (!existsSync(WORKERD)) return 'node_modules/workerd (installed with wrangler) is missing'
  if (!existsSync(join(root, 'dist', 'workerd.js'))) return 'dist/workerd.js is missing (npm run build)'
  return null
}

/**
 * CPU ms per request of each kind, medians over ROUNDS rounds of BATCH requests, and what the package
 * adds to a new isolate; or { skipped } with the reason.
 */
export async function workerdColdRows() {
  const reason = unavailable()
  if (reason !== null) return { skipped: reason }
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-workerd-cold-'))
  writeFileSync(join(dir, 'config.capnp'), CONFIG)
  writeFileSync(join(dir, 'parent.js'), PARENT)
  writeFileSync(join(dir, 'workerd.js.txt'), readFileSync(join(root, 'dist', 'workerd.js')))
  writeFileSync(join(dir, 'robots.wasm'), readFileSync(join(root, 'dist', 'robots.wasm')))
  const port = await freePort()
  const child = spawn(WORKERD, ['serve', join(dir, 'config.capnp'), '--experimental', '--socket-addr', `http=127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  try {
    const base = `http://127.0.0.1:${port}/`
    const get = async (query) => {
      const body = await (await fetch(base + query)).text()
      if (body !== 'disallowed') throw new Error(`workerd-cold: the Worker answered ${JSON.stringify(body.slice(0, 200))}`)
    }
    for (let tries = 0; ; tries++) {
      try {
        await get('?with=0&name=ready')
        break
      } catch (err) {
        if (tries >= 100 || child.exitCode !== null) throw new Error(`workerd-cold: workerd did not start: ${stderr || err}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    let seq = 0
    const kinds = {
      coldWith: () => get(`?with=1&name=with-${seq++}`),
      coldWithout: () => get(`?with=0&name=without-${seq++}`),
      warmWith: () => get('?with=1&name=warm-with'),
      warmWithout: () => get('?with=0&name=warm-without'),
    }
    const names = Object.keys(kinds)
    const ms = Object.fromEntries(names.map((k) => [k, []]))
    for (const k of names) for (let i = 0; i < 3; i++) await kinds[k]()
    for (let r = 0; r < ROUNDS; r++) {
      for (let j = 0; j < names.length; j++) {
        const k = names[(r + j) % names.length]
        const before = cpuNs(child.pid)
        for (let i = 0; i < BATCH; i++) await kinds[k]()
        ms[k].push((cpuNs(child.pid) - before) / BATCH / 1e6)
      }
    }
    const m = Object.fromEntries(names.map((k) => [k, median(ms[k])]))
    return { ...m, adds: m.coldWith - m.warmWith - (m.coldWithout - m.warmWithout), batch: BATCH, rounds: ROUNDS, version: workerdVersion() }
  } finally {
    child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}

function workerdVersion() {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'workerd', 'package.json'), 'utf8')).version
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await workerdColdRows()
  if (r.skipped !== undefined) {
    console.log(`workerd cold start: SKIPPED, ${r.skipped}`)
  } else {
    const f = (x) => `${x.toFixed(2)} ms`
    console.log(`| workerd ${r.version}, CPU per request, median of ${r.rounds} rounds of ${r.batch} | new isolate | warm isolate | new minus warm |`)
    console.log('|---|---:|---:|---:|')
    console.log(`| a Worker with robotstxt-wasm (one check) | ${f(r.coldWith)} | ${f(r.warmWith)} | ${f(r.coldWith - r.warmWith)} |`)
    console.log(`| the same Worker without it | ${f(r.coldWithout)} | ${f(r.warmWithout)} | ${f(r.coldWithout - r.warmWithout)} |`)
    console.log(`| what the package adds to a new isolate | | | ${f(r.adds)} |`)
  }
}
