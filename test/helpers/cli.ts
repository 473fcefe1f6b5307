// Runs the built `robotstxt` command (dist/cli.js) in a child process, as a user would.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from './dist.js'

export const CLI = join(ROOT, 'dist', 'cli.js')

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the CLI with `args` in `cwd`, feeding `input` to stdin (closed empty when not given); colour off. */
export function runCli(args: string[], input?: string | Uint8Array, env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '', ...env } })
  const run = collected(child)
  child.stdin.on('error', () => {}) // the CLI may exit before reading stdin
  child.stdin.end(input)
  return run
}

/** A spawned child's exit code and its whole stdout and stderr, once it has closed. */
export function collected(child: ChildProcess): Promise<Run> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout!.on('data', (c: Buffer) => out.push(c))
    child.stderr!.on('data', (c: Buffer) => err.push(c))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }))
  })
}
