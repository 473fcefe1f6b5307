// The survey (src/survey): rows from real WARC, folder and JSONL inputs, their JSONL and CSV files
// read back by DuckDB with no options, thread counts and shards that change nothing but speed, and
// hostile inputs that give error rows with offsets while every good record is still read.
import { DuckDBInstance } from '@duckdb/node-api'
import { execFileSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseRobots } from '../src/engine/robots.js'
import { csvHeader, csvLine, jsonLine, surveyPlan, surveyRobots, surveyWithStats } from '../src/survey/index.js'
import { BATCH, IN_FLIGHT } from '../src/survey/pool.js'
import type { SurveyOptions, SurveyRow } from '../src/survey/types.js'
import { CORPUS, corpusAvailable } from './helpers/cases.js'
import { ensureDist } from './helpers/dist.js'
import { concat, warcFile, warcRecord } from './helpers/warc.js'

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-survey-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function rows(input: Parameters<typeof surveyRobots>[0], options?: SurveyOptions): Promise<SurveyRow[]> {
  const out: SurveyRow[] = []
  for await (const r of surveyRobots(input, options)) out.push(r)
  return out
}

const SITE_A = [
  'User-agent: GPTBot', 'Disallow: /', '',
  'User-agent: Googlebot', 'Disallow: /private', 'Allow: /private/ok', 'Crawl-delay: 4', '',
  'User-agent: *', 'Content-Signal: search=yes, ai-train=no', 'Disallow: /tmp', '',
  'Sitemap: https://a.example/sitemap.xml', 'Sitemap: https://a.example/news.xml', 'Bogus line without colon', 'Disallow: never-matches',
].join('\n')

async function sampleWarc(gzip: boolean): Promise<Uint8Array> {
  return warcFile([
    { url: 'https://a.example/robots.txt', body: SITE_A },
    { url: 'https://a.example/robots.txt', type: 'request', body: 'GET /robots.txt HTTP/1.1\r\n\r\n' },
    { url: 'http://b.example/robots.txt', status: 404, body: 'not found' },
    { url: 'https://c.example/robots.txt', status: 503, body: 'busy' },
    { url: 'https://d.example:8443/robots.txt', status: 301, body: '' },
    { url: 'https://e.example/robots.txt', body: 'User-agent: *\nAllow: /\n' },
  ], gzip)
}

const OPTIONS: SurveyOptions = { crawlers: ['GPTBot', 'Googlebot', 'CCBot'], tokens: ['my-bot'], paths: ['/private/x', '/tmp/y'] }

