// Refuses every TCP connection and DNS lookup from this Node process that is not for the loopback
// interface, and records it. The Workers tests must never reach Cloudflare (telemetry, the `cf`
// object, update checks, login) nor anything else: environment variables switch those features off,
// and this guard proves it. Loaded as a vitest setup file (through setup.ts) and, for wrangler
// child processes, with `node --import` through NODE_OPTIONS; a blocked attempt is also written to
// stderr as a line starting with "net-guard: blocked", which child-process tests look for.
//
// Plain JavaScript so `node --import` can load it without a TypeScript loader.
import dns from 'node:dns'
import net from 'node:net'

const STATE = Symbol.for('robotstxt-wasm.net-guard')

/** Host names and addresses that stay on this machine. */
function isLoopback(host) {
  if (host === undefined || host === null || host === '') return true // net defaults to localhost
  const h = String(host).toLowerCase().replace(/^\[|\]$/g, '')
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h)
}

/** The host and port of a `Socket#connect` call, whatever form its arguments take. */
function target(args) {
  let first = args[0]
  // net.connect() passes its already-normalised [options, callback] array.
  if (Array.isArray(first)) first = first[0]
  if (first !== null && typeof first === 'object') {
    if (typeof first.path === 'string') return { local: true, where: first.path }
    return { local: isLoopback(first.host), where: `${first.host ?? 'localhost'}:${first.port}` }
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { local: true, where: first } // IPC path
  return { local: isLoopback(args[1]), where: `${args[1] ?? 'localhost'}:${first}` }
}

function install() {
  const state = { blocked: [] }
  globalThis[STATE] = state
  const report = (what) => {
    state.blocked.push(what)
    process.stderr.write(`net-guard: blocked ${what}\n`)
  }

  const connect = net.Socket.prototype.connect
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const t = target(args)
    if (t.local) return connect.apply(this, args)
    report(`connection to ${t.where}`)
    process.nextTick(() => this.destroy(new Error(`net-guard: connection to ${t.where} refused (tests stay on 127.0.0.1)`)))
    return this
  }

  const lookup = dns.lookup
  dns.lookup = function guardedLookup(hostname, ...rest) {
    if (isLoopback(hostname)) return lookup.call(this, hostname, ...rest)
    report(`DNS lookup of ${hostname}`)
    const callback = rest[rest.length - 1]
    const err = Object.assign(new Error(`net-guard: DNS lookup of ${hostname} refused`), { code: 'ENOTFOUND' })
    if (typeof callback === 'function') process.nextTick(callback, err)
    return {}
  }
  const lookupPromise = dns.promises.lookup
  dns.promises.lookup = function guardedLookupPromise(hostname, ...rest) {
    if (isLoopback(hostname)) return lookupPromise.call(this, hostname, ...rest)
    report(`DNS lookup of ${hostname}`)
    return Promise.reject(Object.assign(new Error(`net-guard: DNS lookup of ${hostname} refused`), { code: 'ENOTFOUND' }))
  }
  return state
}

// Installed once per process even when imported again (vitest re-evaluates setup files per test file).
const state = globalThis[STATE] ?? install()

/** Every non-loopback connection or lookup attempted (and refused) in this process so far. */
export function blockedAttempts() {
  return [...state.blocked]
}
