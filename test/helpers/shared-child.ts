// Run by test/memory.test.ts as `node --expose-gc` on an esbuild bundle of this file: a Matcher that
// shares a table outlives the Matcher that owns it (the one registered to free it), whose table stays
// in use until both are collected. Prints one JSON object.
import { parseRobots, type Matcher } from '../../src/index.js'
import { getEngine } from '../../src/engine/wasm.js'
import { collect } from './collect.js'

const arena = getEngine().tables.arena!

function sharerOfDroppedSite(): Matcher {
  const r = parseRobots('User-agent: *\nDisallow: /a\n' + 'Disallow: /long/pattern/so/the/table/is/large/*.html$\n'.repeat(40))
  r.matcher('owner')
  // The cached owner stays in r; this is a new Matcher over its table.
  return r.matcher('sharer')
}

let sharer: Matcher | null = sharerOfDroppedSite()
await collect()
// Tables made now would take the shared table's block, had it been freed.
const others = Array.from({ length: 50 }, (_, i) => parseRobots(`User-agent: *\nAllow: /a\nDisallow: /${i}\n`).matcher('z'))
const verdicts = [sharer.isAllowed('https://example.com/a'), sharer.isAllowed('https://example.com/b'), others[0]!.isAllowed('https://example.com/a')]
const liveWithSharer = arena.live
sharer = null
await collect()
process.stdout.write(JSON.stringify({ verdicts, liveWithSharer, liveAfter: arena.live, others: others.length }) + '\n')
