// `npm run bench`'s per-site rows (issue 33): robots.txt as crawlers meet it, a site at a time, against
// robots-parser 3.0.1 in this process and protego and urllib.robotparser in a Python process
// (bench/per-site.py). Owns the five measurements below, their sections of bench/results.json and
// their goals (perSiteSections).
// Invariants: every timing is interleaved (one warm-up pass of each library, then rounds with the
// order rotating) and reported as the median of its rounds; every library is given the same sites
// (bench/sites.mjs); agreement with the labels is counted from the timed passes' own verdicts.
//
//   first contact     parseRobots(body).isAllowed(url, 'Googlebot') per file, string and byte bodies
//   crawler checks    the labelled checks shuffled with a fixed seed, so hosts switch on almost every one
//   memory            bytes kept per cached Robots / Matcher / robots-parser instance (bench/per-site-memory.mjs)
//   cold start        import + first check in a fresh process, over a fresh process that does nothing
//   field benchmark   per site: parse, then check its links (one by one, or in one checkMatrix call);
//                     totals and per-site percentiles; the floors under both ways, and what a
//                     site's later agents cost (a streamed check, a compile, a table check)
//   expectations      `robotstxt test`'s engine work: 50 expectations over 10 crawler presets per file
//
// Alone: `node bench/per-site.mjs` prints the sections and their goals as bench/RESULTS.md has them
// (BENCH_ROUNDS as for bench/run.mjs), and writes nothing; `node bench/per-site.mjs --many-agents`
// only the rows of many agents a site (manyAgents).
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import robotsParser from 'robots-parser'
import { crawlerTokens, Matcher, parseRobots } from '../dist/index.js'
import { loadSites } from './sites.mjs'
import { ensureProtego, runPerSitePy } from './python.mjs'
import { common as bundleOptions } from '../scripts/bundle-options.mjs'
import { describeMachine, goalRow, peerRow, row, today } from './results.mjs'
import { sectionMarkdown } from './report.mjs'
import { goalsSection } from './sections.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const CORPUS = join(root, '..', 'shared', 'corpus')
const AGENT = 'Googlebot'
const MEMORY_COUNT = 20_000
const SEED = 33
const CRAWLER_ROUNDS = 11
const floorEncoder = new TextEncoder()
const floorBuffer = new Uint8Array(1 << 16)

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
/** Nearest rank, as bench/per-site.py takes it. */
const percentile = (sorted, p) => sorted[Math.max(0, Math.ceil((sorted.length * p) / 100) - 1)]
const fmtNs = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(1)} ns`)
/** A difference with its sign: a median of noisy wall times can fall below the baseline's. */
const signed = (ns) => `${ns < 0 ? '-' : '+'}${fmtNs(Math.abs(ns))}`
const fmtB = (b) => `${Math.round(b).toLocaleString('en')} B`
const count = (n) => n.toLocaleString('en')
const log = (s) => process.stderr.write(s + '\n')

/**
 * Each pass once to warm up, then `rounds` rounds of every pass, the order rotating so each takes
 * each position; per pass, its ns and its result per round.
 */
function interleave(passes, rounds) {
  const names = Object.keys(passes)
  const out = Object.fromEntries(names.map((n) => [n, { ns: [], results: [] }]))
  for (const n of names) passes[n]()
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(r + k) % names.length]
      const t = process.hrtime.bigint()
      const result = passes[n]()
      out[n].ns.push(Number(process.hrtime.bigint() - t))
      out[n].results.push(result)
    }
  }
  return out
}

// ── first contact: parse + first check, per file ────────────────────────────────────────────────
function firstContact(sites, rounds) {
  const pass = (check) => () => {
    let allowed = 0
    for (const s of sites) allowed += check(s) ? 1 : 0
    return allowed
  }
  const t = interleave({
    string: pass((s) => parseRobots(s.text).isAllowed(s.first, AGENT)),
    bytes: pass((s) => parseRobots(s.bytes).isAllowed(s.first, AGENT)),
    theirs: pass((s) => robotsParser(s.robotsUrl, s.text).isAllowed(s.first, AGENT) !== false),
  }, rounds)
  if (t.string.results[0] !== t.bytes.results[0]) throw new Error(`first contact: ${t.string.results[0]} files allow their URL from a string body, ${t.bytes.results[0]} from bytes`)
  const per = (k) => median(t[k].ns) / sites.length
  return { string: per('string'), bytes: per('bytes'), theirs: per('theirs') }
}

// ── crawler-shaped checks: one labelled check after another, hosts switching ─────────────────────
/** Fisher-Yates with mulberry32, so every run checks in the same order. */
function shuffle(xs, seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[xs[i], xs[j]] = [xs[j], xs[i]]
  }
  return xs
}

function crawlerChecks(sites, rounds) {
  // A crawler holds one string per agent it crawls as, so its calls pass the same string object
  // every time. cases.jsonl gives each check its own copy (JSON.parse internalizes only values up
  // to 10 characters); those copies are kept for the fresh-strings pass, which shows what reading
  // a string that is not in cache costs the agent argument.
  const held = new Map()
  const hold = (agent) => {
    let h = held.get(agent)
    if (h === undefined) held.set(agent, (h = agent))
    return h
  }
  const items = []
  for (const s of sites) {
    const robots = parseRobots(s.text)
    const rp = robotsParser(s.robotsUrl, s.text)
    const matchers = new Map()
    for (const c of s.links) {
      let matcher = matchers.get(c.agent)
      if (matcher === undefined) {
        matchers.set(c.agent, (matcher = robots.matcher(c.agent)))
        // Warmed once per (site, agent): the first check of a pair is first contact, measured apart.
        robots.isAllowed(c.url, c.agent)
      }
      items.push({ site: s, robots, rp, matcher, agent: hold(c.agent), fresh: c.agent, url: c.url, allowed: c.allowed })
    }
  }
  shuffle(items, SEED)
  let switches = 0
  for (let i = 1; i < items.length; i++) if (items[i].site !== items[i - 1].site) switches++
  // One loop per library, so no call site inside a timed loop sees more than one library.
  const t = interleave({
    matcher: () => {
      let agree = 0
      for (const it of items) agree += it.matcher.isAllowed(it.url) === it.allowed ? 1 : 0
      return agree
    },
    robots: () => {
      let agree = 0
      for (const it of items) agree += it.robots.isAllowed(it.url, it.agent) === it.allowed ? 1 : 0
      return agree
    },
    fresh: () => {
      let agree = 0
      for (const it of items) agree += it.robots.isAllowed(it.url, it.fresh) === it.allowed ? 1 : 0
      return agree
    },
    theirs: () => {
      let agree = 0
      // undefined (another origin, or not a URL) is no verdict; counted as allowed, as bench/peers.mjs does.
      for (const it of items) agree += (it.rp.isAllowed(it.url, it.agent) !== false) === it.allowed ? 1 : 0
      return agree
    },
    // Floors of this order, no matching: what any library called this way pays before it decides.
    // `touch` reads each check's Matcher (its header) and URL (its last unit); `encode` also puts
    // the URL's UTF-8 in a buffer, the one step every check of a wasm matcher takes. Their sums
    // are returned so that no read is dead code.
    touch: () => {
      let sum = 0
      for (const it of items) sum += (it.matcher instanceof Matcher ? 1 : 0) + it.url.charCodeAt(it.url.length - 1) + (it.allowed ? 1 : 0)
      return sum
    },
    encode: () => {
      let sum = 0
      for (const it of items) sum += (it.matcher instanceof Matcher ? 1 : 0) + floorEncoder.encodeInto(it.url, floorBuffer).written + (it.allowed ? 1 : 0)
      return sum
    },
  }, rounds)
  const per = (k) => median(t[k].ns) / items.length
  const ours = [t.matcher.results[0], t.robots.results[0], t.fresh.results[0]]
  if (ours.some((a) => a !== items.length)) throw new Error(`crawler checks: Matcher, Robots and Robots with fresh strings agree with ${ours.join(', ')} of ${items.length} labels`)
  // Robots against Matcher round by round: the two passes of a round ran within a second of each
  // other, so a machine that slows down for a while slows both.
  const paired = median(t.robots.ns.map((ns, r) => ns / t.matcher.ns[r]))
  const pairedFresh = median(t.fresh.ns.map((ns, r) => ns / t.matcher.ns[r]))
  return {
    checks: items.length, switched: switches / (items.length - 1), paired, pairedFresh, rounds,
    matcher: per('matcher'), robots: per('robots'), fresh: per('fresh'), theirs: per('theirs'), touch: per('touch'), encode: per('encode'),
    agree: { matcher: t.matcher.results[0], robots: t.robots.results[0], fresh: t.fresh.results[0], theirs: t.theirs.results[0] },
  }
}

// ── memory kept per cached site: a child process per library ───────────────────────────────────
function memory() {
  const kept = (kind) => {
    const out = execFileSync(process.execPath, ['--expose-gc', join(here, 'per-site-memory.mjs'), kind, String(MEMORY_COUNT), CORPUS], { encoding: 'utf8' })
    return JSON.parse(out).perObject
  }
  return { string: kept('robots-string'), bytes: kept('robots-bytes'), matcher: kept('matcher'), theirs: kept('robots-parser') }
}

// ── cold start: a fresh process, over one that imports nothing ──────────────────────────────────
/**
 * Fresh processes per library for the cold-start medians: on this 2-core VM an empty node's CPU
 * time moved by 2 ms between runs minutes apart, and 11 runs gave medians that swung by as much.
 */
export const COLD_RUNS = 41

/**
 * Wall time of `node --input-type=module -e SCRIPT` importing each library and answering one check,
 * less the median of the same with an empty script (Node's own start); `runs` interleaved runs of each.
 * A wrong verdict exits 3, so a process that did not do the work cannot pass for a fast one.
 * Also the CPU time each process reports at the end of its script (process.cpuUsage(), all its
 * threads), less the empty script's: on a loaded machine wall time mostly measures the wait for a
 * core (an empty node took 26-68 ms within one hour here), CPU time what the work costs.
 * Three floors split the start (CPU time only): the import alone, with no check; an entry that
 * exports only parseRobots, bundled from the same sources as dist/ is (everything else
 * tree-shaken), with its first check; and a module holding only the wasm.
 */
export async function coldStart(runs) {
  const ours = JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)
  const theirs = JSON.stringify(pathToFileURL(join(root, 'node_modules', 'robots-parser', 'index.js')).href)
  const body = JSON.stringify('User-agent: *\nDisallow: /x')
  // The floor of any start of the package: a module holding only its wasm, embedded as the bundle
  // embeds it (base64), compiled and instantiated as the engine does, and no JS of the package.
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-cold-'))
  const wasmOnly = join(dir, 'wasm-only.mjs')
  const b64 = readFileSync(join(root, 'dist', 'robots.wasm')).toString('base64')
  writeFileSync(wasmOnly, `const s=${JSON.stringify(b64)};export const instance=new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(s,'base64')),{})`)
  // The least JS any main entry could carry: the names docs/api.md documents need far more than parseRobots. An
  // .mjs file, so Node does not first try it as CommonJS.
  const parseOnlyEntry = join(dir, 'parse-only.mjs')
  await build({
    ...bundleOptions, format: 'esm', outfile: parseOnlyEntry, loader: { '.wasm': 'base64' },
    stdin: { contents: "export { parseRobots } from './src/engine/robots.js'", resolveDir: root, loader: 'ts' },
  })
  const scripts = {
    empty: '',
    ours: `const{parseRobots}=await import(${ours});if(parseRobots(${body}).isAllowed('http://a/x','bot'))process.exit(3)`,
    theirs: `const{default:p}=await import(${theirs});if(p('http://a/robots.txt',${body}).isAllowed('http://a/x','bot'))process.exit(3)`,
    wasm: `const{instance}=await import(${JSON.stringify(pathToFileURL(wasmOnly).href)});if(typeof instance.exports.check!=='function')process.exit(3)`,
    importOnly: `const{parseRobots}=await import(${ours});if(typeof parseRobots!=='function')process.exit(3)`,
    parseOnly: `const{parseRobots}=await import(${JSON.stringify(pathToFileURL(parseOnlyEntry).href)});if(parseRobots(${body}).isAllowed('http://a/x','bot'))process.exit(3)`,
  }
  const reportCpu = ';{const u=process.cpuUsage();process.stdout.write(String(u.user+u.system))}'
  const passes = {}
  for (const [name, script] of Object.entries(scripts)) {
    passes[name] = () => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script + reportCpu], { stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' })
      if (r.status !== 0) throw new Error(`cold start (${name}): the process exited ${r.status ?? r.signal}`)
      return Number(r.stdout) * 1e3
    }
  }
  let t
  try {
    t = interleave(passes, runs)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const empty = median(t.empty.ns)
  const cpuEmpty = median(t.empty.results)
  return {
    runs, empty, ours: median(t.ours.ns) - empty, theirs: median(t.theirs.ns) - empty,
    cpu: {
      empty: cpuEmpty, ours: median(t.ours.results) - cpuEmpty, theirs: median(t.theirs.results) - cpuEmpty, wasm: median(t.wasm.results) - cpuEmpty,
      importOnly: median(t.importOnly.results) - cpuEmpty, parseOnly: median(t.parseOnly.results) - cpuEmpty,
    },
  }
}

// ── the field's benchmark: per site, parse, then check its links ────────────────────────────────
function fieldNode(sites, rounds) {
  const timed = (site) => () => {
    const times = new Float64Array(sites.length)
    let agree = 0
    for (let i = 0; i < sites.length; i++) {
      const t = process.hrtime.bigint()
      agree += site(sites[i])
      times[i] = Number(process.hrtime.bigint() - t)
    }
    return { times, agree }
  }
  const viaRobots = (body) => (s) => {
    const r = parseRobots(body(s))
    let agree = 0
    for (const c of s.links) agree += r.isAllowed(c.url, c.agent) === c.allowed ? 1 : 0
    return agree
  }
  const viaMatcher = (body) => (s) => {
    const r = parseRobots(body(s))
    const matchers = new Map()
    let agree = 0
    for (const c of s.links) {
      let m = matchers.get(c.agent)
      if (m === undefined) matchers.set(c.agent, (m = r.matcher(c.agent)))
      agree += m.isAllowed(c.url) === c.allowed ? 1 : 0
    }
    return agree
  }
  // One call per site: its distinct URLs for its distinct agents, each labelled check read from
  // its cell (fieldMatrix lays them out).
  const viaMatrix = (body) => (s) => {
    const m = parseRobots(body(s)).checkMatrix(s.matrix.urls, s.matrix.agents)
    const cells = s.matrix.cells
    let agree = 0
    for (let i = 0; i < cells.length; i++) agree += (m[cells[i]] >= 0) === s.links[i].allowed ? 1 : 0
    return agree
  }
  const text = (s) => s.text
  const bytes = (s) => s.bytes
  const libs = {
    'robotstxt-wasm|string|`Robots.isAllowed(url, agent)`': viaRobots(text),
    'robotstxt-wasm|string|`Matcher.isAllowed(url)`, a Matcher per agent': viaMatcher(text),
    'robotstxt-wasm|bytes|`Robots.isAllowed(url, agent)`': viaRobots(bytes),
    'robotstxt-wasm|bytes|`Matcher.isAllowed(url)`, a Matcher per agent': viaMatcher(bytes),
    'robotstxt-wasm|string|`Robots.checkMatrix(urls, agents)`, one call per site': viaMatrix(text),
    'robotstxt-wasm|bytes|`Robots.checkMatrix(urls, agents)`, one call per site': viaMatrix(bytes),
    'robots-parser 3.0.1|string|`isAllowed(url, agent)`': (s) => {
      const r = robotsParser(s.robotsUrl, s.text)
      let agree = 0
      for (const c of s.links) agree += (r.isAllowed(c.url, c.agent) !== false) === c.allowed ? 1 : 0
      return agree
    },
  }
  const t = interleave(Object.fromEntries(Object.entries(libs).map(([k, site]) => [k, timed(site)])), rounds)
  const checks = sites.reduce((n, s) => n + s.links.length, 0)
  return Object.entries(t).map(([key, { results }]) => {
    const [name, body, via] = key.split('|')
    const perSite = sites.map((_, i) => median(results.map((r) => r.times[i]))).sort((a, b) => a - b)
    return {
      name, body, via, checks, agree: results[0].agree,
      total: median(results.map((r) => r.times.reduce((a, b) => a + b, 0))),
      p50: percentile(perSite, 50), p95: percentile(perSite, 95), p99: percentile(perSite, 99),
    }
  })
}

/**
 * Each site's distinct agents (the first copy of each string, as a caller holds one per crawler)
 * and distinct URLs, and the cell of each labelled check in their checkMatrix result.
 */
function fieldMatrix(sites) {
  for (const s of sites) {
    const agents = []
    const urls = []
    const agentAt = new Map()
    const urlAt = new Map()
    for (const c of s.links) {
      if (!agentAt.has(c.agent)) agentAt.set(c.agent, agents.push(c.agent) - 1)
      if (!urlAt.has(c.url)) urlAt.set(c.url, urls.push(c.url) - 1)
    }
    s.matrix = { agents, urls, cells: s.links.map((c) => agentAt.get(c.agent) * urls.length + urlAt.get(c.url)) }
  }
}

/**
 * The floors under the field benchmark's two ways, measured in the same interleaved rounds as the
 * costs a site's later agents pay (medians of the rounds):
 *   robotsFloor   parse + the site's first labelled check (the streamed first contact), then every
 *                 other labelled check through a Matcher compiled beforehand: Robots.isAllowed if
 *                 compiling a site's later agents cost nothing
 *   matrixFloor   parse + checkMatrix of the site's first labelled URL for its agent: one pass with
 *                 the least to answer
 *   stream        a later agent's check streamed over the site's compact body (wasm-body.ts
 *                 streamCheck, the site's first check's path, from a bundle of the sources), per pair
 *   compile       a site's first compile (Robots.matcher after its first check) and that matcher's
 *                 first check, per site
 *   table         a check through a compiled Matcher, per check
 */
async function fieldFloors(sites, rounds) {
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-floors-'))
  const entry = join(dir, 'stream.mjs')
  try {
    await build({
      ...bundleOptions, format: 'esm', platform: 'node', outfile: entry, loader: { '.wasm': 'base64' },
      stdin: { contents: "export { streamCheck } from './src/engine/wasm-body.js'\nexport { getEngine } from './src/engine/wasm.js'\nexport { agentTokens } from './src/engine/args.js'", resolveDir: root, loader: 'ts' },
    })
    const { streamCheck, getEngine, agentTokens } = await import(pathToFileURL(entry).href)
    const engine = getEngine()
    const pairs = []
    for (const s of sites) {
      const compact = streamCheck(engine, s.text, ['robotstxt-bench'], s.first, true).compact
      for (const agent of s.matrix.agents) pairs.push({ compact, tokens: agentTokens(agent), url: s.links.find((c) => c.agent === agent).url })
    }
    const matchers = sites.map((s) => {
      const r = parseRobots(s.text)
      return new Map(s.matrix.agents.map((a) => [a, r.matcher(a)]))
    })
    const checks = sites.reduce((n, s) => n + s.links.length, 0)
    const t = interleave({
      robotsFloor: () => {
        let agree = 0
        for (let i = 0; i < sites.length; i++) {
          const s = sites[i]
          const m = matchers[i]
          const first = s.links[0]
          if (first === undefined) continue
          agree += parseRobots(s.text).isAllowed(first.url, first.agent) === first.allowed ? 1 : 0
          for (let k = 1; k < s.links.length; k++) agree += m.get(s.links[k].agent).isAllowed(s.links[k].url) === s.links[k].allowed ? 1 : 0
        }
        return agree
      },
      matrixFloor: () => {
        let n = 0
        for (const s of sites) if (s.links.length > 0) n += parseRobots(s.text).checkMatrix([s.links[0].url], [s.links[0].agent])[0]
        return n
      },
      stream: () => {
        let n = 0
        for (const p of pairs) n += streamCheck(engine, p.compact, p.tokens, p.url, false).line
        return n
      },
      compile: () => {
        // Only the compiles are timed: parsing and the first check are the first-contact row's.
        let ns = 0
        for (const s of sites) {
          const first = s.links[0]
          if (first === undefined) continue
          const r = parseRobots(s.text)
          r.isAllowed(s.first, 'robotstxt-bench')
          const t0 = process.hrtime.bigint()
          r.matcher(first.agent).isAllowed(first.url)
          ns += Number(process.hrtime.bigint() - t0)
        }
        return ns
      },
      table: () => {
        let agree = 0
        for (let i = 0; i < sites.length; i++) for (const c of sites[i].links) agree += matchers[i].get(c.agent).isAllowed(c.url) === c.allowed ? 1 : 0
        return agree
      },
    }, rounds)
    const withLinks = sites.filter((s) => s.links.length > 0).length
    return {
      robotsFloor: median(t.robotsFloor.ns), matrixFloor: median(t.matrixFloor.ns), agree: t.robotsFloor.results[0], checks,
      stream: median(t.stream.ns) / pairs.length, compile: median(t.compile.results) / withLinks, table: median(t.table.ns) / checks,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The presets of the expectations row: ten crawlers, one or two tokens each. */
const EXPECT_PRESETS = ['Googlebot', 'Googlebot-Image', 'Bingbot', 'Applebot', 'YandexBot', 'GPTBot', 'ClaudeBot', 'CCBot', 'PerplexityBot', 'DuckDuckBot']
const EXPECT_PATHS = ['/', '/search?q=robots', '/wp-admin/admin-ajax.php', '/private/report.pdf', '/blog/2026/12/07/post.html']

/**
 * `robotstxt test`'s engine work for one file: 50 expectations (10 presets x 5 URLs on the file's
 * origin), judged from parseRobots + one checkMatrix over the presets' tokens (crawlerTokens),
 * against robots-parser parsing the file and answering the same 50 checks (each preset as its first
 * token: robots-parser takes one agent). Returns ns per file and how many answers robots-parser
 * gave that agree with ours (its verdicts differ where it is not Google-exact).
 */
function expectations(sites, rounds) {
  const tokens = EXPECT_PRESETS.map((name) => crawlerTokens(name))
  const urls = sites.map((s) => EXPECT_PATHS.map((p) => `https://${s.host}${p}`))
  const t = interleave({
    ours: () => {
      let allowed = 0
      for (let i = 0; i < sites.length; i++) {
        const m = parseRobots(sites[i].text).checkMatrix(urls[i], tokens)
        for (let k = 0; k < m.length; k++) allowed += m[k] >= 0 ? 1 : 0
      }
      return allowed
    },
    theirs: () => {
      let allowed = 0
      for (let i = 0; i < sites.length; i++) {
        const rp = robotsParser(sites[i].robotsUrl, sites[i].text)
        for (const agent of EXPECT_PRESETS) for (const url of urls[i]) allowed += rp.isAllowed(url, agent) !== false ? 1 : 0
      }
      return allowed
    },
  }, rounds)
  return { ours: median(t.ours.ns) / sites.length, theirs: median(t.theirs.ns) / sites.length, checks: EXPECT_PRESETS.length * EXPECT_PATHS.length, allowed: { ours: t.ours.results[0], theirs: t.theirs.results[0] } }
}

