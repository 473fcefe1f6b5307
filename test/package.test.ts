// The package as npm publishes it: `npm pack`, installed offline into an empty project (it has no
// runtime dependencies, so no registry is needed), then used the ways its users use it: import and
// require of both entries, the workerd export condition, TypeScript consumers under every module
// resolution in use (node16, nodenext, bundler, node10) and the `robotstxt` and `robotstxt-wasm`
// bins, through npx as the docs write them (also from an empty folder, the tarball standing for
// the registry's copy; --offline: no test depends on the registry). The shipped
// declarations are also read directly: the API contract's names, and TSDoc on everything.
//
// Runtime checks run on this Node and on every extra Node executable listed in ROBOTSTXT_TEST_NODES
// (separated by ':'), which is how the versions in package.json's `engines` are tested.
import { execFile, type ExecFileException } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureDist, ROOT } from './helpers/dist.js'

const NAME = 'robotstxt-wasm'

/** Exactly what the tarball holds: the built entries, their declarations and the wasm, and the docs. */
const PACKED = [
  'LICENSE',
  'README.md',
  'dist/cli.js',
  'dist/compat-deno.js',
  'dist/compat-workerd.js',
  'dist/compat.cjs',
  'dist/compat.d.cts',
  'dist/compat.d.ts',
  'dist/compat.js',
  'dist/crawlee.cjs',
  'dist/crawlee.d.cts',
  'dist/crawlee.d.ts',
  'dist/crawlee.js',
  'dist/deno.js',
  'dist/index.cjs',
  'dist/index.d.cts',
  'dist/index.d.ts',
  'dist/index.js',
  'dist/playground/app.js',
  'dist/playground/index.html',
  'dist/playground/style.css',
  'dist/robots.wasm',
  'dist/survey.js',
  'dist/workerd.js',
  'package.json',
]

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
const NODES = [process.execPath, ...(process.env.ROBOTSTXT_TEST_NODES ?? '').split(':').filter((p) => p !== '')]

// Child npm processes must not inherit the npm_* variables of an enclosing `npm test` (its
// lifecycle event, package fields and config, such as the repository's prefix).
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))
env.npm_config_update_notifier = 'false'

interface Run { code: number; stdout: string; stderr: string }

/** Runs a command to completion without blocking this process (the HTTP server below answers the children). */
function run(file: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, encoding: 'utf8', timeout: 60_000 }, (error: ExecFileException | null, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr })
    })
  })
}

/** Runs a script in the consumer project and returns what it printed as JSON. */
async function script(node: string, args: string[], cwd: string): Promise<unknown> {
  const r = await run(node, args, cwd)
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return JSON.parse(r.stdout) as unknown
}

let tmp = ''
let tarball = ''
let consumer = ''
let packed: string[] = []
let server: Server
let site = ''

