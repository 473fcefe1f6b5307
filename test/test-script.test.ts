// scripts/test.mjs, what `npm test` runs: on a Node older than 22.12 (vitest 5 dies on Node 20 with
// "Map.groupBy is not a function") it runs itself again under the Node 24 of scripts/runtimes.mjs.
// The decision is tested under a real Node 20 with --which-node, which takes the same path as the
// suite (the re-run, PATH included) and then stops instead of building and testing.
import { execFileSync, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { needsNewerNode } from '../scripts/test.mjs'
import { ROOT } from './helpers/dist.js'

const SCRIPT = join(ROOT, 'scripts', 'test.mjs')

/** A Node 20 binary: the machine's, or the one scripts/runtimes.mjs installs. */
function node20(): string {
  return execFileSync(process.execPath, [join(ROOT, 'scripts', 'runtimes.mjs'), '--print', 'node20'], { encoding: 'utf8' }).trim()
}

describe('npm test on any Node (issue 34 item 8)', () => {
  test('the tools need Node 22.12 or later', () => {
    expect(['20.20.2', 'v20.0.0', '22.11.9', '18.20.0'].map(needsNewerNode)).toEqual([true, true, true, true])
    expect(['22.12.0', 'v24.21.0', '26.10.0', '23.0.0'].map(needsNewerNode)).toEqual([false, false, false, false])
  })

  test('under Node 20 it runs itself under Node 24, with that Node first on PATH', () => {
    const node = node20()
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' })).toMatch(/^v20\./)
    // PATH as a machine whose only node is 20 would have it: npm and node resolve to Node 20's.
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(node, '..')}:/usr/bin:/bin` }
    delete env.ROBOTSTXT_TEST_RERUN
    const r = spawnSync(node, [SCRIPT, '--which-node'], { cwd: ROOT, encoding: 'utf8', env })
    expect(r.status).toBe(0)
    expect(r.stderr).toMatch(/Node 20\.\d+\.\d+ is older than 22\.12 .*running under /)
    expect(r.stdout).toMatch(/^the tests run on Node 24\.\d+\.\d+ \(.*\); node on PATH: v24\.\d+\.\d+\n$/)
  })

  test('under Node 24 it runs in place; a re-run that is still too old stops instead of looping', () => {
    const here = spawnSync(process.execPath, [SCRIPT, '--which-node'], { cwd: ROOT, encoding: 'utf8' })
    expect([here.status, here.stderr]).toEqual([0, ''])
    expect(here.stdout).toContain(`the tests run on Node ${process.versions.node} (${process.execPath})`)
    const loop = spawnSync(node20(), [SCRIPT, '--which-node'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ROBOTSTXT_TEST_RERUN: '1' } })
    expect(loop.status).toBe(1)
    expect(loop.stderr).toContain('even after switching to node24')
  })
})
