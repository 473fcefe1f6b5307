// The survey end to end (`npm run bench` runs it; `node bench/survey.mjs` alone prints its rows):
// a WARC.gz of the shared corpus's robots.txt files cycled to SURVEY_RECORDS records (default
// 200,000; one gzip member per record, as Common Crawl writes them, each serialized by warcio),
// surveyed by `surveyRobots` for 30 crawler presets x 2 paths (/ and /search), on 1 thread and on
// 2 worker threads. Records/s counts every row out of the iterator, reading and decompressing
// included. Goal: >= 10,000 records/s on one thread, 2 threads >= 1.7x one.
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { WARCRecord, WARCSerializer } from 'warcio'

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
  // where the ratio of 2 threads to 1 stops (see cpuBound). process.cpuUsage counts every thread of
  // the process, workers that have exited included; threadCpuUsage (Node 23.9+) the calling one.
  const cpu = process.cpuUsage()
  const own = process.threadCpuUsage?.()
  const start = performance.now()
  let rows = 0
  for await (const _ of surveyRobots(file, options)) rows++
  const seconds = (performance.now() - start) / 1000
  return { rows, seconds, cpuPerRecord: micros(process.cpuUsage(cpu)) / rows, callerPerRecord: own === undefined ? null : micros(process.threadCpuUsage(own)) / rows }
}

/**
 * The most 2 threads can give over 1 on `cores` cores, from the CPU each run spent: one thread is
 * as fast as its calling thread (inflation and the garbage collector's helpers run beside it), two
 * at best spread all their CPU time, every thread's, over the cores.
 */
export function cpuBound(one, two, cores = 2) {
  return one.callerPerRecord === null ? null : (cores * one.callerPerRecord) / two.cpuPerRecord
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
    const bound = cpuBound(rows[0], rows[1])
    if (bound !== null) log(`survey: CPU bound of 2 threads over 1 on 2 cores: ${bound.toFixed(2)}x`)
    return rows
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await surveyBench()
  if (rows !== null) {
    console.log(`\n| survey, WARC.gz, 30 crawlers x 2 paths | records/s | vs 1 thread |\n|---|---:|---:|`)
    for (const r of rows) console.log(`| ${r.threads} thread${r.threads === 1 ? '' : 's'} | ${Math.round(r.perSecond).toLocaleString('en')} | ${(r.perSecond / rows[0].perSecond).toFixed(2)}x |`)
  }
}
