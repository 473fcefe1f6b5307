// `npm run bench`: robotstxt-wasm against robots-parser 3.0.1, in one process, interleaved, each
// phase timed apart. Prints a Markdown report (machine, Node, date) and writes bench/RESULTS.md, then
// the headline drawn from it (bench/report.mjs: README.md, docs/benchmarks.md, docs/bench.svg).
//
//   BENCH_ROUNDS (default 5) rounds per comparison, alternating which library runs first; the
//   median of the rounds is reported. BENCH_TIME (default 250) ms per task per round.
import { execFileSync, spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { cpus, totalmem, platform, arch } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { Bench } from 'tinybench'
import robotsParser from 'robots-parser'
import { parseRobots } from '../dist/index.js'
import { scalingRobots, syntheticRobots, syntheticUrls } from './synthetic.mjs'
import { hostilePhase, hostileTable } from './hostile.mjs'
import { exactness, labelledBodies, ours as oursPeer, PEERS } from './peers.mjs'
import { ensureRuntime, RUNTIMES } from '../scripts/runtimes.mjs'
import { COLD_RUNS, coldStart, perSite } from './per-site.mjs'
import { surveyBenchChild, surveyCeiling } from './survey.mjs'
import { CEILING_CORES, cliThreadsBench, cliThreadsTable } from './cli-threads.mjs'
import { writeHeadline } from './report.mjs'
import { evictionBench } from './eviction.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const CORPUS = join(root, '..', 'shared', 'corpus')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const TIME = Number(process.env.BENCH_TIME ?? 250)
const BATCH = 1000 // calls per task invocation

const rows = []
const realBreakdown = []
const ruleFree = []

// `npm run bench -- --runtime NAME[,NAME...]` (or `--runtime all`): the README "Runtimes" rows,
// each measured by bench/runtime.mjs on that runtime; written to bench/RUNTIMES.md.
/** bench/runtime-core.mjs in a page of Debian's Chromium (headless, via playwright-core); null without one. */
async function chromiumRow() {
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))
  if (executablePath === undefined) {
    process.stderr.write('chromium: not installed (apt-get install chromium), row SKIPPED\n')
    return null
  }
  const { build } = await import('esbuild')
  const out = await build({
    stdin: { contents: "import { measureRow } from './runtime-core.mjs'\nwindow.__row = measureRow(7)", resolveDir: here, loader: 'js' },
    bundle: true, write: false, format: 'esm', platform: 'browser', conditions: ['browser'], logLevel: 'error',
  })
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  try {
    const page = await browser.newPage()
    await page.setContent('<!doctype html><meta charset="utf-8">')
    await page.addScriptTag({ content: out.outputFiles[0].text, type: 'module' })
    await page.waitForFunction(() => window.__row !== undefined, undefined, { timeout: 300_000 })
    const row = await page.evaluate(() => window.__row)
    const version = browser.version()
    return { runtime: `Chromium ${version}`, ...row, date: new Date().toISOString().slice(0, 10), machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores` }
  } finally {
    await browser.close()
  }
}

const runtimeArg = process.argv.indexOf('--runtime')
if (runtimeArg >= 0) {
  const asked = process.argv[runtimeArg + 1] ?? 'all'
  const names = asked === 'all' ? [...Object.keys(RUNTIMES), 'chromium'] : asked.split(',')
  const HOW = {
    node: 'embedded bytes, compiled synchronously (`import`/`require`)', bun: 'embedded bytes, compiled synchronously (`bun` condition)',
    deno: '`import source` of dist/robots.wasm (`deno` condition)',
    chromium: 'embedded bytes, compiled synchronously (`browser` condition, bundled by esbuild)',
  }
  const lines = ['| runtime | wasm loads as | single `isAllowed` | of which encodeInto | batch `isAllowedMany` | byte path `isAllowedLines` | robots-parser | single | batch | byte path |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|']
  let meta = ''
  for (const name of names) {
    let r
    if (name === 'chromium') {
      r = await chromiumRow()
      if (r === null) continue
    } else {
      const bin = ensureRuntime(name)
      const args = name === 'deno' ? ['run', '-A', 'bench/runtime.mjs'] : ['bench/runtime.mjs']
      r = JSON.parse(execFileSync(bin, args, { cwd: root, encoding: 'utf8' }).trim().split('\n').at(-1))
    }
    meta = `${r.date}, ${r.machine}`
    const how = HOW[name.startsWith('node') ? 'node' : name]
    const ratio = (ns) => `**${(r.robotsParser / ns).toFixed(1)}x**`
    lines.push(`| ${r.runtime} | ${how} | ${r.single.toFixed(0)} ns | ${r.encode.toFixed(0)} ns | ${r.batch.toFixed(0)} ns | ${r.lines.toFixed(0)} ns | ${(r.robotsParser / 1000).toFixed(2)} µs | ${ratio(r.single)} | ${ratio(r.batch)} | ${ratio(r.lines)} |`)
    process.stderr.write(lines.at(-1) + "\n")
  }
  const md = `Synthetic workload (bench/synthetic.mjs), per URL; robots-parser in the same process, interleaved; ${meta}.\n\n${lines.join('\n')}\n`
  process.stdout.write('\n' + md)
  // Only the full run replaces the file: a single runtime's row is printed, not saved.
  if (asked === 'all') {
    writeFileSync(join(here, 'RUNTIMES.md'), `# Benchmarks per runtime\n\nWritten by \`npm run bench -- --runtime all\`.\n\n${md}`)
    writeHeadline(root)
  }
  process.exit(0)
}
const targets = []
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmtNs = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(1)} ns`)
const log = (s) => process.stderr.write(s + '\n')

/** Runs both functions ROUNDS times through tinybench, alternating order; ns per call, medians. */
function compare(phase, ours, theirs, perCall = BATCH) {
  const o = []
  const t = []
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: TIME, warmupTime: 50 })
    const order = round % 2 === 0 ? [['ours', ours], ['theirs', theirs]] : [['theirs', theirs], ['ours', ours]]
    for (const [name, fn] of order) bench.add(name, fn)
    bench.runSync()
    for (const task of bench.tasks) (task.name === 'ours' ? o : t).push((task.result.period * 1e6) / perCall)
  }
  const row = { phase, ours: median(o), theirs: median(t) }
  row.ratio = row.theirs / row.ours
  rows.push(row)
  log(`${phase}: ours ${fmtNs(row.ours)}, robots-parser ${fmtNs(row.theirs)}, ${row.ratio.toFixed(1)}x`)
  return row
}

function target(what, value, goal, ok) {
  targets.push({ what, value, goal, ok })
}

/**
 * The per-URL ratios to robots-parser before the matrix pass (issue 51), from the run committed
 * as bench/RESULTS.md in 7fbd337: a change for many agents a site must keep each within 5%.
 */
const PER_URL_BEFORE = { single: 31.2, batch: 35.6, lines: 51.6, real: 12.3 }

function noRegression(what, ratio, before) {
  const floor = 0.95 * before
  target(`${what}, no regression (issue 51): ratio / ${before.toFixed(1)}x before`, ratio / before, '>= 0.95', ratio >= floor)
}

// ── init: a fresh process importing the package and answering one check, over an empty one ─────
async function initPhase() {
  const cold = await coldStart(Math.max(COLD_RUNS, ROUNDS * 2 + 1))
  // CPU time, as the per-site cold start row: wall medians of 30 ms processes on a shared machine
  // can fall below the empty script's.
  const row = { phase: `init: import + first check (fresh process, CPU time over one with an empty script: ${fmtNs(cold.cpu.empty)})`, ours: cold.cpu.ours, theirs: cold.cpu.theirs }
  row.ratio = row.theirs / row.ours
  rows.push(row)
  log(`init: ours +${fmtNs(row.ours)}, robots-parser +${fmtNs(row.theirs)} of CPU over an empty node (${fmtNs(cold.cpu.empty)})`)
  return cold
}

// ── a cold Cloudflare Worker: workerd's CPU time per new isolate (bench/workerd-cold.mjs) ────────
async function workerdColdPhase() {
  const { workerdColdRows } = await import('./workerd-cold.mjs')
  const r = await workerdColdRows()
  if (r.skipped !== undefined) {
    log(`workerd cold start: SKIPPED, ${r.skipped}`)
    return null
  }
  const f = (ms) => `${ms.toFixed(2)} ms`
  log(`workerd cold start: the package adds ${f(r.adds)} of CPU to a new isolate`)
  return [
    `A cold Worker in workerd ${r.version} (local): the CPU time of the workerd process (all threads) per request, median of ${r.rounds} rounds of ${r.batch} requests of each kind, interleaved; each new isolate comes from a Worker Loader, and a Worker's own clock cannot time it (it stands still between I/O).`, '',
    '| Worker | a new isolate\'s first request | a warm isolate\'s request | new minus warm |', '|---|---:|---:|---:|',
    `| one check of robotstxt-wasm per request | ${f(r.coldWith)} | ${f(r.warmWith)} | ${f(r.coldWith - r.warmWith)} |`,
    `| the same answer without the package | ${f(r.coldWithout)} | ${f(r.warmWithout)} | ${f(r.coldWithout - r.warmWithout)} |`,
    `| what the package adds to a cold start (module evaluated, wasm compiled and instantiated, first check) | | | **${f(r.adds)}** |`,
  ]
}