beforeAll(async () => {
  ensureDist()
  tmp = mkdtempSync(join(tmpdir(), 'robotstxt-package-'))
  // --ignore-scripts: `prepare` would rebuild dist/ while other test files read it; it is current.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT)
  expect(pack.code, pack.stderr).toBe(0)
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[]
  if (info === undefined) throw new Error('npm pack printed no package')
  packed = info.files.map((f) => f.path).sort()
  tarball = join(tmp, info.filename)

  consumer = join(tmp, 'consumer')
  mkdirSync(consumer)
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '0.0.0', private: true }))
  const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(tmp, info.filename)], consumer)
  expect(install.code, install.stderr).toBe(0)

  server = createServer((req, res) => {
    if (req.url === '/robots.txt') res.end('User-agent: *\nDisallow: /private\n')
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 120_000)

afterAll(async () => {
  if (server !== undefined) await new Promise((resolve) => server.close(resolve))
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
})

test('the tarball holds exactly dist/ (bundles, declarations, wasm), README, LICENSE and package.json', () => {
  expect(packed).toEqual(PACKED)
})

test('the installed package.json has no runtime dependencies and points every entry at a packed file', () => {
  const pkg = JSON.parse(readFileSync(join(consumer, 'node_modules', NAME, 'package.json'), 'utf8')) as Record<string, unknown>
  expect(pkg.dependencies ?? {}).toEqual({})
  // Peers only for robotstxt-wasm/crawlee and the survey's Parquet output, every one optional:
  // installing the package pulls in nothing.
  const peers = Object.keys(pkg.peerDependencies ?? {})
  expect(peers.sort()).toEqual(['@crawlee/basic', '@crawlee/utils', '@duckdb/node-api', 'crawlee', 'tldts', 'undici'])
  const meta = (pkg.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>
  for (const peer of peers) expect(meta[peer]?.optional, peer).toBe(true)
  expect(readdirSync(join(consumer, 'node_modules')).filter((d) => !d.startsWith('.')).sort()).toEqual([NAME])
  expect(pkg.optionalDependencies ?? {}).toEqual({})
  const targets = JSON.stringify([pkg.exports, pkg.main, pkg.module, pkg.types, pkg.typesVersions, pkg.bin]).match(/\.?\/?dist\/[\w.-]+/g) ?? []
  expect(targets.length).toBeGreaterThan(10)
  for (const target of targets) expect(PACKED, target).toContain(target.replace(/^\.\//, ''))
})

/** The public names docs/api.md documents, which the main entry must export. */
const API = ['parseRobots', 'Robots', 'Matcher', 'Verdict', 'LineReport', 'fetchRobots', 'FetchOptions', 'RobotsFetch', 'RobotsCache', 'diffRobots', 'RobotsDiff', 'Directive', 'UsagePreference', 'crawlers', 'crawlerTokens', 'surveyRobots']

/** Exported names of a declaration file, and the declarations (or members) without a TSDoc comment. */
function declarations(file: string): { exported: string[]; undocumented: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const exported: string[] = []
  const undocumented: string[] = []
  const documented = (node: ts.Node) => ts.getJSDocCommentsAndTags(node).length > 0
  for (const statement of source.statements) {
    // robotstxt-wasm/crawlee imports the main entry's names; an import declares nothing new.
    if (ts.isImportDeclaration(statement)) continue
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) exported.push(element.name.text)
      }
      continue
    }
    const named = statement as ts.Statement & { name?: ts.Identifier; declarationList?: ts.VariableDeclarationList; members?: ts.NodeArray<ts.ClassElement | ts.TypeElement> }
    const name = named.name?.text ?? named.declarationList?.declarations[0]?.name.getText(source) ?? '?'
    if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) exported.push(name)
    if (!documented(statement)) undocumented.push(name)
    for (const member of named.members ?? []) {
      // A constructor is documented by its class; `#private` is TypeScript's marker for private fields.
      if (ts.isConstructorDeclaration(member) || (member.name !== undefined && ts.isPrivateIdentifier(member.name))) continue
      if (!documented(member)) undocumented.push(`${name}.${member.name?.getText(source) ?? '?'}`)
    }
  }
  return { exported, undocumented }
}

test('the declarations export every API name, each declaration and member with TSDoc; .d.cts is the same text', () => {
  const dist = join(consumer, 'node_modules', NAME, 'dist')
  const main = declarations(join(dist, 'index.d.ts'))
  expect(main.exported).toEqual(expect.arrayContaining(API))
  expect(main.undocumented).toEqual([])
  expect(readFileSync(join(dist, 'index.d.cts'), 'utf8')).toBe(readFileSync(join(dist, 'index.d.ts'), 'utf8'))
  const compat = declarations(join(dist, 'compat.d.ts'))
  expect(compat.exported.sort()).toEqual(['Robot', 'default'])
  expect(compat.undocumented).toEqual([])
  const crawlee = declarations(join(dist, 'crawlee.d.ts'))
  expect(crawlee.exported).toEqual(expect.arrayContaining(['RobotsTxtFile', 'withGoogleRobots', 'RobotsCache']))
  expect(crawlee.undocumented).toEqual([])
  expect(readFileSync(join(dist, 'crawlee.d.cts'), 'utf8')).toBe(readFileSync(join(dist, 'crawlee.d.ts'), 'utf8'))
})

