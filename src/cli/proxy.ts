// The CLI's proxy: `--proxy URL` and the HTTPS_PROXY / HTTP_PROXY / NO_PROXY environment (lower
// case first, as curl reads them), turned into an undici dispatcher for the fetch options. Node's
// fetch is undici's but Node 20-23 expose no ProxyAgent, and the CLI has no dependencies, so this
// module is a small dispatcher of its own over node:http, node:https and node:tls:
//   * an http: URL through a proxy: the request in absolute form ("GET http://host/robots.txt") to the proxy;
//   * an https: URL through a proxy: a CONNECT tunnel to host:port, then TLS to the site inside it;
//   * a URL that NO_PROXY exempts: straight to the site.
// It speaks both handler APIs undici's fetch uses (onConnect/onHeaders/onData/onComplete/onError
// up to undici 7, Node 20-24; onRequestStart/onResponseStart/... from undici 8, Node 26). The
// response bytes go to fetch as they came: fetch decodes Content-Encoding itself.

import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import tls from 'node:tls'
import type { Dispatcher } from '../http/strict-decoding.js'
import { UsageError } from './errors.js'

/** Where requests go: a proxy per scheme (null: direct), and the hosts that always go direct. */
export interface ProxyConfig {
  http: string | null
  https: string | null
  /** NO_PROXY entries, lower-cased: `*`, or `host`, `.host`, `*.host`, each with an optional `:port`. */
  noProxy: string[]
}

/** The environment variables read, in the order read (the first set one wins). */
const ENV = {
  https: ['https_proxy', 'HTTPS_PROXY'],
  http: ['http_proxy', 'HTTP_PROXY'],
  noProxy: ['no_proxy', 'NO_PROXY'],
} as const

function fromEnv(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | null {
  for (const name of names) {
    const value = env[name]
    if (value !== undefined && value.trim() !== '') return { name, value: value.trim() }
  }
  return null
}

/**
 * The proxy settings of a command: `--proxy URL` for every URL (an empty URL: no proxy, whatever
 * the environment says), else HTTPS_PROXY for https: URLs and HTTP_PROXY for http: URLs; NO_PROXY
 * applies to both. Null when no proxy is set. A proxy that is not an http(s) URL is a usage error
 * naming where it came from.
 */
export function proxyConfig(flag: string | undefined, env: NodeJS.ProcessEnv, command: string): ProxyConfig | null {
  const noProxyValue = fromEnv(env, ENV.noProxy)?.value ?? ''
  const noProxy = noProxyValue.toLowerCase().split(/[\s,]+/).filter((e) => e !== '')
  if (flag !== undefined) {
    if (flag.trim() === '') return null
    const url = proxyUrl(flag, '--proxy', command)
    return { http: url, https: url, noProxy }
  }
  const h = fromEnv(env, ENV.http)
  const s = fromEnv(env, ENV.https)
  if (h === null && s === null) return null
  return {
    http: h === null ? null : proxyUrl(h.value, h.name, command),
    https: s === null ? null : proxyUrl(s.value, s.name, command),
    noProxy,
  }
}

/** A proxy URL as given (`host:port` alone is http://host:port), checked. */
function proxyUrl(value: string, where: string, command: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new UsageError(`${where}: expected a proxy URL such as http://proxy.example:3128, got ${JSON.stringify(value)}`, command)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${where}: only http:// and https:// proxies are supported, got ${JSON.stringify(value)}`, command)
  }
  if (url.hostname === '') throw new UsageError(`${where}: expected a proxy URL with a host, got ${JSON.stringify(value)}`, command)
  return url.href
}

/** The host of a URL without IPv6 brackets, lower-cased. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase()
}

/** The port a URL connects to. */
function portOf(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
}

/** True when NO_PROXY sends `url` straight to its host. */
export function bypassesProxy(noProxy: readonly string[], url: URL): boolean {
  const host = bareHost(url.hostname)
  const port = portOf(url)
  for (const entry of noProxy) {
    if (entry === '*') return true
    // host:port, [v6]:port, or a bare host (an IPv6 address without brackets has several colons).
    const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? (entry.split(':').length === 2 ? /^([^:]+):(\d+)$/.exec(entry) : null)
    const name = bareHost((m?.[1] ?? entry).replace(/^\*?\./, ''))
    if (m?.[2] !== undefined && Number(m[2]) !== port) continue
    if (name !== '' && (host === name || host.endsWith(`.${name}`))) return true
  }
  return false
}

/** A proxy error with a code a fetch's failure can be told by. */
function proxyError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ERR_PROXY_TUNNEL' })
}

/** What undici's fetch hands a dispatcher, as far as a GET needs. */
interface DispatchOptions {
  origin: string | URL
  path: string
  method: string
  headers?: unknown
  body?: unknown
}