// ── parse + compile + first check, over the real corpus ─────────────────────────────────────────
function parsePhase(files) {
  const agent = 'Googlebot'
  const url = (f) => `https://${f.host}/some/path?x=1`
  const total = files.reduce((n, f) => n + f.bytes, 0)
  const o = []
  const t = []
  let checksumOurs = 0
  let checksumTheirs = 0
  for (let round = 0; round < ROUNDS; round++) {
    for (const lib of round % 2 ? ['theirs', 'ours'] : ['ours', 'theirs']) {
      const start = process.hrtime.bigint()
      let allowed = 0
      if (lib === 'ours') for (const f of files) allowed += parseRobots(f.text).matcher(agent).isAllowed(url(f)) ? 1 : 0
      else for (const f of files) allowed += robotsParser(`https://${f.host}/robots.txt`, f.text).isAllowed(url(f), agent) !== false ? 1 : 0
      const ns = Number(process.hrtime.bigint() - start)
      if (lib === 'ours') { o.push(ns); checksumOurs = allowed } else { t.push(ns); checksumTheirs = allowed }
    }
  }
  const row = { phase: `parse + compile + first check, per file (${files.length} real files, ${(total / 1e6).toFixed(1)} MB)`, ours: median(o) / files.length, theirs: median(t) / files.length }
  row.ratio = row.theirs / row.ours
  row.note = `${(total / (median(o) / 1e9) / 1e6).toFixed(1)} MB/s vs ${(total / (median(t) / 1e9) / 1e6).toFixed(1)} MB/s`
  rows.push(row)
  log(`${row.phase}: ${row.ratio.toFixed(2)}x (${row.note}); allowed ${checksumOurs} vs ${checksumTheirs}`)
  target('parse + compile + first check', row.ratio, 3, row.ratio >= 3)
}

