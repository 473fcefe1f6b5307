// The CLI's --threads (`npm run bench` runs it; `node bench/cli-threads.mjs` alone prints its rows):
//   check --urls  the synthetic robots.txt and 10M URLs (the synthetic 100,000, 100 times over),
//                 file to file, as the "CLI check --urls" row;
//   filter        1M of the synthetic URLs spread over 4 origins (127.0.0.1 ports of this process,
//                 3 serving the synthetic robots.txt, 1 a 404), file to file.
// Each is a fresh process, 1 and 2 threads interleaved, best of CLI_THREADS_ROUNDS (default 3) wall
// times; the CPU time beside it (user + system, every thread of the process) shows what the
// second thread costs. Goal: 2 threads >= 1.7x one. The outputs of 1 and 2 threads are compared.
// A second row per command gives its peak RSS (VmHWM, the highest of the runs): it must not grow
// with the input (issue 35; test/cli-threads.test.ts holds filter under 440 MiB at 1M URLs).
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { createServer } from 'node:http'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { sectionMarkdown } from './report.mjs'
import { row } from './results.mjs'
import { syntheticRobots, syntheticUrls } from './synthetic.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const ROUNDS = Number(process.env.CLI_THREADS_ROUNDS ?? 3)

/**
 * Preloaded in each run: prints its CPU time and peak RSS as the process exits. The peak is Linux's
 * VmHWM, this program's own: maxRSS keeps the parent's RSS at the fork (this process, holding the
 * 10M URLs), where /proc is missing it is maxRSS.
 */
const PEAK = `process.on('exit', () => {
  const u = process.resourceUsage()
  let kib = u.maxRSS
  try { kib = Number(/VmHWM:\\s*(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]) } catch {}
  process.stderr.write(\`cpu \${u.userCPUTime + u.systemCPUTime} rss \${kib}\\n\`)
})
`

/** One run of the CLI: wall ms, CPU ms and peak RSS in bytes of the whole process (the child reports them as it exits). */
function runCli(args, outFile, usage) {
  return new Promise((resolve, reject) => {
    const out = openSync(outFile, 'w')
    const start = performance.now()
    const child = spawn(process.execPath, ['--require', usage, join(root, 'dist', 'cli.js'), ...args], { stdio: ['ignore', out, 'pipe'] })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = performance.now() - start
      closeSync(out)
      if (code !== 0 && code !== 1) reject(new Error(`robotstxt ${args[0]} failed (${code}): ${err}`))
      else resolve({ ms, cpuMs: Number(/cpu (\d+)/.exec(err)?.[1] ?? NaN) / 1000, rss: Number(/rss (\d+)/.exec(err)?.[1] ?? NaN) * 1024 })
    })
  })
}

/** Best wall time of each thread count over ROUNDS interleaved rounds; the outputs must agree. */
async function compare(name, args, dir, usage, log) {
  const best = { 1: { ms: Infinity, cpuMs: Infinity }, 2: { ms: Infinity, cpuMs: Infinity } }
  const peak = { 1: 0, 2: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    for (const threads of round % 2 === 0 ? [1, 2] : [2, 1]) {
      const r = await runCli([...args, '--threads', String(threads)], join(dir, `out-${threads}.txt`), usage)
      if (r.ms < best[threads].ms) best[threads] = r
      peak[threads] = Math.max(peak[threads], r.rss)
    }
  }
  if (!readFileSync(join(dir, 'out-1.txt')).equals(readFileSync(join(dir, 'out-2.txt')))) throw new Error(`${name}: 1 and 2 threads wrote different output`)
  const ratio = best[1].ms / best[2].ms
  log(`cli threads: ${name}: 1 thread ${(best[1].ms / 1000).toFixed(2)} s (CPU ${(best[1].cpuMs / 1000).toFixed(2)} s, peak RSS ${mib(peak[1])}), ` +
    `2 threads ${(best[2].ms / 1000).toFixed(2)} s (CPU ${(best[2].cpuMs / 1000).toFixed(2)} s, peak RSS ${mib(peak[2])}): ${ratio.toFixed(2)}x`)
  return { name, one: best[1], two: best[2], ratio, peak: { one: peak[1], two: peak[2] } }
}

function mib(bytes) {
  return `${Math.round(bytes / 2 ** 20)} MiB`
}

