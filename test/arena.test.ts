// The table arena (src/engine/arena.ts) and the Engine's use of it: blocks never overlap and stay
// inside their regions, freeing merges neighbours back into whole regions, a region given right
// after the last one extends it, and a table freed and reused at the same address is never taken
// for the old one.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { Arena } from '../src/engine/arena.js'
import { utf8 } from '../src/engine/bytes.js'
import { Matcher, matcherOver } from '../src/engine/matcher.js'
import type { WasmExports } from '../src/engine/abi.js'
import { getEngine } from '../src/engine/wasm.js'
import { arenaCapFor, arenaMax, EVICT_VISITS } from '../src/engine/wasm-tables.js'
import { compileAgents } from '../src/engine/wasm-body.js'
import { parseRobots } from '../src/index.js'
import { fuzzOptions } from './helpers/fuzz.js'

const REGION = 1 << 16

/** An arena over a fresh buffer, its one region at [start, start + REGION). */
function arenaOver(start: number, bytes = 4 * REGION): Arena {
  const arena = new Arena(new Uint32Array(bytes / 4))
  arena.addRegion(start, start + REGION)
  return arena
}

describe('arena: a two-level segregated-fit allocator in wasm memory', () => {
  test(`random allocs and frees: blocks are 4-aligned, disjoint, inside the region; freeing all merges it whole (${fuzzOptions(300).numRuns} runs)`, () => {
    const op = fc.oneof(fc.record({ alloc: fc.integer({ min: 1, max: 3000 }) }), fc.record({ free: fc.nat() }))
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 }), fc.array(op, { maxLength: 120 }), (start, ops) => {
        const arena = arenaOver(start)
        const whole = arena.alloc(1)
        expect(whole).toBeGreaterThan(0)
        arena.free(whole)
        expect(arena.live).toBe(0)
        const held: { at: number; size: number }[] = []
        for (const o of ops) {
          if ('alloc' in o) {
            const at = arena.alloc(o.alloc)
            if (at === 0) continue
            expect(at % 4).toBe(0)
            expect(at).toBeGreaterThanOrEqual(start)
            expect(at + o.alloc).toBeLessThanOrEqual(start + REGION - 64)
            for (const h of held) expect(at + o.alloc <= h.at || h.at + h.size <= at).toBe(true)
            held.push({ at, size: o.alloc })
          } else if (held.length > 0) {
            arena.free(held.splice(o.free % held.length, 1)[0]!.at)
          }
        }
        for (const h of held) arena.free(h.at)
        expect(arena.live).toBe(0)
        // Everything merged back into one block: 90% of the region fits (a search rounds a size up
        // to its class, 1/16th at most, so a block only just larger is not found).
        const big = arena.alloc(0.9 * REGION)
        expect(big).toBeGreaterThan(0)
        arena.free(big)
      }),
      fuzzOptions(300, 0xa4e),
    )
  })

  test('a region given where the last one ends extends it, merging its free tail', () => {
    const arena = arenaOver(0)
    const a = arena.alloc(1000)
    // Nothing as large as two regions fits before the second region is given.
    expect(arena.alloc(REGION + 1000)).toBe(0)
    arena.addRegion(REGION, 2 * REGION)
    expect(arena.bytes).toBe(2 * REGION)
    const b = arena.alloc(REGION + 1000)
    expect(b).toBeGreaterThan(a)
    arena.free(a)
    arena.free(b)
    expect(arena.live).toBe(0)
    expect(arena.alloc(1.8 * REGION)).toBeGreaterThan(0)
  })

  test('a region past the cap is cut to what the cap leaves; past it, none is taken', () => {
    const arena = new Arena(new Uint32Array((4 * REGION) / 4), () => REGION + REGION / 2)
    expect(arena.addRegion(0, REGION)).toBe(REGION)
    expect(arena.addRegion(2 * REGION, 4 * REGION)).toBe(REGION / 2)
    expect(arena.bytes).toBe(REGION + REGION / 2)
    expect(arena.addRegion(3 * REGION, 4 * REGION)).toBe(0)
    expect(arena.bytes).toBe(REGION + REGION / 2)
    // The cut region's blocks end inside what it took.
    const at = arena.alloc(REGION / 4)
    expect(at).toBeGreaterThan(0)
    const big = arena.alloc(REGION / 3)
    expect(big === 0 || big + REGION / 3 <= 2 * REGION + REGION / 2).toBe(true)
  })

  test('a region elsewhere stands apart: blocks never span two regions', () => {
    const arena = arenaOver(0)
    arena.addRegion(3 * REGION, 4 * REGION)
    expect(arena.alloc(REGION + 1000)).toBe(0)
    const a = arena.alloc(0.9 * REGION)
    const b = arena.alloc(0.9 * REGION)
    expect([a, b].every((at) => at > 0)).toBe(true)
    expect(Math.abs(a - b)).toBeGreaterThanOrEqual(REGION)
  })
})