// ── single and batch checks ─────────────────────────────────────────────────────────────────────
function checkPhases(label, pairs) {
  // pairs: [{ matcher, rp, agent, url }] checked round-robin.
  const n = pairs.length
  let i = 0
  let j = 0
  const single = compare(`${label}: single Matcher.isAllowed vs isAllowed`, () => {
    for (let k = 0; k < BATCH; k++) { const p = pairs[i]; p.matcher.isAllowed(p.url); i = i + 1 === n ? 0 : i + 1 }
  }, () => {
    for (let k = 0; k < BATCH; k++) { const p = pairs[j]; p.rp.isAllowed(p.url, p.agent); j = j + 1 === n ? 0 : j + 1 }
  })
  return single
}

function batchPhase(label, chunks, pairs) {
  // chunks: [{ matcher, urls, out }] of ~BATCH urls each; robots-parser checks the same URLs one by one.
  let c = 0
  let j = 0
  const urlsPerRun = chunks.reduce((s, ch) => s + ch.urls.length, 0) / chunks.length
  return compare(`${label}: batch isAllowedMany vs isAllowed`, () => {
    const ch = chunks[c]
    ch.matcher.isAllowedMany(ch.urls, ch.out)
    c = c + 1 === chunks.length ? 0 : c + 1
  }, () => {
    for (let k = 0; k < urlsPerRun; k++) { const p = pairs[j]; p.rp.isAllowed(p.url, p.agent); j = j + 1 === pairs.length ? 0 : j + 1 }
  }, urlsPerRun)
}

// The byte path: the same chunks as UTF-8 lines, encoded once up front as a stream reader has them;
// robots-parser is given the same URLs as strings.
function linesPhase(label, chunks, pairs) {
  const enc = new TextEncoder()
  const lineChunks = chunks.map((ch) => ({ matcher: ch.matcher, bytes: enc.encode(ch.urls.join('\n') + '\n'), out: new Uint8Array(ch.urls.length), n: ch.urls.length }))
  for (const ch of lineChunks) {
    const got = ch.matcher.isAllowedLines(ch.bytes, ch.out)
    const want = ch.matcher.isAllowedMany(chunks[lineChunks.indexOf(ch)].urls)
    for (let i = 0; i < ch.n; i++) if (got[i] !== want[i]) throw new Error(`${label}: isAllowedLines and isAllowedMany differ at URL ${i}`)
  }
  let c = 0
  let j = 0
  const urlsPerRun = lineChunks.reduce((s, ch) => s + ch.n, 0) / lineChunks.length
  return compare(`${label}: byte path isAllowedLines vs isAllowed`, () => {
    const ch = lineChunks[c]
    ch.matcher.isAllowedLines(ch.bytes, ch.out)
    c = c + 1 === lineChunks.length ? 0 : c + 1
  }, () => {
    for (let k = 0; k < urlsPerRun; k++) { const p = pairs[j]; p.rp.isAllowed(p.url, p.agent); j = j + 1 === pairs.length ? 0 : j + 1 }
  }, urlsPerRun)
}

// ── the other npm libraries: throughput on the synthetic workload and exactness on the labels ──
async function peersPhase() {
  const body = syntheticRobots()
  const urls = syntheticUrls()
  const agent = 'Googlebot'
  const matcher = parseRobots(body).matcher(agent)
  const bodies = existsSync(CORPUS) ? labelledBodies(join(CORPUS, '..')) : null
  const out = []
  for (const peer of [oursPeer(parseRobots, 'robotstxt-wasm (this build)'), ...PEERS]) {
    const check = await peer.make(body, new TextEncoder().encode(body))
    let i = 0
    let j = 0
    const n = urls.length
    const row = peer.exact
      ? null
      : compare(`synthetic (a): single Matcher.isAllowed vs ${peer.name}`, () => {
        for (let k = 0; k < BATCH; k++) { matcher.isAllowed(urls[i]); i = i + 1 === n ? 0 : i + 1 }
      }, () => {
        for (let k = 0; k < BATCH; k++) { check(urls[j], agent); j = j + 1 === n ? 0 : j + 1 }
      })
    const e = bodies === null ? null : await exactness(peer, bodies)
    out.push({ name: peer.name, ns: row?.theirs ?? null, ratio: row?.ratio ?? null, exact: e })
    log(`peer ${peer.name}: exactness ${e ? `${e.right}/${e.total}` : 'skipped (no ../shared)'}`)
  }
  // The main table keeps robots-parser's rows; the peers table shows them all.
  rows.splice(rows.length - PEERS.length, PEERS.length)
  return out
}

