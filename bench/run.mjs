// `npm run bench`: robotstxt-wasm against robots-parser 3.0.1, in one process, interleaved, each
// phase timed apart. Records the run (machine, Node, date, every row by id, every goal) as the run
// `bench` of bench/results.json (bench/results.mjs), then draws every page from it (bench/report.mjs:
// bench/RESULTS.md, README.md's headline, docs/benchmarks.md, docs/bench.svg) and prints RESULTS.md.
// A page that lacks a row it needs stops the run with report.mjs's exit status, after the record
// is written.
//
//   BENCH_ROUNDS (default 5) rounds per comparison, alternating which library runs first; the
//   median of the rounds is reported. BENCH_TIME (default 250) ms per task per round.
import { execFileSync, spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { Bench } from 'tinybench'
import robotsParser from 'robots-parser'
import { parseRobots } from '../dist/index.js'
import { scalingRobots, syntheticRobots, syntheticUrls } from './synthetic.mjs'
import { hostilePhase, hostileSection } from './hostile.mjs'
import { exactness, labelledBodies, ours as oursPeer, PEERS } from './peers.mjs'
import { ensureRuntime, RUNTIMES } from '../scripts/runtimes.mjs'
import { COLD_RUNS, coldStart, perSite } from './per-site.mjs'
import { surveyBenchChild, surveyCeiling } from './survey.mjs'
import { CEILING_CORES, cliThreadsBench, cliThreadsSection } from './cli-threads.mjs'
import { ReportError, sectionMarkdown, writeReport } from './report.mjs'
import { evictionBench } from './eviction.mjs'
import { describeMachine, goalRow, recordRun, row as dataRow, skipped, today } from './results.mjs'
import {
  cliCheckSection, evictionSection, goalsSection, peersSection, perUrlSection, ruleFreeSection, runtimeRow, runtimesSection, scalingSection,
  sizesSection, whereSection, workerdColdSection,
} from './sections.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const CORPUS = join(root, '..', 'shared', 'corpus')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const TIME = Number(process.env.BENCH_TIME ?? 250)
const BATCH = 1000 // calls per task invocation
const RESULTS = join(here, 'results.json')

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

/** Draws every page from bench/results.json; a page missing a row ends the process with report.mjs's status. */
function report() {
  try {
    writeReport(root)
  } catch (error) {
    if (!(error instanceof ReportError)) throw error
    process.stderr.write(`bench/report.mjs: ${error.message}\n`)
    process.exit(error.status)
  }
}

const runtimeArg = process.argv.indexOf('--runtime')
if (runtimeArg >= 0) {
  const asked = process.argv[runtimeArg + 1] ?? 'all'
  const names = asked === 'all' ? [...Object.keys(RUNTIMES), 'chromium'] : asked.split(',')
  const rows = []
  let meta = null
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
    meta = { date: r.date, machine: r.machine }
    rows.push(runtimeRow(name, r))
    process.stderr.write(`${r.runtime}: single ${r.single.toFixed(0)} ns, batch ${r.batch.toFixed(0)} ns, byte path ${r.lines.toFixed(0)} ns, robots-parser ${(r.robotsParser / 1000).toFixed(2)} µs\n`)
  }
  const section = runtimesSection(rows)
  const run = { command: 'npm run bench:runtimes', ...meta, runtime: 'each row\'s runtime', intro: 'synthetic workload (bench/synthetic.mjs), per URL; robots-parser in the same process, interleaved', sections: [section] }
  process.stdout.write('\n' + sectionMarkdown(section).join('\n') + '\n')
  // Only the full run is recorded: a single runtime's row is printed, not saved.
  if (asked === 'all') {
    recordRun(RESULTS, 'runtimes', run)
    report()
  }
  process.exit(0)
}
const goals = []
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmtNs = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(1)} ns`)
const log = (s) => process.stderr.write(s + '\n')

/** Runs both functions ROUNDS times through tinybench, alternating order; ns per call, medians; a row `id`. */
function compare(id, phase, ours, theirs, perCall = BATCH) {
  const o = []
  const t = []
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: TIME, warmupTime: 50 })
    const order = round % 2 === 0 ? [['ours', ours], ['theirs', theirs]] : [['theirs', theirs], ['ours', ours]]
    for (const [name, fn] of order) bench.add(name, fn)
    bench.runSync()
    for (const task of bench.tasks) (task.name === 'ours' ? o : t).push((task.result.period * 1e6) / perCall)
  }
  const row = { id, label: phase, ours: median(o), theirs: median(t) }
  row.ratio = row.theirs / row.ours
  rows.push(row)
  log(`${phase}: ours ${fmtNs(row.ours)}, robots-parser ${fmtNs(row.theirs)}, ${row.ratio.toFixed(1)}x`)
  return row
}

/** A goal of the run (bench/results.mjs goalRow), kept in the order measured. */
function goal(id, fields) {
  goals.push(goalRow(id, fields))
}

/**
 * The per-URL ratios to robots-parser before the matrix pass (issue 51), from the run committed
 * as bench/RESULTS.md in 7fbd337: a change for many agents a site must keep each within 5%, the
 * floor of its goal.
 */
const PER_URL_BEFORE = { single: 31.2, batch: 35.6, lines: 51.6, real: 12.3 }
const noRegression = (before) => ['>=', 0.95 * before, `no regression (issue 51): within 5% of ${before.toFixed(1)}x`]

// ── init: a fresh process importing the package and answering one check, over an empty one ─────
async function initPhase() {
  const cold = await coldStart(Math.max(COLD_RUNS, ROUNDS * 2 + 1))
  // CPU time, as the per-site cold start row: wall medians of 30 ms processes on a shared machine
  // can fall below the empty script's.
  const row = { id: 'per-url.init', label: `init: import + first check (fresh process, CPU time over one with an empty script: ${fmtNs(cold.cpu.empty)})`, ours: cold.cpu.ours, theirs: cold.cpu.theirs }
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
    return r
  }
  log(`workerd cold start: the package adds ${r.adds.toFixed(2)} ms of CPU to a new isolate`)
  return r
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
  const row = { id: 'per-url.parse', label: `parse + compile + first check, per file (${files.length} real files, ${(total / 1e6).toFixed(1)} MB)`, ours: median(o) / files.length, theirs: median(t) / files.length }
  row.ratio = row.theirs / row.ours
  row.throughput = [total / (median(o) / 1e9) / 1e6, total / (median(t) / 1e9) / 1e6]
  rows.push(row)
  log(`${row.label}: ${row.ratio.toFixed(2)}x (${row.throughput.map((x) => x.toFixed(1)).join(' vs ')} MB/s); allowed ${checksumOurs} vs ${checksumTheirs}`)
  goal('goal.parse', { label: 'parse + compile + first check: robots-parser / ours', measured: row.ratio, goal: ['>=', 3], row: row.id })
}

// ── single and batch checks ─────────────────────────────────────────────────────────────────────
function checkPhases(id, label, pairs) {
  // pairs: [{ matcher, rp, agent, url }] checked round-robin.
  const n = pairs.length
  let i = 0
  let j = 0
  const single = compare(`${id}.single`, `${label}: single Matcher.isAllowed vs isAllowed`, () => {
    for (let k = 0; k < BATCH; k++) { const p = pairs[i]; p.matcher.isAllowed(p.url); i = i + 1 === n ? 0 : i + 1 }
  }, () => {
    for (let k = 0; k < BATCH; k++) { const p = pairs[j]; p.rp.isAllowed(p.url, p.agent); j = j + 1 === n ? 0 : j + 1 }
  })
  return single
}

function batchPhase(id, label, chunks, pairs) {
  // chunks: [{ matcher, urls, out }] of ~BATCH urls each; robots-parser checks the same URLs one by one.
  let c = 0
  let j = 0
  const urlsPerRun = chunks.reduce((s, ch) => s + ch.urls.length, 0) / chunks.length
  return compare(`${id}.batch`, `${label}: batch isAllowedMany vs isAllowed`, () => {
    const ch = chunks[c]
    ch.matcher.isAllowedMany(ch.urls, ch.out)
    c = c + 1 === chunks.length ? 0 : c + 1
  }, () => {
    for (let k = 0; k < urlsPerRun; k++) { const p = pairs[j]; p.rp.isAllowed(p.url, p.agent); j = j + 1 === pairs.length ? 0 : j + 1 }
  }, urlsPerRun)
}

// The byte path: the same chunks as UTF-8 lines, encoded once up front as a stream reader has them;
// robots-parser is given the same URLs as strings.
function linesPhase(id, label, chunks, pairs) {
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
  return compare(`${id}.lines`, `${label}: byte path isAllowedLines vs isAllowed`, () => {
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
    const id = `peers.${peer.id}`
    const check = await peer.make(body, new TextEncoder().encode(body))
    let i = 0
    let j = 0
    const n = urls.length
    const row = peer.exact
      ? null
      : compare(id, `synthetic (a): single Matcher.isAllowed vs ${peer.name}`, () => {
        for (let k = 0; k < BATCH; k++) { matcher.isAllowed(urls[i]); i = i + 1 === n ? 0 : i + 1 }
      }, () => {
        for (let k = 0; k < BATCH; k++) { check(urls[j], agent); j = j + 1 === n ? 0 : j + 1 }
      })
    const e = bodies === null ? null : await exactness(peer, bodies)
    out.push({ id, name: peer.name, ours: row?.ours ?? null, ns: row?.theirs ?? null, ratio: row?.ratio ?? null, exact: e })
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
  const s = checkPhases('per-url.synthetic', 'synthetic (a)', pairs)
  const chunks = []
  for (let i = 0; i < urls.length; i += BATCH) chunks.push({ matcher, urls: urls.slice(i, i + BATCH), out: new Uint8Array(BATCH) })
  const b = batchPhase('per-url.synthetic', 'synthetic (a)', chunks, pairs)
  const l = linesPhase('per-url.synthetic', 'synthetic (a)', chunks, pairs)
  goal('goal.per-url.synthetic.single', { label: 'single Matcher.isAllowed (synthetic): robots-parser / ours', measured: s.ratio, goal: ['>=', 40], floor: noRegression(PER_URL_BEFORE.single), row: s.id })
  goal('goal.per-url.synthetic.batch', { label: 'batch isAllowedMany (synthetic): robots-parser / ours', measured: b.ratio, goal: ['>=', 60], floor: noRegression(PER_URL_BEFORE.batch), row: b.id })
  goal('goal.per-url.synthetic.lines', { label: 'byte path isAllowedLines (synthetic): robots-parser / ours', measured: l.ratio, goal: ['>=', 100], floor: noRegression(PER_URL_BEFORE.lines), row: l.id })
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
  for (const k of Object.keys(ns)) {
    const row = measured[k]
    ruleFree.push({ id: `rule-free.${k}`, label: names[k], ours: row.ours, bare: ns[k], theirs: row.theirs, ceiling: row.theirs / ns[k] })
    log(`rule-free ${names[k]}: ${fmtNs(ns[k])} (20 rules: ${fmtNs(row.ours)}), ceiling ${(row.theirs / ns[k]).toFixed(1)}x`)
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
  const s = checkPhases('per-url.real', 'real files (b)', pairs)
  // Batches regrouped to ~BATCH URLs per call per matcher would not be realistic: a real crawler
  // batches the URLs of one site. Here each call checks one file's URLs for one agent.
  const perCall = (pairs.length / chunks.length).toFixed(1)
  const b = batchPhase('per-url.real', `real files (b), one call per file and agent (${perCall} URLs per call)`, chunks, pairs)
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
    { id: 'where.real.encode', label: 'real files: one URL UTF-8-encoded into memory (TextEncoder.encodeInto)', ns: encodeNs },
    { id: 'where.real.warm', label: 'real files: a check with its table resident and caches warm (each URL 8 times in a row)', ns: warmNs },
    { id: 'where.real.switch', label: 'real files: a check that copies its table in, caches warm (two hosts in turn, 4 times each)', ns: switchNs },
    { id: 'where.real.benchmark-order', label: 'real files: a check in benchmark order (hosts interleaved: a table copy and cold caches on most checks)', ns: s.ours },
  )
  goal('goal.per-url.real.single', { label: 'single Matcher.isAllowed (real files): robots-parser / ours', measured: s.ratio, goal: ['>=', 20], floor: noRegression(PER_URL_BEFORE.real), row: s.id })
  goal('goal.per-url.real.batch', { label: `batch isAllowedMany (real files, ${perCall} URLs per call): robots-parser / ours`, measured: b.ratio, goal: ['>=', 20], row: b.id })
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
    lines.push({ id: `scaling.rules.${n}`, label: `${n} rules`, ns, ratio: ns / base })
  }
  const worst = lines[lines.length - 1]
  goal('goal.scaling.rules', { label: '10,000-rule group vs 10-rule group, per URL', measured: worst.ratio, goal: ['<=', 2], row: worst.id })
  const m = parseRobots(syntheticRobots()).matcher('Googlebot')
  let b20 = 0
  for (const len of [20, 200, 2000]) {
    const us = Array.from({ length: 1000 }, (_, i) => { let s = `https://www.example.com/${i}/`; while (s.length < len) s += 'abcdefghij/'.slice(0, len - s.length); return s })
    let i = 0
    const ns = timeOurs(() => { for (let k = 0; k < BATCH; k++) { m.isAllowed(us[i]); i = (i + 1) % us.length } })
    if (len === 20) b20 = ns
    lines.push({ id: `scaling.url.${len}`, label: `URL of ${len} bytes`, ns, ratio: ns / b20 })
  }
  for (const l of lines) log(`scaling ${l.label}: ${fmtNs(l.ns)} (${l.ratio.toFixed(2)}x)`)
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
  const lines = [{ id: 'where.encode', label: 'one URL UTF-8-encoded into memory (TextEncoder.encodeInto): the floor under a single check', ns: single }]
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
    lines.push({ id: 'where.batch-copy', label: 'per URL of a 1,000-URL batch: join + one UTF-16 copy into memory', ns: batch })
  }
  lines.push({ id: 'where.wasm-alone', label: 'the other side: one wasm check of a URL already in memory (dist/robots.wasm through its ABI), no host work', ns: wasmAlone(urls) })
  lines.push(...realBreakdown)
  for (const l of lines) log(`floor: ${l.label}: ${fmtNs(l.ns)}`)
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
  goal('goal.memory.per-rule-byte', { label: 'bytes retained per Matcher / bytes of its rules\u2019 text', measured: m.oursPerRuleByte, goal: ['<=', 2], row: 'per-url.memory' })
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
  goal('goal.cli.check-urls', { label: 'CLI check --urls, 10M URLs file to file, URLs/s', unit: 'M/s', measured: perSecond, goal: ['>=', 5e6], row: 'cli.check-urls' })
  return row
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────
const date = today()
const machine = describeMachine()
log(`robotstxt-wasm benchmarks, ${date}, Node ${process.version}, ${machine}`)
const corpus = loadCorpus()
const NO_CORPUS = '../shared/corpus not found'
if (corpus === null) log('corpus: ../shared/corpus not found, the real-file phases are SKIPPED')