describe('engine: compiled tables live in the arena', () => {
  test('a table freed while current, its block reused by the next table: the matcher reads the new table', () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    const old = compileAgents(e, utf8('User-agent: *\nDisallow: /a\n'), ['bot'])
    expect(typeof old).toBe('number')
    matcherOver(compileAgents(e, utf8('User-agent: *\nAllow: /\n'), ['bot'])).isAllowed('/a')
    e.use(old)
    e.tables.free(old as number)
    // A smaller table of another shape (one rule every path reaches, no keys): the freed block
    // comes back, and the matcher must read this table's header, not keep the old one's.
    const next = compileAgents(e, utf8('User-agent: *\nDisallow: /*.x\n'), ['bot'])
    expect(next).toBe(old)
    expect(matcherOver(next).check('/a.x')).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/*.x' } })
  })

  test('the work area moves past the arena when it must grow, and every matcher still answers', () => {
    const e = getEngine()
    const robots = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\n')
    const before = robots.matcher('bot')
    // Enough tables to put an arena region above the work area, then a URL that needs more input.
    const many = Array.from({ length: 200 }, (_, i) => parseRobots(`User-agent: *\nDisallow: /p${i}/${'x'.repeat(300)}\n`).matcher('bot'))
    const start = e.workStart
    const long = '/private/' + 'y'.repeat(4 * e.inputCap)
    expect(before.isAllowed(long)).toBe(false)
    if (e.tables.arena !== null) expect(e.workStart).not.toBe(start)
    expect(before.check('/private/ok')).toEqual({ allowed: true, line: 3, rule: { kind: 'allow', pattern: '/private/ok' } })
    many.forEach((m, i) => expect([m.isAllowed(`/p${i}/${'x'.repeat(300)}`), m.isAllowed(`/p${i}/`)]).toEqual([false, true]))
  })

  /** Puts a fresh arena region above the work area (a table larger than all free blocks together), so that it must move to grow. */
  function blockWorkArea(): Matcher {
    const e = getEngine()
    // Compiling it may itself move the work area (and free its old span): then again, the same size.
    for (let tries = 0; ; tries++) {
      const free = e.tables.arena!.bytes - e.tables.arena!.live
      // A rule takes at least 20 + 12 + 36 bytes of table.
      const rules = Array.from({ length: Math.ceil(free / 60) + 100 }, (_, i) => `Disallow: /b${i}/${'w'.repeat(30)}`)
      const m = parseRobots('User-agent: *\n' + rules.join('\n')).matcher('bot')
      if (e.workEnd < e.memoryBytes || tries === 3) {
        expect(e.workEnd).toBeLessThan(e.memoryBytes)
        return m
      }
    }
  }

  test('a JS-held table made current, then the work area moves in the same call: the moved slot holds it', () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    const blocker = blockWorkArea()
    // As when the arena is full: no block for the next table.
    const arena = e.tables.arena
    arena.alloc = () => 0
    try {
      const m = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\n').matcher('js-held')
      expect(m.isAllowed('/private/ok')).toBe(true)
      expect(typeof e.current).toBe('object')
      const start = e.workStart
      // Input growth in the check itself, after the table was made current.
      expect(m.check('/private/' + 'y'.repeat(4 * e.inputCap))).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' } })
      expect(e.workStart).not.toBe(start)
      expect(m.isAllowed('/private/ok')).toBe(true)
    } finally {
      delete (arena as { alloc?: unknown }).alloc
    }
    expect(blocker.isAllowed('/b3/' + 'w'.repeat(30))).toBe(false)
  })

  test('a compile that needs a larger work area while the arena blocks it: the work area moves and the compile reads its input again', () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    blockWorkArea()
    const start = e.workStart
    // The compiler's first answer is "too small, I need more than the whole scratch", as on a body
    // of many rules; the second is the real compile.
    const real = e.w
    let calls = 0
    ;(e as { w: WasmExports }).w = {
      ...real,
      compile: (...args: Parameters<WasmExports['compile']>) => (calls++ === 0 ? 0 : real.compile(...args)),
      compileNeeded: () => 2 * e.scratchCap,
    }
    let m: Matcher
    try {
      m = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\n').matcher('moving')
    } finally {
      ;(e as { w: WasmExports }).w = real
    }
    expect(calls).toBe(2)
    expect(e.workStart).not.toBe(start)
    expect(m.check('/private/ok')).toEqual({ allowed: true, line: 3, rule: { kind: 'allow', pattern: '/private/ok' } })
    expect(m.isAllowed('/private/no')).toBe(false)
  })

  test('the cap is 64 MiB, and 16 MiB inside a Cloudflare Worker (128 MB per isolate)', () => {
    expect(arenaMax()).toBe(64 * 2 ** 20)
    expect(arenaCapFor('Cloudflare-Workers')).toBe(16 * 2 ** 20)
    expect(arenaCapFor('Node.js/24')).toBe(64 * 2 ** 20)
    expect(arenaCapFor(undefined)).toBe(64 * 2 ** 20)
  })

  test('the arena is capped: past arenaMax() a table is held in JS memory and still answers', () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    expect(arenaMax()).toBeGreaterThanOrEqual(16 * 2 ** 20)
    const saved = e.tables.arena.bytes
    // Pretend the cap is reached: no region can be added, so a table that finds no free block stays in JS.
    e.tables.arena.bytes = arenaMax()
    try {
      const huge = 'User-agent: *\n' + Array.from({ length: 3000 }, (_, i) => `Disallow: /q${i}/${'z'.repeat(40)}`).join('\n')
      const m = parseRobots(huge).matcher('bot')
      expect(m.isAllowed(`/q2999/${'z'.repeat(40)}`)).toBe(false)
      expect(m.check('/other')).toEqual({ allowed: true, line: 0 })
    } finally {
      e.tables.arena.bytes = saved
    }
  })
})

