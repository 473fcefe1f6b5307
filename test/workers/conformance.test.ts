// Every labelled case, answered inside workerd by the package's Workers build (dist/workerd.js and
// its .wasm module, see conformance-worker.ts): verdicts and matching lines must equal the labels,
// through Robots.check, Matcher.check and Matcher.isAllowedMany + checkMany, and the verdicts
// (rule included) and sitemaps must equal the Node build's (the package's Node entry, dist/index.js) answers.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseRobots as nodeParseRobots } from 'robotstxt-wasm'
import { corpusAvailable, loadCorpus, loadFixture, type LabelledBody } from '../helpers/cases.js'
import { startWorker, type RunningWorker } from './harness.js'
import { ROOT } from './tool-env.js'

interface Answer {
  check: { allowed: boolean; line: number; rule?: { kind: string; pattern: string } }[]
  matcher: [number, number][]
  batch: [number, number][]
  sitemaps: string[]
}

/** Request size limits: a few hundred bodies or about 4 MB of robots.txt, whichever comes first. */
const BATCH_BODIES = 300
const BATCH_BYTES = 4 << 20

let worker: RunningWorker

beforeAll(async () => {
  worker = await startWorker({ name: 'conformance', entrypoint: join(ROOT, 'test', 'workers', 'conformance-worker.ts') })
})
afterAll(async () => {
  await worker?.dispose()
})

async function askWorker(bodies: LabelledBody[]): Promise<Answer[]> {
  const answers: Answer[] = []
  for (let i = 0; i < bodies.length; ) {
    let end = i + 1
    for (let bytes = bodies[i]!.body.length; end < bodies.length && end - i < BATCH_BODIES; end++) {
      bytes += bodies[end]!.body.length
      if (bytes > BATCH_BYTES) break
    }
    const payload = bodies.slice(i, end).map((b) => ({
      b64: Buffer.from(b.body).toString('base64'),
      cases: b.cases.map((c) => ({ agent: c.agent, url: c.url })),
    }))
    i = end
    const res = await worker.fetch('/verdicts', { method: 'POST', body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } })
    expect(res.status, await res.clone().text().then((t) => t.slice(0, 500))).toBe(200)
    answers.push(...((await res.json()) as Answer[]))
  }
  return answers
}

/** Every disagreement between workerd's answers, the labels and the Node build. */
function mismatches(bodies: LabelledBody[], answers: Answer[]): string[] {
  const bad: string[] = []
  expect(answers).toHaveLength(bodies.length)
  bodies.forEach((b, bi) => {
    const a = answers[bi]!
    const node = nodeParseRobots(b.body)
    if (JSON.stringify(a.sitemaps) !== JSON.stringify(node.sitemaps)) bad.push(`${b.id}: sitemaps ${JSON.stringify(a.sitemaps)} != node ${JSON.stringify(node.sitemaps)}`)
    b.cases.forEach((c, i) => {
      const where = `${b.id} #${i} agent=${JSON.stringify(c.agent)} url=${JSON.stringify(c.url)}: want ${c.allowed}/${c.line}`
      const check = a.check[i]!
      const [mAllowed, mLine] = a.matcher[i]!
      const [bAllowed, bLine] = a.batch[i]!
      if (check.allowed !== c.allowed || check.line !== c.line) bad.push(`${where}, Robots.check gave ${check.allowed}/${check.line}`)
      if (mAllowed !== (c.allowed ? 1 : 0) || mLine !== c.line) bad.push(`${where}, Matcher.check gave ${mAllowed}/${mLine}`)
      if (bAllowed !== (c.allowed ? 1 : 0) || bLine !== (c.allowed ? c.line : -c.line)) bad.push(`${where}, isAllowedMany/checkMany gave ${bAllowed}/${bLine}`)
      const nodeVerdict = node.check(c.url, c.agent)
      if (JSON.stringify(check) !== JSON.stringify(nodeVerdict)) bad.push(`${where}, workerd ${JSON.stringify(check)} != node ${JSON.stringify(nodeVerdict)}`)
    })
  })
  return bad
}

const SUITES: [string, string, () => LabelledBody[]][] = [
  ['google', 'Google robots.txt conformance suite (google-spec-cases.jsonl)', () => loadFixture('google-spec-cases.jsonl')],
  ['edge', 'one body per quirk of the reference (edge-cases.jsonl)', () => loadFixture('edge-cases.jsonl')],
  ['fuzz', 'grammar-generated bodies (fuzz-cases.jsonl)', () => loadFixture('fuzz-cases.jsonl')],
]

describe('inside workerd: labelled cases through the Workers build', () => {
  for (const [source, what, load] of SUITES) {
    const bodies = load()
    const count = bodies.reduce((n, b) => n + b.cases.length, 0)
    test(`${source}: ${what}: all ${count} cases over ${bodies.length} bodies give the labelled verdict and line`, async () => {
      expect(count).toBeGreaterThan(0)
      expect(mismatches(bodies, await askWorker(bodies))).toEqual([])
    })
  }

  // The real-file corpus lives beside the project (../shared/corpus), not in it.
  const corpus = corpusAvailable() ? loadCorpus() : []
  const corpusCount = corpus.reduce((n, b) => n + b.cases.length, 0)
  test.skipIf(corpus.length === 0)(`corpus: real robots.txt files (../shared/corpus): all ${corpusCount} cases over ${corpus.length} files give the labelled verdict and line`, async () => {
    expect(mismatches(corpus, await askWorker(corpus))).toEqual([])
  })
})

describe('inside workerd: batches (no Buffer, so they go through TextEncoder)', () => {
  test('hardening 4: lone surrogates split across URLs, with empty URLs between, encode as single checks do', async () => {
    const robots = 'User-agent: *\nDisallow: /a%F0%9F%98%80\nDisallow: /*%EF%BF%BD$\n'
    const urls = ['/a\uD83D', '', '\uDE00', '/a\uD83D', '', '', '\uDE00', '/x', '/y', '/z', 'http://h/a\uD83D', '', '\uDE00b', '/a\uD83D\uDE00']
    // JSON.stringify writes lone surrogates as \u escapes, so they cross the wire intact.
    const res = await worker.fetch('/batch', { method: 'POST', body: JSON.stringify({ robots, urls }), headers: { 'content-type': 'application/json' } })
    const { single, many, lines } = (await res.json()) as { single: [number, number][]; many: number[]; lines: number[] }
    expect(single.slice(0, 3).map(([a]) => a)).toEqual([0, 1, 1])
    expect(single.at(-1)).toEqual([0, 2])
    expect(many).toEqual(single.map(([a]) => a))
    expect(lines).toEqual(single.map(([a, l]) => (a ? l : -l)))
  })
})

describe('inside workerd: why the Workers build imports the .wasm as a module', () => {
  test('workerd refuses to compile wasm from bytes at run time', async () => {
    const bytes = readFileSync(join(ROOT, 'dist', 'robots.wasm'))
    const res = await worker.fetch('/compile-bytes', { method: 'POST', body: bytes })
    const body = (await res.json()) as { compiled: boolean; error: string | null }
    expect(body.compiled).toBe(false)
    expect(body.error).toMatch(/CompileError: .*code generation disallowed/i)
  })
})
