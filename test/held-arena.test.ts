// A held body (Engine.hold) whose own compile moves the work area past the table arena. In a file
// of its own: the case needs a fresh engine, whose work area is still the one the first body made.
import { describe, expect, test } from 'vitest'
import { getEngine } from '../src/engine/wasm.js'
import { parseRobots } from '../src/index.js'

describe('a held body survives its own compile moving the work area', () => {
  // The arena (arena.ts) grows at the end of memory, above the work area; a compile that then
  // needs a larger work area moves the work area past it, which evicts the held body while the
  // compile is under way. Its retry must load the same bytes from the copy the eviction made.
  test('the second agent of a held body needs a larger work area than the first', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `Disallow: /m${i}*x`).join('\n')
    const text = `User-agent: small\nDisallow: /s\n\nUser-agent: big\n${many}\n`
    const r = parseRobots(new TextEncoder().encode(text))
    const e = getEngine()
    const small = r.matcher('small')
    const before = e.workStart
    const big = r.matcher('big')
    const twin = parseRobots(text)
    expect([small.isAllowed('https://x/s'), big.isAllowed('https://x/m19999ax'), big.isAllowed('https://x/m5'), r.check('https://x/m777zx', 'big')])
      .toEqual([false, false, true, twin.check('https://x/m777zx', 'big')])
    // The case this test is for happened: the work area moved during the second compile.
    expect(e.workStart).not.toBe(before)
  })
})