describe('rows', () => {
  test('one row per response record, outcome by status, verdicts and lines as Robots.check gives them', async () => {
    const file = join(dir, 'sample.warc.gz')
    writeFileSync(file, await sampleWarc(true))
    const got = await rows(file, OPTIONS)
    expect(got.map((r) => [r.origin, r.outcome, r.status])).toEqual([
      ['https://a.example', 'ok', 200], ['http://b.example', 'allow-all', 404], ['https://c.example', 'disallow-all', 503],
      ['https://d.example:8443', 'allow-all', 301], ['https://e.example', 'ok', 200],
    ])
    const a = got[0]!
    expect(a.crawlers.map((c) => c.name)).toEqual(['GPTBot', 'Googlebot', 'CCBot', 'my-bot'])
    const robots = parseRobots(SITE_A)
    const tokens: Record<string, string[]> = { GPTBot: ['GPTBot'], Googlebot: ['Googlebot'], CCBot: ['CCBot'], 'my-bot': ['my-bot'] }
    for (const c of a.crawlers) {
      expect(c.paths.map((p) => p.path)).toEqual(['/', '/private/x', '/tmp/y'])
      for (const p of c.paths) {
        const v = robots.check(p.path, tokens[c.name]!)
        expect([p.allowed, p.line]).toEqual([v.allowed, v.line])
      }
    }
    const [gpt, google, cc] = a.crawlers
    expect([gpt!.class, gpt!.by, gpt!.named]).toEqual(['blocked', 'name', true])
    expect([google!.class, google!.by, google!.named, google!.crawlDelay]).toEqual(['partial', 'name', true, 4])
    expect([cc!.class, cc!.by, cc!.named, cc!.crawlDelay]).toEqual(['partial', '*', false, null])
    expect({ ...cc!.preferences }).toEqual({ search: true, 'ai-train': false })
    expect({ ...google!.preferences }).toEqual({})
    expect(a.sitemaps).toBe(2)
    expect(a.lintErrors).toBeGreaterThan(0)
    expect(a.bytes).toBe(new TextEncoder().encode(SITE_A).length)
    // The capture time is the record's WARC-Date (test/helpers/warc.ts writes 2026-01-01).
    expect(new Set(got.map((r) => r.captured))).toEqual(new Set(['2026-01-01T00:00:00Z']))
    // No rules read (a 404, a 503, a redirect out of the archive): no class and no `by`, so no
    // count can take them for a site's choice; the verdicts are what a crawler does.
    expect(got[1]!.crawlers.every((c) => c.class === null && c.by === null && !c.named && c.paths.every((p) => p.allowed && p.line === 0))).toBe(true)
    expect(got[2]!.crawlers.every((c) => c.class === null && c.by === null && c.paths.every((p) => !p.allowed && p.line === 0))).toBe(true)
    expect(got[2]!.error).toBeNull()
    expect(got[4]!.crawlers.every((c) => c.class === 'allowed' && c.by === '*')).toBe(true)
    // Offsets point at each record in the file: rereading from one gives that record first.
    expect(got[0]!.offset).toBe(0)
    expect(new Set(got.map((r) => r.offset)).size).toBe(got.length)
  })

  test('rows are frozen, to their crawlers\' paths and preferences, which crawlers of one selection share', async () => {
    const file = join(dir, 'frozen.warc.gz')
    writeFileSync(file, await sampleWarc(true))
    for (const threads of [1, 2]) {
      const [a] = await rows(file, { ...OPTIONS, threads })
      const [, , cc, mine] = a!.crawlers
      for (const v of [a, a!.crawlers, a!.lintCodes, cc, cc!.paths, cc!.paths[0], cc!.preferences]) expect(Object.isFrozen(v)).toBe(true)
      expect(() => { (cc!.paths[0] as { allowed: boolean }).allowed = false }).toThrow(TypeError)
      // CCBot and my-bot both fall to the * group: one set of values, each crawler its own name.
      expect([cc!.name, mine!.name, cc!.paths === mine!.paths, Object.getPrototypeOf(cc!.preferences)]).toEqual(['CCBot', 'my-bot', true, null])
    }
  })

  test('a response stored with Content-Encoding gzip or deflate (as sent) is read decoded', async () => {
    const { gzipSync, deflateSync } = await import('node:zlib')
    const { WARCRecord, WARCSerializer } = await import('warcio')
    const plain = 'User-agent: GPTBot\nDisallow: /\n'
    const records = await Promise.all([['gzip', gzipSync(plain)], ['deflate', deflateSync(plain)]].map(async ([encoding, body], i) => {
      const payload = new Uint8Array(body as Buffer)
      const record = WARCRecord.create({
        url: `https://e${i}.example/robots.txt`, type: 'response', warcVersion: 'WARC/1.1', date: '2026-01-01T00:00:00Z', statusline: 'HTTP/1.1 200 OK',
        httpHeaders: { 'Content-Type': 'text/plain', 'Content-Encoding': encoding as string, 'Content-Length': String(payload.length) },
      }, (async function* () { yield payload })())
      return WARCSerializer.serialize(record, { gzip: true })
    }))
    const path = join(dir, 'encoded.warc.gz')
    writeFileSync(path, concat(records))
    const got = await rows(path, { crawlers: ['GPTBot', 'Googlebot'] })
    expect(got.map((r) => [r.origin, r.outcome, r.bytes, r.crawlers.map((c) => c.class)])).toEqual([
      ['https://e0.example', 'ok', plain.length, ['blocked', 'allowed']],
      ['https://e1.example', 'ok', plain.length, ['blocked', 'allowed']],
    ])
  })

  test('an uncompressed WARC gives the same rows, offsets aside', async () => {
    const gz = join(dir, 's.warc.gz')
    const plain = join(dir, 's.warc')
    writeFileSync(gz, await sampleWarc(true))
    writeFileSync(plain, await sampleWarc(false))
    const strip = (r: SurveyRow) => ({ ...r, source: '', offset: 0 })
    expect((await rows(plain, OPTIONS)).map(strip)).toEqual((await rows(gz, OPTIONS)).map(strip))
  })

  test('JSONL input: {origin, status, body} per line, offsets of the lines, bad lines as error rows', async () => {
    const file = join(dir, 'in.jsonl')
    const lines = [
      JSON.stringify({ origin: 'https://a.example', status: 200, body: SITE_A }),
      'not json',
      JSON.stringify({ origin: 'ftp://x', body: '' }),
      '',
      JSON.stringify({ origin: 'https://b.example/any/path', status: 404 }),
    ]
    writeFileSync(file, lines.join('\n'))
    const got = await rows(file, OPTIONS)
    expect(got.map((r) => [r.origin, r.outcome, r.offset, r.error === null])).toEqual([
      ['https://a.example', 'ok', 0, true],
      ['', 'error', lines[0]!.length + 1, false],
      ['', 'error', lines[0]!.length + lines[1]!.length + 2, false],
      ['https://b.example', 'allow-all', lines.slice(0, 4).join('\n').length + 1, true],
    ])
  })

  test.skipIf(!corpusAvailable())('the corpus folder: one row per file, verdicts equal to Robots.check', async () => {
    const folder = join(CORPUS, 'robots')
    const got = await rows(folder, { sets: ['ai-training'], paths: ['/search', '/api/'] })
    const files = readdirSync(folder).sort()
    expect(got).toHaveLength(files.length)
    for (const [i, row] of got.entries()) {
      if (i % 7 !== 0) continue
      expect(row.origin).toBe(files[i]!.replace(/\.txt$/, ''))
      const robots = parseRobots(new Uint8Array(readFileSync(join(folder, files[i]!))))
      for (const c of row.crawlers) {
        const tokens = surveyPlan({ crawlers: [c.name] }).crawlers[0]!.tokens
        for (const p of c.paths) expect([p.allowed, p.line]).toEqual(Object.values(robots.check(p.path, tokens)).slice(0, 2))
      }
    }
  }, 120_000)

  test('bad arguments throw a TypeError saying what was expected', () => {
    expect(() => surveyRobots(42 as never)).toThrow(/input: expected a path/)
    // An object naming neither list (a typo such as `origin`) would be an empty survey, no word said.
    expect(() => surveyRobots({} as never)).toThrow(/input: expected a path, an array of paths, or \{paths, origins\} with at least one of them/)
    expect(() => surveyRobots({ origin: ['https://a.example'] } as never)).toThrow(/input: expected .*at least one of them/)
    expect(() => surveyRobots({ paths: [] })).not.toThrow()
    expect(() => surveyRobots('x', { paths: ['nope'] })).toThrow(/options.paths\[0\]: expected a path starting with "\/"/)
    expect(() => surveyRobots('x', { sets: ['robots'] })).toThrow(/options.sets\[0\]: expected one of search/)
    expect(() => surveyRobots('x', { threads: 0 })).toThrow(/options.threads: expected an integer from 1/)
    expect(() => surveyRobots('x', { shard: [2, 2] })).toThrow(/options.shard/)
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 60, '4G']) {
      expect(() => surveyRobots('x', { maxPipeBytes: bad as number })).toThrow(new TypeError(`options.maxPipeBytes: expected a whole number of bytes >= 1, got ${typeof bad === 'string' ? `the string "${bad}"` : `number ${bad}`}`))
    }
  })
})

