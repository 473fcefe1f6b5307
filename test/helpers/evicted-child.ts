// Run by test/memory.test.ts as `node --expose-gc` on an esbuild bundle of this file: with the arena
// at its cap, compiling evicts tables to JS memory; once their Matchers are collected, the copies
// and the blocks' tag words are released. Prints one JSON object.
import { parseRobots, type Matcher } from '../../src/index.js'
import { getEngine } from '../../src/engine/wasm.js'
import { collect } from './collect.js'
import { arenaMax, EVICT_TURN_SHARE } from '../../src/engine/wasm-tables.js'

const engine = getEngine()
const arena = engine.tables.arena!
// One table first, so that the arena has a region; then the cap counts as reached.
parseRobots('User-agent: *\nDisallow: /first\n').matcher('x')
arena.bytes = arenaMax()

const body = (i: number) => 'User-agent: *\n' + Array.from({ length: 40 }, (_, k) => `Disallow: /s${i}/r${k}/${'p'.repeat(20)}*.php$`).join('\n') + '\n'
let kept: Matcher[] | null = []
for (let i = 0; engine.tables.evictions < 30 && i < 100_000; i++) kept.push(parseRobots(body(i)).matcher('bot'))
const verdicts = [kept[0]!.isAllowed('https://h/s0/r1/' + 'p'.repeat(20) + '.php'), kept[0]!.isAllowed('https://h/s0/')]
const held = engine.tables.evictedCount
const liveKept = arena.live
kept = null
await collect()
const heldAfter = engine.tables.evictedCount
const liveAfter = arena.live
// A synchronous loop past the cap whose Matchers die at once: their copies cannot be released
// before the task ends, so eviction stops at its share of the cap and the rest stay in JS memory.
// The arena first grows to ~24 MiB (tables kept, then collected), so that the share is reached.
arena.bytes = 0
let grown: Matcher[] | null = Array.from({ length: 8000 }, (_, i) => parseRobots(body(50_000 + i)).matcher('bot'))
grown = null
await collect()
arena.bytes = arenaMax()
const before = engine.tables.evictions
let made = 0
let right = 0
for (let i = 0; i < 20_000; i++) {
  const m = parseRobots(body(100_000 + i)).matcher('bot')
  made++
  if (!m.isAllowed('https://h/s' + (100_000 + i) + '/r1/' + 'p'.repeat(20) + '.php')) right++
}
const loop = { made, right, evicted: engine.tables.evictions - before, heldBytes: engine.tables.evictedHeldBytes, bound: arenaMax() / EVICT_TURN_SHARE }
await collect()
const afterTurn = { heldBytes: engine.tables.evictedHeldBytes }
process.stdout.write(JSON.stringify({ evictions: before, held, heldAfter, liveKept, liveAfter, verdicts, loop, afterTurn }) + '\n')