describe('arena: the clock hand, for eviction', () => {
  test(`random allocs and frees: one turn of the clock visits every block in use once, in address order (${fuzzOptions(300).numRuns} runs)`, () => {
    const op = fc.oneof(fc.record({ alloc: fc.integer({ min: 1, max: 3000 }) }), fc.record({ free: fc.nat() }), fc.record({ tick: fc.nat(5) }))
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const arena = new Arena(new Uint32Array(8 * REGION / 4))
        // Two regions, the second apart from the first, and a third that extends the second.
        arena.addRegion(0, REGION)
        arena.addRegion(3 * REGION, 4 * REGION)
        arena.addRegion(4 * REGION, 5 * REGION)
        const held: number[] = []
        for (const o of ops) {
          if ('alloc' in o) {
            const at = arena.alloc(o.alloc)
            if (at !== 0) held.push(at)
          } else if ('free' in o) {
            if (held.length > 0) arena.free(held.splice(o.free % held.length, 1)[0]!)
          } else for (let k = 0; k < o.tick; k++) {
            const at = arena.clockNext()
            if (held.length === 0) expect(at).toBe(0)
            else expect(held).toContain(at)
          }
        }
        if (held.length === 0) {
          expect(arena.clockNext()).toBe(0)
          return
        }
        // A turn from wherever the hand is: each block in use once, then the same again.
        const turn = held.map(() => arena.clockNext())
        expect([...turn].sort((a, b) => a - b)).toEqual([...held].sort((a, b) => a - b))
        const start = turn.indexOf(Math.min(...turn))
        const ordered = [...turn.slice(start), ...turn.slice(0, start)]
        expect(ordered).toEqual([...held].sort((a, b) => a - b))
        expect(held.map(() => arena.clockNext())).toEqual(turn)
        for (const at of held) arena.free(at)
        expect(arena.live).toBe(0)
        // The regions merged back (the extended one is one block).
        expect(arena.alloc(1.8 * REGION)).toBeGreaterThan(0)
      }),
      fuzzOptions(300, 0xc10c),
    )
  })

})

/** A site whose table is a few KB: `n` rules of its own. */
function siteBody(i: number, n = 40): string {
  return 'User-agent: *\n' + Array.from({ length: n }, (_, k) => `Disallow: /s${i}/r${k}/${'p'.repeat(20)}*.php$`).join('\n') + `\nAllow: /s${i}/r1/\n`
}