function syntheticPhase() {
  const body = syntheticRobots()
  const urls = syntheticUrls()
  const agent = 'Googlebot'
  const matcher = parseRobots(body).matcher(agent)
  const rp = robotsParser('https://www.example.com/robots.txt', body)
  // Verdict checksum: single, batch and robots-parser answers are counted; ours must agree.
  const many = matcher.isAllowedMany(urls)
  let single = 0
  let batch = 0
  for (let i = 0; i < urls.length; i++) { single += matcher.isAllowed(urls[i]) ? 1 : 0; batch += many[i] }
  if (single !== batch) throw new Error(`synthetic: single (${single}) and batch (${batch}) verdicts differ`)
  log(`synthetic: ${body.split('\n').length} lines, ${urls.length} URLs, allowed ${single}`)
  const pairs = urls.map((url) => ({ matcher, rp, agent, url }))
  const s = checkPhases('synthetic (a)', pairs)
  const chunks = []
  for (let i = 0; i < urls.length; i += BATCH) chunks.push({ matcher, urls: urls.slice(i, i + BATCH), out: new Uint8Array(BATCH) })
  const b = batchPhase('synthetic (a)', chunks, pairs)
  const l = linesPhase('synthetic (a)', chunks, pairs)
  target('single Matcher.isAllowed (synthetic)', s.ratio, 40, s.ratio >= 40)
  target('batch isAllowedMany (synthetic)', b.ratio, 60, b.ratio >= 60)
  target('byte path isAllowedLines (synthetic)', l.ratio, 100, l.ratio >= 100)
  noRegression('single Matcher.isAllowed (synthetic)', s.ratio, PER_URL_BEFORE.single)
  noRegression('batch isAllowedMany (synthetic)', b.ratio, PER_URL_BEFORE.batch)
  noRegression('byte path isAllowedLines (synthetic)', l.ratio, PER_URL_BEFORE.lines)
  ruleFreePhase(urls, chunks, { single: s, batch: b, lines: l })
}

// The synthetic URLs through the same three entry points, against one rule that none of them
// matches: what a URL costs outside rule work (the host's encode or copy, the call, locating and
// normalizing the path, an empty decision). robots-parser's time from the rows above over this
// gives the ratio each entry point would reach if the group's 20 rules cost nothing.
function ruleFreePhase(urls, chunks, measured) {
  const bare = parseRobots('User-agent: *\nDisallow: /zzz\n').matcher('Googlebot')
  const allowed = bare.isAllowedMany(urls).reduce((n, v) => n + v, 0)
  if (allowed !== urls.length) throw new Error(`rule-free: ${urls.length - allowed} synthetic URLs match /zzz`)
  const enc = new TextEncoder()
  const lineChunks = chunks.map((ch) => ({ bytes: enc.encode(ch.urls.join('\n') + '\n'), urls: ch.urls, out: ch.out }))
  const perCall = urls.length / chunks.length
  let i = 0
  let c = 0
  let d = 0
  const ns = {
    single: timeOurs(() => { for (let k = 0; k < BATCH; k++) { bare.isAllowed(urls[i]); i = i + 1 === urls.length ? 0 : i + 1 } }),
    batch: timeOurs(() => { const ch = lineChunks[c]; bare.isAllowedMany(ch.urls, ch.out); c = c + 1 === lineChunks.length ? 0 : c + 1 }, perCall),
    lines: timeOurs(() => { const ch = lineChunks[d]; bare.isAllowedLines(ch.bytes, ch.out); d = d + 1 === lineChunks.length ? 0 : d + 1 }, perCall),
  }
  const names = { single: 'single Matcher.isAllowed', batch: 'batch isAllowedMany', lines: 'byte path isAllowedLines' }
  const goals = { single: 40, batch: 60, lines: 100 }
  for (const k of Object.keys(ns)) {
    const row = measured[k]
    ruleFree.push({ what: names[k], ours: row.ours, bare: ns[k], theirs: row.theirs, now: row.ratio, ceiling: row.theirs / ns[k], goal: goals[k] })
    log(`rule-free ${names[k]}: ${fmtNs(ns[k])} (20 rules: ${fmtNs(row.ours)}), ceiling ${(row.theirs / ns[k]).toFixed(1)}x, goal ${goals[k]}x`)
  }
}

