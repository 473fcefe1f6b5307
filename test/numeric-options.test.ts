// Every numeric option of the API against the one table of numeric rules (NUMERIC_OPTIONS in
// src/engine/args.ts): the table names every number-typed property of every options interface the
// package exports; each option's call rejects what its rule does not take with a TypeError that
// names the option and says what it takes, and takes the boundary values its rule does; and the
// words of each rule are pinned, as users read them.
import { join } from 'node:path'
import { CheerioCrawler } from 'crawlee'
import { createClient } from 'redis'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectedNumber, NUMERIC_OPTIONS, type NumberRule } from '../src/engine/args.js'
import { RobotsTxtFile, withGoogleRobots } from '../src/crawlee.js'
import {
  checkUrls, fetchRobots, parseRobots, redisStorage, RobotsCache, robotsFromResponse, surveyRobots, workersCacheStorage,
  type WorkersCache,
} from '../src/index.js'
import { ROOT } from './helpers/dist.js'
import { closeAll, serve, type TestServer } from './helpers/server.js'

type Table = typeof NUMERIC_OPTIONS
/** A call of the API with `value` as one option; it throws or rejects for a value it does not take. */
type Call = (value: unknown) => unknown

let server: TestServer
beforeAll(async () => {
  server = await serve((_req, res) => void res.writeHead(404).end())
})
afterAll(closeAll)

const WORKER_PREFIX = 'https://worker.example/_robots/'
// A Workers Cache is only handed in here: no call reaches it while the options are checked.
const workersCache: WorkersCache = { match: async () => undefined, put: async () => {} }
// A real node-redis client, never connected: redisStorage checks its options before any command.
const redis = createClient()

/** Each option of the table, as the API call that takes it. */
const CALLS: { [I in keyof Table]: { [P in keyof Table[I]]: Call } } = {
  ParseOptions: { maxBytes: (v) => parseRobots('', { maxBytes: v as number }) },
  FetchOptions: { timeoutMs: (v) => fetchRobots(server.origin, { timeoutMs: v as number }) },
  RobotsCacheOptions: {
    ttlMs: (v) => new RobotsCache({ ttlMs: v as number }),
    maxTtlMs: (v) => new RobotsCache({ maxTtlMs: v as number }),
    retryMs: (v) => new RobotsCache({ retryMs: v as number }),
    maxEntries: (v) => new RobotsCache({ maxEntries: v as number }),
    maxBytes: (v) => new RobotsCache({ maxBytes: v as number }),
    storageMs: (v) => new RobotsCache({ storageMs: v as number }),
  },
  RobotsFromResponseOptions: {
    now: (v) => robotsFromResponse(server.origin, { status: 404 }, { now: v as number }),
    ttlMs: (v) => robotsFromResponse(server.origin, { status: 404 }, { ttlMs: v as number }),
    maxTtlMs: (v) => robotsFromResponse(server.origin, { status: 404 }, { maxTtlMs: v as number }),
    retryMs: (v) => robotsFromResponse(server.origin, { status: 404 }, { retryMs: v as number }),
  },
  CheckUrlsOptions: {
    concurrency: (v) => checkUrls([], { agent: 'MyBot', concurrency: v as number }),
    maxPending: (v) => checkUrls([], { agent: 'MyBot', maxPending: v as number }),
  },
  WorkersCacheStorageOptions: {
    keepMs: (v) => workersCacheStorage(workersCache, { keyPrefix: WORKER_PREFIX, keepMs: v as number }),
  },
  RedisStorageOptions: {
    lockMs: (v) => redisStorage(redis, { lockMs: v as number }),
    ttlMs: (v) => redisStorage(redis, { ttlMs: v as number }),
  },
  RobotsTxtFileFindOptions: {
    timeoutMillis: (v) => RobotsTxtFile.find(`${server.origin}/`, undefined, { timeoutMillis: v as number }),
  },
  GoogleRobotsOptions: {
    unavailableRetries: (v) => withGoogleRobots(CheerioCrawler, { unavailableRetries: v as number }),
    maxUnavailableWaitMs: (v) => withGoogleRobots(CheerioCrawler, { maxUnavailableWaitMs: v as number }),
  },
  SurveyOptions: {
    threads: (v) => surveyRobots('x.warc', { threads: v as number }),
    concurrency: (v) => surveyRobots('x.warc', { concurrency: v as number }),
    timeoutMs: (v) => surveyRobots('x.warc', { timeoutMs: v as number }),
    maxPipeBytes: (v) => surveyRobots('x.warc', { maxPipeBytes: v as number }),
  },
}

/** [interface.property, rule, call] for every entry of the table. */
const calls = CALLS as Record<string, Record<string, Call>>
type Option = [name: string, rule: NumberRule, call: Call]
const OPTIONS: Option[] = Object.entries(NUMERIC_OPTIONS).flatMap(([iface, rules]) =>
  Object.entries(rules).map(([prop, rule]): Option => [`${iface}.${prop}`, rule, calls[iface]![prop]!]))

/** Values the rule does not take: never NaN, a string or null; past each bound it sets. */
function badValues(rule: NumberRule): unknown[] {
  const bad: unknown[] = [Number.NaN, '1', null, -Infinity]
  const below = rule.above === true ? rule.min : rule.min - 1
  // 0 for "none given" is taken: -0.5 is below it.
  if (rule.min !== -Infinity) bad.push(rule.zeroIsDefault === true && below === 0 ? -0.5 : below)
  if (rule.max !== undefined) bad.push(rule.max + 1)
  if (rule.unlimited !== true) bad.push(Infinity)
  if (rule.integer === true) bad.push(Math.max(rule.min, 0) + 1.5, 2 ** 53)
  return bad
}