describe('engine: past the cap, the least recently used tables are evicted', () => {
  /** Runs `body` with the arena at its cap, so that a table that finds no free block must evict one. */
  function atCap(body: () => void): void {
    const e = getEngine()
    const saved = e.tables.arena!.bytes
    e.tables.arena!.bytes = arenaMax()
    try {
      body()
    } finally {
      e.tables.arena!.bytes = saved
    }
  }

  test('every Matcher, evicted or not, sharing or not, answers as a fresh parse does; a table in use stays resident', () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    atCap(() => {
      const before = e.tables.evictions
      const hot = parseRobots(siteBody(-1)).matcher('bot')
      const kept: { body: string; m: Matcher; sharer: Matcher }[] = []
      // Enough tables to fill what the arena has free several times over.
      const count = Math.ceil((4 * (e.tables.arena!.bytes - e.tables.arena!.live)) / 3000) + 50
      for (let i = 0; i < count && e.tables.evictions - before < 40; i++) {
        const r = parseRobots(siteBody(i))
        kept.push({ body: siteBody(i), m: r.matcher('a'), sharer: r.matcher('b') })
        expect(hot.isAllowed(`https://h/s-1/r3/${'p'.repeat(20)}x.php`)).toBe(false)
        // The hot table was just used: it is current and in wasm memory (an evicted one is copied in).
        expect(typeof e.current).toBe('number')
      }
      expect(e.tables.evictions - before).toBeGreaterThanOrEqual(40)
      for (const [i, k] of kept.entries()) {
        const fresh = parseRobots(k.body)
        for (const url of [`https://h/s${i}/r3/${'p'.repeat(20)}x.php`, `https://h/s${i}/r1/`, `https://h/s${i}/r2/${'p'.repeat(20)}.php`, 'https://h/']) {
          const want = fresh.check(url, 'a')
          expect(k.m.check(url)).toEqual(want)
          expect(k.sharer.check(url)).toEqual(want)
        }
        expect(k.m.ruleCounts()).toEqual(fresh.matcher('a').ruleCounts())
      }
    })
  })

  test(`one compile visits at most EVICT_VISITS (${EVICT_VISITS}) blocks, however many tables are in use`, async () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    // A turn of the event loop: the evictions of the tests before no longer count against this task's share.
    await new Promise((resolve) => setTimeout(resolve, 0))
    atCap(() => {
      const arena = e.tables.arena!
      const clock = arena.clockNext.bind(arena)
      let visits = 0
      let most = 0
      arena.clockNext = () => (visits++, clock())
      try {
        const all: Matcher[] = []
        // Fill the arena until tables are evicted; from then on, every one kept in use.
        const before = e.tables.evictions
        for (let i = 0; e.tables.evictions === before && i < 20_000; i++) all.push(parseRobots(siteBody(20_000 + i, 60)).matcher('bot'))
        expect(e.tables.evictions).toBeGreaterThan(before)
        // Until 100 compiles have gone to the clock: the block an eviction frees merges with the
        // free holes beside it (tables of earlier tests, freed when their Matchers were collected,
        // as many as the collector got to), and compiles fit there without the clock until it is
        // full. A full run once found room for all of 300 compiles.
        let clocked = 0
        let j = 0
        for (; clocked < 100 && j < 5_000; j++) {
          // Every table kept in use: each pass of the hand finds them all marked.
          for (const m of all) m.isAllowed('https://h/')
          visits = 0
          all.push(parseRobots(siteBody(10_000 + j, 60)).matcher('bot'))
          if (visits > 0) clocked++
          most = Math.max(most, visits)
        }
        expect(clocked).toBe(100)
        // The other tests' tables here are unmarked, so the clock finds one well before the bound;
        // test/bench-eviction.test.ts fills a fresh process with tables all in use and sees a
        // compile stop at exactly EVICT_VISITS.
        expect(most).toBeGreaterThan(0)
        expect(most).toBeLessThanOrEqual(EVICT_VISITS)
        for (const m of all) expect(m.isAllowed('https://h/')).toBe(true)
        expect(all.at(-1)!.isAllowed(`https://h/s${10_000 + j - 1}/r5/${'p'.repeat(20)}.php`)).toBe(false)
      } finally {
        arena.clockNext = clock
      }
    })
  })
})

