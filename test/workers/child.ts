// Runs tools (npm, tar, wrangler, tsc) as child processes for the Workers tests, with the tool
// environment and the network guard loaded into every Node process they start.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT, TOOL_ENV } from './tool-env.js'

const GUARD = pathToFileURL(join(ROOT, 'test', 'workers', 'net-guard.mjs')).href

/** The environment of child processes: the tool settings, and `--import` of the network guard. */
export const CHILD_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  ...TOOL_ENV,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${GUARD}`.trim(),
}

/** wrangler's CLI entry, run with this Node. */
export const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
/** tsc, run with this Node. */
export const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')

/** Runs `cmd args` in `cwd` to completion (at most 60 s) and returns its exit status and output. */
export function run(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { cwd, env: CHILD_ENV, encoding: 'utf8', shell: process.platform === 'win32', timeout: 60_000 })
  if (r.error) throw r.error
  return r
}

/** Output that shows a child tried to leave 127.0.0.1 (see net-guard.mjs). */
export const BLOCKED = 'net-guard: blocked'
