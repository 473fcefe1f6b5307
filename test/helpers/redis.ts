// A real redis-server for the fleet tests: Debian's package, installed with apt-get when missing,
// started on a free port with no persistence, stopped after. When the install itself fails the
// tests skip and say so loudly; nothing else skips them.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { aptInstall } from './apt.js'
import { createServer } from 'node:net'

export interface RedisServer {
  port: number
  url: string
  /** Kills the server (SIGKILL when `hard`). */
  stop(hard?: boolean): Promise<void>
}

const PATHS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/bin/valkey-server']

let found: { path: string | null; reason: string } | undefined

/** The redis-server executable, installing Debian's `redis-server` package when missing. */
export function ensureRedis(): { path: string | null; reason: string } {
  if (found) return found
  const present = () => PATHS.find((p) => existsSync(p)) ?? null
  let path = present()
  if (path === null) {
    const failed = aptInstall('redis-server')
    if (failed !== null) found = { path: null, reason: failed }
    else path = present()
  }
  found ??= path === null ? { path: null, reason: 'redis-server is not on this machine after apt-get install' } : { path, reason: '' }
  if (found.path === null) console.error(`\n*** REDIS TESTS SKIPPED: ${found.reason} ***\n`)
  return found
}

export async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as { port: number }).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

/** Starts redis-server on `port` (default a free one) of 127.0.0.1 and waits until it accepts commands. */
export async function startRedis(path: string, onPort?: number): Promise<RedisServer> {
  const port = onPort ?? await freePort()
  const child: ChildProcess = spawn(path, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe', timeout: 2_000 })
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: async (hard = false) => {
      if (child.exitCode === null) child.kill(hard ? 'SIGKILL' : 'SIGTERM')
      await exited
    },
  }
}
