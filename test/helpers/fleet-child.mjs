// One process of a crawler fleet for test/redis.test.ts: looks up robots.txt for a list of origins
// through a RobotsCache backed by redisStorage (node-redis), then prints a JSON summary.
//   node fleet-child.mjs REDIS_URL LOCK_MS ORIGINS_JSON_FILE [SEED]
import { readFileSync } from 'node:fs'
import { createClient } from 'redis5'
import { RobotsCache, redisStorage } from '../../dist/index.js'

const [redisUrl, lockMs, originsFile, seed = '1'] = process.argv.slice(2)
const origins = JSON.parse(readFileSync(originsFile, 'utf8'))
// Each process walks the origins in its own order, as a fleet's frontiers would.
let s = Number(seed)
const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
for (let i = origins.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1))
  ;[origins[i], origins[j]] = [origins[j], origins[i]]
}
const client = createClient({ url: redisUrl })
client.on('error', () => {})
await client.connect()
const cache = new RobotsCache({ storage: redisStorage(client, { lockMs: Number(lockMs) }), timeoutMs: 30_000 })
const outcomes = {}
let next = 0
async function worker() {
  while (next < origins.length) {
    const o = origins[next++]
    const r = await cache.get(o + '/')
    outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1
  }
}
process.stdout.write('ready\n')
await Promise.all(Array.from({ length: 16 }, worker))
process.stdout.write(JSON.stringify({ outcomes }) + '\n')
await client.quit()