function realPhase(corpusCases) {
  const pairs = []
  const chunks = []
  let mismatches = 0
  let checksum = 0
  let labels = 0
  for (const rec of corpusCases) {
    const host = rec.host
    const robots = parseRobots(rec.text)
    const rp = robotsParser(`https://${host}/robots.txt`, rec.text)
    const byAgent = new Map()
    for (const c of rec.cases) {
      if (Array.isArray(c.agent)) continue // robots-parser takes one agent
      if (!byAgent.has(c.agent)) byAgent.set(c.agent, { matcher: robots.matcher(c.agent), cases: [] })
      byAgent.get(c.agent).cases.push(c)
    }
    for (const [agent, { matcher, cases }] of byAgent) {
      for (const c of cases) {
        const allowed = matcher.isAllowed(c.url)
        if (allowed !== c.allowed) mismatches++
        checksum = (checksum * 31 + (allowed ? 1 : 0)) >>> 0
        labels = (labels * 31 + (c.allowed ? 1 : 0)) >>> 0
        pairs.push({ matcher, rp, agent, url: c.url })
      }
      chunks.push({ matcher, urls: cases.map((c) => c.url), out: new Uint8Array(cases.length) })
    }
  }
  if (mismatches !== 0 || checksum !== labels) throw new Error(`real files: ${mismatches} verdicts differ from the labels (checksum ${checksum} vs ${labels})`)
  log(`real files: ${pairs.length} labelled URL checks, verdict checksum ${checksum.toString(16)} equals the labels'`)
  const s = checkPhases('real files (b)', pairs)
  // Batches regrouped to ~BATCH URLs per call per matcher would not be realistic: a real crawler
  // batches the URLs of one site. Here each call checks one file's URLs for one agent.
  const perCall = (pairs.length / chunks.length).toFixed(1)
  const b = batchPhase(`real files (b), one call per file and agent (${perCall} URLs per call)`, chunks, pairs)
  // Where the time of a real-file check goes: the same pairs, taken apart.
  const enc = new TextEncoder()
  const mem = new Uint8Array(1 << 20)
  let e = 0
  const n = pairs.length
  const encodeNs = timeOurs(() => { for (let k = 0; k < BATCH; k++) { enc.encodeInto(pairs[e].url, mem); e = e + 1 === n ? 0 : e + 1 } })
  let w = 0
  // Each URL checked 8 times in a row on its own matcher: its table resident, caches and branch
  // predictors warm; the difference to the benchmark order is what switching hosts costs.
  const warmNs = timeOurs(() => { for (let k = 0; k < BATCH / 8; k++) { const p = pairs[w]; for (let r = 0; r < 8; r++) p.matcher.isAllowed(p.url); w = w + 1 === n ? 0 : w + 1 } })
  // Two hosts in turn, 4 times each: every check copies its table in, but both tables, their
  // matchers and URLs stay in the CPU's caches; the rest of the gap to the benchmark order is cold caches.
  let sw = 0
  const other = pairs.map((p, k) => {
    let j = k
    do j = j + 1 === n ? 0 : j + 1
    while (pairs[j].matcher === p.matcher)
    return pairs[j]
  })
  const switchNs = timeOurs(() => {
    for (let k = 0; k < BATCH / 8; k++) {
      const p = pairs[sw]
      const q = other[sw]
      for (let r = 0; r < 4; r++) { p.matcher.isAllowed(p.url); q.matcher.isAllowed(q.url) }
      sw = sw + 1 === n ? 0 : sw + 1
    }
  })
  realBreakdown.push(
    { what: 'real files: one URL UTF-8-encoded into memory (TextEncoder.encodeInto)', ns: encodeNs },
    { what: 'real files: a check with its table resident and caches warm (each URL 8 times in a row)', ns: warmNs },
    { what: 'real files: a check that copies its table in, caches warm (two hosts in turn, 4 times each)', ns: switchNs },
    { what: 'real files: a check in benchmark order (hosts interleaved: a table copy and cold caches on most checks)', ns: s.ours },
  )
  target('single Matcher.isAllowed (real files)', s.ratio, 20, s.ratio >= 20)
  noRegression('single Matcher.isAllowed (real files)', s.ratio, PER_URL_BEFORE.real)
  target(`batch isAllowedMany (real files, ${perCall} URLs per call)`, b.ratio, 20, b.ratio >= 20)
}

// ── scaling ─────────────────────────────────────────────────────────────────────────────────────
function timeOurs(fn, perCall = BATCH) {
  const xs = []
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: TIME, warmupTime: 50 })
    bench.add('x', fn)
    bench.runSync()
    xs.push((bench.tasks[0].result.period * 1e6) / perCall)
  }
  return median(xs)
}

function scalingPhase() {
  const urls = syntheticUrls(10_000, 7)
  const lines = []
  let base = 0
  for (const n of [10, 100, 1000, 10_000]) {
    const m = parseRobots(scalingRobots(n)).matcher('bot')
    let i = 0
    const ns = timeOurs(() => { for (let k = 0; k < BATCH; k++) { m.isAllowed(urls[i]); i = (i + 1) % urls.length } })
    if (n === 10) base = ns
    lines.push({ what: `${n} rules`, ns, ratio: ns / base })
  }
  const worst = lines[lines.length - 1].ratio
  target('10,000-rule group vs 10-rule group, per URL', worst, 2, worst <= 2)
  const m = parseRobots(syntheticRobots()).matcher('Googlebot')
  let b20 = 0
  for (const len of [20, 200, 2000]) {
    const us = Array.from({ length: 1000 }, (_, i) => { let s = `https://www.example.com/${i}/`; while (s.length < len) s += 'abcdefghij/'.slice(0, len - s.length); return s })
    let i = 0
    const ns = timeOurs(() => { for (let k = 0; k < BATCH; k++) { m.isAllowed(us[i]); i = (i + 1) % us.length } })
    if (len === 20) b20 = ns
    lines.push({ what: `URL of ${len} bytes`, ns, ratio: ns / b20 })
  }
  for (const l of lines) log(`scaling ${l.what}: ${fmtNs(l.ns)} (${l.ratio.toFixed(2)}x)`)
  return lines
}

