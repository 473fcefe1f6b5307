// One runtime's row of the README "Runtimes" table: single, batch and byte-path checks of
// robotstxt-wasm (and the single check's encode alone) against robots-parser on the synthetic
// workload, interleaved in one process, medians of `rounds`. Pure JavaScript with no platform API,
// so the same code runs on Node, Bun, Deno and in a browser page (bench/runtime.mjs and
// bench/run.mjs --runtime chromium call it).
import robotsParser from 'robots-parser'
import { parseRobots } from 'robotstxt-wasm'
import { syntheticRobots, syntheticUrls } from './synthetic.mjs'

export function measureRow(rounds = 7) {
  const ROUNDS = rounds
  const body = syntheticRobots()
  const urls = syntheticUrls()
  const agent = 'Googlebot'
  const matcher = parseRobots(body).matcher(agent)
  const rp = robotsParser('https://www.example.com/robots.txt', body)
  const chunks = []
  for (let i = 0; i < urls.length; i += 1000) chunks.push(urls.slice(i, i + 1000))
  const out = new Uint8Array(1000)
  // The byte path's input: the same chunks as UTF-8 lines, encoded once, as a stream reader has them.
  const enc = new TextEncoder()
  const lineChunks = chunks.map((c) => enc.encode(c.join('\n') + '\n'))
  let sink = 0

  /** ns per URL of one pass of `fn` over `n` URLs, best of 3 runs. */
  function time(fn, n) {
    let best = Infinity
    for (let k = 0; k < 3; k++) {
      const t = performance.now()
      fn()
      best = Math.min(best, ((performance.now() - t) * 1e6) / n)
    }
    return best
  }
  const single = () => { for (let i = 0; i < urls.length; i++) sink += matcher.isAllowed(urls[i]) ? 1 : 0 }
  const batch = () => { for (const c of chunks) sink += matcher.isAllowedMany(c, out)[0] }
  const lines = () => { for (const c of lineChunks) sink += matcher.isAllowedLines(c, out)[0] }
  // What a single check pays before any wasm runs: the URL UTF-8-encoded into a buffer, as
  // isAllowed encodes it into wasm memory. Its cost differs most between runtimes.
  const scratch = new Uint8Array(1 << 16)
  const encode = () => { for (let i = 0; i < urls.length; i++) sink += enc.encodeInto(urls[i], scratch).written }
  const theirs = () => { for (let i = 0; i < 20_000; i++) sink += rp.isAllowed(urls[i], agent) ? 1 : 0 }

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const s = [], b = [], l = [], e = [], t = []
  for (let r = 0; r < ROUNDS; r++) {
    // Alternating order, so neither library always runs on a warmer (or hotter) machine.
    if (r % 2 === 0) { s.push(time(single, urls.length)); b.push(time(batch, urls.length)); l.push(time(lines, urls.length)); e.push(time(encode, urls.length)); t.push(time(theirs, 20_000)) }
    else { t.push(time(theirs, 20_000)); e.push(time(encode, urls.length)); l.push(time(lines, urls.length)); b.push(time(batch, urls.length)); s.push(time(single, urls.length)) }
  }
  return { single: median(s), batch: median(b), lines: median(l), encode: median(e), robotsParser: median(t), sink }
}
