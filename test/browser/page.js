// Runs inside Chromium (bundled by test/browser.test.ts with the package's "browser" condition):
// labelled cases through every way of asking, the batch paths (no Buffer here: TextEncoder) and
// lone surrogates. Results go to window.__results for the test to read.
import { parseRobots } from 'robotstxt-wasm'

function fromBase64(s) {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
}

async function run() {
  const bodies = await (await fetch('/cases.json')).json()
  const enc = new TextEncoder()
  const wrong = []
  let cases = 0
  const t0 = performance.now()
  for (const b of bodies) {
    const robots = parseRobots(fromBase64(b.robots_b64))
    const byAgent = new Map()
    for (const c of b.cases) {
      cases++
      const v = robots.check(c.url, c.agent)
      if (v.allowed !== c.allowed || v.line !== c.line) wrong.push(`${b.id} check ${c.url}`)
      const key = JSON.stringify(c.agent)
      if (!byAgent.has(key)) byAgent.set(key, [])
      byAgent.get(key).push(c)
    }
    for (const [key, cs] of byAgent) {
      const m = robots.matcher(JSON.parse(key))
      const urls = cs.map((c) => c.url)
      const many = m.checkMany(urls)
      const allowed = m.isAllowedMany(urls)
      cs.forEach((c, i) => {
        if (Math.abs(many[i]) !== c.line || (many[i] >= 0) !== c.allowed || (allowed[i] === 1) !== c.allowed) wrong.push(`${b.id} batch ${c.url}`)
      })
      const lineable = cs.filter((c) => !/[\r\n]/.test(c.url))
      const lines = m.checkLines(enc.encode(lineable.map((c) => c.url + '\n').join('')))
      lineable.forEach((c, i) => {
        if (Math.abs(lines[i]) !== c.line || (lines[i] >= 0) !== c.allowed) wrong.push(`${b.id} lines ${c.url}`)
      })
    }
  }
  const ms = performance.now() - t0
  // Lone surrogates, alone and split across neighbouring URLs of one batch: each is U+FFFD.
  const m = parseRobots('User-agent: *\nDisallow: /%EF%BF%BD\nDisallow: /x%F0%9F%98%80\n').matcher('bot')
  const urls = ['/\ud800', '/x\ud83d', '\ude00', '/x\ud83d\ude00', '/\udc00tail', '/ok', '']
  const single = urls.map((u) => (m.isAllowed(u) ? 1 : 0))
  const surrogates = { single, batch: Array.from(m.isAllowedMany(urls)), big: Array.from(m.isAllowedMany(Array.from({ length: 3000 }, (_, i) => urls[i % urls.length]))).slice(0, 14) }
  window.__results = { cases, wrong: wrong.slice(0, 20), wrongCount: wrong.length, ms, surrogates, hasBuffer: typeof globalThis.Buffer !== 'undefined', ua: navigator.userAgent }
}

run().catch((e) => {
  window.__results = { error: String(e && e.stack || e) }
})
