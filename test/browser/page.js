// Runs inside Chromium (bundled by test/browser.test.ts with the package's "browser" condition):
// labelled cases through every way of asking, the batch paths (no Buffer here: TextEncoder) and
// lone surrogates. Results go to window.__results for the test to read.
import { parseRobots } from 'robotstxt-wasm'
import { checkEveryWay } from '../runtimes/every-way.mjs'

function fromBase64(s) {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
}

async function run() {
  const bodies = await (await fetch('/cases.json')).json()
  const t0 = performance.now()
  const { cases, wrong } = checkEveryWay(parseRobots, bodies.map((b) => ({ id: b.id, body: fromBase64(b.robots_b64), cases: b.cases })))
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
