// examples/worker/src typechecks as its `npm run typecheck` does (`wrangler types && tsc`): against
// the Workers runtime types that wrangler generates from the installed workerd, and against the
// package's built declarations, linked in as its `file:../..` dependency would be.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { BLOCKED, run, TSC, WRANGLER } from './child.js'
import { ROOT } from './tool-env.js'

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-wasm-example-types-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('examples/worker typechecks against `wrangler types` and the package declarations', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: { '.': { types: unknown } } }
  const types = JSON.stringify(pkg.exports['.'].types)
  for (const file of types.match(/\.\/dist\/[^"]+\.d\.c?ts/g) ?? []) {
    expect(existsSync(join(ROOT, file)), `${file} (npm run build writes it)`).toBe(true)
  }

  const example = join(dir, 'example')
  mkdirSync(join(example, 'node_modules'), { recursive: true })
  for (const f of ['src', 'package.json', 'tsconfig.json', 'wrangler.jsonc']) cpSync(join(ROOT, 'examples', 'worker', f), join(example, f), { recursive: true })
  symlinkSync(ROOT, join(example, 'node_modules', 'robotstxt-wasm'), 'junction')

  const generated = run(process.execPath, [WRANGLER, 'types'], example)
  expect(generated.status, generated.stderr).toBe(0)
  expect(`${generated.stdout}${generated.stderr}`).not.toContain(BLOCKED)
  const tsc = run(process.execPath, [TSC, '-p', 'tsconfig.json'], example)
  expect(tsc.stdout + tsc.stderr).toBe('')
  expect(tsc.status).toBe(0)
})