const cold = await initPhase()
if (corpus) parsePhase(corpus)
syntheticPhase()
if (corpus) realPhase(corpus)
const scaling = scalingPhase()
const floors = floorPhase()
{
  // The batch against what it is made of, measured in this run: join + copy, plus the wasm check.
  const batchRow = rows.find((r) => r.id === 'per-url.synthetic.batch')
  const join = floors.find((l) => l.id === 'where.batch-copy')
  const wasm = floors.find((l) => l.id === 'where.wasm-alone')
  if (batchRow && join && wasm) {
    goal('goal.batch-overhead', { label: 'batch isAllowedMany / (join + copy + wasm check)', measured: batchRow.ours / (join.ns + wasm.ns), goal: ['<=', 1.5], row: batchRow.id })
  }
}
const memory = memoryPhase()
const cli = cliStreamPhase()
const cliThreads = await cliThreadsBench(log)
for (const r of cliThreads) {
  const id = r.name === 'filter' ? 'filter' : 'check-urls'
  goal(`goal.cli-threads.${id}`, { label: `CLI ${r.name}, 2 threads / 1 thread`, measured: r.ratio, goal: ['>=', 1.7], row: `cli-threads.${id}` })
}
const hostile = hostilePhase({ log, goal: (g) => goals.push(g) })
const peers = await peersPhase()
const sites = corpus ? await perSite({ rounds: ROUNDS, cold, date, machine }) : null
const coldWorker = await workerdColdPhase()
const sizeRows = sizes()
const survey = surveyBenchChild(log)
const eviction = await evictionBench(log)
goal('goal.eviction.visits', { label: 'blocks the eviction clock visits for one compile, every table in use (EVICT_VISITS)', unit: 'count', digits: 0, measured: eviction.visits, goal: ['<=', eviction.bound], row: 'eviction.all-used' })

