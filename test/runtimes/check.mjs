// The conformance, API and CLI checks that run on every runtime the package supports (Node 20-26,
// Bun, Deno), with no test framework: `<runtime> test/runtimes/check.mjs` (Deno: `deno run -A`).
// The package is imported by its name, so each runtime resolves its own `exports` condition. Every
// failed check is printed and the process exits 1; the last line is a summary.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import zlib from 'node:zlib'
import * as pkg from 'robotstxt-wasm'
import compat from 'robotstxt-wasm/compat'
import { checkEveryWay } from './every-way.mjs'

const { parseRobots, checkUrls, RobotsCache } = pkg
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const runtime = typeof Deno !== 'undefined' ? `Deno ${Deno.version.deno}` : typeof Bun !== 'undefined' ? `Bun ${Bun.version}` : `Node ${process.versions.node}`
const failures = []
let checks = 0

function check(what, ok, detail = '') {
  checks++
  if (!ok) failures.push(`${what}${detail ? `: ${detail}` : ''}`)
}

// ── conformance: every labelled case, four ways ────────────────────────────────────────────────
function load(file, robotsDir) {
  const out = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const rec = JSON.parse(line)
    const body = rec.robots_b64 !== undefined ? Uint8Array.from(atob(rec.robots_b64), (c) => c.charCodeAt(0)) : new Uint8Array(readFileSync(join(robotsDir, rec.file)))
    out.push({ id: rec.id, body, cases: rec.cases })
  }
  return out
}

const suites = ['google-spec-cases.jsonl', 'edge-cases.jsonl', 'fuzz-cases.jsonl'].map((f) => [f, load(join(root, 'test', 'fixtures', f), null)])
const corpus = join(root, '..', 'shared', 'corpus')
if (existsSync(join(corpus, 'cases.jsonl'))) suites.push(['corpus', load(join(corpus, 'cases.jsonl'), join(corpus, 'robots'))])
else console.warn('corpus: ../shared/corpus not found, the 58,896 real-file cases are SKIPPED')

let cases = 0
for (const [name, bodies] of suites) {
  const r = checkEveryWay(parseRobots, bodies)
  cases += r.cases
  check(`conformance ${name}: every case through check, checkMany, isAllowedMany and checkLines`, r.wrong.length === 0, `${r.wrong.length} wrong, first ${r.wrong[0]}`)
}

// ── API ─────────────────────────────────────────────────────────────────────────────────────────
for (const name of ['parseRobots', 'Robots', 'Matcher', 'fetchRobots', 'RobotsCache', 'robotsOrigin', 'workersCacheStorage', 'diffRobots', 'checkUrls', 'redisStorage', 'DEFAULT_MAX_BYTES', 'crawlers', 'crawlerTokens']) {
  check(`export ${name}`, pkg[name] !== undefined)
}
{
  const robots = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\nSitemap: https://x.example/s.xml\nCrawl-delay: 2\n')
  check('sitemaps', JSON.stringify(robots.sitemaps) === '["https://x.example/s.xml"]')
  check('crawlDelay', robots.crawlDelay('bot') === 2)
  check('lines', robots.lines.length === 6 && robots.lines[1].type === 'disallow' && robots.lines[5].type === 'empty')
  const m = robots.matcher('bot')
  // A lone surrogate in a batch is U+FFFD, as a single check encodes it, whatever the runtime's batch path.
  const urls = ['/private/\ud800', '\udc00/private', '/ok\ud83d', '\ude00x', '/private/ok']
  check('lone surrogates: batch equals single checks', Array.from(m.isAllowedMany(urls)).join() === urls.map((u) => (m.isAllowed(u) ? 1 : 0)).join())
  let typeError = false
  try {
    m.isAllowedMany('not an array')
  } catch (e) {
    typeError = e instanceof TypeError && /urls/.test(e.message)
  }
  check('a bad argument is a TypeError naming it', typeError)
  check('diffRobots', pkg.diffRobots('User-agent: *\nDisallow: /a\n', 'User-agent: *\nDisallow: /b\n').changes.length > 0)
  const rp = compat('https://x.example/robots.txt', 'User-agent: *\nDisallow: /private\n')
  check('robotstxt-wasm/compat', rp.isAllowed('https://x.example/private/x', 'bot') === false && rp.isAllowed('https://x.example/a', 'bot') === true)
}

