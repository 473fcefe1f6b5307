// Size budgets of what the package ships (dist/ after the release build). Each budget is about 4%
// above the size when it was set (the comment), so growth shows up in review instead of creeping
// in; raise one deliberately, with the reason in the commit. The JS bundles are minified (V8
// pre-parses every byte before the first line runs). The wasm also has a hard ceiling of 32 KiB:
// the API promises a module small enough to compile synchronously on first use, and Workers ship
// it with every script. The measured sizes, raw and gzip, are printed for the README.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { beforeAll, expect, test } from 'vitest'
import { DIST, ensureDist } from './helpers/dist.js'

const KiB = 1024
const WASM_CEILING = 32 * KiB

/** Budgets in bytes; the comment gives the size (raw) when the budget was set. */
const BUDGETS: Record<string, number> = {
  'robots.wasm': 30 * KiB, // 29,322
  'index.js': 141 * KiB, // 138,167
  'index.cjs': 141 * KiB, // 138,648
  'workerd.js': 101 * KiB, // 99,141
  'compat.js': 93 * KiB, // 91,298
  'compat.cjs': 94 * KiB, // 91,812
  'compat-workerd.js': 54 * KiB, // 52,222
  'survey.js': 243 * KiB, // 238,913
  'cli.js': 227 * KiB, // 223,426
}

const sizes = new Map<string, { raw: number; gzip: number }>()

beforeAll(() => {
  ensureDist()
  for (const name of Object.keys(BUDGETS)) {
    const bytes = readFileSync(join(DIST, name))
    sizes.set(name, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length })
  }
  const n = (x: number) => x.toLocaleString('en-US').padStart(9)
  const rows = [...sizes].map(([name, s]) => `  dist/${name.padEnd(18)} ${n(s.raw)} B ${n(s.gzip)} B gzip   budget ${n(BUDGETS[name] ?? 0)} B`)
  console.log(`Shipped sizes (raw, and gzip at zlib level 9):\n${rows.join('\n')}`)
}, 120_000)

test.each(Object.keys(BUDGETS))('dist/%s is within its size budget', (name) => {
  const size = sizes.get(name)
  expect(size).toBeDefined()
  expect(size?.raw).toBeGreaterThan(0)
  expect(size?.raw).toBeLessThanOrEqual(BUDGETS[name] ?? 0)
})

test(`dist/robots.wasm is a release build under ${WASM_CEILING / KiB} KiB`, () => {
  const wasm = readFileSync(join(DIST, 'robots.wasm'))
  expect(wasm.length).toBeLessThan(WASM_CEILING)
  expect(WebAssembly.validate(wasm)).toBe(true)
  // A debug build carries a "name" custom section (function names for stack traces).
  const names = WebAssembly.Module.customSections(new WebAssembly.Module(wasm), 'name')
  expect(names).toEqual([])
})

test('dist/index.js embeds robots.wasm as one base64 string; native and atob decoding give its bytes', async () => {
  const { base64Bytes } = await import('../src/engine/bytes.js')
  const wasm = readFileSync(join(DIST, 'robots.wasm'))
  const strings = readFileSync(join(DIST, 'index.js'), 'utf8').match(/"AGFzbQ[A-Za-z0-9+/=]*"/g) ?? []
  expect(strings).toHaveLength(1)
  const b64 = JSON.parse(strings[0]!) as string
  expect(Buffer.from(base64Bytes(b64))).toEqual(wasm)
  expect(Buffer.from(base64Bytes(b64, false))).toEqual(wasm)
})