/** Values the rule takes: its least and greatest, Infinity, a fraction, 0 when it means the default. */
function goodValues(rule: NumberRule): unknown[] {
  const step = rule.integer === true ? 1 : 0.5
  const least = rule.min === -Infinity ? -1e15 : rule.above === true ? rule.min + step : rule.min
  const good: unknown[] = [undefined, least]
  if (rule.max !== undefined) good.push(rule.max)
  if (rule.unlimited === true) good.push(Infinity)
  if (rule.integer !== true) good.push(least + 0.25)
  if (rule.zeroIsDefault === true) good.push(0)
  return good
}

/** What the call threw or rejected with; undefined when it took the value. */
async function thrown(call: Call, value: unknown): Promise<unknown> {
  try {
    await call(value)
    return undefined
  } catch (e) {
    return e
  }
}

describe('numeric options: one rule table (NUMERIC_OPTIONS)', () => {
  test('the table names every number-typed property of every options interface the package exports', () => {
    const entries = ['src/index.ts', 'src/crawlee.ts'].map((f) => join(ROOT, f))
    const program = ts.createProgram(entries, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, noEmit: true, skipLibCheck: true, types: ['node'],
    })
    const checker = program.getTypeChecker()
    const found = new Set<string>()
    for (const entry of entries) {
      const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!
      for (const exported of checker.getExportsOfModule(module)) {
        const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
        if (!(symbol.flags & ts.SymbolFlags.Interface) || !symbol.name.endsWith('Options')) continue
        // Its own properties: an inherited one counts for the interface that declares it.
        symbol.members?.forEach((member) => {
          const type = checker.getNonNullableType(checker.getTypeOfSymbol(member))
          if (type.flags & ts.TypeFlags.NumberLike) found.add(`${symbol.name}.${member.name}`)
        })
      }
    }
    expect([...found].sort()).toEqual(OPTIONS.map(([name]) => name).sort())
  }, 60_000)

  test.each(OPTIONS)('%s: a value its rule refuses is a TypeError naming it, saying what it takes', async (...o) => {
    const [name, rule, call] = o
    const param = `options.${name.slice(name.indexOf('.') + 1)}`
    for (const value of badValues(rule)) {
      const error = await thrown(call, value)
      expect(error, `${name} = ${String(value)}`).toBeInstanceOf(TypeError)
      const { message } = error as TypeError
      const expected = `${param}: expected ${expectedNumber(rule)}, got `
      expect(message.startsWith(expected), `${name} = ${String(value)}: ${message}`).toBe(true)
    }
  })

  test.each(OPTIONS)('%s: the boundary values its rule takes are taken', async (name, rule, call) => {
    for (const value of goodValues(rule)) {
      expect(await thrown(call, value), `${name} = ${String(value)}`).toBeUndefined()
    }
  })

  test('what each option takes, in the words of its TypeError', () => {
    const words = Object.fromEntries(OPTIONS.map(([name, rule]) => [name, expectedNumber(rule)]))
    expect(words).toEqual({
      'ParseOptions.maxBytes': 'a number >= 1 (rounded down), or Infinity for no limit',
      'FetchOptions.timeoutMs': 'a number of ms > 0, or Infinity for no limit',
      'RobotsCacheOptions.ttlMs': 'a finite number of ms >= 0',
      'RobotsCacheOptions.maxTtlMs': 'a finite number of ms >= 0',
      'RobotsCacheOptions.retryMs': 'a finite number of ms >= 0',
      'RobotsCacheOptions.maxEntries': 'an integer >= 0',
      'RobotsCacheOptions.maxBytes': 'a whole number of bytes >= 0',
      'RobotsCacheOptions.storageMs': 'a number of ms > 0, or Infinity for no limit',
      'RobotsFromResponseOptions.now': 'a finite number of ms since the epoch',
      'RobotsFromResponseOptions.ttlMs': 'a finite number of ms >= 0',
      'RobotsFromResponseOptions.maxTtlMs': 'a finite number of ms >= 0',
      'RobotsFromResponseOptions.retryMs': 'a finite number of ms >= 0',
      'CheckUrlsOptions.concurrency': 'an integer >= 1',
      'CheckUrlsOptions.maxPending': 'an integer >= 1',
      'WorkersCacheStorageOptions.keepMs': 'a finite number of ms >= 0',
      'RedisStorageOptions.lockMs': 'a whole number of ms >= 1',
      'RedisStorageOptions.ttlMs': 'a whole number of ms >= 1',
      'RobotsTxtFileFindOptions.timeoutMillis': 'a number of ms > 0, or Infinity for no limit, or 0 for the default',
      'GoogleRobotsOptions.unavailableRetries': 'an integer >= 0',
      'GoogleRobotsOptions.maxUnavailableWaitMs': 'a number of ms >= 0, or Infinity for no limit',
      'SurveyOptions.threads': 'an integer from 1 to 256',
      'SurveyOptions.concurrency': 'an integer from 1 to 1024',
      'SurveyOptions.timeoutMs': 'a whole number of ms from 1 to 600000',
      'SurveyOptions.maxPipeBytes': 'a whole number of bytes >= 1',
    })
  })

  test('a default in the table is the value a call without the option gets', async () => {
    const { maxEntries, maxBytes } = NUMERIC_OPTIONS.RobotsCacheOptions
    expect(new RobotsCache().stats).toMatchObject({ maxEntries: maxEntries.default, maxBytes: maxBytes.default })
    const site = await robotsFromResponse(server.origin, { status: 404 }, { now: 0 })
    expect(site.expiresAt).toBe(NUMERIC_OPTIONS.RobotsFromResponseOptions.ttlMs.default)
  })
})