// The survey, built here: bench/survey.mjs measures it.
let surveySection = skipped('survey', 'survey end to end', NO_CORPUS)
if (survey) {
  const ceiling = surveyCeiling(survey[0])
  surveySection = {
    id: 'survey', title: 'survey end to end (bench/survey.mjs: `robotstxt survey` on a WARC.gz in Common Crawl\'s layout, the corpus cycled to 200,000 responses, 30 crawlers x 2 paths)',
    columns: [
      { key: 'ours', label: 'records/s' }, { key: 'vsOne', label: 'vs 1 thread', unit: 'x', digits: 2 },
      { key: 'cpu', label: 'CPU per record, all threads', unit: 'µs' }, { key: 'caller', label: 'CPU per record, calling thread', unit: 'µs' },
    ],
    rows: [
      ...survey.map((r) => dataRow(`survey.threads.${r.threads}`, `${r.threads} thread${r.threads === 1 ? '' : 's'}`, '/s', r.perSecond,
        { cells: { vsOne: r.perSecond / survey[0].perSecond, cpu: r.cpuPerRecord, caller: r.callerPerRecord, records: r.records, seconds: r.seconds } })),
      dataRow('survey.ceiling', `the most 2 threads can give on this machine (twoCoreCeiling: the one-thread run's CPU work, all threads, spread over ${CEILING_CORES} cores with threading free)`, 'x', null, { cells: { vsOne: ceiling } }),
    ],
  }
  goal('goal.survey.one-thread', { label: 'survey, records/s on one thread, 30 crawlers x 2 paths (issue 51)', unit: '/s', measured: survey[0].perSecond, goal: ['>=', 20_000], floor: ['>=', 10_000, 'the goal before issue 51'], row: 'survey.threads.1' })
  goal('goal.survey.two-threads', { label: 'survey, 2 threads / 1 thread, as a share of the two-core ceiling', measured: survey[1].perSecond / survey[0].perSecond / ceiling, goal: ['>=', 0.9], row: 'survey.threads.2' })
}

