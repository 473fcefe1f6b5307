// The Python side of the per-site benchmark, shared by bench/per-site.mjs and test/bench.test.ts:
// which interpreter runs bench/per-site.py, getting Debian's python3-protego onto it, and running
// the script. Invariant: a missing library is reported with its reason, never silently dropped.
import { existsSync } from 'node:fs'
import { execFileSync, spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PER_SITE_PY = join(dirname(fileURLToPath(import.meta.url)), 'per-site.py')

/** Debian's interpreter when there is one: apt installs python3-protego for it, not for a pyenv or venv python3. */
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

const imports = (module) => spawnSync(PYTHON, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0

/** null once `import protego` works in PYTHON (apt-get installing python3-protego if needed), else why not. */
export async function ensureProtego() {
  if (!imports('json')) return `no Python interpreter (${PYTHON})`
  if (imports('protego')) return null
  const { aptInstall } = await import('../test/helpers/apt.ts')
  const failed = aptInstall('python3-protego')
  if (failed !== null) return failed
  return imports('protego') ? null : `apt-get installed python3-protego, but ${PYTHON} cannot import protego`
}

/** bench/per-site.py's JSON for the sites of `casesPath` (files in `robotsDir`), over `rounds` rounds. */
export function runPerSitePy(casesPath, robotsDir, rounds) {
  const out = execFileSync(PYTHON, [PER_SITE_PY, casesPath, robotsDir, String(rounds)], { encoding: 'utf8', maxBuffer: 1 << 20 })
  return JSON.parse(out)
}