/** protego and urllib.robotparser rows from bench/per-site.py; a library it could not run is a row saying why. */
async function fieldPython(rounds) {
  const missing = await ensureProtego()
  if (missing !== null) log(`\n*** per site: protego NOT MEASURED: ${missing} ***\n`)
  let py
  try {
    py = runPerSitePy(join(CORPUS, 'cases.jsonl'), join(CORPUS, 'robots'), rounds)
  } catch (error) {
    const why = `bench/per-site.py failed: ${String(error.message).split('\n')[0]}`
    log(`\n*** per site: protego and urllib.robotparser NOT MEASURED: ${why} ***\n`)
    return { python: null, rows: ['protego', 'urllib.robotparser'].map((name) => ({ name, error: why })) }
  }
  const rows = py.libraries.map((l) => l.error !== undefined
    ? { name: l.name, error: missing ?? l.error }
    : { name: l.name, body: 'string', via: l.name.startsWith('protego') ? '`can_fetch(url, agent)`' : '`can_fetch(agent, url)`', checks: l.checks, agree: l.agree, total: l.total_ns, p50: l.p50_ns, p95: l.p95_ns, p99: l.p99_ns })
  for (const r of rows) if (r.error !== undefined) log(`\n*** per site: ${r.name} NOT MEASURED: ${r.error} ***\n`)
  return { python: `Python ${py.python} (${py.executable})`, rows }
}

