// A robots.txt checking service on Cloudflare Workers, built on robotstxt-wasm.
//
//   GET /check?url=<page URL>&agent=<crawler user-agent>
//   200 {"allowed":false,"line":2,"rule":{"kind":"disallow","pattern":"/private"},
//        "origin":"https://example.com","status":200,"outcome":"ok"}
//
//   POST /filter?agent=<crawler user-agent>   body: URLs of any sites, one per line (at most 10,000)
//   200 one JSON line per URL, in order: {"url":…,"allowed":…,"line":…,"origin":…,"outcome":…}
//       (an input that is not an http(s) URL gets "allowed":false and an "error")
//
//   GET /  (and /app.js, /style.css)   the robots.txt playground (static assets: wrangler.jsonc)
//   GET /api/live?site=<site URL>     for the playground: that site's robots.txt as fetched here
//   200 {"origin":…,"status":200,"outcome":"ok","body":"User-agent: …"}; without site: {"live":true}
//
// `outcome` says how the site's robots.txt fetch decides: 'ok' (its rules apply; `line` and `rule`
// name the deciding line), 'allow-all' (no robots.txt: 4xx) or 'disallow-all' (server error,
// 429, unreachable). `status` is the HTTP status of that fetch, null after a network error.
import { checkUrls, fetchRobots, RobotsCache, workersCacheStorage, type RobotsFetch, type Verdict } from 'robotstxt-wasm'

interface Env {
  /** User-Agent of the robots.txt fetches (wrangler.jsonc "vars"). */
  FETCH_USER_AGENT?: string
}

// One RobotsCache per isolate, created on the first request (it needs `env` and the host name):
// its memory answers repeated lookups without any I/O and shares one fetch among concurrent
// lookups of a site. Behind it, the Workers Cache API keeps results for the other isolates of the
// data center (on a custom domain; on *.workers.dev that cache stores nothing and only the memory
// level applies).
let robots: RobotsCache | undefined

function robotsCache(env: Env, request: Request): RobotsCache {
  robots ??= new RobotsCache({
    userAgent: env.FETCH_USER_AGENT ?? 'robots-check-worker/1.0',
    // Cache keys on this Worker's own host: Cloudflare advises against other host names there.
    storage: workersCacheStorage(caches.default, { keyPrefix: new URL('/_robots-cache/', request.url) }),
    // An isolate has 128 MB of memory: keep at most 16 MB of robots.txt bodies.
    maxEntries: 2_000,
    maxBytes: 16 * 1024 * 1024,
  })
  return robots
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } })
}

/** URLs one POST /filter may carry: a request's CPU time is bounded, so a frontier comes in batches. */
const MAX_FILTER_URLS = 10_000

/**
 * POST /filter: a batch of a mixed-host frontier checked at the edge. Each site's robots.txt is
 * fetched once (through the same cache as /check), at most 6 at a time (the Workers limit on
 * simultaneous open connections), and the verdicts stream back as JSON lines in input order.
 */
async function filter(request: Request, env: Env, agent: string | null): Promise<Response> {
  if (agent === null || agent === '') return json({ error: 'the query parameter agent is required' }, 400)
  const lines = (await request.text()).split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
  if (lines.at(-1) === '') lines.pop()
  if (lines.length > MAX_FILTER_URLS) return json({ error: `at most ${MAX_FILTER_URLS} URLs per request` }, 413)
  let verdicts: AsyncIterable<unknown>
  try {
    verdicts = checkUrls(lines, { agent, cache: robotsCache(env, request), concurrency: 6 })
  } catch (err) {
    if (err instanceof TypeError) return json({ error: err.message }, 400)
    throw err
  }
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for await (const v of verdicts) controller.enqueue(encoder.encode(JSON.stringify(v) + '\n'))
      controller.close()
    },
  })
  return new Response(body, { headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' } })
}

/** The most of a robots.txt the playground is sent: what Google reads (500 KiB). */
const LIVE_MAX_BYTES = 512_000

/**
 * GET /api/live: the playground's live fetch. A browser cannot read another site's robots.txt
 * (CORS), so the Worker fetches it as a crawler would (fetchRobots: redirects, status codes, the
 * size limit) and hands back the outcome and the text, read from the last response, at most
 * LIVE_MAX_BYTES.
 */
async function live(env: Env, site: string | null): Promise<Response> {
  if (site === null || site === '') return json({ live: true })
  let text = ''
  const capture: typeof fetch = async (input, init) => {
    const res = await fetch(input, init)
    text = ''
    const copy = res.clone().body?.getReader()
    if (copy !== undefined) {
      const decoder = new TextDecoder()
      let bytes = 0
      for (let r = await copy.read(); !r.done && bytes < LIVE_MAX_BYTES; r = await copy.read()) {
        const chunk = r.value.subarray(0, LIVE_MAX_BYTES - bytes)
        bytes += chunk.length
        text += decoder.decode(chunk, { stream: true })
      }
      void copy.cancel()
    }
    return res
  }
  try {
    const r = await fetchRobots(site, { fetch: capture, userAgent: env.FETCH_USER_AGENT ?? 'robots-check-worker/1.0' })
    return json({ origin: r.origin, status: r.status, outcome: r.outcome, body: r.outcome === 'ok' ? text : '' })
  } catch (err) {
    if (err instanceof TypeError) return json({ error: err.message }, 400)
    throw err
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url)
    if (pathname === '/api/live') return live(env, searchParams.get('site'))
    if (pathname === '/filter') {
      if (request.method !== 'POST') return json({ error: 'method not allowed' }, 405, { allow: 'POST' })
      return filter(request, env, searchParams.get('agent'))
    }
    if (pathname !== '/check') return json({ error: 'not found: use GET /check?url=...&agent=...' }, 404)
    if (request.method !== 'GET') return json({ error: 'method not allowed' }, 405, { allow: 'GET' })
    const url = searchParams.get('url')
    const agent = searchParams.get('agent')
    if (url === null || url === '' || agent === null || agent === '') {
      return json({ error: 'the query parameters url and agent are required' }, 400)
    }

    let site: RobotsFetch
    let verdict: Verdict
    try {
      site = await robotsCache(env, request).get(url)
      // With 'ok' the file decides, with its deciding line; otherwise the outcome does.
      verdict = site.outcome === 'ok' ? site.robots.check(url, agent) : { allowed: site.isAllowed(url, agent), line: 0 }
    } catch (err) {
      // The library rejects bad arguments (not an http(s) URL, an agent without a product token)
      // with a TypeError that says what was expected.
      if (err instanceof TypeError) return json({ error: err.message }, 400)
      throw err
    }
    return json({
      allowed: verdict.allowed,
      line: verdict.line,
      rule: verdict.rule ?? null,
      origin: site.origin,
      status: site.status,
      outcome: site.outcome,
    })
  },
} satisfies ExportedHandler<Env>