// fetch, the cache and checkUrls against a real server on 127.0.0.1.
{
  let fetches = 0
  const server = createServer((req, res) => {
    fetches++
    if (req.url === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n')
    else res.writeHead(404).end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${server.address().port}`
  try {
    const got = []
    for await (const v of checkUrls([`${origin}/a`, `${origin}/private/b`, 'not a url', `${origin}/c`], { agent: 'bot', cache: new RobotsCache() })) got.push(v)
    check('checkUrls: verdicts in order, one fetch', got.map((v) => `${v.allowed}/${v.line}/${v.outcome}`).join() === 'true/0/ok,false/2/ok,false/0/,true/0/ok'.replace('/,', '/null,') && fetches === 1,
      got.map((v) => `${v.allowed}/${v.line}/${v.outcome}`).join())
  } finally {
    server.close()
  }
}

// The fetch layer's report: the default User-Agent, where the file came from, why a fetch failed
// (a refused connection, told apart by code or, where the runtime gives none, by its words), and
// the response rules of robotsFromResponse.
{
  const agents = []
  const server = createServer((req, res) => {
    agents.push(req.headers['user-agent'])
    res.writeHead(req.url === '/robots.txt' ? 200 : 404).end('User-agent: *\nDisallow: /private\n')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${server.address().port}`
  const closed = createServer()
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const gone = `http://127.0.0.1:${closed.address().port}`
  await new Promise((resolve) => closed.close(resolve))
  try {
    const ok = await pkg.fetchRobots(`${origin}/x`)
    check('fetchRobots: the default User-Agent names the package', /^robotstxt-wasm\/\S+ \(\+https:\/\/www\.npmjs\.com\/package\/robotstxt-wasm\)$/.test(agents[0] ?? ''), agents[0])
    check('fetchRobots: url, redirects and error of an answered fetch', ok.url === `${origin}/robots.txt` && ok.redirects === 0 && ok.error === null, JSON.stringify([ok.url, ok.redirects, ok.error]))
    const refused = await pkg.fetchRobots(gone)
    check('fetchRobots: a refused connection says so (error.code "refused")', refused.status === null && refused.error?.code === 'refused', JSON.stringify(refused.error))
    const down = await pkg.robotsFromResponse(origin, { status: 503, headers: { 'retry-after': '600' } }, { now: 0 })
    check('robotsFromResponse and statusOutcome: Retry-After sets expiresAt; 429 is disallow-all', down.outcome === 'disallow-all' && down.expiresAt === 600_000 && pkg.statusOutcome(429) === 'disallow-all')
  } finally {
    server.close()
  }
}

// A compressed body cut inside complete chunked framing is a truncated response, not the file
// (undici's lenient decoding, issue 34 item 2); the whole body is parsed. Deno's fetch does not
// decode a body it did not ask to be compressed, so it is left out.
if (typeof Deno === 'undefined') {
  const rules = 'User-agent: *\nAllow: /\n' + '# filler\n'.repeat(300) + 'Disallow: /private\n'
  let body = new Uint8Array(0)
  let encoding = 'gzip'
  const server = createServer((_req, res) => res.writeHead(200, { 'content-encoding': encoding, 'transfer-encoding': 'chunked' }).end(body))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${server.address().port}`
  const compress = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync }
  try {
    const got = []
    for (const [name, encode] of Object.entries(compress)) {
      const whole = encode(rules)
      for (const keep of [whole.length, whole.length >> 1, whole.length - 1]) {
        body = whole.subarray(0, keep)
        encoding = name
        const r = await pkg.fetchRobots(origin)
        got.push(`${name}/${keep === whole.length ? 'whole' : 'cut'}: ${r.status} ${r.outcome}`)
      }
    }
    const want = Object.keys(compress).flatMap((n) => [`${n}/whole: 200 ok`, `${n}/cut: null disallow-all`, `${n}/cut: null disallow-all`])
    check('fetchRobots: an encoded body cut mid-stream is truncated, a whole one parsed', got.join() === want.join(), got.join())
  } finally {
    server.close()
  }
}

// ── CLI ─────────────────────────────────────────────────────────────────────────────────────────
{
  const cli = join(root, 'dist', 'cli.js')
  const exe = typeof Deno !== 'undefined' ? Deno.execPath() : process.execPath
  const pre = typeof Deno !== 'undefined' ? ['run', '-A', cli] : [cli]
  const example = join(root, 'examples', 'robots.txt')
  const run = (args, input) => spawnSync(exe, [...pre, ...args], { input: input ?? '', encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  const one = run(['check', example, 'Googlebot', 'https://example.com/private/report.pdf', 'https://example.com/drafts/'])
  check('cli check: verdict lines and exit 1 when one is disallowed', one.status === 1 && one.stdout === 'disallowed\t17\thttps://example.com/private/report.pdf\nallowed\t21\thttps://example.com/drafts/\n', `${one.status} ${one.stdout}${one.stderr}`)
  const stream = run(['check', example, 'Googlebot', '--urls', '-'], '/a\r\n/private/x\n/b')
  check('cli check --urls: one line per input line', stream.status === 1 && stream.stdout === 'allowed\t0\t/a\ndisallowed\t17\t/private/x\nallowed\t0\t/b\n', `${stream.status} ${stream.stdout}${stream.stderr}`)
  const explain = run(['explain', example, 'Googlebot', 'https://example.com/private/report.pdf'])
  check('cli explain: exit 0 and the deciding line', explain.status === 0 && /disallowed by line 17/.test(explain.stdout), `${explain.status} ${explain.stderr}`)
  const lint = run(['lint', example, '--json'])
  check('cli lint --json: a report', (lint.status === 0 || lint.status === 1) && JSON.parse(lint.stdout).findings !== undefined, `${lint.status} ${lint.stderr}`)
  const usage = run(['check'])
  check('cli: a usage error exits 2', usage.status === 2 && /missing ROBOTS/.test(usage.stderr), `${usage.status}`)
}

for (const f of failures) console.error(`FAIL ${f}`)
console.log(`${runtime}: ${checks - failures.length}/${checks} checks passed (${cases.toLocaleString('en')} labelled cases)`)
if (failures.length > 0) process.exit(1)