// ── the section ─────────────────────────────────────────────────────────────────────────────────
/**
 * Measures every per-site row and returns `{ sections, goals }` for bench/results.json (built by
 * perSiteSections). `cold` is a coldStart() result already measured, if any.
 */
export async function perSite({ rounds, cold = null, date = today(), machine = describeMachine() }) {
  const sites = loadSites(CORPUS)
  const mb = sites.reduce((n, s) => n + s.bytes.length, 0) / 1e6
  log(`per site: ${sites.length} files, ${mb.toFixed(1)} MB, ${rounds} rounds`)

  const first = firstContact(sites, rounds)
  log(`per site, first contact: string ${fmtNs(first.string)}, bytes ${fmtNs(first.bytes)}, robots-parser ${fmtNs(first.theirs)}`)
  // A round of the four passes takes about a quarter of a second: more rounds cost little and steady
  // the medians of a measurement that is mostly cache misses, which a busy neighbour moves most.
  const checks = crawlerChecks(sites, Math.max(rounds, CRAWLER_ROUNDS))
  log(`per site, crawler checks: Matcher ${fmtNs(checks.matcher)}, Robots ${fmtNs(checks.robots)} (fresh agent strings ${fmtNs(checks.fresh)}), robots-parser ${fmtNs(checks.theirs)}; floors ${fmtNs(checks.touch)} reading, ${fmtNs(checks.encode)} with the URL encoded`)
  const mem = memory()
  log(`per site, memory: Robots ${fmtB(mem.string)} (bytes ${fmtB(mem.bytes)}), Matcher ${fmtB(mem.matcher)}, robots-parser ${fmtB(mem.theirs)}`)
  cold ??= await coldStart(Math.max(COLD_RUNS, 2 * rounds + 1))
  log(`per site, cold start over an empty node (${fmtNs(cold.empty)}): ours ${signed(cold.ours)}, robots-parser ${signed(cold.theirs)}`)
  log(`per site, cold start in CPU time over an empty node (${fmtNs(cold.cpu.empty)}): ours ${signed(cold.cpu.ours)} (the import alone ${signed(cold.cpu.importOnly)}), robots-parser ${signed(cold.cpu.theirs)}; floors: a parseRobots-only entry ${signed(cold.cpu.parseOnly)}, the wasm alone ${signed(cold.cpu.wasm)}`)
  const many = await manyAgents(sites, rounds)
  const py = await fieldPython(rounds)
  return perSiteSections({ date, machine, node: `Node ${process.version}`, rounds, files: sites.length, mb, first, checks, mem, cold, many, py })
}