describe('the summary: what stdout prints, as data', () => {
  const jsonl = (file: string, lines: object[]): string => {
    const path = join(dir, file)
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`)
    return path
  }

  test('every crawler count is over the ok rows: 4xx, failures (by status or code) and unreadable rows are counted apart, never as blocking', async () => {
    const file = jsonl('outcomes.jsonl', [
      { origin: 'https://a.example', status: 200, body: 'User-agent: GPTBot\nDisallow: /\n' },
      { origin: 'https://b.example', status: 200, body: 'User-agent: *\nDisallow: /admin/\n' },
      { origin: 'https://c.example', status: 503 },
      { origin: 'https://d.example', status: 429 },
      { origin: 'https://e.example', status: 503 },
      { origin: 'https://f.example', status: null },
      { origin: 'https://g.example', status: 404 },
      { origin: 'https://h.example' },
    ])
    const run = surveyRobots(file, { crawlers: ['GPTBot', 'CCBot'] })
    for await (const _ of run);
    const { total, by, groups, changes, originSample, skippedFiles } = await run.summary
    expect([by, groups, changes, originSample, skippedFiles]).toEqual([null, [], [], 1, 0])
    expect(total).toMatchObject({ key: 'all', records: 8, origins: 8, ok: 2, outcomes: { 'ok': 2, 'allow-all': 1, 'disallow-all': 4, 'error': 1 } })
    expect(total.failures).toEqual([{ status: 503, code: null, records: 2 }, { status: 429, code: null, records: 1 }, { status: null, code: null, records: 1 }])
    expect(total.crawlers).toEqual([
      { name: 'GPTBot', sets: ['ai-training'], blockedByName: 1, blockedByStar: 0, partialByName: 0, partialByStar: 1, allowed: 0, named: 1 },
      { name: 'CCBot', sets: ['ai-training'], blockedByName: 0, blockedByStar: 0, partialByName: 0, partialByStar: 1, allowed: 1, named: 0 },
    ])
  })

  test('by month, year or source: one group each (undated last), the same origins compared between consecutive groups', async () => {
    const at = (d: string) => `${d}T12:00:00Z`
    const a = jsonl('by-a.jsonl', [
      { origin: 'https://a.example', status: 200, captured: at('2023-12-30'), body: '' },
      { origin: 'https://b.example', status: 200, captured: at('2023-12-30'), body: 'User-agent: CCBot\nDisallow: /\n' },
      { origin: 'https://c.example', status: 200, body: '' },
    ])
    const b = jsonl('by-b.jsonl', [
      { origin: 'https://a.example', status: 200, captured: at('2024-01-02'), body: 'User-agent: CCBot\nDisallow: /private/\n' },
      { origin: 'https://b.example', status: 200, captured: at('2024-01-02'), body: '' },
      { origin: 'https://a.example', status: 200, captured: at('2024-01-20'), body: 'User-agent: CCBot\nDisallow: /\n' },
    ])
    const summarize = async (by: 'month' | 'year' | 'source') => {
      const run = surveyRobots([a, b], { crawlers: ['CCBot'], by })
      for await (const _ of run);
      return run.summary
    }
    const month = await summarize('month')
    expect(month.groups.map((g) => [g.key, g.records, g.origins, g.crawlers[0]!.blockedByName])).toEqual([['2023-12', 2, 2, 1], ['2024-01', 3, 2, 1], ['undated', 1, 1, 0]])
    // a: allowed, then (its last January row) blocked by name; b: blocked by name, then allowed.
    expect(month.changes).toEqual([{ from: '2023-12', to: '2024-01', origins: 2, crawlers: [{ name: 'CCBot', changed: 2, restricted: 1, lifted: 1 }] }])
    expect((await summarize('year')).groups.map((g) => [g.key, g.records])).toEqual([['2023', 2], ['2024', 3], ['undated', 1]])
    const source = await summarize('source')
    expect(source.groups.map((g) => [g.key, g.records])).toEqual([[a, 3], [b, 3]])
    expect(source.changes.map((c) => [c.from, c.to, c.origins])).toEqual([[a, b, 2]])
    expect(month.total.origins).toBe(3)
  })

  test('the summary settles once the rows are all read; a loop that stops early gets a rejection, not a summary of some rows', async () => {
    const file = jsonl('early.jsonl', [{ origin: 'https://a.example', status: 200, body: '' }, { origin: 'https://b.example', status: 200, body: '' }])
    const run = surveyRobots(file, { crawlers: ['GPTBot'] })
    for await (const _ of run) break
    await expect(run.summary).rejects.toThrow(/the rows were not all read/)
    // A run nobody reads the summary of leaves no unhandled rejection (vitest would fail the test).
    for await (const _ of surveyRobots(file, { crawlers: ['GPTBot'] })) break
  })

  test('the crawlers asked for: an unknown name is a TypeError naming the closest presets; tokens are crawlers of their own; an empty choice is an error, not every preset', () => {
    expect(() => surveyRobots('x', { crawlers: ['GPTbot2'] })).toThrow(new TypeError('options.crawlers[0]: expected a crawler preset\'s name (did you mean GPTBot? a raw robots.txt token goes in options.tokens), got the string "GPTbot2"'))
    expect(() => surveyRobots('x', { crawlers: ['gptbot'] })).not.toThrow()
    expect(surveyPlan({ crawlers: ['gptbot'], tokens: ['My-Bot/1.0'] }).crawlers).toEqual([
      { name: 'GPTBot', tokens: ['GPTBot'], sets: ['ai-training'] }, { name: 'My-Bot/1.0', tokens: ['my-bot'], sets: [] },
    ])
    for (const empty of [{ crawlers: [] }, { tokens: [] }, { sets: [] }, { crawlers: [], sets: [], tokens: [] }]) {
      expect(() => surveyRobots('x', empty)).toThrow(/options\.crawlers: expected at least one crawler \(crawlers, sets or tokens\), or none of the three for every preset/)
    }
    expect(surveyPlan({}).crawlers.length).toBeGreaterThan(30)
    expect(() => surveyRobots('x', { by: 'week' as never })).toThrow(/options\.by: expected one of month, year, source/)
    expect(() => surveyRobots('x', { prefix: 'ftp://x/' })).toThrow(/options\.prefix: expected an http\(s\) URL or a folder path/)
  })

  test('a folder: files named robots.txt (origin: their folder) or *.txt are read, the others counted in skippedFiles', async () => {
    const folder = join(dir, 'robots-folder')
    mkdirSync(join(folder, 'x.example'), { recursive: true })
    writeFileSync(join(folder, 'x.example', 'ROBOTS.TXT'), 'User-agent: *\nDisallow: /\n')
    writeFileSync(join(folder, 'y.example.txt'), '')
    writeFileSync(join(folder, 'robots.txt'), '')
    writeFileSync(join(folder, 'README.md'), '')
    writeFileSync(join(folder, 'x.example', 'robots.txt.bak'), '')
    const run = surveyRobots(folder, { crawlers: ['GPTBot'] })
    const got: SurveyRow[] = []
    for await (const r of run) got.push(r)
    expect(got.map((r) => [r.origin, r.captured, r.crawlers[0]!.class])).toEqual([['robots-folder', null, 'allowed'], ['x.example', null, 'blocked'], ['y.example', null, 'allowed']])
    expect((await run.summary).skippedFiles).toBe(2)
  })
})

/** Runs SQL in a fresh in-memory DuckDB and returns the rows as JSON-friendly objects. */
async function sql(query: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    return (await connection.runAndReadAll(query)).getRowObjectsJson() as Record<string, unknown>[]
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

describe('files DuckDB reads with no options', () => {
  test('JSONL and CSV of the same rows give the same answers to SQL', async () => {
    const input = join(dir, 'duck.warc.gz')
    writeFileSync(input, await sampleWarc(true))
    const plan = surveyPlan(OPTIONS)
    const got = await rows(input, OPTIONS)
    const jsonl = join(dir, 'duck.jsonl')
    const csv = join(dir, 'duck.csv')
    writeFileSync(jsonl, got.map(jsonLine).join(''))
    writeFileSync(csv, csvHeader(plan) + got.map((r) => csvLine(r, plan)).join(''))
    const fromCsv = await sql(`SELECT origin, outcome, status, gptbot_class, googlebot_p2_allowed, googlebot_p2_line, googlebot_crawl_delay, ccbot_preferences, sitemaps FROM '${csv}' ORDER BY origin`)
    const fromJson = await sql(`SELECT origin, outcome, status, crawlers[1].class AS gptbot_class, crawlers[2].paths[2].allowed AS googlebot_p2_allowed,
      crawlers[2].paths[2].line AS googlebot_p2_line, crawlers[2].crawlDelay AS googlebot_crawl_delay, sitemaps FROM '${jsonl}' ORDER BY origin`)
    expect(fromCsv.map((r) => r.origin)).toEqual(['http://b.example', 'https://a.example', 'https://c.example', 'https://d.example:8443', 'https://e.example'])
    expect(fromCsv.map(({ ccbot_preferences: _, ...r }) => r)).toEqual(fromJson)
    const a = fromCsv[1]!
    // (getRowObjectsJson gives DuckDB's BIGINTs as decimal strings.)
    expect(a).toMatchObject({ outcome: 'ok', status: '200', gptbot_class: 'blocked', googlebot_p2_allowed: false, googlebot_p2_line: '5', googlebot_crawl_delay: '4', ccbot_preferences: 'ai-train=n;search=y', sitemaps: '2' })
    // Typed columns, not text: DuckDB sums and compares them as numbers and booleans.
    const [agg] = await sql(`SELECT sum(status) AS s, count(*) FILTER (WHERE googlebot_p2_allowed) AS allowed FROM '${csv}'`)
    expect(agg).toEqual({ s: String(200 + 404 + 503 + 301 + 200), allowed: '3' })
    // GPTBot on a.example alone: c.example's 503 is a failure, not a site blocking four crawlers.
    const [blocked] = await sql(`SELECT count(*) AS n FROM (SELECT unnest(crawlers) AS c FROM '${jsonl}') WHERE c.class = 'blocked'`)
    expect(blocked).toEqual({ n: '1' })
    const [byCsv] = await sql(`SELECT count(*) FILTER (WHERE gptbot_by = 'name') AS named, count(*) FILTER (WHERE ccbot_by = '*') AS star, count(*) FILTER (WHERE ccbot_by IS NULL) AS none FROM '${csv}'`)
    expect(byCsv).toEqual({ named: '1', star: '2', none: '3' })
  })
})

describe.skipIf(!corpusAvailable())('scale', () => {
  beforeAll(() => ensureDist(), 300_000)

  async function corpusWarc(): Promise<string> {
    const file = join(dir, 'corpus.warc.gz')
    const folder = join(CORPUS, 'robots')
    const names = readdirSync(folder).sort().slice(0, 600)
    const parts = await Promise.all(names.map((n) => warcRecord({ url: `https://${n.replace(/\.txt$/, '')}/robots.txt`, body: new Uint8Array(readFileSync(join(folder, n))) }, true)))
    writeFileSync(file, concat(parts))
    return file
  }

  test('threads 1 and 2 give byte-identical JSONL', async () => {
    const file = await corpusWarc()
    const one = (await rows(file, { threads: 1, paths: ['/a'] })).map(jsonLine).join('')
    const two = (await rows(file, { threads: 2, paths: ['/a'] })).map(jsonLine).join('')
    expect(one.split('\n')).toHaveLength(601)
    expect(two).toBe(one)
  }, 300_000)

  test('a slow reader holds the pool to its bound: at most threads x IN_FLIGHT batches out', async () => {
    const file = await corpusWarc()
    const stats = { maxOutstanding: 0, maxBuffered: 0 }
    let n = 0
    for await (const _ of surveyWithStats(file, { threads: 2, crawlers: ['GPTBot'] }, stats)) {
      if (++n % BATCH === 0) await new Promise((r) => setTimeout(r, 20))
    }
    expect(n).toBe(600)
    expect(stats.maxOutstanding).toBeGreaterThan(1)
    expect(stats.maxOutstanding).toBeLessThanOrEqual(2 * IN_FLIGHT)
    expect(stats.maxBuffered).toBeLessThanOrEqual(2 * IN_FLIGHT)
  }, 300_000)

  test('two shards of the corpus folder, queried as one table, are the whole survey', async () => {
    const folder = join(CORPUS, 'robots')
    const opts = { crawlers: ['GPTBot', 'Googlebot'] }
    const plan = surveyPlan(opts)
    const write = async (name: string, shard?: [number, number]) => {
      const got = await rows(folder, { ...opts, ...(shard ? { shard } : {}) })
      writeFileSync(join(dir, name), csvHeader(plan) + got.map((r) => csvLine(r, plan)).join(''))
      return got.length
    }
    const [n0, n1, all] = [await write('shard-0.csv', [0, 2]), await write('shard-1.csv', [1, 2]), await write('whole.csv')]
    expect(n0 + n1).toBe(all)
    expect(Math.abs(n0 - n1)).toBeLessThanOrEqual(1)
    const q = (from: string) => sql(`SELECT origin, gptbot_class, googlebot_p1_line FROM ${from} ORDER BY origin`)
    expect(await q(`read_csv('${join(dir, 'shard-*.csv')}')`)).toEqual(await q(`'${join(dir, 'whole.csv')}'`))
  }, 300_000)
})

