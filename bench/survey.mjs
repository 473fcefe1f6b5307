// The survey end to end (`npm run bench` runs it; `node bench/survey.mjs` alone prints its rows):
// a WARC.gz of the shared corpus's robots.txt files cycled to SURVEY_RECORDS records (default
// 200,000; one gzip member per record, as Common Crawl writes them, each serialized by warcio),
// surveyed by `surveyRobots` for 30 crawler presets x 2 paths (/ and /search), on 1 thread and on
// 2 worker threads. Records/s counts every row out of the iterator, reading and decompressing
// included. Goal: >= 10,000 records/s on one thread, 2 threads >= 1.7x one.
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { WARCRecord, WARCSerializer } from 'warcio'
import { twoCoreCeiling } from './cli-threads.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const RECORDS = Number(process.env.SURVEY_RECORDS ?? 200_000)

/** Writes the WARC.gz: each corpus file serialized once, the members then repeated in turn. */
async function corpusWarc(file, corpusDir) {
  const names = readdirSync(corpusDir).sort()
  const members = []
  for (const name of names) {
    const record = WARCRecord.create(
      { url: `https://${name.replace(/\.txt$/, '')}/robots.txt`, type: 'response', warcVersion: 'WARC/1.1', date: '2026-01-01T00:00:00Z', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/plain' } },
      (async function* () { yield new Uint8Array(readFileSync(join(corpusDir, name))) })(),
    )
    members.push(await WARCSerializer.serialize(record, { gzip: true }))
  }
  const out = createWriteStream(file)
  for (let i = 0; i < RECORDS; i++) if (!out.write(members[i % members.length])) await once(out, 'drain')
  out.end()
  await once(out, 'finish')
  return statSync(file).size
}

/** CPU microseconds of a cpuUsage() difference. */
const micros = (u) => u.user + u.system

export async function timed(surveyRobots, file, options) {
  // CPU time as well as wall time: on a shared machine wall time is noisy, and the CPU split says
  // where the ratio of 2 threads to 1 stops (cli-threads.mjs twoCoreCeiling). process.cpuUsage
  // counts every thread of the process (workers that have exited, zlib on libuv's pool, the
  // collector's helpers); threadCpuUsage (Node 23.9+) the calling one.
  const cpu = process.cpuUsage()
  const own = process.threadCpuUsage?.()
  const start = performance.now()
  let rows = 0
  for await (const _ of surveyRobots(file, options)) rows++
  const seconds = (performance.now() - start) / 1000
  return { rows, seconds, cpuPerRecord: micros(process.cpuUsage(cpu)) / rows, callerPerRecord: own === undefined ? null : micros(process.threadCpuUsage(own)) / rows }
}

/** twoCoreCeiling of a one-thread row of surveyBench. */
export function surveyCeiling(one) {
  return twoCoreCeiling(one.seconds, (one.cpuPerRecord * one.records) / 1e6)
}

/** The survey rows: [{ threads, records, seconds, perSecond }], or null without the corpus. */
export async function surveyBench(log = console.log) {
  const corpusDir = join(root, '..', 'shared', 'corpus', 'robots')
  if (!existsSync(corpusDir)) {
    log('survey: ../shared/corpus not found, SKIPPED')
    return null
  }
  const { surveyRobots } = await import(pathToFileURL(join(root, 'dist', 'survey.js')).href)
  const { crawlers } = await import(pathToFileURL(join(root, 'dist', 'index.js')).href)
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bench-survey-'))
  try {
    const file = join(dir, 'corpus.warc.gz')
    const bytes = await corpusWarc(file, corpusDir)
    log(`survey: ${RECORDS.toLocaleString('en')} records, ${(bytes / 2 ** 20).toFixed(0)} MiB WARC.gz`)
    const options = { crawlers: crawlers.slice(0, 30).map((c) => c.name), paths: ['/search'] }
    const rows = []
    for (const threads of [1, 2]) {
      // One run each: at 200,000 records the JIT's warm-up is a small part of it.
      const r = await timed(surveyRobots, file, { ...options, threads })
      if (r.rows !== RECORDS) throw new Error(`survey bench: ${r.rows} rows for ${RECORDS} records`)
      rows.push({ threads, records: r.rows, seconds: r.seconds, perSecond: r.rows / r.seconds, cpuPerRecord: r.cpuPerRecord, callerPerRecord: r.callerPerRecord })
      const caller = r.callerPerRecord === null ? '' : `, calling thread ${r.callerPerRecord.toFixed(1)}`
      log(`survey: ${threads} thread(s): ${r.rows.toLocaleString('en')} records in ${r.seconds.toFixed(1)} s, ${Math.round(r.rows / r.seconds).toLocaleString('en')} records/s; CPU us/record: all threads ${r.cpuPerRecord.toFixed(1)}${caller}`)
    }
    log(`survey: the most 2 threads can give on this machine (twoCoreCeiling): ${surveyCeiling(rows[0]).toFixed(2)}x`)
    return rows
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The rows from a process of their own, as a survey runs (`robotstxt survey` is a process): in
 * `npm run bench`'s process, the heap its earlier sections leave behind slowed the one-thread run
 * by about a fifth (8,585 records/s there, 10,800-11,300 alone; Node 24, 2026-11-28).
 */
export function surveyBenchChild(log = console.log) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--json'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 20 })
  for (const line of r.stderr.split('\n')) if (line !== '') log(line)
  if (r.status !== 0) throw new Error(`survey bench: the child exited ${r.status ?? r.signal}`)
  return JSON.parse(r.stdout)
}

const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? '').href
if (isMain && process.argv.includes('--json')) {
  process.stdout.write(JSON.stringify(await surveyBench((s) => process.stderr.write(s + '\n'))))
} else if (isMain) {
  const rows = await surveyBench()
  if (rows !== null) {
    console.log(`\n| survey, WARC.gz, 30 crawlers x 2 paths | records/s | vs 1 thread |\n|---|---:|---:|`)
    for (const r of rows) console.log(`| ${r.threads} thread${r.threads === 1 ? '' : 's'} | ${Math.round(r.perSecond).toLocaleString('en')} | ${(r.perSecond / rows[0].perSecond).toFixed(2)}x |`)
  }
}
