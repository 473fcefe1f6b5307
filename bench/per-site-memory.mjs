// Child of bench/per-site.mjs, one per library so no other library's objects share the heap:
//   node --expose-gc bench/per-site-memory.mjs KIND COUNT CORPUS
// The bytes a crawler's cache keeps per site. KIND is what is kept: `robots-string` or
// `robots-bytes` (a Robots made from a string or a byte body), `matcher` (a Matcher for Googlebot,
// its Robots dropped) or `robots-parser` (an instance of robots-parser). Each of COUNT objects gets a
// body of its own, as each fetch gives one (a fresh string or copy; the corpus files cycled), answers
// one check and is kept. The reading is V8's heap plus external memory (wasm memory included) after
// gc(), over a baseline taken once every file has been through the library (code compiled, wasm
// memory grown to its largest body), as bench/memory.mjs reads it. Prints one JSON object.
import { CUT, loadSites } from './sites.mjs'

const [kind, countArg, corpus] = process.argv.slice(2)
const COUNT = Number(countArg)
if (!Number.isInteger(COUNT) || COUNT < 1 || corpus === undefined) throw new TypeError('usage: per-site-memory.mjs KIND COUNT CORPUS')
const gc = globalThis.gc
if (typeof gc !== 'function') throw new Error('per-site-memory.mjs needs node --expose-gc')

const sites = loadSites(corpus)
const dec = new TextDecoder()
const freshText = (s) => dec.decode(s.bytes.subarray(0, CUT))

/** One kept object per call: site in, object out, its one check made. */
async function maker() {
  if (kind === 'robots-parser') {
    const { default: robotsParser } = await import('robots-parser')
    return (s) => { const r = robotsParser(s.robotsUrl, freshText(s)); r.isAllowed(s.first, 'Googlebot'); return r }
  }
  const { parseRobots } = await import('../dist/index.js')
  if (kind === 'robots-string') return (s) => { const r = parseRobots(freshText(s)); r.isAllowed(s.first, 'Googlebot'); return r }
  if (kind === 'robots-bytes') return (s) => { const r = parseRobots(s.bytes.slice()); r.isAllowed(s.first, 'Googlebot'); return r }
  if (kind === 'matcher') return (s) => { const m = parseRobots(freshText(s)).matcher('Googlebot'); m.isAllowed(s.first); return m }
  throw new TypeError(`per-site-memory.mjs: unknown KIND ${JSON.stringify(kind)}, expected robots-string, robots-bytes, matcher or robots-parser`)
}

const used = () => { gc(); gc(); const m = process.memoryUsage(); return m.heapUsed + m.external }

const make = await maker()
for (const s of sites) make(s)
const before = used()
const kept = new Array(COUNT)
for (let i = 0; i < COUNT; i++) kept[i] = make(sites[i % sites.length])
const bytes = used() - before
// Both read after the measurement: a value not used later is dead to V8, and its heap can be
// collected by the gc() above, the corpus's making the delta negative.
process.stdout.write(JSON.stringify({ kind, count: COUNT, perObject: bytes / COUNT, kept: kept.length, sites: sites.length }) + '\n')
