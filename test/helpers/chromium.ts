// Purpose: find (or install with apt-get) Debian's Chromium for the browser tests, and launch it through
// playwright-core. A test may skip only when the install itself fails; then it says so loudly.
import { existsSync } from 'node:fs'
import { aptInstall } from './apt.js'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

export interface ChromiumFound { path: string | null; reason: string }

function present(): string | null {
  for (const path of CANDIDATES) if (existsSync(path)) return path
  return null
}

let found: ChromiumFound | undefined

/** The Chromium executable, installing Debian's `chromium` package when missing (we run as root in CI). */
export function ensureChromium(): ChromiumFound {
  if (found) return found
  let path = present()
  if (path === null) {
    const failed = aptInstall('chromium')
    if (failed !== null) {
      found = { path: null, reason: failed }
      console.error(`\n*** BROWSER TESTS SKIPPED: ${found.reason} ***\n`)
      return found
    }
    path = present()
  }
  found = path === null
    ? { path: null, reason: 'chromium is not on this machine after apt-get install' }
    : { path, reason: '' }
  if (found.path === null) console.error(`\n*** BROWSER TESTS SKIPPED: ${found.reason} ***\n`)
  return found
}

/** Launches headless Chromium with the flags a root container needs. */
export async function launchChromium(executablePath: string) {
  const { chromium } = await import('playwright-core')
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
}
