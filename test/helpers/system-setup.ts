// vitest globalSetup: installs the Debian packages the tests drive (chromium, redis-server) once,
// before any test file starts, so parallel test files never race for apt-get's lock. Each test
// file still asks ensureChromium()/ensureRedis(), which then find the binaries (or report, loudly,
// why the install failed).
import { ensureChromium } from './chromium.js'
import { ensureRedis } from './redis.js'

export default function setup(): void {
  ensureChromium()
  ensureRedis()
}
