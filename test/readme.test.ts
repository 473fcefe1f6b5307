// The README's example runs as shown: every line ending in `// → value` must print that value
// (util.inspect on one line). Runs against the built dist/ in a child process, as a user would.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'

const root = join(import.meta.dirname, '..')

test('edge: README example results match their comments', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const block = /<!-- example[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1]
  expect(block, 'README has an example block after <!-- example -->').toBeTruthy()
  const expected: string[] = []
  const lines = block!.split('\n').map((line) => {
    const m = /^(.*?)\s*\/\/ → (.*)$/.exec(line)
    if (!m) return line
    expected.push(m[2]!)
    return `__show(${m[1]})`
  })
  const script = [
    "import { inspect } from 'node:util'",
    'const __show = (x) => console.log(inspect(x, { breakLength: Infinity, depth: 5 }))',
    ...lines,
  ].join('\n').replace("from 'robotstxt-wasm'", `from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)}`)
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trimEnd().split('\n')
  expect(expected.length).toBeGreaterThan(5)
  expect(out).toEqual(expected)
})
