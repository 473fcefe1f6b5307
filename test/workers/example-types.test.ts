// examples/worker/src typechecks as its `npm run typecheck` does (`wrangler types && tsc`): against
// the Workers runtime types that wrangler generates from the installed workerd, and against the
// package's declarations, freshly emitted from src/ so that the check follows the current API.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { BLOCKED, run, TSC, WRANGLER } from './child.js'
import { ROOT } from './tool-env.js'

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-wasm-example-types-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('examples/worker typechecks against `wrangler types` and the package declarations', () => {
  // The package as a dependency: its package.json (exports.types) and declarations.
  const pkg = join(dir, 'robotstxt-wasm')
  mkdirSync(pkg)
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'))
  // Declarations are emitted even when some other file has a type error; the project's own
  // typecheck reports those, this test is about the example.
  run(process.execPath, [TSC, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist', 'types')], ROOT)
  expect(existsSync(join(pkg, 'dist', 'types', 'index.d.ts'))).toBe(true)

  const example = join(dir, 'example')
  mkdirSync(join(example, 'node_modules'), { recursive: true })
  for (const f of ['src', 'package.json', 'tsconfig.json', 'wrangler.jsonc']) cpSync(join(ROOT, 'examples', 'worker', f), join(example, f), { recursive: true })
  symlinkSync(pkg, join(example, 'node_modules', 'robotstxt-wasm'), 'junction')

  const types = run(process.execPath, [WRANGLER, 'types'], example)
  expect(types.status, types.stderr).toBe(0)
  expect(`${types.stdout}${types.stderr}`).not.toContain(BLOCKED)
  const tsc = run(process.execPath, [TSC, '-p', 'tsconfig.json'], example)
  expect(tsc.stdout + tsc.stderr).toBe('')
  expect(tsc.status).toBe(0)
})