// ── floors: what moving a URL string into wasm memory costs with no matching, and the reverse ───────
function floorPhase() {
  const urls = syntheticUrls()
  const mem = new Uint8Array(1 << 22)
  const enc = new TextEncoder()
  let i = 0
  const single = timeOurs(() => { for (let k = 0; k < BATCH; k++) { enc.encodeInto(urls[i], mem); i = i + 1 === urls.length ? 0 : i + 1 } })
  const chunks = []
  for (let c = 0; c < urls.length; c += BATCH) chunks.push(urls.slice(c, c + BATCH))
  const lines = [{ what: 'one URL UTF-8-encoded into memory (TextEncoder.encodeInto): the floor under a single check', ns: single }]
  if (typeof Buffer === 'function') {
    const buf = Buffer.from(mem.buffer)
    let c = 0
    // Joined as Engine.many16 joins them: appended into a rope that the copy flattens.
    const batch = timeOurs(() => {
      const ch = chunks[c]
      let joined = ''
      for (let k = 0; k < ch.length; k++) joined += ch[k]
      buf.write(joined, 0, mem.length, 'utf16le')
      c = c + 1 === chunks.length ? 0 : c + 1
    }, BATCH)
    lines.push({ what: 'per URL of a 1,000-URL batch: join + one UTF-16 copy into memory', ns: batch })
  }
  lines.push({ what: 'the other side: one wasm check of a URL already in memory (dist/robots.wasm through its ABI), no host work', ns: wasmAlone(urls) })
  lines.push(...realBreakdown)
  for (const l of lines) log(`floor: ${l.what}: ${fmtNs(l.ns)}`)
  return lines
}

// The matcher's own cost: dist/robots.wasm driven through the ABI of assembly/index.ts, the
// synthetic table compiled in it, every URL encoded beforehand (64 bytes of slack after each).
function wasmAlone(urls) {
  const w = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(join(root, 'dist', 'robots.wasm'))), {}).exports
  const enc = new TextEncoder()
  const encoded = urls.map((u) => enc.encode(u))
  const PAGE = 65536
  const base = w.heapBase()
  const bodyAt = base + 4 * PAGE
  const work = base + 8 * PAGE
  const scratch = base + 40 * PAGE
  const urlsAt = base + 48 * PAGE
  const urlBytes = encoded.reduce((n, e) => n + e.length + 64, 0)
  w.memory.grow(Math.ceil((urlsAt + urlBytes) / PAGE) - w.memory.buffer.byteLength / PAGE + 1)
  const u8 = new Uint8Array(w.memory.buffer)
  const bodyLen = enc.encodeInto(syntheticRobots(), u8.subarray(bodyAt, bodyAt + 2 * PAGE)).written
  const agentLen = enc.encodeInto('googlebot', u8.subarray(bodyAt + 2 * PAGE)).written
  const size = w.compile(bodyAt, bodyLen, bodyAt + 2 * PAGE, agentLen, work, 32 * PAGE)
  if (size === 0) throw new Error('wasm alone: the compiler wanted more work area')
  u8.copyWithin(base, w.compiledTable(), w.compiledTable() + size)
  w.useTable(base)
  w.useScratch(scratch)
  const at = new Int32Array(encoded.length)
  const len = new Int32Array(encoded.length)
  let o = urlsAt
  encoded.forEach((e, k) => { u8.set(e, o); at[k] = o; len[k] = e.length; o += e.length + 64 })
  // Same verdicts as the package's own matcher, or the number means nothing.
  let allowed = 0
  for (let k = 0; k < at.length; k++) allowed += w.check(at[k], len[k]) & 1
  const want = parseRobots(syntheticRobots()).matcher('Googlebot').isAllowedMany(urls).reduce((n, v) => n + v, 0)
  if (allowed !== want) throw new Error(`wasm alone: ${allowed} URLs allowed, the package says ${want}`)
  let i = 0
  return timeOurs(() => { for (let k = 0; k < BATCH; k++) { w.check(at[i], len[i]); i = i + 1 === at.length ? 0 : i + 1 } })
}

// ── memory: a child process with --expose-gc ───────────────────────────────────────────────────
function memoryPhase() {
  const out = execFileSync(process.execPath, ['--expose-gc', join(here, 'memory.mjs')], { encoding: 'utf8', maxBuffer: 1 << 20 })
  const m = JSON.parse(out)
  log(`memory: ours ${m.oursPerMatcher.toFixed(0)} B/matcher (${m.oursPerRuleByte.toFixed(2)} x rule text), robots-parser ${m.theirsPerInstance.toFixed(0)} B/instance`)
  target('bytes retained per Matcher / bytes of its rules\u2019 text', m.oursPerRuleByte, 2, m.oursPerRuleByte <= 2)
  return m
}

function sizes() {
  const out = []
  for (const f of ['robots.wasm', 'index.js', 'index.cjs', 'workerd.js', 'cli.js', 'compat.js']) {
    const p = join(root, 'dist', f)
    if (!existsSync(p)) continue
    const bytes = readFileSync(p)
    out.push({ file: `dist/${f}`, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length })
  }
  return out
}

