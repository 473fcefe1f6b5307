// Real HTTP servers on loopback for the fetch and cache tests (node:http, port 0). Each server is
// one origin; `closeAll` (for afterAll) destroys every open connection so no test can hang on one.

import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

export interface TestServer {
  /** `http://127.0.0.1:PORT` (or `http://[::1]:PORT`), no trailing slash. */
  readonly origin: string
  readonly port: number
  /** Paths requested so far, in order. */
  readonly requests: string[]
  /** Request headers, in order. */
  readonly headers: http.IncomingHttpHeaders[]
  /** Replaces the request handler. */
  handle(handler: Handler): void
  /** Number of requests for `path` (default '/robots.txt'). */
  count(path?: string): number
  /** Stops this server now, dropping its connections. */
  close(): Promise<void>
}

const servers: http.Server[] = []
const sockets = new Set<Socket>()

/** Starts a server on `host` (an IP literal) with `handler`. */
export async function serve(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  let current = handler
  const requests: string[] = []
  const headers: http.IncomingHttpHeaders[] = []
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '')
    headers.push(req.headers)
    current(req, res)
  })
  const own = new Set<Socket>()
  server.on('connection', (s) => {
    sockets.add(s)
    own.add(s)
    s.on('close', () => {
      sockets.delete(s)
      own.delete(s)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    origin: host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`,
    port,
    requests,
    headers,
    handle: (h) => {
      current = h
    },
    count: (path = '/robots.txt') => requests.filter((p) => p === path).length,
    close: () => {
      for (const s of own) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Serves `body` with `status` and extra headers at every path. */
export function reply(status: number, body = '', headers: http.OutgoingHttpHeaders = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers })
    res.end(body)
  }
}

/** Stops every server started by `serve` and drops their connections. */
export async function closeAll(): Promise<void> {
  for (const s of sockets) s.destroy()
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))))
}

/** One server for every loopback address (127.0.0.N) of a mixed-host test, and the hosts asked. */
export interface LoopbackHosts {
  readonly port: number
  /** Requests per Host header (`127.0.0.N:PORT`). */
  readonly asked: Map<string, number>
  close(): Promise<void>
}

/**
 * robots.txt for mixed-host tests (`filter`, `checkUrls`): 127.0.0.3 answers 503 (disallow all),
 * 127.0.0.4 answers 404 (allow all), every other 127.0.0.N answers 200 with `body(host)`.
 */
export async function loopbackHosts(body: (host: string) => string): Promise<LoopbackHosts> {
  const asked = new Map<string, number>()
  const server = http.createServer((req, res) => {
    const host = req.headers.host ?? ''
    asked.set(host, (asked.get(host) ?? 0) + 1)
    if (host.startsWith('127.0.0.3:')) res.writeHead(503).end()
    else if (host.startsWith('127.0.0.4:')) res.writeHead(404).end()
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(body(host))
  })
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