const RP = 'robots-parser 3.0.1'

/** The field benchmark's ways of calling robotstxt-wasm, by the `via` fieldNode gives them: their ids. */
const FIELD_VIA = [['`Robots.isAllowed', 'robots'], ['`Matcher.isAllowed', 'matcher'], ['`Robots.checkMatrix', 'matrix']]

/** The id of a field benchmark row: robotstxt-wasm by body and way, the others by library. */
function fieldId(r) {
  if (r.name === 'robotstxt-wasm') return `field.robotstxt-wasm.${r.body}.${FIELD_VIA.find(([p]) => r.via.startsWith(p))[1]}`
  return `field.${r.name.startsWith('urllib') ? 'urllib' : r.name.split(' ')[0]}`
}

/**
 * The per-site sections of bench/results.json (per-site, field, field-floors, expectations) and
 * their goals, from perSite's measurements: pure, so the tests feed it fixed values. `many.field`
 * and `py.rows` are fieldNode's and fieldPython's rows; `many.floors` and `many.exp` may be absent
 * (a run from before they were measured), and then so are their sections and goals.
 */
export function perSiteSections({ date, machine, node, rounds, files, mb, first, checks, mem, cold, many, py }) {
  const goals = []
  const goal = (id, label, measured, wanted, { floor, row: of } = {}) => goals.push(goalRow(id, { label, measured, goal: wanted, floor, row: of }))
  goal('goal.first-contact.string', 'first contact, string body: robots-parser / ours', first.theirs / first.string, ['>=', 6], { floor: ['>=', 4, 'no regression (issue 51)'], row: 'per-site.first-contact.string' })
  goal('goal.first-contact.bytes', 'first contact, byte body: robots-parser / ours', first.theirs / first.bytes, ['>=', 8], { row: 'per-site.first-contact.bytes' })
  goal('goal.crawler.matcher', 'crawler-shaped checks, Matcher.isAllowed: robots-parser / ours', checks.theirs / checks.matcher, ['>=', 20], { row: 'per-site.crawler.matcher' })
  goal('goal.crawler.robots', 'crawler-shaped checks, Robots.isAllowed: robots-parser / ours', checks.theirs / checks.robots, ['>=', 15], { row: 'per-site.crawler.robots' })
  goal('goal.crawler.robots-vs-matcher', 'crawler-shaped checks: Robots.isAllowed / Matcher.isAllowed (median of the rounds\' ratios)', checks.paired, ['<=', 1.3], { row: 'per-site.crawler.robots' })
  goal('goal.memory.robots', 'memory per cached site: a Robots / a robots-parser instance', mem.string / mem.theirs, ['<=', 0.5], { row: 'per-site.memory.robots-string' })
  goal('goal.memory.matcher', 'memory per compiled Matcher / a robots-parser instance', mem.matcher / mem.theirs, ['<=', 0.25], { row: 'per-site.memory.matcher' })
  // CPU time decides: on a shared 2-core machine a median of wall times once put robots-parser's
  // process below the empty one's (a negative cost); CPU time is what the start costs.
  goal('goal.cold-start', 'cold start over an empty node (CPU time): ours / robots-parser', cold.cpu.ours / cold.cpu.theirs, ['<=', 1], { row: 'per-site.cold.check' })

  const signedNs = { ours: 'signed', theirs: 'signed' }
  const perSiteRows = [
    peerRow('per-site.first-contact.string', 'first contact: `parseRobots(body).isAllowed(url, \'Googlebot\')`, per file, body as a string', 'ns', first.string, first.theirs, RP),
    peerRow('per-site.first-contact.bytes', 'the same, body as bytes (a Uint8Array)', 'ns', first.bytes, first.theirs, RP),
    peerRow('per-site.crawler.matcher', `crawler-shaped checks: ${count(checks.checks)} labelled checks shuffled (seed ${SEED}; the host changes on ${(100 * checks.switched).toFixed(2)}% of them), \`Matcher.isAllowed\`, a Matcher kept per site and agent`, 'ns', checks.matcher, checks.theirs, RP,
      { cells: { checks: checks.checks, switched: checks.switched, rounds: checks.rounds } }),
    peerRow('per-site.crawler.robots', 'the same through `Robots.isAllowed(url, agent)`, a Robots kept per site (warmed once per agent), the agent one string per crawler as a crawler holds it', 'ns', checks.robots, checks.theirs, RP, { cells: { vsMatcher: checks.paired } }),
    peerRow('per-site.crawler.fresh', 'the same with each check\'s own copy of the agent string, as cases.jsonl parses it (a string out of cache on every call)', 'ns', checks.fresh, checks.theirs, RP, { cells: { vsMatcher: checks.pairedFresh } }),
    peerRow('per-site.crawler.floor-touch', 'floor of the crawler-shaped order, no matching: each check reads its Matcher and its URL, as any library\'s call must', 'ns', checks.touch, checks.theirs, RP, { cells: { remark: 'a floor: the most any check in this order can reach' } }),
    peerRow('per-site.crawler.floor-encode', 'the floor plus the URL\'s UTF-8 written to a buffer (`TextEncoder.encodeInto`), the one step every check of a wasm matcher takes', 'ns', checks.encode, checks.theirs, RP, { cells: { remark: 'a floor: the most a wasm matcher can reach' } }),
    peerRow('per-site.memory.robots-string', `memory kept per cached site: a Robots after one check, string body (${count(MEMORY_COUNT)}, files cycled)`, 'B', mem.string, mem.theirs, RP, { styles: { ratio: 'share' } }),
    peerRow('per-site.memory.robots-bytes', 'the same, byte body', 'B', mem.bytes, mem.theirs, RP, { styles: { ratio: 'share' } }),
    peerRow('per-site.memory.matcher', `memory per compiled Matcher for Googlebot, its Robots dropped (${count(MEMORY_COUNT)})`, 'B', mem.matcher, mem.theirs, RP, { styles: { ratio: 'share' } }),
    peerRow('per-site.cold.check', `cold start: import + first check in a fresh process, CPU time over one with an empty script (${fmtNs(cold.cpu.empty)}; median of ${cold.runs} runs, interleaved)`, 'ns', cold.cpu.ours, cold.cpu.theirs, RP,
      { styles: signedNs, cells: { empty: cold.cpu.empty, runs: cold.runs } }),
    peerRow('per-site.cold.import', 'the import alone, no check', 'ns', cold.cpu.importOnly, cold.cpu.theirs, RP, { styles: signedNs, cells: { remark: 'against robots-parser\'s whole start' } }),
    peerRow('per-site.cold.parse-only', 'floor of a cold start: an entry exporting only `parseRobots`, bundled from the same sources as dist/ (everything else tree-shaken), import + first check', 'ns', cold.cpu.parseOnly, cold.cpu.theirs, RP,
      { styles: signedNs, cells: { remark: 'against robots-parser\'s whole start' } }),
    peerRow('per-site.cold.wasm', 'floor of a cold start: a module holding only the package\'s wasm (base64, as the bundle embeds it), compiled and instantiated, no JS of the package', 'ns', cold.cpu.wasm, cold.cpu.theirs, RP,
      { styles: signedNs, cells: { remark: 'against robots-parser\'s whole start' } }),
    peerRow('per-site.cold.wall', `the same cold start in wall time, which on a busy machine mostly measures the wait for a core (over the empty script's ${fmtNs(cold.empty)})`, 'ns', cold.ours, cold.theirs, RP, { styles: signedNs, cells: { empty: cold.empty } }),
  ]
  const sections = [{
    id: 'per-site', title: 'what crawlers do',
    intro: [`Measured ${date} on ${machine}, ${node}; robots-parser 3.0.1 in the same process, interleaved, median of ${rounds} rounds (${checks.rounds} for the crawler-shaped checks); the ${count(files)} real files of ../shared/corpus/robots (${mb.toFixed(1)} MB).`],
    columns: [
      { key: 'theirs', label: 'robots-parser' }, { key: 'ours', label: 'robotstxt-wasm' }, { key: 'ratio', label: 'robotstxt-wasm is', style: 'faster' },
      { key: 'vsMatcher', label: 'time / Matcher.isAllowed\'s', unit: 'x', digits: 2 }, { key: 'remark', label: 'note', unit: 'text' },
    ],
    rows: perSiteRows,
    after: [
      'Memory is V8 heap plus external memory (wasm memory included) after `gc()`, each library in a child process of its own; each object has a body of its own, as each fetch gives.',
      'Cold start CPU time is each process\'s own `process.cpuUsage()` at the end of its script, all threads: what the start costs.',
    ],
  }]

  sections.push(fieldSection(many.field, py, { date, machine, node, rounds, files }))
  if (many.floors !== undefined) sections.push(...manyAgentsSections(many, files, rounds))
  if (many.robots !== undefined) manyAgentsGoals(many, goal)
  return { sections, goals }
}

