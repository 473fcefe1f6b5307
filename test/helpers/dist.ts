// dist/ as `npm run build` leaves it, for the tests of the package as published (package.test.ts,
// sizes.test.ts). Each step is rerun only when its output is missing or older than its inputs, so a
// test file run on its own checks the current sources; under `npm test` the build has just run and
// nothing is rebuilt.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const DIST = join(ROOT, 'dist')

/** The bundles scripts/build.mjs writes (robots.wasm is copied beside them). */
export const BUNDLES = ['index.js', 'index.cjs', 'workerd.js', 'deno.js', 'compat.js', 'compat.cjs', 'compat-workerd.js', 'compat-deno.js', 'crawlee.js', 'crawlee.cjs', 'cli.js', 'survey.js', 'robots.wasm']
/** The declarations scripts/build-types.mjs writes. */
export const DECLARATIONS = ['index.d.ts', 'index.d.cts', 'compat.d.ts', 'compat.d.cts', 'crawlee.d.ts', 'crawlee.d.cts']

/** Latest modification time of `paths` (files, or directories searched recursively); 0 if none exist. */
function newest(...paths: string[]): number {
  let time = 0
  for (const path of paths.map((p) => join(ROOT, p))) {
    if (!existsSync(path)) continue
    const stat = statSync(path)
    if (!stat.isDirectory()) {
      time = Math.max(time, stat.mtimeMs)
      continue
    }
    for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs)
    }
  }
  return time
}

function stale(outputs: string[], inputs: number): boolean {
  return outputs.some((file) => !existsSync(file) || statSync(file).mtimeMs < inputs)
}

/** Brings build/robots.wasm, the bundles and the declarations up to date with their sources. */
export function ensureDist(): void {
  const wasm = join(ROOT, 'build', 'robots.wasm')
  if (stale([wasm], newest('assembly', 'asconfig.json'))) {
    execFileSync('npm', ['run', 'build:wasm', '--silent'], { cwd: ROOT, stdio: 'inherit' })
  }
  if (stale(BUNDLES.map((f) => join(DIST, f)), newest('src', 'scripts/build.mjs', 'build/robots.wasm', 'package.json'))) {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
  }
  if (stale(DECLARATIONS.map((f) => join(DIST, f)), newest('src', 'scripts/build-types.mjs', 'tsconfig.json', 'tsconfig.build.json'))) {
    execFileSync(process.execPath, ['scripts/build-types.mjs'], { cwd: ROOT, stdio: 'inherit' })
  }
}
