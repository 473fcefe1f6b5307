// The examples of README.md and docs/*.md run as shown (conventions: test/helpers/doc-blocks.ts):
// each block marked <!-- test --> runs against the built dist/ in a child process, as a user would
// run it, and every `// → value` comment must be what its line prints. Blocks that fetch run
// against fixture sites on 127.0.0.1; the Redis block against a real redis-server.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { docBlocks, docFiles, runBlock, runTranscript, type DocBlock } from './helpers/doc-blocks.js'
import { ensureRedis, startRedis, type RedisServer } from './helpers/redis.js'
import { closeAll, serve } from './helpers/server.js'

const root = join(import.meta.dirname, '..')
const files = docFiles(root, ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)])
const blocks = files.flatMap(({ file, text }) => docBlocks(text, file))
const code = blocks.filter((b) => b.lang === 'js' || b.lang === 'ts')
const tested = code.filter((b) => b.test !== null)
const transcripts = blocks.filter((b) => b.lang === 'console' && b.test !== null)
const needs = (b: DocBlock, what: string) => b.test!.split(/\s+/).includes(what)

const ROBOTS = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n'
const sites = new Map<string, string>()
let redis: RedisServer | undefined
const redisPath = tested.some((b) => needs(b, 'redis')) ? ensureRedis() : { path: null, reason: '' }

beforeAll(async () => {
  const html = (body: string) => ({ 'content-type': 'text/html; charset=utf-8', body })
  const com = await serve((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS)
    const page = req.url === '/' ? html('<a href="/public">public</a> <a href="/private/report">report</a>') : html('<p>page</p>')
    res.writeHead(200, { 'content-type': page['content-type'] }).end(page.body)
  })
  const org = await serve((_req, res) => res.writeHead(404).end('not found'))
  const down = await serve((_req, res) => res.writeHead(503).end('down'))
  sites.set('https://example.com', com.origin)
  sites.set('https://example.org', org.origin)
  sites.set('https://down.example.net', down.origin)
  if (redisPath.path !== null) redis = await startRedis(redisPath.path)
}, 60_000)

afterAll(async () => {
  await redis?.stop()
  await closeAll()
})

/** Files a block finds in its directory. */
function fixtures(block: DocBlock): Record<string, string> {
  const site = (url: string) => needs(block, 'sites') ? url.replace(/^https:\/\/[^/]+/, (o) => sites.get(o) ?? o) : url
  const frontier = ['https://example.com/', 'https://example.com/private/report', 'https://example.org/anything', 'https://down.example.net/page', 'not a url']
  return { 'frontier.txt': `${frontier.map(site).join('\n')}\n` }
}

test('every js/ts block of the docs is run or says why not', () => {
  const unmarked = code.filter((b) => b.test === null && b.skip === null).map((b) => `${b.file}:${b.line}`)
  expect(unmarked).toEqual([])
  expect(tested.length).toBeGreaterThan(10)
})

test('a block that quotes a file of the repository is that file, as it is', () => {
  const copies = blocks.filter((b) => b.copyOf !== null)
  expect(copies.length).toBeGreaterThan(0)
  for (const b of copies) expect(`${b.code}\n`, `${b.file}:${b.line}`).toBe(readFileSync(join(root, b.copyOf!), 'utf8'))
})

test('edge: the README example block is run and checks more than five results', () => {
  const readme = tested.filter((b) => b.file === 'README.md')
  expect(readme.length).toBeGreaterThan(0)
  expect(readme[0]!.code.split('\n').filter((l) => l.includes('// → ')).length).toBeGreaterThan(5)
})

describe.each(files.map((f) => f.file).filter((f) => blocks.some((b) => b.file === f && b.test !== null)))('%s', (file) => {
  const own = tested.filter((b) => b.file === file)
  for (const block of transcripts.filter((b) => b.file === file)) {
    test(`line ${block.line}: the transcript's commands print what it shows`, async () => {
      const { printed, shown } = await runTranscript(block, root)
      expect(printed).toEqual(shown)
    }, 90_000)
  }
  for (const block of own) {
    const skip = needs(block, 'redis') && redisPath.path === null
    test.skipIf(skip)(`line ${block.line}: runs and prints what its comments say${skip ? ` (SKIPPED: ${redisPath.reason})` : ''}`, async () => {
      const env = { root, sites, ...(redis ? { redisUrl: redis.url } : {}) }
      const { shown, expected } = await runBlock(block, env, fixtures(block))
      const local = expected.map((e) => needs(block, 'sites') ? [...sites].reduce((s, [from, to]) => s.replaceAll(from, to), e) : e)
      expect(shown).toEqual(local)
    }, 90_000)
  }
})