/**
 * The field benchmark's table: fieldNode's rows (robotstxt-wasm's ways first, the first of them the
 * base every "total / first row" divides by, then robots-parser) and fieldPython's `py.rows`.
 */
function fieldSection(field, py, { date, machine, node, rounds, files }) {
  const base = field[0]
  const rows = [...field, ...py.rows].map((r) => {
    const id = fieldId(r)
    if (r.error !== undefined) return { id, label: r.name, unit: 'ns', ours: null, theirs: null, peer: r.name, ratio: null, error: r.error }
    const cells = { body: r.body, via: r.via, total: r.total, p50: r.p50, p95: r.p95, p99: r.p99, relative: r.total / base.total, agree: { right: r.agree, total: r.checks } }
    return r.name === 'robotstxt-wasm' ? row(id, r.name, 'ns', r.total, { cells }) : peerRow(id, r.name, 'ns', base.total, r.total, r.name, { cells })
  })
  return {
    id: 'field', title: 'library',
    intro: [`The field's benchmark (the one Scrapy used to choose protego): for each of the ${count(files)} sites, parse its robots.txt, then check its links, here its labelled URLs from ../shared/corpus/cases.jsonl (${count(base.checks)} in all), each for its case's own agent, as the labels are. Measured ${date} on ${machine}; ${node} in this process${py.python === null ? ' (the Python libraries not run)' : ` and ${py.python} in its own`}, each side interleaved, median of ${rounds} rounds; per-site percentiles by nearest rank over each site's median.`],
    columns: [
      { key: 'body', label: 'body', unit: 'text' }, { key: 'via', label: 'checks through', unit: 'text' }, { key: 'total', label: 'total', unit: 'ns' },
      { key: 'p50', label: 'p50 per site', unit: 'ns' }, { key: 'p95', label: 'p95', unit: 'ns' }, { key: 'p99', label: 'p99', unit: 'ns' },
      { key: 'relative', label: 'total / first row', unit: 'x', digits: 2 }, { key: 'agree', label: 'agrees with the labels', unit: 'agreement' },
    ],
    rows,
  }
}

