// The bundles as scripts/build.mjs minifies them: what minifying must not change. Public classes keep
// their names (inspect output, stack traces), and the survey chunk stays behind an import that a
// browser bundler cannot resolve at build time (a literal `import("./survey.js")` would make it try).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { beforeAll, expect, test } from 'vitest'
import { DIST, ensureDist } from './helpers/dist.js'

beforeAll(() => ensureDist(), 120_000)

const CLASSES = ['Robots', 'Matcher', 'RobotsCache'] as const

test('dist/index.js and dist/index.cjs: the public classes keep their names', async () => {
  const esm = (await import(join(DIST, 'index.js'))) as Record<string, { name: string }>
  const cjs = createRequire(import.meta.url)(join(DIST, 'index.cjs')) as Record<string, { name: string }>
  for (const api of [esm, cjs]) expect(CLASSES.map((c) => api[c]!.name)).toEqual(CLASSES)
  const robots = (esm.parseRobots as unknown as (body: string) => { matcher(agent: string): unknown })('User-agent: *\nDisallow: /x\n')
  expect(inspect(robots)).toMatch(/^Robots /)
  expect(inspect(robots.matcher('bot'))).toMatch(/^Matcher /)
})

test.each(['workerd.js', 'deno.js'])('dist/%s names its public classes too', (file) => {
  const code = readFileSync(join(DIST, file), 'utf8')
  for (const c of CLASSES) expect(code).toMatch(new RegExp(`=class ${c}\\{|\\{value:"${c}"\\}`))
})

test.each(['index.js', 'index.cjs', 'cli.js'])('dist/%s loads the survey chunk through a specifier bundlers do not follow', (file) => {
  const code = readFileSync(join(DIST, file), 'utf8')
  expect(code).toContain('"./survey.js"')
  expect(code).not.toMatch(/import\(\s*["']\.\/survey\.js["']\s*\)/)
})
