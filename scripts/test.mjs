// `npm test` and `npm run test:workers`: build the wasm and the bundles, then the vitest suites.
// vitest 5 and wrangler need Node >= 22.12 (on Node 20, vitest dies with "Map.groupBy is not a
// function" after minutes of tests); the package itself supports Node 20. So on an older Node this
// script installs Node 24 into .runtimes/ (scripts/runtimes.mjs) and runs itself again under it,
// with that Node first on PATH for every step, passing its output and exit status through.
//
//   node scripts/test.mjs [--workers] [VITEST_ARGS...]   --workers: only the workerd suite
//   node scripts/test.mjs --which-node                    say which Node the tests run on, run nothing
// Other arguments go to the first `vitest run` (`npm test -- test/cli.test.ts`, say).
import { spawnSync } from 'node:child_process'
import { dirname, join, delimiter } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureRuntime } from './runtimes.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
/** The oldest Node the test tools run on (vitest 5, wrangler 4). */
export const MIN_TEST_NODE = [22, 12]
/** Set in the re-run, so a Node 24 that still looks too old cannot start a loop. */
const RERUN = 'ROBOTSTXT_TEST_RERUN'

/** True when Node `version` ("20.20.2" or "v20.20.2") is too old for the test tools. */
export function needsNewerNode(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number)
  return major < MIN_TEST_NODE[0] || (major === MIN_TEST_NODE[0] && minor < MIN_TEST_NODE[1])
}

/** Runs `cmd args` in the project with `env`, output passed through; returns its exit status. */
function step(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env })
  if (r.error) throw r.error
  // A step killed by a signal (Ctrl-C reaches this process too) is a failure.
  return r.status ?? 1
}

function main(argv) {
  const own = argv.filter((a) => a === '--workers' || a === '--which-node')
  const vitestArgs = argv.filter((a) => !own.includes(a))
  const version = process.versions.node
  if (needsNewerNode(version)) {
    if (process.env[RERUN] === '1') {
      process.stderr.write(`scripts/test.mjs: Node ${version} is older than ${MIN_TEST_NODE.join('.')} even after switching to node24\n`)
      return 1
    }
    const node24 = ensureRuntime('node24')
    process.stderr.write(`npm test: Node ${version} is older than ${MIN_TEST_NODE.join('.')} (vitest 5, wrangler); running under ${node24}\n`)
    // Its directory first on PATH: npm, npx and vitest's workers started below use it too.
    const env = { ...process.env, [RERUN]: '1', PATH: `${dirname(node24)}${delimiter}${process.env.PATH ?? ''}` }
    return step(node24, [fileURLToPath(import.meta.url), ...argv], env)
  }
  if (own.includes('--which-node')) {
    // What the steps would get: this Node, and the `node` that npm and npx find on PATH.
    const onPath = spawnSync('node', ['--version'], { encoding: 'utf8' }).stdout?.trim()
    process.stdout.write(`the tests run on Node ${version} (${process.execPath}); node on PATH: ${onPath}\n`)
    return 0
  }
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
  const runs = own.includes('--workers')
    ? [[process.execPath, [vitest, 'run', '-c', 'vitest.workers.config.ts', ...vitestArgs]]]
    : [[process.execPath, [vitest, 'run', ...vitestArgs]], [process.execPath, [vitest, 'run', '-c', 'vitest.workers.config.ts']]]
  for (const [cmd, args] of [['npm', ['run', 'build:wasm', '--silent']], ['npm', ['run', 'build:js', '--silent']], ...runs]) {
    const status = step(cmd, args)
    if (status !== 0) return status
  }
  return 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2))
