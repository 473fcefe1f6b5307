// `npm run test:runtimes`: the conformance, API and CLI checks (test/runtimes/check.mjs) on every
// runtime of scripts/runtimes.mjs, installed into .runtimes/ when missing. Exits 1 if any fails.
//   node scripts/test-runtimes.mjs [names...]   (default: node20 node22 node24 node26 bun deno)
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureRuntime, RUNTIMES } from './runtimes.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(RUNTIMES)
let failed = 0
for (const name of names) {
  const bin = ensureRuntime(name)
  const args = name === 'deno' ? ['run', '-A', 'test/runtimes/check.mjs'] : ['test/runtimes/check.mjs']
  const t0 = Date.now()
  const r = spawnSync(bin, args, { cwd: root, stdio: 'inherit', env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } })
  process.stdout.write(`  ${name}: ${r.status === 0 ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`)
  if (r.status !== 0) failed++
}
process.exit(failed > 0 ? 1 : 0)
