// The survey on Common Crawl's files as they are published: WARC.gz files in Common Crawl's layout
// (warcinfo, then request, response and metadata records, one gzip member each) served over HTTP
// by a server on 127.0.0.1 that answers Range requests and drops a connection mid-file on purpose,
// paths listings (robotstxt.paths.gz) resolved against --prefix, and shards of a listing read
// back by DuckDB as the one run they split.
import { DuckDBInstance } from '@duckdb/node-api'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { HttpSource, sourceChunks } from '../src/survey/byte-source.js'
import { inputUnits, surveyRobots, SURVEY_USER_AGENT } from '../src/survey/index.js'
import type { SurveyRow } from '../src/survey/types.js'
import { CORPUS, corpusAvailable } from './helpers/cases.js'
import { runCli, type Run } from './helpers/cli.js'
import { ensureDist } from './helpers/dist.js'
import { commonCrawlWarc, type Response } from './helpers/warc.js'

/** A static file server on 127.0.0.1 with Range support, and failures on demand. */
interface FileServer {
  origin: string
  /** Per path, the Range header of each request (null: none). */
  ranges: Map<string, (string | null)[]>
  userAgents: string[]
  /** Paths whose next response sends only this many bytes of the body, then drops the connection. */
  dropNext: Map<string, number>
  /** Paths whose every request for a range from this offset on is dropped before it is answered. */
  refuseFrom: Map<string, number>
  /** Answer 200 with the whole file whatever the Range header says. */
  ignoreRange: boolean
  close(): Promise<void>
}