function loadCorpus() {
  if (!existsSync(join(CORPUS, 'cases.jsonl'))) return null
  const recs = []
  for (const line of readFileSync(join(CORPUS, 'cases.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue
    const rec = JSON.parse(line)
    const buf = readFileSync(join(CORPUS, 'robots', rec.file))
    recs.push({ ...rec, text: buf.toString('utf8'), bytes: buf.length, host: rec.file.replace(/\.txt$/, '') })
  }
  return recs
}

// ── the CLI on the byte path: `robotstxt check ROBOTS AGENT --urls FILE`, output to a file ──────
// 10M URLs (the synthetic 100,000, 100 times over) end to end, a fresh process each run, best of 3;
// the peak RSS of a 1M-URL run beside the 10M one shows whether memory stays flat.
function cliStreamPhase() {
  const dir = join(root, 'build', 'bench-cli')
  mkdirSync(dir, { recursive: true })
  const robots = join(dir, 'robots.txt')
  writeFileSync(robots, syntheticRobots())
  const block = syntheticUrls().join('\n') + '\n'
  const lists = {}
  for (const times of [10, 100]) {
    const file = join(dir, `urls-${times}.txt`)
    const fd = openSync(file, 'w')
    for (let k = 0; k < times; k++) writeSync(fd, block)
    closeSync(fd)
    lists[times] = file
  }
  // The child reports its own peak RSS as it exits.
  const rss = join(dir, 'rss.cjs')
  writeFileSync(rss, "process.on('exit', () => process.stderr.write(`maxrss ${process.resourceUsage().maxRSS}\\n`))\n")
  const run = (file) => {
    let best = Infinity
    let peak = 0
    for (let k = 0; k < 3; k++) {
      const out = openSync(join(dir, 'out.txt'), 'w')
      const t = performance.now()
      const r = spawnSync(process.execPath, ['--require', rss, join(root, 'dist', 'cli.js'), 'check', robots, 'Googlebot', '--urls', file], {
        stdio: ['ignore', out, 'pipe'], encoding: 'utf8',
      })
      best = Math.min(best, performance.now() - t)
      closeSync(out)
      if (r.status !== 0 && r.status !== 1) throw new Error(`cli check --urls failed: ${r.stderr}`)
      peak = Math.max(peak, Number(/maxrss (\d+)/.exec(r.stderr)?.[1] ?? 0) / 1024)
    }
    return { ms: best, peak }
  }
  const small = run(lists[10])
  const large = run(lists[100])
  rmSync(dir, { recursive: true, force: true })
  const perSecond = 10_000_000 / (large.ms / 1000)
  const row = { urls: 10_000_000, ms: large.ms, perSecond, peakMiB: large.peak, peakMiB1M: small.peak }
  log(`cli check --urls: 10M URLs in ${(large.ms / 1000).toFixed(2)} s, ${(perSecond / 1e6).toFixed(2)}M URLs/s; peak RSS ${large.peak.toFixed(0)} MiB (1M URLs: ${small.peak.toFixed(0)} MiB)`)
  target('CLI check --urls, 10M URLs file to file, M URLs/s', perSecond / 1e6, 5, perSecond >= 5e6)
  return row
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────
const date = new Date().toISOString().slice(0, 10)
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${arch()}`
log(`robotstxt-wasm benchmarks, ${date}, Node ${process.version}, ${machine}`)
const corpus = loadCorpus()
if (corpus === null) log('corpus: ../shared/corpus not found, the real-file phases are SKIPPED')

const cold = await initPhase()
if (corpus) parsePhase(corpus)
syntheticPhase()
if (corpus) realPhase(corpus)
const scaling = scalingPhase()
const floors = floorPhase()
{
  // The batch against what it is made of, measured in this run: join + copy, plus the wasm check.
  const batchRow = rows.find((r) => r.phase.startsWith('synthetic (a): batch'))
  const join = floors.find((l) => l.what.startsWith('per URL of a 1,000-URL batch'))
  const wasm = floors.find((l) => l.what.startsWith('the other side'))
  if (batchRow && join && wasm) {
    const ratio = batchRow.ours / (join.ns + wasm.ns)
    target('batch isAllowedMany / (join + copy + wasm check)', ratio, 1.5, ratio <= 1.5)
  }
}
const memory = memoryPhase()
const cli = cliStreamPhase()
const cliThreads = await cliThreadsBench(log)
for (const r of cliThreads) target(`CLI ${r.name}, 2 threads / 1 thread`, r.ratio, 1.7, r.ratio >= 1.7)
const hostile = hostilePhase({ log, target })
const peers = await peersPhase()
const sites = corpus ? await perSite({ rounds: ROUNDS, cold, date, machine }) : null
const coldWorker = await workerdColdPhase()
const sizeRows = sizes()
const survey = surveyBenchChild(log)
const eviction = await evictionBench(log)
target(`blocks the eviction clock visits for one compile, every table in use (EVICT_VISITS)`, eviction.visits, eviction.bound, eviction.visits <= eviction.bound)

const md = []
md.push(`Measured ${date} on ${machine}, Node ${process.version}; robots-parser 3.0.1 in the same process, interleaved, median of ${ROUNDS} rounds.`, '')
md.push('| phase | robotstxt-wasm | robots-parser | ratio |', '|---|---:|---:|---:|')
for (const r of rows) md.push(`| ${r.phase} | ${fmtNs(r.ours)} | ${fmtNs(r.theirs)} | **${r.ratio.toFixed(1)}x**${r.note ? ` (${r.note})` : ''} |`)
md.push(`| memory retained per compiled matcher / parsed instance (${memory.count.toLocaleString('en')} of them) | ${memory.oursPerMatcher.toFixed(0)} B | ${memory.theirsPerInstance.toFixed(0)} B | **${(memory.theirsPerInstance / memory.oursPerMatcher).toFixed(1)}x** |`)
md.push('', '| scaling (Matcher.isAllowed, per URL) | time | vs smallest |', '|---|---:|---:|')
for (const l of scaling) md.push(`| ${l.what} | ${fmtNs(l.ns)} | ${l.ratio.toFixed(2)}x |`)
md.push('', '| where the time goes: host work alone, wasm work alone, and real-file checks taken apart | time |', '|---|---:|')
for (const l of floors) md.push(`| ${l.what} | ${fmtNs(l.ns)} |`)
md.push('', '| synthetic URLs, per URL | 20-rule group | one rule that never matches | robots-parser | ratio | ratio if the 20 rules cost nothing | goal |', '|---|---:|---:|---:|---:|---:|---:|')
for (const r of ruleFree) md.push(`| ${r.what} | ${fmtNs(r.ours)} | ${fmtNs(r.bare)} | ${fmtNs(r.theirs)} | ${r.now.toFixed(1)}x | ${r.ceiling.toFixed(1)}x | ${r.goal}x |`)
md.push('', '| CLI `check ROBOTS AGENT --urls FILE > FILE` (synthetic robots.txt and URLs, a fresh process) | time | URLs/s | peak RSS |', '|---|---:|---:|---:|')
md.push(`| ${cli.urls.toLocaleString('en')} URLs (1,000,000 URLs: peak RSS ${cli.peakMiB1M.toFixed(0)} MiB) | ${(cli.ms / 1000).toFixed(2)} s | ${(cli.perSecond / 1e6).toFixed(2)}M | ${cli.peakMiB.toFixed(0)} MiB |`)
md.push('', ...cliThreadsTable(cliThreads))
md.push('', '| the table arena at its cap (bench/eviction.mjs, a process of its own; a site of 40 rules, about 3 KB of table) | CPU per compile | blocks visited |', '|---|---:|---:|')
md.push(`| room in the arena | ${eviction.room.toFixed(1)} µs | |`)
md.push(`| at the cap, the least recently used table evicted (${eviction.evictions.toLocaleString('en')} evictions in the run) | ${eviction.cold.toFixed(1)} µs | |`)
md.push(`| at the cap, every table in use: the clock gives up at its bound and the table stays in JS memory | ${eviction.allUsed.toFixed(1)} µs | ${eviction.visits} (bound ${eviction.bound}) |`)
md.push('', ...hostileTable(hostile))
md.push('', '| library (synthetic workload, single checks) | time per check | robotstxt-wasm is | Google\'s verdict on the labelled cases |', '|---|---:|---:|---:|')
for (const p of peers) {
  const exact = p.exact === null ? 'n/a' : `${(100 * p.exact.right / p.exact.total).toFixed(2)}% (${p.exact.right.toLocaleString('en')} of ${p.exact.total.toLocaleString('en')})`
  md.push(`| ${p.name} | ${p.ns === null ? '—' : fmtNs(p.ns)} | ${p.ratio === null ? '—' : `${p.ratio.toFixed(1)}x faster`} | ${exact} |`)
}
if (survey) {
  md.push('', '| survey end to end (bench/survey.mjs: `robotstxt survey` on a WARC.gz in Common Crawl\'s layout, the corpus cycled to 200,000 responses, 30 crawlers x 2 paths) | records/s | vs 1 thread | CPU µs/record, all threads | CPU µs/record, calling thread |', '|---|---:|---:|---:|---:|')
  for (const r of survey) md.push(`| ${r.threads} thread${r.threads === 1 ? '' : 's'} | ${Math.round(r.perSecond).toLocaleString('en')} | ${(r.perSecond / survey[0].perSecond).toFixed(2)}x | ${r.cpuPerRecord.toFixed(1)} | ${r.callerPerRecord?.toFixed(1) ?? '—'} |`)
  md.push(`| the most 2 threads can give on this machine (twoCoreCeiling: the one-thread run's CPU work, all threads, spread over ${CEILING_CORES} cores with threading free) | | ${surveyCeiling(survey[0]).toFixed(2)}x | | |`)
  target('survey, records/s on one thread', survey[0].perSecond, 10_000, survey[0].perSecond >= 10_000)
  target('survey, records/s on one thread, 30 crawlers x 2 paths (issue 51)', survey[0].perSecond, 20_000, survey[0].perSecond >= 20_000)
  const ofCeiling = survey[1].perSecond / survey[0].perSecond / surveyCeiling(survey[0])
  target('survey, 2 threads / 1 thread, as a share of the two-core ceiling', ofCeiling, 0.9, ofCeiling >= 0.9)
}
md.push('', '| file | bytes | gzip -9 |', '|---|---:|---:|')
for (const s of sizeRows) md.push(`| ${s.file} | ${s.bytes.toLocaleString('en')} | ${s.gzip.toLocaleString('en')} |`)
md.push('', '| target | measured | goal | |', '|---|---:|---:|---|')
for (const t of targets) md.push(`| ${t.what} | ${t.value.toFixed(2)} | ${t.goal} | ${t.ok ? 'met' : '**missed**'} |`)
if (sites) md.push('', ...sites.md)
if (coldWorker) md.push('', ...coldWorker)
const report = md.join('\n') + '\n'
process.stdout.write('\n' + report)
writeFileSync(join(here, 'RESULTS.md'), `# Benchmark results\n\nWritten by \`npm run bench\`.\n\n${report}`)
// The headline of README.md and docs/benchmarks.md, and docs/bench.svg, from what was just written.
writeHeadline(root)