describe('engine: one table for a site\'s agents with the same rules', () => {
  test('Robots.matcher: a new Matcher per call, one table per distinct rule set of the site', () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    const r = parseRobots('User-agent: *\nDisallow: /private\n\nUser-agent: special\nDisallow: /\n')
    const before = e.tables.arena.live
    const a = r.matcher('a')
    const one = e.tables.arena.live
    expect(one).toBeGreaterThan(before)
    const b = r.matcher('b')
    const a2 = r.matcher('a')
    // b falls to the same group as a, and a again is the cached one: no new table.
    expect(e.tables.arena.live).toBe(one)
    expect(new Set([a, b, a2]).size).toBe(3)
    const special = r.matcher('special')
    expect(e.tables.arena.live).toBeGreaterThan(one)
    expect([a.isAllowed('/private'), b.isAllowed('/x'), a2.isAllowed('/x'), special.isAllowed('/x')]).toEqual([false, true, true, false])
    expect(r.isAllowed('/x', 'special')).toBe(false)
    expect(r.isAllowed('/x', 'c')).toBe(true)
    expect(e.tables.arena.live).toBeGreaterThan(one)
  })

  test('an agent whose rules compile to a table the site holds takes no arena block, not even for a moment', () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    const arena = e.tables.arena
    const r = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok$\n\nUser-agent: special\nDisallow: /\n')
    r.matcher('a')
    const alloc = arena.alloc
    let allocs = 0
    arena.alloc = (size: number) => (allocs++, alloc.call(arena, size))
    try {
      const b = r.matcher('b')
      expect(r.isAllowed('https://example.com/private/x', 'c')).toBe(false)
      expect(b.check('https://example.com/private/ok')).toEqual({ allowed: true, line: 3, rule: { kind: 'allow', pattern: '/private/ok$' } })
      // Compared in the work area before keeping: no block taken (and freed) for b or c.
      expect(allocs).toBe(0)
      expect(r.matcher('special').isAllowed('https://example.com/x')).toBe(false)
      expect(allocs).toBe(1)
    } finally {
      arena.alloc = alloc
    }
  })

  test('one registration per table: a Matcher sharing a table holds its owner, whose collection frees it', () => {
    const e = getEngine()
    if (e.tables.arena === null) return
    const track = e.tables.track
    const tracked: object[] = []
    e.tables.track = (owner: object, table) => (tracked.push(owner), track.call(e.tables, owner, table))
    try {
      const r = parseRobots('User-agent: *\nDisallow: /a\n\nUser-agent: special\nDisallow: /\n')
      const a = r.matcher('a')
      const shared = [r.matcher('a'), r.matcher('b'), r.matcher('c')]
      expect(r.isAllowed('https://example.com/a', 'd')).toBe(false)
      // a's table, compiled once, registered once; b, c and d compiled to the same bytes.
      expect(tracked).toEqual([a])
      expect(shared.map((m) => m.isAllowed('https://example.com/a'))).toEqual([false, false, false])
      expect(shared.every((m) => m instanceof Matcher && m.constructor.name === 'Matcher')).toBe(true)
      expect(r.matcher('special').isAllowed('https://example.com/b')).toBe(false)
      expect(tracked.length).toBe(2)
    } finally {
      e.tables.track = track
    }
  })
})

describe('engine: the arena never passes its cap, whatever joins it', () => {
  // Last in the file: it fills the process's arena for real. Each table of about 60 KB (1,000 rules)
  // takes a fresh page of the arena until the cap refuses the next; then the work area must grow
  // past the arena, and its old span (a few MiB after a long URL) is memory the arena may take.
  test('filled to arenaMax() by real tables, then the work area moves: the arena holds at most arenaMax() bytes', () => {
    const e = getEngine()
    const arena = e.tables.arena
    if (arena === null) return
    // A long URL first, so that the work area, and the span it leaves behind, is large.
    const site = parseRobots('User-agent: *\nDisallow: /private\n')
    const m = site.matcher('bot')
    expect(m.isAllowed('/private/' + 'y'.repeat(1 << 20))).toBe(false)
    const span = e.workEnd - e.workStart
    expect(span).toBeGreaterThan(4 << 20)
    const kept: Matcher[] = []
    const rules = (i: number) => 'User-agent: *\n' + Array.from({ length: 1000 }, (_, k) => `Disallow: /t${i}/${k}/${'v'.repeat(20)}`).join('\n')
    // Until a table is held in JS memory: the arena could not grow for it, nor evict any more.
    for (let i = 0; ; i++) {
      const table = compileAgents(e, utf8(rules(i)), ['bot'])
      kept.push(matcherOver(table))
      expect(arena.bytes).toBeLessThanOrEqual(arenaMax())
      if (typeof table !== 'number') break
    }
    expect(arena.bytes).toBeGreaterThan(arenaMax() - span)
    const start = e.workStart
    expect(m.isAllowed('/private/' + 'y'.repeat(2 << 20))).toBe(false)
    expect(e.workStart).not.toBe(start)
    expect(arena.bytes).toBeLessThanOrEqual(arenaMax())
    // Every table still answers, resident or in JS memory.
    for (const [i, k] of kept.entries()) expect([k.isAllowed(`/t${i}/999/${'v'.repeat(20)}`), k.isAllowed(`/t${i}/x`)]).toEqual([false, true])
  })
})
