// A Crawlee crawler whose robots.txt checks are Google's: the stock CheerioCrawler, wrapped by
// withGoogleRobots, follows the links of a site and never requests a page its robots.txt keeps
// from AGENT (checked before each request and when links are enqueued).
//
//   node crawl.mjs START_URL [AGENT] [MAX_PAGES]
//
// Prints each page visited, one per line, in the order visited.
import { CheerioCrawler, Configuration } from 'crawlee'
import { withGoogleRobots } from 'robotstxt-wasm/crawlee'

const [start, agent = 'ExampleBot', maxPages = '50'] = process.argv.slice(2)
if (start === undefined) {
  console.error('usage: node crawl.mjs START_URL [AGENT] [MAX_PAGES]')
  process.exit(2)
}

const GoogleRobotsCrawler = withGoogleRobots(CheerioCrawler, { userAgent: `${agent}/1.0 (+https://example.org/bot)` })
const crawler = new GoogleRobotsCrawler({
  respectRobotsTxtFile: { userAgent: agent },   // the group of AGENT, as Google selects it
  maxRequestsPerCrawl: Number(maxPages),
  async requestHandler({ request, enqueueLinks }) {
    console.log(request.url)
    await enqueueLinks()                          // same hostname; robots.txt-disallowed links are dropped
  },
}, new Configuration({ persistStorage: false })) // nothing written to ./storage
await crawler.run([start])
