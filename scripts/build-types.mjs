// Type declarations of the package, one self-contained file per entry and module format:
//   dist/index.d.ts, dist/index.d.cts      `robotstxt-wasm` (the same text: the entry's ESM and CommonJS
//                                          builds export the same names); also the workerd build's types
//   dist/compat.d.ts                       `robotstxt-wasm/compat` for import (a default export)
//   dist/compat.d.cts                      ... for require (`export =`, like dist/compat.cjs's module.exports;
//                                          hand-written in src/compat.d.cts)
//   dist/crawlee.d.ts, dist/crawlee.d.cts  `robotstxt-wasm/crawlee` (named exports in both formats; no
//                                          reference to crawlee's own types). Like its bundles, it takes
//                                          the public names from `robotstxt-wasm` itself (one RobotsCache
//                                          type for both entries), so that import is kept, not inlined.
// TypeScript takes a declaration file's module format from its extension and the package's "type",
// so a lone index.d.ts would type `require('robotstxt-wasm')` as requiring an ES module (TS1479);
// package.json's `exports` give each condition its own file. One file per entry also means no
// internal module paths that a consumer could reach.
//
// Steps: tsc writes per-file declarations with @internal members stripped into build/types
// (tsconfig.build.json), then dts-bundle-generator folds each entry's into one file.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const at = (path) => join(root, path)

// Removed first so that a deleted source leaves no stale declaration behind.
rmSync(at('build/types'), { recursive: true, force: true })
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', at('tsconfig.build.json')], { stdio: 'inherit' })

/**
 * The crawlee entry's declarations: its view of src/public.ts is the package's main entry (see
 * scripts/build.mjs), so that import must stay an import, which dts-bundle-generator would inline.
 * The entry is src/integrations/crawlee.ts (all of whose exports it re-exports) plus re-exports of
 * public names; the integration's declarations import nothing else.
 */
function crawleeDeclarations() {
  const toPackage = (text) => text.replace(/(from\s+)'(?:\.\.?\/)+public\.js'/g, "$1'robotstxt-wasm'")
  const integration = toPackage(readFileSync(at('build/types/integrations/crawlee.d.ts'), 'utf8'))
  const entry = toPackage(readFileSync(at('build/types/crawlee.d.ts'), 'utf8'))
  const reexports = entry.split(/(?<=;)\n/).filter((s) => s.trim() !== '' && !s.includes("'./integrations/crawlee.js'"))
  // Statements only: the TSDoc examples kept in the declarations import crawlee and redis.
  const imports = [...integration.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)].map((m) => m[1])
  if (imports.some((m) => m !== 'robotstxt-wasm') || reexports.some((s) => !s.includes("from 'robotstxt-wasm'"))) {
    throw new Error('build-types: the crawlee entry imports more than robotstxt-wasm and its integration')
  }
  return `${integration.trimEnd()}\n${reexports.join('\n')}\n`
}

const { generateDtsBundle } = require('dts-bundle-generator')
// Only names the entry exports are exported (exportReferencedTypes: false): a type the public API
// mentions but does not export stays a local declaration instead of becoming public by accident.
const output = { noBanner: true, exportReferencedTypes: false }
const crawlee = crawleeDeclarations()
const [index, compat] = generateDtsBundle(
  [
    { filePath: at('build/types/index.d.ts'), output },
    { filePath: at('build/types/compat.d.ts'), output },
  ],
  { preferredConfigPath: at('tsconfig.build.json') },
)

for (const [name, text] of [['index', index], ['compat', compat], ['crawlee', crawlee]]) {
  // Self-contained: a relative import would point into build/types, which is not shipped.
  const relative = /\bfrom\s+['"]\.{1,2}\/|\bimport\(\s*['"]\.{1,2}\//.exec(text ?? '')
  if (text === undefined || relative !== null) throw new Error(`build-types: the ${name} declarations are not self-contained`)
}

/** Writes through a temporary file and a rename, so a concurrent reader never sees half a file. */
function put(path, write) {
  const tmp = `${at(path)}.${process.pid}.tmp`
  write(tmp)
  renameSync(tmp, at(path))
}

mkdirSync(at('dist'), { recursive: true })
put('dist/index.d.ts', (tmp) => writeFileSync(tmp, index))
put('dist/index.d.cts', (tmp) => writeFileSync(tmp, index))
put('dist/compat.d.ts', (tmp) => writeFileSync(tmp, compat))
put('dist/compat.d.cts', (tmp) => copyFileSync(at('src/compat.d.cts'), tmp))
put('dist/crawlee.d.ts', (tmp) => writeFileSync(tmp, crawlee))
put('dist/crawlee.d.cts', (tmp) => writeFileSync(tmp, crawlee))
// The per-file layout of earlier builds; nothing points there any more.
rmSync(at('dist/types'), { recursive: true, force: true })