/** The rows: [{ name, urls, one: { ms, cpuMs, rss }, two: { ms, cpuMs, rss }, ratio, peak: { one, two } }]. */
export async function cliThreadsBench(log = console.log) {
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bench-threads-'))
  const usage = join(dir, 'usage.cjs')
  writeFileSync(usage, PEAK)
  const servers = []
  try {
    const robots = join(dir, 'robots.txt')
    writeFileSync(robots, syntheticRobots())
    const urls = syntheticUrls()
    const checkList = join(dir, 'urls.txt')
    const block = urls.join('\n') + '\n'
    let fd = openSync(checkList, 'w')
    for (let k = 0; k < 100; k++) writeSync(fd, block)
    closeSync(fd)
    const rows = [{ urls: 10_000_000, ...(await compare('check --urls', ['check', robots, 'Googlebot', '--urls', checkList], dir, usage, log)) }]

    const body = syntheticRobots()
    for (let i = 0; i < 4; i++) {
      const server = createServer((_req, res) => (i === 3 ? res.writeHead(404).end() : res.writeHead(200, { 'content-type': 'text/plain' }).end(body)))
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
      servers.push(server)
    }
    const paths = urls.map((u) => u.replace(/^https?:\/\/[^/]+/, ''))
    const hosted = paths.map((p, i) => `http://127.0.0.1:${servers[i % 4].address().port}${p}`).join('\n') + '\n'
    const filterList = join(dir, 'filter-urls.txt')
    fd = openSync(filterList, 'w')
    for (let k = 0; k < 10; k++) writeSync(fd, hosted)
    closeSync(fd)
    rows.push({ urls: 1_000_000, ...(await compare('filter', ['filter', 'Googlebot', '--urls', filterList], dir, usage, log)) })
    return rows
  } finally {
    for (const s of servers) s.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The cores two threads can use here: the ceilings below are for this machine. */
export const CEILING_CORES = Math.min(2, availableParallelism())

/**
 * The most N threads can gain on this machine's `cores` over one thread that took `wall` seconds
 * and `cpu` seconds of CPU (all its threads): even with no cost of its own for threading, the N-thread
 * run has the same CPU work to do, so it takes at least cpu / cores. A one-thread run whose I/O,
 * inflation or garbage collection already runs on another core (cpu > wall) is that much nearer it.
 */
export function twoCoreCeiling(wall, cpu, cores = CEILING_CORES) {
  return (cores * wall) / cpu
}

/** The id of a command's rows in bench/results.json. */
const COMMAND_IDS = { 'check --urls': 'check-urls', filter: 'filter' }

/**
 * The --threads section of bench/results.json: per command, a row of wall and CPU times (the
 * speed-up over one thread, and twoCoreCeiling beside it), then a row of peak RSS.
 */
export function cliThreadsSection(rows) {
  const out = []
  for (const r of rows) {
    const id = `cli-threads.${COMMAND_IDS[r.name]}`
    out.push(row(id, `\`${r.name}\``, 's', r.two.ms / 1000, {
      cells: { urls: r.urls, one: r.one.ms / 1000, oneCpu: r.one.cpuMs / 1000, twoCpu: r.two.cpuMs / 1000, speedup: r.ratio, ceiling: twoCoreCeiling(r.one.ms, r.one.cpuMs) },
    }))
    if (r.peak !== undefined) out.push(row(`${id}.rss`, `\`${r.name}\` peak RSS (the highest of the runs)`, 'MiB', r.peak.two / 2 ** 20, { cells: { urls: r.urls, one: r.peak.one / 2 ** 20 } }))
  }
  return {
    id: 'cli-threads', title: 'CLI `--threads` (a fresh process, output to a file; best of the runs, CPU time of all threads beside it)',
    columns: [
      { key: 'urls', label: 'URLs', unit: 'count' }, { key: 'one', label: '1 thread' }, { key: 'oneCpu', label: 'CPU, 1 thread', unit: 's' }, { key: 'ours', label: '2 threads' },
      { key: 'twoCpu', label: 'CPU, 2 threads', unit: 's' }, { key: 'speedup', label: '2 threads / 1', unit: 'x', digits: 2 },
      { key: 'ceiling', label: `the most 2 threads can give on ${CEILING_CORES} cores (twoCoreCeiling)`, unit: 'x', digits: 2 },
    ],
    rows: out,
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await cliThreadsBench()
  console.log('\n' + sectionMarkdown(cliThreadsSection(rows)).join('\n'))
}