test('a folder\'s symbolic links: a link to a file is read as the file; a link to a folder is not followed; a link that loops or points nowhere is an error row, and nothing hangs', async () => {
  const root = join(dir, 'links')
  mkdirSync(join(root, 'sub'), { recursive: true })
  const outside = join(dir, 'links-target.txt')
  writeFileSync(outside, 'User-agent: *\nDisallow: /linked\n')
  writeFileSync(join(root, 'a.example.txt'), 'User-agent: *\nDisallow: /a\n')
  symlinkSync(outside, join(root, 'b.example.txt'))
  symlinkSync(join(root, 'sub'), join(root, 'sub', 'up'))
  symlinkSync(root, join(root, 'loop'))
  symlinkSync(join(root, 'self.txt'), join(root, 'self.txt'))
  symlinkSync(join(dir, 'nowhere.txt'), join(root, 'dangling.txt'))
  const got = await rows(root, { crawlers: ['GPTBot'], paths: ['/linked'] })
  expect(got.map((r) => [r.origin, r.outcome, r.crawlers[0]?.paths[1]?.allowed])).toEqual([
    ['a.example', 'ok', true], ['b.example', 'ok', false], ['dangling', 'error', undefined], ['self', 'error', undefined],
  ])
  expect(got[2]!.error).toMatch(/ENOENT/)
  expect(got[3]!.error).toMatch(/ELOOP/)
})

