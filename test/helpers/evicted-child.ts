// Run by test/memory.test.ts as `node --expose-gc` on an esbuild bundle of this file: with the arena
// at its cap, compiling evicts tables to JS memory; once their Matchers are collected, the copies
// and the blocks' tag words are released. Prints one JSON object.
import { parseRobots, type Matcher } from '../../src/index.js'
import { getEngine } from '../../src/engine/wasm.js'
import { collect } from './collect.js'
import { arenaMax } from '../../src/engine/wasm-tables.js'

const engine = getEngine()
const arena = engine.tables.arena!
// One table first, so that the arena has a region; then the cap counts as reached.
parseRobots('User-agent: *\nDisallow: /first\n').matcher('x')
arena.bytes = arenaMax()

const body = (i: number) => 'User-agent: *\n' + Array.from({ length: 40 }, (_, k) => `Disallow: /s${i}/r${k}/${'p'.repeat(20)}*.php$`).join('\n') + '\n'
let kept: Matcher[] | null = []
for (let i = 0; engine.tables.evictions < 30 && i < 100_000; i++) kept.push(parseRobots(body(i)).matcher('bot'))
const verdicts = [kept[0]!.isAllowed('https://h/s0/r1/' + 'p'.repeat(20) + '.php'), kept[0]!.isAllowed('https://h/s0/')]
const held = engine.tables.evictedHeld
const liveKept = arena.live
kept = null
await collect()
process.stdout.write(JSON.stringify({ evictions: engine.tables.evictions, held, heldAfter: engine.tables.evictedHeld, liveKept, liveAfter: arena.live, verdicts }) + '\n')
