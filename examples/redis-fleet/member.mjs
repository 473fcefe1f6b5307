// One crawler process of the fleet: checks its share of a frontier against each site's robots.txt,
// through a RobotsCache whose second level is the fleet's Redis. Whichever member asks first for a
// site fetches its robots.txt (holding a lock key meanwhile); the others read the result from Redis.
//
//   REDIS_URL=redis://... node member.mjs FRONTIER INDEX COUNT [AGENT]
//
// Takes the lines of FRONTIER whose number modulo COUNT is INDEX, and prints "NAME allowed URL" or
// "NAME disallowed URL" for each, where NAME is "member-INDEX".
import { readFileSync } from 'node:fs'
import { createClient } from 'redis'
import { checkUrls, RobotsCache, redisStorage } from 'robotstxt-wasm'

const [file, index, count, agent = 'ExampleBot'] = process.argv.slice(2)
const name = `member-${index}`
const shard = readFileSync(file, 'utf8').split('\n').filter((url, i) => url !== '' && i % Number(count) === Number(index))

const redis = createClient({ url: process.env.REDIS_URL })
redis.on('error', (err) => console.error(`${name}: redis: ${err.message}`)) // the cache carries on without it
await redis.connect()
const cache = new RobotsCache({
  userAgent: `${agent}/1.0 (+https://example.org/bot)`,
  storage: redisStorage(redis, { prefix: 'fleet:robots:' }),
})
for await (const v of checkUrls(shard, { agent, cache })) {
  console.log(`${name} ${v.allowed ? 'allowed' : 'disallowed'} ${v.url}`)
}
await redis.quit()