test('surveyRobots from the installed package, by import and by require, on two worker threads', async () => {
  const lines = ['https://a.example', 'https://b.example', 'https://c.example'].map((origin, i) =>
    JSON.stringify({ origin, status: 200, body: i === 1 ? 'User-agent: GPTBot\nDisallow: /\n' : 'User-agent: *\nAllow: /\n' }))
  writeFileSync(join(consumer, 'survey-in.jsonl'), `${lines.join('\n')}\n`)
  const loop = `const out = []; for await (const r of surveyRobots('survey-in.jsonl', { crawlers: ['GPTBot'], threads: 2 })) out.push([r.origin, r.crawlers[0].class]); console.log(JSON.stringify(out))`
  const expected = [['https://a.example', 'allowed'], ['https://b.example', 'blocked'], ['https://c.example', 'allowed']]
  expect(await script(process.execPath, ['--input-type=module', '-e', `import { surveyRobots } from '${NAME}'; ${loop}`], consumer)).toEqual(expected)
  expect(await script(process.execPath, ['-e', `const { surveyRobots } = require('${NAME}'); (async () => { ${loop} })()`], consumer)).toEqual(expected)
  // V8 and process-wide flags, which Worker refuses in execArgv: `npm run bench` runs with --expose-gc.
  expect(await script(process.execPath, ['--expose-gc', '--max-old-space-size=512', '--enable-source-maps', '--input-type=module', '-e', `import { surveyRobots } from '${NAME}'; ${loop}`], consumer)).toEqual(expected)
})

