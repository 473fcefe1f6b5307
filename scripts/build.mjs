// Bundles src/ into dist/ (run after `asc` has written build/robots.wasm):
//   dist/index.js, dist/index.cjs  Node and bundlers; the wasm bytes embedded as base64 (decoded at first use)
//   dist/workerd.js + robots.wasm  Cloudflare Workers; the .wasm imported as a module
//   dist/deno.js                   Deno; workerd.js with the .wasm imported in the source phase
//                                  (`import source`, Deno 2.x: a WebAssembly.Module, compiled by
//                                  the runtime as it loads the module graph)
//   dist/cli.js                    the `robotstxt` command (Node, self-contained, version inlined); its
//                                  worker threads (check --urls, filter --threads N) run this same file
//   dist/compat.js, dist/compat.cjs, dist/compat-workerd.js
//                                  `robotstxt-wasm/compat` (robots-parser's API), built like the above
//   dist/crawlee.js, dist/crawlee.cjs  `robotstxt-wasm/crawlee`; crawlee, @crawlee/* and undici stay
//                                  external (optional peers, imported lazily), and src/public.ts is the
//                                  package's own main entry (`robotstxt-wasm`), so that both entries share
//                                  one RobotsCache class and one wasm instance
//   dist/survey.js                 `surveyRobots` and the `survey` command's engine (Node only: files,
//                                  worker threads; warcio bundled in, @duckdb/node-api external: an
//                                  optional peer for Parquet output). The main entries and dist/cli.js
//                                  load it with a dynamic import on first use, so they keep no runtime
//                                  dependency; its worker threads run this same file.
//   dist/playground/               the playground page (index.html, style.css, app.js with the wasm
//                                  embedded), static files served by `robotstxt playground`
// Type declarations (dist/*.d.ts, dist/*.d.cts) come from scripts/build-types.mjs.
import { build } from 'esbuild'
import { join } from 'node:path'
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { common as shared } from './bundle-options.mjs'

const publicAsPackage = {
  name: 'public-as-package',
  setup(b) {
    b.onResolve({ filter: /\/public\.js$/ }, () => ({ path: 'robotstxt-wasm', external: true }))
  },
}

const wasmAsModule = {
  name: 'wasm-as-module',
  setup(b) {
    b.onResolve({ filter: /\.wasm$/ }, () => ({ path: './robots.wasm', external: true }))
  },
}

// src/survey/load.ts in every bundle but the survey chunk itself: on Node, an import of the chunk
// beside the bundle, through a variable so that a browser bundler (which the `browser` condition
// sends to dist/index.js) does not try to bundle its node: modules; on Workers, a rejection.
const surveyChunk = (onNode) => ({
  name: 'survey-chunk',
  setup(b) {
    b.onResolve({ filter: /^\.\/load\.js$/ }, (args) => (/[\\/]survey[\\/]lazy\.ts$/.test(args.importer) ? { path: 'load', namespace: 'survey-chunk' } : undefined))
    b.onResolve({ filter: /[\\/]survey[\\/]load\.js$/ }, () => ({ path: 'load', namespace: 'survey-chunk' }))
    b.onLoad({ filter: /.*/, namespace: 'survey-chunk' }, () => ({
      // A parameter, not a constant: minification would fold a constant into a literal import.
      contents: onNode
        ? "export function loadSurveyChunk(chunk = './survey.js') { return import(chunk) }"
        : "export function loadSurveyChunk() { return Promise.reject(new Error('the survey needs Node (files, worker threads)')) }",
      loader: 'js',
    }))
  },
})
const quietImport = { logOverride: { 'unsupported-dynamic-import': 'silent' } }

// Every bundle knows the package version (src/http/user-agent.ts names it in the default User-Agent).
const version = { __ROBOTSTXT_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) }
const common = { ...shared, define: version }

