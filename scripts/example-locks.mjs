// Writes the package-lock.json of each example project that installs packages from npm
// (examples/crawlee, examples/redis-fleet, examples/crawler): the root lock's entries for the
// example's dependencies and everything they need, at the versions the root installs, plus the
// link to this checkout (robotstxt-wasm: file:../..). `npm install` in an example then installs
// exactly what the root's tests ran with, from npm's cache when the root has been installed.
// test/examples.test.ts checks that the committed files are what this script writes.
//
//   node scripts/example-locks.mjs          write them
//   node scripts/example-locks.mjs --check  exit 1 when one differs
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const EXAMPLES_WITH_LOCKS = ['crawler', 'crawlee', 'redis-fleet']

/** The text of examples/NAME/package-lock.json, from the root lock. */
export function exampleLock(name) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const pkg = JSON.parse(readFileSync(join(root, 'examples', name, 'package.json'), 'utf8'))
  const deps = Object.keys(pkg.dependencies ?? {}).filter((d) => d !== 'robotstxt-wasm')
  const packages = {
    '': { name: pkg.name, version: pkg.version, dependencies: pkg.dependencies },
    '../..': {
      name: rootPkg.name, version: rootPkg.version, license: rootPkg.license, bin: rootPkg.bin,
      devDependencies: rootPkg.devDependencies, engines: rootPkg.engines,
      peerDependencies: rootPkg.peerDependencies, peerDependenciesMeta: rootPkg.peerDependenciesMeta,
    },
  }
  const needed = closure(lock.packages, deps)
  const entries = [...needed.entries(), ['node_modules/robotstxt-wasm', { resolved: '../..', link: true }]]
  for (const [path, entry] of entries.sort(([a], [b]) => (a < b ? -1 : 1))) packages[path] = entry
  return JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages }, null, 2) + '\n'
}

/**
 * The lock entries `deps` need, found as Node finds a package (the nearest node_modules up the
 * path), at the paths the root lock has them; dev flags dropped, the example's own dependencies.
 */
function closure(all, deps) {
  const out = new Map()
  const todo = deps.map((d) => locate(all, '', d))
  while (todo.length > 0) {
    const path = todo.pop()
    if (path === null || out.has(path)) continue
    const { dev: _dev, devOptional, ...entry } = all[path]
    if (devOptional) entry.optional = true
    out.set(path, entry)
    const optionalPeers = entry.peerDependenciesMeta ?? {}
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((n) => optionalPeers[n]?.optional !== true),
    ]
    for (const n of names) todo.push(locate(all, path, n))
  }
  return out
}

function locate(all, from, name) {
  for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
    const path = `${base === '' ? '' : `${base}/`}node_modules/${name}`
    if (all[path] !== undefined) return path
    if (base === '') return null
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check')
  let stale = 0
  for (const name of EXAMPLES_WITH_LOCKS) {
    const path = join(root, 'examples', name, 'package-lock.json')
    const text = exampleLock(name)
    let current = ''
    try {
      current = readFileSync(path, 'utf8')
    } catch {
      // Written below, or reported as stale.
    }
    if (current === text) continue
    if (check) {
      console.error(`examples/${name}/package-lock.json is not the root lock's subtree: run node scripts/example-locks.mjs`)
      stale++
    } else {
      writeFileSync(path, text)
      console.error(`wrote examples/${name}/package-lock.json`)
    }
  }
  process.exitCode = stale > 0 ? 1 : 0
}