/** The response side of a fetch's handler, whichever API it speaks. */
interface Sink {
  start(abort: (reason?: unknown) => void): void
  headers(status: number, raw: string[], statusText: string, pause: () => void, resume: () => void): void
  data(chunk: Buffer, pause: () => void): void
  complete(trailers: string[]): void
  error(e: unknown): void
}

type Method = (...args: unknown[]) => unknown

/** The handler as a Sink: undici 8's controller API when it has onResponseStart, else the legacy one. */
function sinkOf(handler: Record<string, unknown>): Sink {
  const call = (name: string, ...args: unknown[]): unknown => (typeof handler[name] === 'function' ? (handler[name] as Method).apply(handler, args) : undefined)
  if (typeof handler.onResponseStart === 'function') {
    const state = { aborted: false, paused: false, reason: undefined as unknown, rawHeaders: [] as Buffer[], abort: (_reason?: unknown): void => {} }
    let pauseIt = (): void => {}
    let resumeIt = (): void => {}
    const controller = {
      get aborted() { return state.aborted },
      get paused() { return state.paused },
      get reason() { return state.reason },
      get rawHeaders() { return state.rawHeaders },
      abort: (reason?: unknown) => state.abort(reason),
      pause: () => { state.paused = true; pauseIt() },
      resume: () => { state.paused = false; resumeIt() },
    }
    return {
      start: (abort) => {
        state.abort = (reason) => {
          if (state.aborted) return
          state.aborted = true
          state.reason = reason
          abort(reason)
        }
        call('onRequestStart', controller, {})
      },
      headers: (status, raw, statusText, pause, resume) => {
        pauseIt = pause
        resumeIt = resume
        state.rawHeaders = raw.map((h) => Buffer.from(h, 'latin1'))
        call('onResponseStarted')
        call('onResponseStart', controller, status, headerObject(raw), statusText)
      },
      data: (chunk) => void call('onResponseData', controller, chunk),
      complete: (trailers) => void call('onResponseEnd', controller, headerObject(trailers)),
      error: (e) => void call('onResponseError', controller, e),
    }
  }
  return {
    start: (abort) => void call('onConnect', abort),
    headers: (status, raw, statusText, pause, resume) => {
      call('onResponseStarted')
      if (call('onHeaders', status, raw.map((h) => Buffer.from(h, 'latin1')), resume, statusText) === false) pause()
    },
    data: (chunk, pause) => {
      if (call('onData', chunk) === false) pause()
    },
    complete: (trailers) => void call('onComplete', trailers.map((h) => Buffer.from(h, 'latin1'))),
    error: (e) => void call('onError', e),
  }
}

/** A raw header list (name, value, ...) as undici's header object: lower-case names, repeated ones as arrays. */
function headerObject(raw: string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    const had = out[name]
    out[name] = had === undefined ? raw[i + 1]! : Array.isArray(had) ? [...had, raw[i + 1]!] : [had, raw[i + 1]!]
  }
  return out
}

/** Request headers in any form undici passes them (an object, a flat list, pairs) as an object. */
function requestHeaders(given: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  const add = (name: unknown, value: unknown): void => {
    const key = String(name).toLowerCase()
    const v = Array.isArray(value) ? value.map(String).join(', ') : String(value)
    out[key] = out[key] === undefined ? v : `${out[key]}, ${v}`
  }
  if (given === null || given === undefined) return out
  if (Array.isArray(given)) {
    if (given.length > 0 && Array.isArray(given[0])) for (const [k, v] of given as unknown[][]) add(k, v)
    else for (let i = 0; i + 1 < given.length; i += 2) add(given[i], given[i + 1])
  } else if (typeof (given as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [k, v] of given as Iterable<[unknown, unknown]>) add(k, v)
  } else {
    for (const [k, v] of Object.entries(given as Record<string, unknown>)) if (v !== undefined) add(k, v)
  }
  return out
}