mkdirSync('dist/playground', { recursive: true })
await Promise.all([
  build({ ...common, entryPoints: ['src/index.ts'], format: 'esm', outfile: 'dist/index.js', loader: { '.wasm': 'base64' }, plugins: [surveyChunk(true)], ...quietImport }),
  build({ ...common, entryPoints: ['src/index.ts'], format: 'cjs', outfile: 'dist/index.cjs', loader: { '.wasm': 'base64' }, plugins: [surveyChunk(true)], ...quietImport }),
  build({ ...common, entryPoints: ['src/workerd.ts'], format: 'esm', outfile: 'dist/workerd.js', plugins: [wasmAsModule, surveyChunk(false)] }),
  build({
    ...common, platform: 'node', entryPoints: ['src/survey/index.ts'], format: 'esm', outfile: 'dist/survey.js', loader: { '.wasm': 'base64' },
    // DuckDB writes --out FILE.parquet: an optional peer, imported (by a name in a parameter) only then.
    external: ['@duckdb/node-api'], ...quietImport,
    define: { ...version, __SURVEY_CHUNK__: 'true' },
  }),
  build({ ...common, entryPoints: ['src/compat.ts'], format: 'esm', outfile: 'dist/compat.js', loader: { '.wasm': 'base64' } }),
  // robots-parser is `module.exports = function`, so require('robotstxt-wasm/compat') must return the
  // function itself, not esbuild's { default } namespace object.
  build({
    ...common, entryPoints: ['src/compat.ts'], format: 'cjs', outfile: 'dist/compat.cjs', loader: { '.wasm': 'base64' },
    footer: { js: 'module.exports = module.exports.default;' },
  }),
  ...['esm', 'cjs'].map((format) => build({
    ...common, entryPoints: ['src/crawlee.ts'], format, outfile: `dist/crawlee.${format === 'esm' ? 'js' : 'cjs'}`,
    // node:module: tldts ('same-domain' sitemaps) is required on first use, synchronously; the CommonJS
    // build reads its own __filename there, never the import.meta.url esbuild leaves empty.
    external: ['crawlee', '@crawlee/*', 'undici', 'node:module'], plugins: [publicAsPackage],
    logOverride: { 'empty-import-meta': 'silent' },
  })),
  build({ ...common, entryPoints: ['src/compat-workerd.ts'], format: 'esm', outfile: 'dist/compat-workerd.js', plugins: [wasmAsModule] }),
  build({ ...common, platform: 'browser', entryPoints: ['playground/app.ts'], format: 'esm', outfile: 'dist/playground/app.js', loader: { '.wasm': 'base64' }, minify: true }),
  build({
    ...common, platform: 'node', entryPoints: ['src/cli.ts'], format: 'esm', outfile: 'dist/cli.js', loader: { '.wasm': 'base64' },
    plugins: [surveyChunk(true)], ...quietImport, banner: { js: '#!/usr/bin/env node' },
    define: { ...version, __CLI_BUNDLE__: 'true' },
  }),
])
chmodSync('dist/cli.js', 0o755)
for (const f of ['index.js', 'index.cjs', 'workerd.js', 'compat.js', 'compat.cjs', 'compat-workerd.js', 'crawlee.js', 'crawlee.cjs']) nameExportedClasses(join('dist', f))
// Deno: the Workers build, importing the wasm in the source phase (esbuild cannot emit that syntax).
for (const [from, to] of [['dist/workerd.js', 'dist/deno.js'], ['dist/compat-workerd.js', 'dist/compat-deno.js']]) {
  const code = readFileSync(from, 'utf8')
  const plain = /import ([\w$]+) ?from ?"\.\/robots\.wasm";/g
  if (code.match(plain)?.length !== 1) throw new Error(`build: expected one import of "./robots.wasm" in ${from}`)
  writeFileSync(to, code.replace(plain, 'import source $1 from "./robots.wasm";'))
}
copyFileSync('build/robots.wasm', 'dist/robots.wasm')
for (const f of ['index.html', 'style.css']) copyFileSync(join('playground', f), join('dist', 'playground', f))

/**
 * Gives each exported class its public name back: minifying renames `Robots` to a letter or two,
 * which inspect output (`Robots {}`) and stack traces would then show. esbuild emits a class as
 * `var x=class{`, which becomes the named expression `var x=class Robots{` (no code runs for it, and
 * bundlers still drop it when unused), or, for a class that refers to itself, as `var x=class e{`,
 * whose inner name the body uses: that one gets its name from a static block (such classes are the
 * core ones, Robots and Matcher, never dropped). The exports are read from the ESM export clause or,
 * in the CommonJS builds, from esbuild's getter map (`Robots:()=>x`).
 */
function nameExportedClasses(file) {
  let code = readFileSync(file, 'utf8')
  const esm = code.match(/export\{([^}]*)\};?\s*$/)
  const pairs = esm !== null
    ? esm[1].split(',').map((e) => e.trim().split(/\s+as\s+/)).map(([local, name = local]) => [name, local])
    : [...code.matchAll(/([\w$]+):\(\)=>([\w$]+)/g)].map((m) => [m[1], m[2]])
  for (const [name, local] of pairs) {
    if (name === 'default' || name === local) continue
    const id = local.replaceAll('$', '\\$')
    const defined = code.match(new RegExp(`(?<![\\w$])${id}=class\\b`, 'g'))?.length ?? 0
    if (defined === 0) continue
    const at = new RegExp(`(?<![\\w$])${id}=class( [\\w$]+)?( extends [\\w$.]+)?\\{`, 'g')
    if (defined !== 1 || code.match(at)?.length !== 1) throw new Error(`build: cannot name class ${name} (${local}) in ${file}`)
    code = code.replace(at, (_, inner, ext = '') => inner === undefined
      ? `${local}=class ${name}${ext}{`
      : `${local}=class${inner}${ext}{static{Object.defineProperty(this,"name",{value:${JSON.stringify(name)}})}`)
  }
  writeFileSync(file, code)
}