/**
 * Issue 51's rows (many agents a site, few URLs an agent): the field benchmark's Node side, with
 * checkMatrix beside the one-by-one checks, its floors and the costs of a site's later agents, and
 * `robotstxt test`'s engine work.
 */
async function manyAgents(sites, rounds) {
  fieldMatrix(sites)
  const field = fieldNode(sites, rounds)
  for (const f of field) log(`per site, field: ${f.name} (${f.body}, ${f.via}) ${fmtNs(f.total)}, agrees ${f.agree}/${f.checks}`)
  const floors = await fieldFloors(sites, rounds)
  const crossover = floors.compile / (floors.stream - floors.table)
  log(`per site, field floors: Robots.isAllowed with free compiles ${fmtNs(floors.robotsFloor)}, checkMatrix of one URL and agent a site ${fmtNs(floors.matrixFloor)}; a later agent: streamed check ${fmtNs(floors.stream)}, compile ${fmtNs(floors.compile)}, table check ${fmtNs(floors.table)} (crossover ${crossover.toFixed(2)} checks)`)
  const exp = expectations(sites, rounds)
  log(`per site, expectations: ${exp.checks} a file, ours ${fmtNs(exp.ours)}, robots-parser ${fmtNs(exp.theirs)}`)
  const total = (test) => field.find(test).total
  return {
    field, floors, crossover, exp,
    theirs: total((f) => f.name.startsWith('robots-parser')),
    robots: total((f) => f.body === 'string' && f.via.startsWith('`Robots.isAllowed')),
    matrix: total((f) => f.body === 'string' && f.via.startsWith('`Robots.checkMatrix')),
  }
}

