// Bounded memory (issues 3 and 9): creating and dropping 1,000,000 matchers and running 10,000,000
// checks leaves the heap flat; wasm memory holds the tables of the matchers alive between two
// turns of the event loop (the arena, src/engine/arena.ts), and collected matchers' tables are
// freed and reused, so it stops growing. Runs a child `node --expose-gc` on a bundle of
// test/helpers/memory-child.ts.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, expect, test } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-memory-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('edge: 1,000,000 matchers created and dropped and 10,000,000 checks leave memory bounded', async () => {
  const out = join(dir, 'memory-child.mjs')
  await build({ entryPoints: [join(import.meta.dirname, 'helpers', 'memory-child.ts')], bundle: true, platform: 'node', target: 'node18', format: 'esm', outfile: out, loader: { '.wasm': 'base64' }, logLevel: 'error' })
  const r = JSON.parse(execFileSync(process.execPath, ['--expose-gc', out], { encoding: 'utf8', timeout: 300_000 })) as {
    matchers: number; checks: number; readings: number[]; beforeChecks: number; afterChecks: number; wasmAfterWarmup: number
    wasmAfterMatchers: number; arenaLiveAfterMatchers: number; wasmAtEnd: number
  }
  console.log(`memory: after 100k matchers ${(r.readings[0]! / 2 ** 20).toFixed(1)} MiB, after 1M ${(r.readings.at(-1)! / 2 ** 20).toFixed(1)} MiB; ` +
    `checks ${(r.beforeChecks / 2 ** 20).toFixed(1)} -> ${(r.afterChecks / 2 ** 20).toFixed(1)} MiB; wasm ${r.wasmAfterWarmup} -> ${r.wasmAfterMatchers} -> ${r.wasmAtEnd} bytes; ` +
    `arena in use after the matchers ${r.arenaLiveAfterMatchers} bytes`)
  expect(r.matchers).toBe(1_000_000)
  expect(r.checks).toBeGreaterThanOrEqual(10_000_000)
  // Flat: the heap after 1M matchers is within 8 MiB of the heap after the first 100k.
  expect(r.readings.at(-1)! - r.readings[0]!).toBeLessThan(8 * 2 ** 20)
  expect(r.afterChecks - r.beforeChecks).toBeLessThan(8 * 2 ** 20)
  // wasm memory holds the tables of the 10,000 matchers made between two turns (well under 16 MiB
  // here), not of the million: freed blocks are reused. Once they are collected, no table is in use
  // but those of the live warm-up matchers, and checks grow nothing.
  expect(r.wasmAfterMatchers - r.wasmAfterWarmup).toBeLessThan(16 * 2 ** 20)
  expect(r.arenaLiveAfterMatchers).toBeLessThan(2 ** 20)
  expect(r.wasmAtEnd).toBe(r.wasmAfterMatchers)
})

test('a Matcher sharing a table keeps it after the owning Matcher\'s site is dropped; both collected, it is freed', async () => {
  const out = join(dir, 'shared-child.mjs')
  await build({ entryPoints: [join(import.meta.dirname, 'helpers', 'shared-child.ts')], bundle: true, platform: 'node', target: 'node18', format: 'esm', outfile: out, loader: { '.wasm': 'base64' }, logLevel: 'error' })
  const r = JSON.parse(execFileSync(process.execPath, ['--expose-gc', out], { encoding: 'utf8', timeout: 60_000 })) as {
    verdicts: boolean[]; liveWithSharer: number; liveAfter: number; others: number
  }
  expect(r.verdicts).toEqual([false, true, true])
  // The shared table (over 2 KB of patterns) was in use until its last Matcher went.
  expect(r.liveWithSharer - r.liveAfter).toBeGreaterThan(2000)
})

test('an evicted table\'s copy lives as long as its Matchers: collected, the copy and its tag word are released', async () => {
  const out = join(dir, 'evicted-child.mjs')
  await build({ entryPoints: [join(import.meta.dirname, 'helpers', 'evicted-child.ts')], bundle: true, platform: 'node', target: 'node18', format: 'esm', outfile: out, loader: { '.wasm': 'base64' }, logLevel: 'error' })
  const r = JSON.parse(execFileSync(process.execPath, ['--expose-gc', out], { encoding: 'utf8', timeout: 60_000 })) as {
    evictions: number; held: number; heldAfter: number; liveKept: number; liveAfter: number; verdicts: boolean[]
    loop: { made: number; right: number; evicted: number; heldBytes: number; bound: number }; afterTurn: { heldBytes: number }
  }
  expect(r.evictions).toBeGreaterThanOrEqual(30)
  expect(r.verdicts).toEqual([false, true])
  expect(r.held).toBe(r.evictions)
  expect(r.heldAfter).toBe(0)
  // Every table but the first site's freed, its block and the evicted ones' tag words.
  expect(r.liveAfter).toBeGreaterThanOrEqual(0)
  expect(r.liveAfter).toBeLessThan(r.liveKept / 4)
  // A synchronous loop of dying Matchers past the cap: every verdict right, eviction went past
  // nothing it could not release, and the next turn released it all.
  expect(r.loop.right).toBe(r.loop.made)
  expect(r.loop.evicted).toBeGreaterThan(1000)
  expect(r.loop.heldBytes).toBeGreaterThan(r.loop.bound / 2)
  expect(r.loop.heldBytes).toBeLessThanOrEqual(r.loop.bound + 8192)
  expect(r.afterTurn.heldBytes).toBe(0)
})

test('edge: compiling a 500 KB body with few rules keeps wasm memory small (work sized by rules, not bytes)', async () => {
  const { parseRobots } = await import('../src/index.js')
  const { getEngine } = await import('../src/engine/wasm.js')
  const body = 'User-agent: *\nDisallow: /private/\n' + '# padding comment line\n'.repeat(21_000)
  expect(body.length).toBeGreaterThan(480_000)
  const m = parseRobots(body).matcher('bot')
  expect(m.isAllowed('http://x/private/a')).toBe(false)
  // Body in memory (~0.5 MB) plus small arrays, far from the ~25 MB a worst-case reservation takes.
  expect(getEngine().memoryBytes).toBeLessThan(4 * 2 ** 20)
})
