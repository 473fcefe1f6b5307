// Run by test/hardening.test.ts in a child `node --max-semi-space-size=128` (bundled with esbuild):
// the cost of every accessor, lint and explain on each hostile shape at 64 KB and at 500 KiB, best
// of five in CPU time. The large young generation keeps scavenges rare, so the growth compares
// work, not garbage collection.
// Prints { costs: { [shape]: { [name]: [small ms, large ms] } }, ratios: { [shape]: { [accessor]:
// its time over the matcher's at 500 KiB } } } as JSON.
import { accessors, hostileShapes } from '../../bench/shapes.mjs'
import { explain } from '../../src/cli/explain.js'
import { lint } from '../../src/engine/lint.js'
import { parseRobots } from '../../src/index.js'

/**
 * Best of five, in CPU time of this process (user + system, all threads): other processes on a
 * busy machine preempt a run without adding to it, so the ratios compare work, not the load. Each
 * sample repeats the call for at least SAMPLE_US of CPU time (at most 64 calls): a single call of
 * half a millisecond read as a tenth of its cost or as several times it on a loaded VM (CI once
 * measured sitemaps at 9.4x a 0.4 ms matcher that the bench puts at 2-3x).
 */
const SAMPLE_US = 5000
function best(fn: () => unknown): number {
  let ms = Infinity
  for (let k = 0; k < 5; k++) ms = Math.min(ms, sample(fn))
  return ms
}

/** One sample: ms of CPU per call, over calls repeated for at least SAMPLE_US (at most 64). */
function sample(fn: () => unknown): number {
  const t = process.cpuUsage()
  let calls = 0
  let spent = 0
  do {
    fn()
    calls++
    const d = process.cpuUsage(t)
    spent = d.user + d.system
  } while (spent < SAMPLE_US && calls < 64)
  return spent / 1000 / calls
}

/**
 * The costs of the matcher, every accessor, lint and explain on `text`, and each accessor's time
 * over the matcher's. An accessor's samples alternate with the matcher's, best of five of each, so
 * a slow spell of the machine slows both: timed one after the other, a fresh-clone CI run on a
 * loaded VM read `directives` at 9.2x the matcher on the crawl-delay shape, where the bench puts it
 * at 3.9x and runs here gave 5.3-7.3x.
 */
function costs(text: string): { times: Record<string, number>; ratios: Record<string, number> } {
  const matcher = (): unknown => parseRobots(text).matcher('x')
  const times: Record<string, number> = { matcher: best(matcher) }
  const ratios: Record<string, number> = {}
  for (const [name, fn] of Object.entries(accessors(parseRobots))) {
    let mine = Infinity
    let base = Infinity
    for (let k = 0; k < 5; k++) {
      mine = Math.min(mine, sample(() => fn(text)))
      base = Math.min(base, sample(matcher))
    }
    times[name] = mine
    ratios[name] = mine / base
  }
  const bytes = new TextEncoder().encode(text)
  times.lint = best(() => lint({ robots: parseRobots(bytes), body: bytes, size: bytes.length, truncated: false }))
  times.explain = best(() => explain(parseRobots(bytes), 'x', '/d1/a.x'))
  return { times, ratios }
}

const small = hostileShapes(64_000)
const result: Record<string, Record<string, [number, number]>> = {}
const ratioResult: Record<string, Record<string, number>> = {}
for (const [shape, body] of Object.entries(hostileShapes())) {
  const a = costs(small[shape]!).times
  const b = costs(body)
  result[shape] = Object.fromEntries(Object.keys(b.times).map((k) => [k, [a[k]!, b.times[k]!]]))
  ratioResult[shape] = b.ratios
}
process.stdout.write(JSON.stringify({ costs: result, ratios: ratioResult }))
