// bench/survey.mjs: the file it writes is in Common Crawl's layout (a warcinfo record, then each
// response beside its request and metadata records, each record its own gzip member), and the
// figures it prints come from `robotstxt survey` itself, counting the worker threads' CPU as well
// as the calling thread's. Nothing here is timed.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WARCParser } from 'warcio'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { twoCoreCeiling } from '../bench/cli-threads.mjs'
import { commonCrawlWarc, timedCli } from '../bench/survey.mjs'
import { CORPUS, corpusAvailable } from './helpers/cases.js'
import { ensureDist } from './helpers/dist.js'

describe.skipIf(!corpusAvailable())('bench/survey.mjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-survey-'))
  const corpus = join(dir, 'corpus')
  beforeAll(() => {
    ensureDist()
    mkdirSync(corpus)
    const robots = join(CORPUS, 'robots')
    for (const name of readdirSync(robots).sort().slice(0, 50)) copyFileSync(join(robots, name), join(corpus, name))
  }, 300_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('writes Common Crawl\'s layout: warcinfo, then request, response and metadata per fetch, each record a gzip member of its own', async () => {
    const file = join(dir, 'layout.warc.gz')
    await commonCrawlWarc(file, corpus, 60)
    const bytes = readFileSync(file)
    const types: string[] = []
    const parser = new WARCParser([new Uint8Array(bytes)])
    for await (const record of parser) {
      types.push(record.warcType ?? '')
      // The record's offset in the compressed file is a gzip member's start.
      expect([...bytes.subarray(parser.offset, parser.offset + 3)]).toEqual([0x1f, 0x8b, 0x08])
      await record.readFully()
    }
    expect(types).toEqual(['warcinfo', ...Array.from({ length: 60 }, () => ['request', 'response', 'metadata']).flat()])
  })

  test('through the CLI on 2 threads, all threads spend more CPU per record than the calling thread: the workers compute the rows', async () => {
    const file = join(dir, 'cli.warc.gz')
    await commonCrawlWarc(file, corpus, 300)
    const run = await timedCli(file, ['--crawlers', 'GPTBot,CCBot,Googlebot', '--threads', '2'])
    expect(run.rows).toBe(300)
    expect(run.seconds).toBeGreaterThan(0)
    expect(run.callerPerRecord).not.toBeNull()
    expect(run.callerPerRecord!).toBeGreaterThan(0)
    expect(run.cpuPerRecord).toBeGreaterThan(run.callerPerRecord!)
  }, 60_000)

  test('the bound: the one-thread run\'s CPU work, all threads, spread over the cores, against its wall time', () => {
    // 1 thread: 10 s wall, 12.5 s of CPU (inflation and the collector beside the calling thread).
    expect(twoCoreCeiling(10, 12.5, 2)).toBeCloseTo(1.6, 10)
    // Nothing beside the calling thread: 2 cores give at most 2x, 4 cores 4x.
    expect(twoCoreCeiling(10, 10, 2)).toBe(2)
    expect(twoCoreCeiling(10, 10, 4)).toBe(4)
  })
})