/** Basic credentials of a proxy URL's userinfo, or null. */
function proxyAuthorization(proxy: URL): string | null {
  if (proxy.username === '' && proxy.password === '') return null
  const user = decodeURIComponent(proxy.username)
  const pass = decodeURIComponent(proxy.password)
  return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`
}

/**
 * An undici dispatcher that sends each request through the proxy `config` names for its scheme,
 * or straight to the site (no proxy for the scheme, or NO_PROXY).
 */
export class ProxyDispatcher implements Dispatcher {
  readonly #config: ProxyConfig
  readonly #agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) }

  constructor(config: ProxyConfig) {
    this.#config = config
  }

  /** The proxy a request to `url` goes through, or null for a direct request. */
  proxyFor(url: URL): URL | null {
    const proxy = url.protocol === 'https:' ? this.#config.https : this.#config.http
    if (proxy === null || bypassesProxy(this.#config.noProxy, url)) return null
    return new URL(proxy)
  }

  dispatch(options: object, handler: object): boolean {
    const opts = options as DispatchOptions
    const sink = sinkOf(handler as Record<string, unknown>)
    let settled = false
    let req: http.ClientRequest | null = null
    let aborted: unknown
    const fail = (e: unknown): void => {
      if (settled) return
      settled = true
      req?.destroy()
      sink.error(e)
    }
    sink.start((reason) => {
      aborted = reason ?? new DOMException('The operation was aborted.', 'AbortError')
      fail(aborted)
    })
    if (settled) return true
    let target: URL
    try {
      target = new URL(opts.path, opts.origin)
    } catch (e) {
      fail(e)
      return true
    }
    const headers = requestHeaders(opts.headers)
    headers.host = target.host
    const onRequest = (r: http.ClientRequest, viaProxy: boolean): void => {
      req = r
      if (aborted !== undefined) {
        r.destroy()
        return
      }
      r.on('error', fail)
      r.on('response', (res) => {
        if (settled) return void res.destroy()
        // The proxy's own refusal (fetch would turn a 407 into a bare network error): said as the CONNECT one is.
        if (viaProxy && res.statusCode === 407) {
          res.destroy()
          return fail(proxyError(`the proxy answered 407 ${res.statusMessage ?? ''} to GET ${target.href}`.replace('  ', ' ')))
        }
        res.on('error', fail)
        res.on('aborted', () => fail(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })))
        sink.headers(res.statusCode ?? 0, res.rawHeaders, res.statusMessage ?? '', () => res.pause(), () => res.resume())
        res.on('data', (chunk: Buffer) => {
          if (!settled) sink.data(chunk, () => res.pause())
        })
        res.on('end', () => {
          if (settled) return
          settled = true
          sink.complete(res.rawTrailers)
        })
        res.on('close', () => {
          if (!res.complete) fail(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }))
        })
      })
      const body = opts.body
      if (typeof body === 'string' || body instanceof Uint8Array) r.end(body)
      else r.end()
    }
    const proxy = this.proxyFor(target)
    const method = opts.method
    const path = opts.path
    if (proxy === null) {
      const module = target.protocol === 'https:' ? https : http
      onRequest(module.request({ host: bareHost(target.hostname), port: portOf(target), path, method, headers, agent: target.protocol === 'https:' ? this.#agents.https : this.#agents.http }), false)
    } else {
      const auth = proxyAuthorization(proxy)
      const proxyModule = proxy.protocol === 'https:' ? https : http
      const proxyHost = bareHost(proxy.hostname)
      if (target.protocol === 'http:') {
        // Absolute form: the proxy reads the site from the request line.
        if (auth !== null) headers['proxy-authorization'] = auth
        const absolute = `${target.origin}${path}`
        onRequest(proxyModule.request({ host: proxyHost, port: portOf(proxy), path: absolute, method, headers, agent: false }), true)
      } else {
        const hostPort = `${target.hostname}:${portOf(target)}`
        const connect = proxyModule.request({
          host: proxyHost, port: portOf(proxy), method: 'CONNECT', path: hostPort, agent: false,
          headers: { host: hostPort, ...(auth !== null ? { 'proxy-authorization': auth } : {}) },
        })
        req = connect
        connect.on('error', fail)
        connect.on('connect', (res, socket) => {
          if (settled) return void socket.destroy()
          if (res.statusCode !== 200) {
            socket.destroy()
            return fail(proxyError(`the proxy answered ${res.statusCode} ${res.statusMessage ?? ''} to CONNECT ${hostPort}`.trimEnd()))
          }
          // host: the name the certificate is checked against; servername (SNI) only for a name, not an address.
          const host = bareHost(target.hostname)
          const secure = tls.connect({ socket, host, ...(isIP(host) === 0 ? { servername: host } : {}), ALPNProtocols: ['http/1.1'] })
          onRequest(https.request({ host: bareHost(target.hostname), port: portOf(target), path, method, headers, createConnection: () => secure }), false)
        })
        connect.end()
      }
    }
    return true
  }

  /** Lets go of kept-alive connections. */
  close(): void {
    this.#agents.http.destroy()
    this.#agents.https.destroy()
  }
}

/** The key undici (Node's fetch) keeps its global dispatcher under, read at each request. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1')

/**
 * Sends every fetch of this process made without a dispatcher of its own through `config`: for
 * code that takes no dispatcher option (the survey's live fetches). NO_PROXY hosts still go direct,
 * through this dispatcher.
 */
export function installGlobalProxy(config: ProxyConfig): void {
  ;(globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER] = new ProxyDispatcher(config)
}

/** The dispatcher for `config`, or undefined when there is no proxy (the platform's own is used). */
export function proxyDispatcher(config: ProxyConfig | null): ProxyDispatcher | undefined {
  return config === null ? undefined : new ProxyDispatcher(config)
}