describe.each(NODES)('runtime on %s', (node) => {
  const robots = 'User-agent: *\\nDisallow: /private\\nAllow: /private/ok\\n'
  const urls = "['https://example.com/', 'https://example.com/private/a', new URL('https://example.com/private/ok')]"
  const expected = {
    verdict: { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' } },
    many: [1, 0, 1],
    matcher: true,
  }

  test('import { parseRobots, fetchRobots, RobotsCache } from robotstxt-wasm', async () => {
    const code = `
      import { parseRobots, Matcher, fetchRobots, RobotsCache } from '${NAME}'
      const robots = parseRobots('${robots}')
      const m = robots.matcher('Bot/1.0')
      const fetched = await fetchRobots('${site}/any/page')
      const cache = new RobotsCache()
      console.log(JSON.stringify({
        verdict: robots.check('https://example.com/private/x', 'Bot'),
        many: [...m.isAllowedMany(${urls})],
        matcher: m instanceof Matcher,
        fetched: [fetched.outcome, fetched.status, fetched.isAllowed('${site}/private', 'Bot')],
        cached: [await cache.isAllowed('${site}/private', 'Bot'), await cache.isAllowed('${site}/public', 'Bot')],
      }))`
    expect(await script(node, ['--input-type=module', '-e', code], consumer)).toEqual({
      ...expected,
      fetched: ['ok', 200, false],
      cached: [false, true],
    })
  })

  test('the import and a first check read no global the runtime builds on first access (navigator) and make no AbortController', async () => {
    // Node builds \`navigator\` on first access: 0.2-0.3 ms of a process's start. The arena's cap
    // reads it only when the arena first grows (a compiled matcher). A first AbortController loads
    // Node's event-target machinery: 0.2-0.4 ms, which an import-time signal in the cache cost.
    const code = `
      let reads = 0
      let controllers = 0
      const real = Object.getOwnPropertyDescriptor(globalThis, 'navigator')
      Object.defineProperty(globalThis, 'navigator', { configurable: true, get() { reads++; return real?.get?.call(globalThis) } })
      const Real = globalThis.AbortController
      globalThis.AbortController = class extends Real { constructor() { super(); controllers++ } }
      const { parseRobots } = await import('${NAME}')
      const robots = parseRobots('${robots}')
      const first = [robots.isAllowed('https://example.com/private/x', 'Bot'), reads, controllers]
      const compiled = [robots.matcher('Other').isAllowed('https://example.com/private/x'), reads, controllers]
      console.log(JSON.stringify({ first, compiled }))`
    expect(await script(node, ['--input-type=module', '-e', code], consumer)).toEqual({ first: [false, 0, 0], compiled: [false, 1, 0] })
  })

  test("require('robotstxt-wasm') gives the same API from the CommonJS build", async () => {
    const code = `
      const { parseRobots, Matcher, fetchRobots, RobotsCache } = require('${NAME}')
      const robots = parseRobots('${robots}')
      const m = robots.matcher('Bot/1.0')
      console.log(JSON.stringify({
        verdict: robots.check('https://example.com/private/x', 'Bot'),
        many: [...m.isAllowedMany(${urls})],
        matcher: m instanceof Matcher,
        functions: [typeof fetchRobots, typeof RobotsCache],
        file: require.resolve('${NAME}').slice(require.resolve('${NAME}').indexOf('/dist/')),
      }))`
    expect(await script(node, ['-e', code], consumer)).toEqual({ ...expected, functions: ['function', 'function'], file: '/dist/index.cjs' })
  })

  test('robotstxt-wasm/compat: a default export for import, the function itself for require', async () => {
    const check = (parser: string) => `
      const r = ${parser}('https://example.com/robots.txt', 'User-agent: *\\nDisallow: /private\\nCrawl-delay: 3')
      console.log(JSON.stringify([typeof ${parser}, r.isAllowed('https://example.com/private/x', 'Bot'), r.isAllowed('https://example.com/a'), r.isAllowed('https://other.example/a'), r.getMatchingLineNumber('https://example.com/private'), r.getCrawlDelay('Bot')]))`
    const results = [false, true, null, 2, 3] // JSON turns robots-parser's `undefined` (another host) into null
    const esm = `import robotsParser from '${NAME}/compat'\n${check('robotsParser')}`
    expect(await script(node, ['--input-type=module', '-e', esm], consumer)).toEqual(['function', ...results])
    const cjs = `const robotsParser = require('${NAME}/compat')\n${check('robotsParser')}`
    expect(await script(node, ['-e', cjs], consumer)).toEqual(['function', ...results])
  })

  test('robotstxt-wasm/crawlee without crawlee installed: import and require work, sitemaps say what is missing', async () => {
    const check = `
      const robots = RobotsTxtFile.from('https://example.com/robots.txt', 'User-agent: *\\nDisallow: /a/\\nAllow: /a/index.html')
      class Base { async getRobotsTxtFileForUrl() { return undefined } }
      const Sub = withGoogleRobots(Base)
      const error = await robots.parseSitemaps().then(() => 'resolved', (e) => e.message)
      console.log(JSON.stringify([robots.isAllowed('https://example.com/a/'), robots.isAllowed('https://example.com/a/b'), new Sub() instanceof Base, /@crawlee\\/utils/.test(error)]))`
    const esm = `import { RobotsTxtFile, withGoogleRobots } from '${NAME}/crawlee'\n${check}`
    expect(await script(node, ['--input-type=module', '-e', esm], consumer)).toEqual([true, false, true, true])
    const cjs = `const { RobotsTxtFile, withGoogleRobots } = require('${NAME}/crawlee'); (async () => { ${check} })()`
    expect(await script(node, ['-e', cjs], consumer)).toEqual([true, false, true, true])
  })

  test('the workerd condition selects the builds that import robots.wasm as a module', async () => {
    const code = `console.log(JSON.stringify(['${NAME}', '${NAME}/compat'].map((s) => { const u = import.meta.resolve(s); return u.slice(u.indexOf('/dist/')) })))`
    expect(await script(node, ['--conditions=workerd', '--input-type=module', '-e', code], consumer)).toEqual(['/dist/workerd.js', '/dist/compat-workerd.js'])
  })

  test('the robotstxt bin: --help, and check exits 1 for a disallowed URL and 0 for an allowed one', async () => {
    writeFileSync(join(consumer, 'robots.txt'), 'User-agent: *\nDisallow: /private\n')
    // On this Node, through npx as a user types it; on the others, the linked bin run by that Node.
    const bin = node === process.execPath ? ['npx', ['--offline', 'robotstxt']] as const : [node, [join(consumer, 'node_modules', '.bin', 'robotstxt')]] as const
    const cli = (...args: string[]) => run(bin[0], [...bin[1], ...args], consumer)
    const help = await cli('--help')
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/Usage:[\s\S]*robotstxt check ROBOTS AGENT/)
    const denied = await cli('check', 'robots.txt', 'Bot', 'https://example.com/private/x')
    expect([denied.code, denied.stdout]).toEqual([1, 'disallowed\t2\thttps://example.com/private/x\n'])
    const allowed = await cli('check', 'robots.txt', 'Bot', 'https://example.com/public')
    expect(allowed.code, allowed.stderr).toBe(0)
  })
})

