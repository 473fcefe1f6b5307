// bench/eviction.mjs, the bench's row for the arena at its cap: its child really evicts, and the
// clock's visits for one compile stay within EVICT_VISITS when every table is in use (the row the
// bench checks its bound against). Nothing here is timed.
import { expect, test } from 'vitest'
import { evictionBench } from '../bench/eviction.mjs'

test('the eviction bench evicts tables at the cap and reports the clock at its bound, never past it', async () => {
  const lines: string[] = []
  const r = await evictionBench((l) => lines.push(l))
  expect(r.evictions).toBeGreaterThan(300)
  expect(r.visits).toBe(r.bound)
  expect(r.bound).toBe(256)
  for (const v of [r.room, r.cold, r.allUsed]) expect(v).toBeGreaterThan(0)
  expect(lines.join('\n')).toMatch(/^eviction: a compile /)
}, 300_000)
