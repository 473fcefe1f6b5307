// A test Worker that answers labelled cases with the package as a Worker imports it: the
// 'robotstxt-wasm' specifier resolves (package self-reference, `workerd` export condition) to
// dist/workerd.js and its .wasm module.
//
//   POST /verdicts        [{ b64, cases: [{ agent, url }] }]  ->  [{ check, matcher, batch, sitemaps }]
//       check:   Robots.check's Verdict per case
//       matcher: [allowed 0|1, line] per case from Matcher.check (one Matcher per distinct agent)
//       batch:   [allowed 0|1, line] per case from Matcher.isAllowedMany + checkMany
//   POST /compile-bytes   wasm bytes  ->  { compiled, error }   (what workerd does with bytes)
//   POST /batch           { robots, urls }  ->  { single: [allowed 0|1, line][], many, lines }
//       one Matcher for '*': Matcher.check per URL, and isAllowedMany / checkMany over all of them
import { parseRobots, type Verdict } from 'robotstxt-wasm'

interface Body {
  b64: string
  cases: { agent: string | string[]; url: string }[]
}

function decodeBase64(b64: string): Uint8Array {
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
}

function answer(body: Body) {
  const robots = parseRobots(decodeBase64(body.b64))
  const check: Verdict[] = body.cases.map((c) => robots.check(c.url, c.agent))
  const matcher: [number, number][] = new Array(body.cases.length)
  const batch: [number, number][] = new Array(body.cases.length)
  const byAgent = new Map<string, number[]>()
  body.cases.forEach((c, i) => {
    const key = JSON.stringify(c.agent)
    const list = byAgent.get(key)
    if (list) list.push(i)
    else byAgent.set(key, [i])
  })
  for (const [key, idx] of byAgent) {
    const m = robots.matcher(JSON.parse(key) as string | string[])
    for (const i of idx) {
      const v = m.check(body.cases[i]!.url)
      matcher[i] = [v.allowed ? 1 : 0, v.line]
    }
    const urls = idx.map((i) => body.cases[i]!.url)
    const allowed = m.isAllowedMany(urls)
    const lines = m.checkMany(urls)
    idx.forEach((i, k) => {
      // checkMany: the line when allowed, minus the line when disallowed.
      batch[i] = [allowed[k]!, lines[k]!]
    })
  }
  return { check, matcher, batch, sitemaps: robots.sitemaps }
}

export default {
  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname
    if (request.method === 'POST' && path === '/verdicts') {
      const bodies = (await request.json()) as Body[]
      return Response.json(bodies.map(answer))
    }
    if (request.method === 'POST' && path === '/batch') {
      const { robots, urls } = (await request.json()) as { robots: string; urls: string[] }
      const m = parseRobots(robots).matcher('*')
      const single = urls.map((u) => m.check(u)).map((v) => [v.allowed ? 1 : 0, v.line])
      return Response.json({ single, many: [...m.isAllowedMany(urls)], lines: [...m.checkMany(urls)] })
    }
    if (request.method === 'POST' && path === '/compile-bytes') {
      const bytes = new Uint8Array(await request.arrayBuffer())
      try {
        new WebAssembly.Module(bytes)
        return Response.json({ compiled: true, error: null })
      } catch (err) {
        return Response.json({ compiled: false, error: String(err) })
      }
    }
    return new Response('not found', { status: 404 })
  },
}