describe('npx robotstxt-wasm: the package answers to its own name', () => {
  /** npx, offline, in `cwd`; robots.txt and a site are served for the commands. */
  const npx = (cwd: string, args: string[]) => run('npx', ['--offline', '--yes', ...args], cwd)

  test('the installed package.json has both bins, on the one CLI', () => {
    const pkg = JSON.parse(readFileSync(join(consumer, 'node_modules', NAME, 'package.json'), 'utf8')) as { bin: Record<string, string> }
    expect(pkg.bin).toEqual({ robotstxt: 'dist/cli.js', 'robotstxt-wasm': 'dist/cli.js' })
  })

  test('in a project that depends on it: npx robotstxt-wasm and npx -p robotstxt-wasm robotstxt', async () => {
    writeFileSync(join(consumer, 'robots.txt'), 'User-agent: *\nDisallow: /private\n')
    const help = await npx(consumer, ['robotstxt-wasm', '--help'])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^robotstxt \d+\.\d+\.\d+: robots\.txt checks/)
    const denied = await npx(consumer, ['-p', NAME, 'robotstxt', 'check', 'robots.txt', 'Bot', 'https://example.com/private/x'])
    expect([denied.code, denied.stdout]).toEqual([1, 'disallowed\t2\thttps://example.com/private/x\n'])
    const test = await npx(consumer, ['robotstxt-wasm', 'check', 'robots.txt', 'Bot', '/public'])
    expect([test.code, test.stdout]).toEqual([0, 'allowed\t0\t/public\n'])
  })

  test('from an empty folder (the tarball in place of the registry): the bin named like the package runs', async () => {
    const empty = mkdtempSync(join(tmp, 'empty-'))
    const help = await npx(empty, ['--package', tarball, 'robotstxt-wasm', 'help', 'test'])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toContain('robotstxt test ROBOTS EXPECTATIONS')
    const check = await npx(empty, ['--package', tarball, 'robotstxt', 'check', `${site}/`, 'Bot', `${site}/private/x`])
    expect([check.code, check.stdout]).toEqual([1, `disallowed\t2\t${site}/private/x\n`])
    expect(readdirSync(empty)).toEqual([])
  })
})