const perUrl = perUrlSection({
  rows, memory,
  notMeasured: corpus ? [] : [['per-url.parse', 'parse + compile + first check, per real file'], ['per-url.real.single', 'real files (b): single'], ['per-url.real.batch', 'real files (b): batch']].map(([id, label]) => ({ id, label, why: NO_CORPUS })),
})
const perSiteSections = sites?.sections ?? [['per-site', 'what crawlers do'], ['field', 'library'], ['field-floors', 'what'], ['expectations', 'per file']].map(([id, title]) => skipped(id, title, NO_CORPUS))
goals.push(...(sites?.goals ?? []))
const run = {
  command: 'npm run bench', date, machine, runtime: `Node ${process.version}`,
  intro: `robots-parser 3.0.1 in the same process, interleaved, median of ${ROUNDS} rounds`,
  sections: [
    perUrl, scalingSection(scaling), whereSection(floors), ruleFreeSection(ruleFree), cliCheckSection(cli), cliThreadsSection(cliThreads), evictionSection(eviction),
    hostileSection(hostile), peersSection(peers), surveySection, sizesSection(sizeRows), ...perSiteSections, workerdColdSection(coldWorker), goalsSection(goals),
  ],
}
recordRun(RESULTS, 'bench', run)
// Every page from what was just recorded: RESULTS.md, the headline of README.md and
// docs/benchmarks.md, docs/bench.svg.
report()
process.stdout.write('\n' + readFileSync(join(here, 'RESULTS.md'), 'utf8'))
