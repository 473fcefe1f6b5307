// A test Worker for the fetch layer inside workerd, on the package's Workers build: each request
// makes a new RobotsCache (an isolate with empty memory) over the real Workers Cache API, so what
// a lookup reports after the first comes from the stored record.
//
//   GET /lookup?url=URL     the lookup's RobotsFetch fields, as JSON
//   GET /stored?origin=O    the record workersCacheStorage holds for O (its body's length only)
//   POST /from-response     robotsFromResponse(url, { status, headers, body }) of the JSON body
import { RobotsCache, robotsFromResponse, workersCacheStorage, type RobotsFetch } from 'robotstxt-wasm'

async function storage(request: Request) {
  return workersCacheStorage(await caches.open('robots'), { keyPrefix: new URL('/_robots-cache/', request.url) })
}

function fields(r: RobotsFetch) {
  return { origin: r.origin, status: r.status, outcome: r.outcome, url: r.url, redirects: r.redirects, error: r.error, fetchedAt: r.fetchedAt, expiresAt: r.expiresAt }
}

export default {
  async fetch(request: Request): Promise<Response> {
    const u = new URL(request.url)
    if (u.pathname === '/lookup') {
      const cache = new RobotsCache({ storage: await storage(request), timeoutMs: 5_000 })
      return Response.json(fields(await cache.get(u.searchParams.get('url') ?? '')))
    }
    if (u.pathname === '/stored') {
      const r = await (await storage(request)).get(u.searchParams.get('origin') ?? '')
      return Response.json(r === undefined ? null : { ...r, body: r.body === null ? null : r.body.length })
    }
    if (u.pathname === '/from-response') {
      const { url, status, headers, body } = await request.json() as { url: string; status: number; headers: Record<string, string>; body: string }
      return Response.json(fields(await robotsFromResponse(url, { status, headers, body }, { now: 1_000 })))
    }
    return new Response('not found', { status: 404 })
  },
}