describe('TypeScript consumers (strict, library declarations checked too)', () => {
  const api = (from: string) => `
    const robots = parseRobots('User-agent: *\\nDisallow: /private\\n', { maxBytes: 4096 })
    const verdict: Verdict = robots.check('https://example.com/private', ['Bot', 'Other'])
    const kind: 'allow' | 'disallow' | undefined = verdict.rule?.kind
    const matcher: Matcher = robots.matcher('Bot/1.0')
    const bits: Uint8Array = matcher.isAllowedMany([new URL('https://example.com/'), 'https://example.com/private'], new Uint8Array(2))
    const lines: readonly LineReport[] = robots.lines
    const cache = new RobotsCache({ userAgent: 'Bot/1.0', ttlMs: 60_000, maxEntries: 100 })
    export async function allowed(url: string): Promise<boolean> {
      const fetched: RobotsFetch = await fetchRobots(url, { timeoutMs: 5_000, userAgent: 'Bot/1.0' })
      const outcome: 'ok' | 'allow-all' | 'disallow-all' = fetched.outcome
      return outcome !== 'disallow-all' && fetched.isAllowed(url, 'Bot') && (await cache.isAllowed(url, 'Bot'))
    }
    export const used = [verdict.line, kind, bits, lines[0]?.type, robots.sitemaps, robots.crawlDelay('Bot'), matcher.check('https://example.com/').allowed, matcher.isAllowed('https://example.com/')]
    // @ts-expect-error members marked @internal are not in the published declarations
    export const internal = robots.parsed
    // @ts-expect-error the agent is required
    robots.isAllowed('https://example.com/')
    // @ts-expect-error matchers come from robots.matcher(agent): the constructor is private
    export const bare = new Matcher(new Uint8Array(32))
    export const compat: boolean | undefined = ${from}('https://example.com/robots.txt', '').isAllowed('https://example.com/')
    class Crawler { constructor(readonly options: { respectRobotsTxtFile?: boolean }) {} }
    export const Google: typeof Crawler = withGoogleRobots(Crawler, { cache, userAgent: 'Bot' })
    export const google: boolean = RobotsTxtFile.from('https://example.com/robots.txt', '').isAllowed('https://example.com/', 'Bot')
    export const found: Promise<RobotsTxtFile> = RobotsTxtFile.find('https://example.com/', undefined, { timeoutMillis: 1_000 })`
  const esmImports = `
    import { parseRobots, Matcher, fetchRobots, RobotsCache, type Verdict, type LineReport, type RobotsFetch } from '${NAME}'
    import robotsParser from '${NAME}/compat'
    import { RobotsTxtFile, withGoogleRobots } from '${NAME}/crawlee'`
  const files: Record<string, string> = {
    // An ES module under node16/nodenext: the `import` declarations.
    'esm.mts': `${esmImports}\n${api('robotsParser')}`,
    // A CommonJS module under node16/nodenext: the `require` declarations, with both import forms.
    'cjs.cts': `
      import pkg = require('${NAME}')
      import robotsParser = require('${NAME}/compat')
      import { RobotsTxtFile, withGoogleRobots } from '${NAME}/crawlee'
      import { parseRobots, Matcher, fetchRobots, RobotsCache, type Verdict, type LineReport, type RobotsFetch } from '${NAME}'
      export const same: typeof pkg.parseRobots = parseRobots
      ${api('robotsParser')}`,
    // Bundler and classic node10 resolution (a .ts file in a CommonJS package).
    'bundled.ts': `${esmImports}\n${api('robotsParser')}`,
  }

  beforeAll(() => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(consumer, name), text)
  })

  // No --skipLibCheck: the shipped declarations are type-checked too. @types/node comes from the
  // repository, as a consumer has its own.
  const common = ['--noEmit', '--strict', '--target', 'es2022', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types')]
  test.each<[mode: string, args: string[]]>([
    ['node16', ['--module', 'node16', '--moduleResolution', 'node16', 'esm.mts', 'cjs.cts']],
    ['nodenext', ['--module', 'nodenext', '--moduleResolution', 'nodenext', 'esm.mts', 'cjs.cts']],
    ['bundler', ['--module', 'esnext', '--moduleResolution', 'bundler', 'bundled.ts']],
    ['node10', ['--module', 'commonjs', '--moduleResolution', 'node10', '--esModuleInterop', 'bundled.ts']],
  ])('moduleResolution %s', async (_mode, args) => {
    const r = await run(process.execPath, [TSC, ...common, ...args], consumer)
    expect(r.stdout + r.stderr).toBe('')
    expect(r.code).toBe(0)
  }, 60_000)

  test('the CommonJS consumer gets the .d.cts declarations, the ES module the .d.ts ones', async () => {
    const r = await run(process.execPath, [TSC, ...common, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--traceResolution', 'esm.mts', 'cjs.cts'], consumer)
    expect(r.code, r.stdout).toBe(0)
    const resolved = (file: string, spec: string) =>
      new RegExp(`Module name '${spec}' was successfully resolved to '[^']*/node_modules/${NAME}/dist/${file.replace('.', '\\.')}'`).test(r.stdout)
    expect(resolved('index.d.ts', NAME)).toBe(true)
    expect(resolved('index.d.cts', NAME)).toBe(true)
    expect(resolved('compat.d.ts', `${NAME}/compat`)).toBe(true)
    expect(resolved('compat.d.cts', `${NAME}/compat`)).toBe(true)
    expect(resolved('crawlee.d.ts', `${NAME}/crawlee`)).toBe(true)
    expect(resolved('crawlee.d.cts', `${NAME}/crawlee`)).toBe(true)
  }, 60_000)
})
