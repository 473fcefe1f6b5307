// The survey end to end, as a user runs it (`npm run bench` runs it; `node bench/survey.mjs` alone
// prints its rows): a WARC.gz in Common Crawl's robots.txt layout (a warcinfo record, then each
// response beside its request and metadata records, one gzip member per record, each serialized
// by warcio) with the shared corpus's robots.txt files cycled to SURVEY_RECORDS responses (default
// 200,000), surveyed by `robotstxt survey` (dist/cli.js, a process of its own) for 30 crawler
// presets x 2 paths (/ and /search), on 1 thread and on 2 worker threads. Records/s counts the
// response records (the rows) over the command's whole run: start, reading, decompression, rows
// and the summary's table.
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { WARCRecord, WARCSerializer } from 'warcio'
import { twoCoreCeiling } from './cli-threads.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const RECORDS = Number(process.env.SURVEY_RECORDS ?? 200_000)
const DATE = '2024-08-10T10:00:00Z'

const gzipRecord = (record) => WARCSerializer.serialize(record, { gzip: true })

/** The three records Common Crawl writes for one robots.txt fetch, each one gzip member. */
async function fetchMembers(url, body) {
  const { host, pathname } = new URL(url)
  const request = WARCRecord.create({ url, type: 'request', warcVersion: 'WARC/1.0', date: DATE, statusline: `GET ${pathname} HTTP/1.1`, httpHeaders: { Host: host, 'User-Agent': 'CCBot/2.0 (https://commoncrawl.org/faq/)', Accept: 'text/plain' } }, [])
  const response = WARCRecord.create({ url, type: 'response', warcVersion: 'WARC/1.0', date: DATE, statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/plain', 'Content-Length': String(body.length) } }, [body])
  const metadata = WARCRecord.create({ url, type: 'metadata', warcVersion: 'WARC/1.0', date: DATE }, [new TextEncoder().encode('fetchTimeMs: 87\r\ncharset-detected: UTF-8\r\n')])
  return Buffer.concat([await gzipRecord(request), await gzipRecord(response), await gzipRecord(metadata)])
}

/**
 * Writes `file`: a warcinfo member, then the corpus files' request/response/metadata members,
 * each file serialized once and repeated in turn until `records` responses. Returns its size.
 */
export async function commonCrawlWarc(file, corpusDir, records = RECORDS) {
  const names = readdirSync(corpusDir).sort()
  const fetches = []
  for (const name of names) fetches.push(await fetchMembers(`https://${name.replace(/\.txt$/, '')}/robots.txt`, new Uint8Array(readFileSync(join(corpusDir, name)))))
  const out = createWriteStream(file)
  out.write(await gzipRecord(WARCRecord.createWARCInfo({ filename: 'bench.warc.gz', warcVersion: 'WARC/1.0', date: DATE }, { software: 'robotstxt-wasm bench', format: 'WARC File Format 1.0' })))
  for (let i = 0; i < records; i++) if (!out.write(fetches[i % fetches.length])) await once(out, 'drain')
  out.end()
  await once(out, 'finish')
  return statSync(file).size
}

/** CPU microseconds of a cpuUsage() difference. */
const micros = (u) => u.user + u.system

// Loaded into the command's process (`node --import`): at exit, the CPU time of the whole process
// (every thread, workers that exited included: getrusage) and of its calling thread (Node 23.9+),
// written to fd 3.
const PRELOAD = `import { writeSync } from 'node:fs'
const cpu = process.cpuUsage()
const own = process.threadCpuUsage?.()
process.on('exit', () => writeSync(3, JSON.stringify({ cpu: process.cpuUsage(cpu), own: own === undefined ? null : process.threadCpuUsage(own) })))
`

/**
 * Runs `robotstxt survey FILE ...args` (dist/cli.js) and times it: wall time of the process, its
 * CPU per record (all threads, and the calling thread), and the records its table counted.
 */
export async function timedCli(file, args) {
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bench-cli-'))
  try {
    const preload = join(dir, 'preload.mjs')
    writeFileSync(preload, PRELOAD)
    const start = performance.now()
    const child = spawn(process.execPath, ['--import', pathToFileURL(preload).href, join(root, 'dist', 'cli.js'), 'survey', file, ...args], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let usage = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.stdio[3].on('data', (c) => (usage += c))
    const [code] = await once(child, 'close')
    const seconds = (performance.now() - start) / 1000
    if (code !== 0) throw new Error(`survey bench: robotstxt survey exited ${code}: ${stderr}`)
    const records = Number(/^records ([0-9,]+)/.exec(stdout)?.[1]?.replaceAll(',', '') ?? NaN)
    const { cpu, own } = JSON.parse(usage)
    return { rows: records, seconds, cpuPerRecord: micros(cpu) / records, callerPerRecord: own === null ? null : micros(own) / records }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** twoCoreCeiling of a one-thread row of surveyBench. */
export function surveyCeiling(one) {
  return twoCoreCeiling(one.seconds, (one.cpuPerRecord * one.records) / 1e6)
}

/** The survey rows: [{ threads, records, seconds, perSecond, cpuPerRecord, callerPerRecord }], or null without the corpus. */
export async function surveyBench(log = console.log) {
  const corpusDir = join(root, '..', 'shared', 'corpus', 'robots')
  if (!existsSync(corpusDir)) {
    log('survey: ../shared/corpus not found, SKIPPED')
    return null
  }
  const { crawlers } = await import(pathToFileURL(join(root, 'dist', 'index.js')).href)
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bench-survey-'))
  try {
    const file = join(dir, 'CC-MAIN-bench-00000.warc.gz')
    const bytes = await commonCrawlWarc(file, corpusDir)
    log(`survey: ${RECORDS.toLocaleString('en')} responses (${(3 * RECORDS + 1).toLocaleString('en')} records in Common Crawl's layout), ${(bytes / 2 ** 20).toFixed(0)} MiB WARC.gz`)
    const args = ['--crawlers', crawlers.slice(0, 30).map((c) => c.name).join(','), '--paths', '/search']
    const rows = []
    for (const threads of [1, 2]) {
      // One run each: at 200,000 records the start and the JIT's warm-up are a small part of it.
      const r = await timedCli(file, [...args, '--threads', String(threads)])
      if (r.rows !== RECORDS) throw new Error(`survey bench: ${r.rows} rows for ${RECORDS} records`)
      rows.push({ threads, records: r.rows, seconds: r.seconds, perSecond: r.rows / r.seconds, cpuPerRecord: r.cpuPerRecord, callerPerRecord: r.callerPerRecord })
      const caller = r.callerPerRecord === null ? '' : `, calling thread ${r.callerPerRecord.toFixed(1)}`
      log(`survey: ${threads} thread(s): ${r.rows.toLocaleString('en')} records in ${r.seconds.toFixed(1)} s, ${Math.round(r.rows / r.seconds).toLocaleString('en')} records/s; CPU us/record: all threads ${r.cpuPerRecord.toFixed(1)}${caller}`)
    }
    log(`survey: the most 2 threads can give on this machine (twoCoreCeiling): ${surveyCeiling(rows[0]).toFixed(2)}x; 2 threads give ${(rows[1].perSecond / rows[0].perSecond).toFixed(2)}x`)
    return rows
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The rows from a process of their own, apart from `npm run bench`'s heap (the command runs in children anyway). */
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
    console.log(`\n| survey through the CLI, WARC.gz in Common Crawl's layout, 30 crawlers x 2 paths | records/s | vs 1 thread |\n|---|---:|---:|`)
    for (const r of rows) console.log(`| ${r.threads} thread${r.threads === 1 ? '' : 's'} | ${Math.round(r.perSecond).toLocaleString('en')} | ${(r.perSecond / rows[0].perSecond).toFixed(2)}x |`)
  }
}
