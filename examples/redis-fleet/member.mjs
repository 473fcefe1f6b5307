// One crawler process of the fleet: checks its share of a frontier against each site's robots.txt,
// through a RobotsCache whose second level is the fleet's Redis. Whichever member asks first for a
// site fetches its robots.txt (holding a lock key meanwhile); the others read the result from Redis.
//
//   REDIS_URL=redis://... node member.mjs FRONTIER INDEX COUNT [AGENT]
//
// Takes the lines of FRONTIER whose number modulo COUNT is INDEX, and prints "NAME allowed URL" or
// "NAME disallowed URL" for each, where NAME is "member-INDEX".
//
// Redis is a help, not a need: down at start or gone mid-run, the member fetches each robots.txt
// itself, says so once on stderr, and goes back to sharing when Redis answers again.
import { readFileSync } from 'node:fs'
import { createClient } from 'redis'
import { checkUrls, RobotsCache, redisStorage } from 'robotstxt-wasm'

const [file, index, count, agent = 'ExampleBot'] = process.argv.slice(2)
const name = `member-${index}`
const shard = readFileSync(file, 'utf8').split('\n').filter((url, i) => url !== '' && i % Number(count) === Number(index))

// disableOfflineQueue: while Redis is away a command fails at once instead of waiting to be sent
// later; the client keeps reconnecting on its own.
const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
let down = false
redis.on('error', (err) => {
  // The client reports every reconnection attempt: one line per outage is enough.
  if (down) return
  down = true
  console.error(`${name}: redis unavailable (${err.message}); fetching robots.txt directly until it is back`)
})
redis.on('ready', () => {
  if (!down) return
  down = false
  console.error(`${name}: redis is back; sharing robots.txt again`)
})
// connect() itself is not awaited: with Redis down it retries until Redis is up, and the crawl must
// not wait. The member waits only for the first answer (ready, or a failure), at most 2 s.
await new Promise((resolve) => {
  redis.once('ready', resolve)
  redis.once('error', resolve)
  setTimeout(resolve, 2000).unref()
  redis.connect().catch(() => {})
})

const cache = new RobotsCache({
  userAgent: `${agent}/1.0 (+https://example.org/bot)`,
  storage: redisStorage(redis, { prefix: 'fleet:robots:' }),
})
for await (const v of checkUrls(shard, { agent, cache })) {
  console.log(`${name} ${v.allowed ? 'allowed' : 'disallowed'} ${v.url}`)
}
// close() waits for replies a Redis that is gone would never send.
if (redis.isReady) await redis.close()
else redis.destroy()