function manyAgentsGoals(m, goal) {
  goal('goal.field.robots', 'field benchmark through Robots.isAllowed (issue 51): robots-parser / ours', m.theirs / m.robots, ['>=', 8], { row: 'field.robotstxt-wasm.string.robots' })
  goal('goal.field.matrix', 'field benchmark through Robots.checkMatrix, one call per site: robots-parser / ours', m.theirs / m.matrix, ['>=', 12], { row: 'field.robotstxt-wasm.string.matrix' })
  goal('goal.expectations', '`robotstxt test`\'s engine work, 50 expectations over 10 presets, per file: robots-parser / ours', m.exp.theirs / m.exp.ours, ['>=', 10], { row: 'expectations.per-file' })
}

/** The floors and costs under the field benchmark, and `robotstxt test`'s engine work. */
function manyAgentsSections({ floors, crossover, exp, theirs }, files, rounds) {
  const floorRow = (id, label, ns) => peerRow(id, label, 'ns', ns, theirs, RP)
  return [{
    id: 'field-floors', title: 'what',
    intro: [`Floors and costs under the field benchmark, in the same process, interleaved, median of ${rounds} rounds; the last column is robots-parser's field total over the row's time, the most robotstxt-wasm can reach that way:`],
    columns: [{ key: 'ours', label: 'time' }, { key: 'ratio', label: 'robots-parser\'s field total / it', digits: 2 }],
    rows: [
      floorRow('field-floors.robots', 'floor of `Robots.isAllowed`: each site\'s first contact (parse + its first labelled check), then every other check through a Matcher compiled beforehand (compiles not timed)', floors.robotsFloor),
      floorRow('field-floors.matrix', 'floor of `checkMatrix`: parse + one pass answering the site\'s first labelled URL for its agent', floors.matrixFloor),
      row('field-floors.stream', 'a later agent\'s check streamed over the site\'s compact body, per (site, agent) (no table: the path of a site\'s first check)', 'ns', floors.stream),
      row('field-floors.compile', 'a site\'s first compile and its first check (`Robots.matcher` after the site\'s first check), per site', 'ns', floors.compile),
      row('field-floors.table', 'a check through a compiled Matcher, per check, in site order', 'ns', floors.table),
      row('field-floors.crossover', 'crossover: checks of a (site, agent) that cost one compile when each is streamed instead (compile / (streamed - table))', 'checks', crossover),
    ],
  }, {
    id: 'expectations', title: 'per file',
    intro: [`\`robotstxt test\`'s engine work: ${count(files)} files, each with ${exp.checks} expectations (presets ${EXPECT_PRESETS.join(', ')}; paths ${EXPECT_PATHS.map((p) => `\`${p}\``).join(', ')} on the file's origin), judged from parseRobots + one \`checkMatrix\` over \`crawlerTokens\` of each preset; robots-parser parses the file and answers the same ${exp.checks} checks (each preset as its first token). Same process, interleaved, median of ${rounds} rounds.`],
    columns: [{ key: 'theirs', label: 'robots-parser' }, { key: 'ours', label: 'robotstxt-wasm' }, { key: 'ratio', label: 'robotstxt-wasm is', style: 'faster' }],
    rows: [peerRow('expectations.per-file', `parse + ${exp.checks} checks`, 'ns', exp.ours, exp.theirs, RP, { cells: { checks: exp.checks } })],
  }]
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Alone: the section printed as bench/RESULTS.md has it, with its goals; nothing is written.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
  const print = (sections, goals) => {
    const md = sections.flatMap((s) => ['', ...sectionMarkdown(s)])
    md.push('', ...sectionMarkdown(goalsSection(goals)))
    process.stdout.write(md.join('\n') + '\n')
  }
  if (process.argv.includes('--many-agents')) {
    // Only issue 51's rows: the field benchmark's Node side, its floors, `robotstxt test`'s work.
    const sites = loadSites(CORPUS)
    const m = await manyAgents(sites, rounds)
    const goals = []
    manyAgentsGoals(m, (id, label, measured, wanted, { row: of } = {}) => goals.push(goalRow(id, { label, measured, goal: wanted, row: of })))
    const meta = { date: today(), machine: describeMachine(), node: `Node ${process.version}`, rounds, files: sites.length }
    print([fieldSection(m.field, { python: null, rows: [] }, meta), ...manyAgentsSections(m, sites.length, rounds)], goals)
  } else {
    const { sections, goals } = await perSite({ rounds })
    print(sections, goals)
  }
}
