// Installs a Debian package for the tests that drive a real program (chromium, redis-server): the
// CI machine starts without them and we run as root there. Returns null on success, else why not.
import { execFileSync } from 'node:child_process'

let updated = false

export function aptInstall(pkg: string): string | null {
  try {
    if (!updated) execFileSync('apt-get', ['update'], { stdio: 'ignore', timeout: 300_000 })
    updated = true
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
      stdio: 'ignore', timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    return null
  } catch (error) {
    return `apt-get install ${pkg} failed: ${(error as Error).message}`
  }
}
