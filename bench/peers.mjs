// The other robots.txt libraries on npm, each behind one interface: make(body) gives a function
// (url, agent) -> allowed; `id` names its rows in bench/results.json. Used by `npm run bench` for throughput beside robotstxt-wasm and for
// exactness: the share of the 75,895 labelled cases (../shared) where each gives Google's verdict.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import robotsParser from 'robots-parser'
import robotsTxtGuard from 'robots-txt-guard'
import robotsTxtParse from 'robots-txt-parse'
import robotsTxtParser from 'robots-txt-parser'

const require = createRequire(import.meta.url)
const version = (name) => require(`${name}/package.json`).version

/** The path + query of a URL string, as libraries that take a path want it. */
function pathOf(url) {
  try {
    const u = new URL(url)
    return u.pathname + u.search
  } catch {
    return url
  }
}

function originOf(url) {
  try {
    return new URL(url).origin
  } catch {
    return 'http://example.com'
  }
}

export const PEERS = [
  {
    id: 'robots-parser',
    name: `robots-parser ${version('robots-parser')}`,
    make(body) {
      const byOrigin = new Map()
      return (url, agent) => {
        const o = originOf(url)
        let rp = byOrigin.get(o)
        if (rp === undefined) byOrigin.set(o, (rp = robotsParser(`${o}/robots.txt`, body)))
        // undefined: the URL is not on that origin (not a verdict); counted as allowed.
        return rp.isAllowed(url, agent) !== false
      }
    },
  },
  {
    id: 'robots-txt-guard',
    name: `robots-txt-guard ${version('robots-txt-guard')} (parsed by robots-txt-parse ${version('robots-txt-parse')})`,
    async make(body) {
      const guard = robotsTxtGuard(await robotsTxtParse(Readable.from([Buffer.from(body)])))
      return (url, agent) => guard.isAllowed(agent, pathOf(url))
    },
  },
  {
    id: 'robots-txt-parser',
    name: `robots-txt-parser ${version('robots-txt-parser')}`,
    make(body) {
      const r = robotsTxtParser({ userAgent: '*', allowOnNeutral: true })
      r.parseRobots('http://example.com', body)
      let last = null
      return (url, agent) => {
        if (agent !== last) r.setUserAgent((last = agent))
        return r.canCrawlSync(url)
      }
    },
  },
]

/** Every labelled case: [{ bytes, body (string), cases: [{ agent, url, allowed }] }]. */
export function labelledBodies(shared) {
  const out = []
  const files = ['conformance/google-spec-cases.jsonl', 'conformance/edge-cases.jsonl', 'conformance/fuzz-cases.jsonl', 'corpus/cases.jsonl']
  const dec = new TextDecoder()
  for (const f of files) {
    for (const line of readFileSync(join(shared, f), 'utf8').split('\n')) {
      if (line.trim() === '') continue
      const rec = JSON.parse(line)
      const bytes = rec.robots_b64 !== undefined ? Buffer.from(rec.robots_b64, 'base64') : readFileSync(join(shared, 'corpus', 'robots', rec.file))
      // The libraries take a string; the labels apply the 500 KiB cut (our input rule) first.
      out.push({ bytes, body: dec.decode(bytes.subarray(0, 512_000)), cases: rec.cases })
    }
  }
  return out
}

/**
 * robotstxt-wasm behind the same interface, given what it accepts: the exact bytes and every agent
 * of a case (the other libraries take a decoded string and one agent).
 */
export function ours(parseRobots, name) {
  return { id: 'robotstxt-wasm', name, exact: true, make: (_body, bytes) => { const r = parseRobots(bytes); return (url, agent) => r.isAllowed(url, agent) } }
}

/** Share of cases where `peer` gives the labelled verdict; a throw counts as a miss. */
export async function exactness(peer, bodies) {
  let right = 0
  let total = 0
  for (const b of bodies) {
    let check = null
    try {
      check = await peer.make(b.body, b.bytes)
    } catch {
      check = null
    }
    for (const c of b.cases) {
      total++
      const agent = Array.isArray(c.agent) && peer.exact !== true ? c.agent[0] : c.agent
      try {
        if (check !== null && check(c.url, agent) === c.allowed) right++
      } catch {
        // a miss
      }
    }
  }
  return { right, total }
}