test('a device as input (/dev/zero) is an error row at once, not an endless read; the next input is still read', async () => {
  if (!existsSync('/dev/zero')) return
  const file = join(dir, 'after-device.jsonl')
  writeFileSync(file, `${JSON.stringify({ origin: 'https://after.example', status: 200, body: '' })}\n`)
  const got = await rows(['/dev/zero', file], { crawlers: ['GPTBot'] })
  expect(got.map((r) => [r.source, r.outcome])).toEqual([['/dev/zero', 'error'], [file, 'ok']])
  expect(got[0]!.error).toMatch(/not a file, a pipe or a folder/)
}, 10_000)

describe.skipIf(process.platform === 'win32')('a pipe as input', () => {
  /** Past this, the writer gives up (had the reader not stopped, the test would fill the disk). */
  const SAFETY = 8 << 20

  /**
   * A FIFO that a writer fills with `unit` over and over until the reader closes it: an endless
   * pipe, to the reader. Resolves, once the writer has stopped, to why: 'reader' when the reader
   * closed the pipe, 'safety' when SAFETY bytes went in first.
   */
  function endlessFifo(path: string, unit: Uint8Array): Promise<'reader' | 'safety'> {
    execFileSync('mkfifo', [path])
    const out = createWriteStream(path)
    return new Promise((resolve) => {
      let written = 0
      // EPIPE once the reader is gone (Node ignores SIGPIPE).
      out.on('error', () => resolve('reader'))
      const more = (): void => {
        for (;;) {
          if (written >= SAFETY) {
            out.end(() => resolve('safety'))
            return
          }
          written += unit.length
          if (!out.write(unit)) break
        }
        out.once('drain', more)
      }
      out.once('open', more)
    })
  }

  for (const kind of ['WARC.gz', 'WARC', 'JSONL'] as const) {
    test(`${kind} on an endless pipe: the copy stops at maxPipeBytes, every record before it is a row, the rest an error row at the bound; the copy is removed`, async () => {
      const site = { url: 'https://endless.example/robots.txt', body: 'User-agent: *\nDisallow: /e\n' }
      const unit = kind === 'JSONL'
        ? new TextEncoder().encode(`${JSON.stringify({ origin: site.url, status: 200, body: site.body })}\n`)
        : await warcRecord(site, kind === 'WARC.gz')
      const bound = Math.floor(unit.length * 10.5)
      const fifo = join(dir, `endless-${kind}`)
      const temp = join(dir, `tmp-${kind}`)
      mkdirSync(temp)
      const tmpdirBefore = process.env.TMPDIR
      process.env.TMPDIR = temp
      try {
        const writer = endlessFifo(fifo, unit)
        const got: SurveyRow[] = []
        let copies: string[] = []
        for await (const r of surveyRobots(fifo, { crawlers: ['GPTBot'], paths: ['/e'], maxPipeBytes: bound })) {
          if (got.length === 0) copies = readdirSync(temp)
          got.push(r)
        }
        expect(await writer).toBe('reader')
        // The record the bound cuts is an error row of its own, as in a file cut there.
        expect(got.map((r) => [r.outcome === 'ok' ? r.origin : '', r.outcome, r.offset])).toEqual([
          ...Array.from({ length: 10 }, (_, i) => ['https://endless.example', 'ok', i * unit.length]),
          ['', 'error', 10 * unit.length], ['', 'error', bound],
        ])
        expect(got.slice(0, 10).every((r) => r.crawlers[0]!.paths[1]!.allowed === false)).toBe(true)
        expect(got.at(-1)!.error).toBe(`pipe input longer than the bound of ${bound} bytes (maxPipeBytes, --max-pipe-bytes): bytes from ${bound} not read`)
        // The copy was there while the rows were read, and is gone after.
        expect(copies).toHaveLength(1)
        expect(readdirSync(temp)).toEqual([])
      } finally {
        if (tmpdirBefore === undefined) delete process.env.TMPDIR
        else process.env.TMPDIR = tmpdirBefore
      }
    }, 30_000)
  }

  test('a pipe that ends at the bound exactly is read whole: no error row', async () => {
    const records = await Promise.all([0, 1].map((i) => warcRecord({ url: `https://p${i}.example/robots.txt`, body: 'User-agent: *\nDisallow: /\n' }, true)))
    const whole = concat(records)
    const fifo = join(dir, 'exact-fifo')
    execFileSync('mkfifo', [fifo])
    const out = createWriteStream(fifo)
    out.end(whole)
    const got = await rows(fifo, { crawlers: ['GPTBot'], maxPipeBytes: whole.length })
    expect(got.map((r) => [r.origin, r.outcome, r.offset])).toEqual([['https://p0.example', 'ok', 0], ['https://p1.example', 'ok', records[0]!.length]])
  })
})
