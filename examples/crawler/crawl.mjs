// A minimal polite crawler over a frontier of any hosts: each site's robots.txt is fetched once
// (checkUrls through one RobotsCache), a URL is fetched only when its site allows it, and each site
// is visited no faster than its Crawl-delay.
//
//   node crawl.mjs FRONTIER [AGENT]     FRONTIER: one URL per line ('-' = stdin)
//
// Prints one line per URL: "fetched STATUS URL", "skipped LINE OUTCOME URL" (the robots.txt line
// that disallowed it, 0 for a site-wide outcome) or "error MESSAGE".
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { checkUrls, RobotsCache } from 'robotstxt-wasm'

const [file = '-', agent = 'ExampleBot'] = process.argv.slice(2)
const userAgent = `${agent}/1.0 (+https://example.org/bot)`
const cache = new RobotsCache({ userAgent })
const input = file === '-' ? process.stdin : createReadStream(file)
const frontier = createInterface({ input, crlfDelay: Infinity })

/** When each origin may next be requested (ms since epoch). */
const nextVisit = new Map()

for await (const v of checkUrls(frontier, { agent, cache })) {
  if (v.error !== undefined) {
    console.log(`error ${v.error}`)
    continue
  }
  if (!v.allowed) {
    console.log(`skipped ${v.line} ${v.outcome} ${v.url}`)
    continue
  }
  const wait = (nextVisit.get(v.origin) ?? 0) - Date.now()
  if (wait > 0) await sleep(wait)
  const site = await cache.get(v.url) // already cached: checkUrls looked it up
  const delay = site.robots.crawlDelay(agent) ?? 0
  nextVisit.set(v.origin, Date.now() + delay * 1000)
  const res = await fetch(v.url, { headers: { 'user-agent': userAgent } })
  await res.body?.cancel()
  console.log(`fetched ${res.status} ${v.url}`)
}
const { origins } = cache.stats
console.error(`${origins} robots.txt files fetched`)
