// bench/survey.mjs's CPU accounting, on a real survey of a folder of corpus files: the figures the
// bench prints (and its bound of 2 threads over 1) must count the worker threads' CPU as well as
// the calling thread's. Nothing here is timed.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { twoCoreCeiling } from '../bench/cli-threads.mjs'
import { timed } from '../bench/survey.mjs'
import { surveyRobots } from '../src/survey/index.js'
import { CORPUS, corpusAvailable } from './helpers/cases.js'
import { ensureDist } from './helpers/dist.js'

describe.skipIf(!corpusAvailable())('bench/survey.mjs CPU accounting', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-survey-'))
  beforeAll(() => ensureDist(), 300_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const robots = join(CORPUS, 'robots')
  for (const name of readdirSync(robots).sort().slice(0, 200)) copyFileSync(join(robots, name), join(dir, name))

  test('on 2 threads, all threads spend more CPU per record than the calling thread: the workers compute the rows', async () => {
    const run = await timed(surveyRobots, dir, { threads: 2 })
    expect(run.rows).toBe(200)
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
