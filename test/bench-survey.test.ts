// bench/survey.mjs's CPU accounting, on a real survey of a folder of corpus files: the figures the
// bench prints (and its bound of 2 threads over 1) must count the worker threads' CPU as well as
// the calling thread's. Nothing here is timed.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { cpuBound, timed } from '../bench/survey.mjs'
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

  test('the bound: 2 x the calling thread of the 1-thread run over all threads of the 2-thread run', () => {
    expect(cpuBound({ callerPerRecord: 95 }, { cpuPerRecord: 139 })).toBeCloseTo(1.367, 3)
    expect(cpuBound({ callerPerRecord: 95 }, { cpuPerRecord: 95 }, 4)).toBe(4)
    expect(cpuBound({ callerPerRecord: null }, { cpuPerRecord: 139 })).toBeNull()
  })
})
