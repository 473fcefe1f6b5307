// Run by test/survey-hostile.test.ts as `node --expose-gc` on an esbuild bundle of this file: the
// peak resident memory a survey of one input adds, measured in a process of its own (a test
// runner's earlier peaks would hide it). argv: the warm-up input, then the input measured. Prints
// one JSON object: the measured input's rows (origin, outcome, bytes) and the growth of the peak.
import { surveyRobots } from '../../src/survey/index.js'

const gc = (globalThis as { gc?: () => void }).gc!
const [warmup, measured] = process.argv.slice(2) as [string, string]

async function rows(file: string): Promise<[string, string, number][]> {
  const out: [string, string, number][] = []
  for await (const r of surveyRobots(file, { crawlers: ['GPTBot'] })) out.push([r.origin, r.outcome, r.bytes])
  return out
}

// The code loaded and compiled, the engine instantiated: what stays is the input's own cost.
await rows(warmup)
gc()
const before = process.resourceUsage().maxRSS * 1024
const got = await rows(measured)
const grewBy = process.resourceUsage().maxRSS * 1024 - before
process.stdout.write(JSON.stringify({ rows: got, grewBy }))