async function fileServer(root: string): Promise<FileServer> {
  const sockets = new Set<Socket>()
  const state = { ignoreRange: false }
  const ranges = new Map<string, (string | null)[]>()
  const userAgents: string[] = []
  const dropNext = new Map<string, number>()
  const refuseFrom = new Map<string, number>()
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    userAgents.push(req.headers['user-agent'] ?? '')
    const range = req.headers.range ?? null
    ranges.set(path, [...(ranges.get(path) ?? []), range])
    let data: Buffer
    try {
      data = readFileSync(join(root, path))
    } catch {
      res.writeHead(404).end()
      return
    }
    const m = state.ignoreRange || range === null ? null : /^bytes=([0-9]+)-$/.exec(range)
    const from = m === null ? 0 : Number(m[1])
    const refused = refuseFrom.get(path)
    if (refused !== undefined && from >= refused) {
      req.socket.destroy()
      return
    }
    const body = data.subarray(from)
    res.writeHead(m === null ? 200 : 206, {
      'content-length': String(body.length),
      ...(m === null ? {} : { 'content-range': `bytes ${from}-${data.length - 1}/${data.length}` }),
    })
    const cut = dropNext.get(path)
    if (cut === undefined) {
      res.end(body)
      return
    }
    dropNext.delete(path)
    // Part of the body, then the connection goes: what a reset mid-download looks like to a client.
    res.write(body.subarray(0, cut), () => setTimeout(() => req.socket.destroy(), 20))
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ranges,
    userAgents,
    dropNext,
    refuseFrom,
    get ignoreRange() { return state.ignoreRange },
    set ignoreRange(v: boolean) { state.ignoreRange = v },
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

let root = ''
let server: FileServer
/** The WARC files, as paths under root (Common Crawl's layout), per crawl. */
const CRAWLS = [
  { id: 'CC-MAIN-2024-10', date: '2024-03-01T10:00:00Z', files: 3 },
  { id: 'CC-MAIN-2024-33', date: '2024-08-10T10:00:00Z', files: 2 },
]
const files: string[] = []

/** Robots.txt bodies: corpus files when there, else small made-up ones; some sites answer 404 or 503. */
function sites(n: number, from: number, crawl: number): Response[] {
  const folder = join(CORPUS, 'robots')
  const names = corpusAvailable() ? readdirSync(folder).sort().slice(from, from + n) : Array.from({ length: n }, (_, i) => `s${from + i}.example.txt`)
  return names.map((name, i) => {
    const url = `https://${name.replace(/\.txt$/, '')}/robots.txt`
    if (i % 17 === 5) return { url, status: 404, body: '' }
    if (i % 23 === 7) return { url, status: 503, body: '' }
    let body: string | Uint8Array = corpusAvailable() ? new Uint8Array(readFileSync(join(folder, name))) : 'User-agent: *\nDisallow: /search\n'
    // The later crawl: some sites have added a group for GPTBot.
    if (crawl === 1 && i % 5 === 0) body = `User-agent: GPTBot\nDisallow: /\n\n${typeof body === 'string' ? body : new TextDecoder('latin1').decode(body)}`
    return { url, body }
  })
}

beforeAll(async () => {
  ensureDist()
  root = mkdtempSync(join(tmpdir(), 'robotstxt-cc-'))
  for (const [c, crawl] of CRAWLS.entries()) {
    const listed: string[] = []
    for (let f = 0; f < crawl.files; f++) {
      const path = `crawl-data/${crawl.id}/segments/1700000000.${f}/robotstxt/${crawl.id}-2024000000${f}-0000${f}.warc.gz`
      mkdirSync(join(root, dirname(path)), { recursive: true })
      // The same 120 sites in both crawls, split over the crawl's files.
      const per = Math.ceil(120 / crawl.files)
      writeFileSync(join(root, path), await commonCrawlWarc(sites(Math.min(per, 120 - f * per), f * per, c), crawl.date))
      listed.push(path)
      files.push(path)
    }
    writeFileSync(join(root, 'crawl-data', crawl.id, 'robotstxt.paths.gz'), gzipSync(`${listed.join('\n')}\n`))
  }
  server = await fileServer(root)
}, 300_000)
afterAll(async () => {
  await server?.close()
  if (root !== '') rmSync(root, { recursive: true, force: true })
})

async function rows(input: string | string[], options = {}): Promise<SurveyRow[]> {
  const out: SurveyRow[] = []
  for await (const r of surveyRobots(input, { crawlers: ['GPTBot', 'CCBot', 'Googlebot'], paths: ['/search'], ...options })) out.push(r)
  return out
}

/** A row without where it came from: what the record itself decides. */
const decided = (r: SurveyRow) => ({ ...r, source: '' })

describe('a WARC.gz over HTTP', () => {
  test('is read as the file on disk is: the same rows (the source is the URL), Common Crawl\'s request and metadata records skipped', async () => {
    const path = files[0]!
    const local = await rows(join(root, path))
    expect(local.length).toBe(40)
    expect(local.every((r) => r.captured === '2024-03-01T10:00:00Z')).toBe(true)
    const remote = await rows(`${server.origin}/${path}`)
    expect(remote.map(decided)).toEqual(local.map(decided))
    expect(new Set(remote.map((r) => r.source))).toEqual(new Set([`${server.origin}/${path}`]))
    expect(server.userAgents.at(-1)).toBe(SURVEY_USER_AGENT)
  })

  test('a connection dropped mid-file is opened again from the byte where it stopped (a Range request): no record lost or read twice', async () => {
    const path = files[1]!
    const size = readFileSync(join(root, path)).length
    const local = await rows(join(root, path))
    const cut = Math.floor(size / 2)
    server.dropNext.set(`/${path}`, cut)
    const before = server.ranges.get(`/${path}`)?.length ?? 0
    const remote = await rows(`${server.origin}/${path}`)
    expect(remote.map(decided)).toEqual(local.map(decided))
    // The first request from 0, then one from the cut (or just after: what the client had received).
    const asked = server.ranges.get(`/${path}`)!.slice(before)
    expect(asked[0]).toBe('bytes=0-')
    expect(asked.length).toBe(2)
    const resumedAt = Number(/^bytes=([0-9]+)-$/.exec(asked[1]!)![1])
    expect(resumedAt).toBeGreaterThan(0)
    expect(resumedAt).toBeLessThanOrEqual(cut)
  })

  test('a server that ignores Range (200, the whole file) is read again from the start, the bytes already read dropped', async () => {
    const path = files[2]!
    const local = await rows(join(root, path))
    server.ignoreRange = true
    server.dropNext.set(`/${path}`, 5000)
    try {
      expect((await rows(`${server.origin}/${path}`)).map(decided)).toEqual(local.map(decided))
    } finally {
      server.ignoreRange = false
    }
  })

  test('a connection that keeps failing where it dropped: six tries in a row, then an error row naming the byte; the rows before it are there, the next input is read', async () => {
    // Larger than a region the reader inflates at once (256 KiB), so that rows come before the cut.
    const path = 'crawl-data/large.warc.gz'
    writeFileSync(join(root, path), await commonCrawlWarc([...sites(120, 0, 0), ...sites(120, 120, 0), ...sites(120, 240, 0)], CRAWLS[0]!.date))
    const local = await rows(join(root, path))
    const cut = Math.floor(readFileSync(join(root, path)).length * 0.8)
    server.dropNext.set(`/${path}`, cut)
    server.refuseFrom.set(`/${path}`, 1)
    try {
      const got = await rows([`${server.origin}/${path}`, join(root, files[0]!)])
      const failed = got.findIndex((r) => r.outcome === 'error')
      expect(failed).toBeGreaterThan(0)
      expect(got.slice(0, failed).map(decided)).toEqual(local.slice(0, failed).map(decided))
      expect(got[failed]!.error).toMatch(/the connection (failed|ended) 6 times in a row at byte [0-9]+/)
      expect(got.slice(failed + 1).map((r) => r.source)).toEqual(Array.from({ length: 40 }, () => join(root, files[0]!)))
      // The first connection, dropped, then five to open it again where it stopped, each refused.
      const asked = server.ranges.get(`/${path}`)!
      expect(asked[0]).toBe('bytes=0-')
      expect(asked.slice(1)).toEqual(Array.from({ length: 5 }, () => asked[1]))
      expect(Number(/^bytes=([0-9]+)-$/.exec(asked[1]!)![1])).toBeGreaterThan(0)
    } finally {
      server.refuseFrom.delete(`/${path}`)
    }
  }, 60_000)

  test('a URL that answers 404 is an error row naming the status; the next input is still read', async () => {
    const got = await rows([`${server.origin}/crawl-data/none.warc.gz`, join(root, files[0]!)])
    expect(got[0]).toMatchObject({ outcome: 'error', source: `${server.origin}/crawl-data/none.warc.gz`, offset: 0 })
    expect(got[0]!.error).toMatch(/HTTP 404/)
    expect(got.length).toBe(41)
  })

  test('is never held whole: reading a 24 MiB file front to back keeps a bounded window of it', async () => {
    const big = new Uint8Array(24 << 20)
    for (let i = 0; i < big.length; i += 4096) big[i] = i & 0xff
    writeFileSync(join(root, 'big.bin'), big)
    const src = await HttpSource.open(`${server.origin}/big.bin`, { userAgent: SURVEY_USER_AGENT })
    try {
      let n = 0
      let same = true
      for await (const chunk of sourceChunks(src, 0, 1 << 16)) {
        for (let i = 0; i < chunk.length; i += 4096) if (chunk[i] !== big[n + i]) same = false
        n += chunk.length
      }
      expect([n, same]).toEqual([big.length, true])
      expect(src.maxKept).toBeLessThanOrEqual((4 << 20) + (1 << 20) + (1 << 16) + (1 << 16))
    } finally {
      await src.close()
      rmSync(join(root, 'big.bin'))
    }
  })
})

describe('a Common Crawl paths listing', () => {
  test('its lines resolve against the prefix: Common Crawl\'s host by default, a URL or a folder given', async () => {
    const listing = join(root, 'crawl-data', CRAWLS[0]!.id, 'robotstxt.paths.gz')
    const ua = SURVEY_USER_AGENT
    const paths = async (prefix: string) => (await inputUnits([listing], [0, 1], { prefix, userAgent: ua })).units.map((u) => u.path)
    expect(await paths('https://data.commoncrawl.org/')).toEqual(files.slice(0, 3).map((f) => `https://data.commoncrawl.org/${f}`))
    expect(await paths(`${server.origin}/mirror/`)).toEqual(files.slice(0, 3).map((f) => `${server.origin}/mirror/${f}`))
    expect(await paths(root)).toEqual(files.slice(0, 3).map((f) => join(root, f)))
    // Shards split the listing's files: file i to shard i mod N.
    expect((await inputUnits([listing], [1, 2], { prefix: root, userAgent: ua })).units.map((u) => u.path)).toEqual([join(root, files[1]!)])
  })

  test('one run and two shards (--shard 1/2, 2/2) over HTTP, one connection dropped mid-file: DuckDB reads the shards as the one run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robotstxt-cc-out-'))
    try {
      const listings = CRAWLS.map((c) => `${server.origin}/crawl-data/${c.id}/robotstxt.paths.gz`)
      const run = (args: string[]): Promise<Run> => runCli(['survey', ...listings, '--prefix', `${server.origin}/`, '--crawlers', 'GPTBot,CCBot', ...args], undefined, {}, dir)
      server.dropNext.set(`/${files[3]!}`, 3000)
      const whole = await run(['--out', 'whole.jsonl', '--by', 'month'])
      expect(whole.code, whole.stderr).toBe(0)
      server.dropNext.set(`/${files[3]!}`, 3000)
      for (const i of [1, 2]) {
        const shard = await run(['--out', `shard-${i}.jsonl`, '--shard', `${i}/2`])
        expect(shard.code, shard.stderr).toBe(0)
      }
      const instance = await DuckDBInstance.create(':memory:')
      const connection = await instance.connect()
      try {
        await connection.run(`SET file_search_path = '${dir}'`)
        const q = async (from: string) => (await connection.runAndReadAll(`SELECT source, "offset", origin, captured::VARCHAR AS captured, outcome, crawlers[1].class AS gptbot FROM ${from} ORDER BY source, "offset"`)).getRowObjectsJson()
        const all = await q("'whole.jsonl'")
        expect(all.length).toBe(240)
        expect(await q("'shard-*.jsonl'")).toEqual(all)
        // The listings' five files: 1st, 3rd, 5th in shard 1, the others in shard 2.
        const sources = async (f: string) => (await connection.runAndReadAll(`SELECT DISTINCT source FROM '${f}' ORDER BY 1`)).getRowObjectsJson().map((r) => String(r.source).slice(server.origin.length + 1))
        expect(await sources('shard-1.jsonl')).toEqual([files[0], files[2], files[4]].sort())
        expect(await sources('shard-2.jsonl')).toEqual([files[1], files[3]].sort())
      } finally {
        connection.closeSync()
        instance.closeSync()
      }
      // By month: the two crawls, and the same sites compared between them.
      expect(whole.stdout).toMatch(/\nmonth 2024-03\nrecords 120 of 120 origins: /)
      expect(whole.stdout).toMatch(/\nmonth 2024-08\nrecords 120 of 120 origins: /)
      expect(whole.stdout).toMatch(/\n2024-03 -> 2024-08: [0-9]+ origins read \(ok\) in both\n/)
      expect(whole.stdout).toMatch(/\nGPTBot +[1-9][0-9]* \([0-9.]+%\) +[0-9]+ \(/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  test('a listing that cannot be fetched is an error row (exit 3); a listing on disk with a folder as prefix reads the files there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robotstxt-cc-out-'))
    try {
      const missing = await runCli(['survey', `${server.origin}/crawl-data/CC-MAIN-2099-01/robotstxt.paths.gz`, '--crawlers', 'GPTBot', '--out', '-'], undefined, {}, dir)
      expect(missing.code).toBe(3)
      expect(missing.stderr).toMatch(/cannot read the listing http:\/\/127\.0\.0\.1:[0-9]+\/crawl-data\/CC-MAIN-2099-01\/robotstxt\.paths\.gz: HTTP 404/)
      const local = await runCli(['survey', join(root, 'crawl-data', CRAWLS[1]!.id, 'robotstxt.paths.gz'), '--prefix', root, '--crawlers', 'GPTBot', '--out', '-'], undefined, {}, dir)
      expect(local.code).toBe(0)
      const got = local.stdout.trim().split('\n').map((l) => JSON.parse(l) as { source: string })
      expect(got.length).toBe(120)
      expect([...new Set(got.map((r) => r.source))]).toEqual(files.slice(3).map((f) => join(root, f)))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
