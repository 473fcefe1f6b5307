// A forward HTTP proxy on 127.0.0.1 for the proxy tests, written for them: absolute-form requests
// ("GET http://host:port/path HTTP/1.1", forwarded with node:http) and CONNECT tunnels (piped to
// host:port with node:net). It records what it was asked, can require a Proxy-Authorization, and
// can send every host to a local port (`route`), so that names such as robots.invalid reach a
// test server. A self-signed certificate for an https target comes from openssl (installed with
// apt-get when missing).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import net, { type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { aptInstall } from './apt.js'

export interface ProxyRequest {
  /** 'GET' for an absolute-form request, 'CONNECT' for a tunnel. */
  method: string
  /** The absolute URL asked for, or host:port of a tunnel. */
  target: string
  /** The Proxy-Authorization header, if any. */
  auth: string | undefined
  /** The User-Agent of an absolute-form request (a tunnel's requests are encrypted or opaque). */
  userAgent: string | undefined
}

export interface TestProxy {
  /** `http://127.0.0.1:PORT` */
  url: string
  port: number
  requests: ProxyRequest[]
  close(): Promise<void>
}

export interface ProxyOptions {
  /** Where a host:port is really reached; default itself. */
  route?: (host: string, port: number) => { host: string; port: number }
  /** A Proxy-Authorization value every request must carry, else 407. */
  auth?: string
}

/** Starts the proxy. */
export async function startProxy(options: ProxyOptions = {}): Promise<TestProxy> {
  const requests: ProxyRequest[] = []
  const sockets = new Set<Socket>()
  const route = options.route ?? ((host, port) => ({ host, port }))
  const denied = (auth: string | undefined): boolean => options.auth !== undefined && auth !== options.auth
  const server = http.createServer((req, res) => {
    const auth = req.headers['proxy-authorization']
    requests.push({ method: req.method ?? '', target: req.url ?? '', auth, userAgent: req.headers['user-agent'] })
    if (denied(auth)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end()
    let target: URL
    try {
      target = new URL(req.url ?? '')
    } catch {
      return void res.writeHead(400).end('absolute-form expected')
    }
    const to = route(target.hostname, Number(target.port || 80))
    const headers = { ...req.headers }
    delete headers['proxy-authorization']
    delete headers['proxy-connection']
    const upstream = http.request({ host: to.host, port: to.port, method: req.method, path: target.pathname + target.search, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.rawHeaders)
      up.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    const auth = req.headers['proxy-authorization']
    requests.push({ method: 'CONNECT', target: req.url ?? '', auth, userAgent: undefined })
    if (denied(auth)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
    const [host, port] = splitHostPort(req.url ?? '')
    const to = route(host, port)
    const upstream = net.connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function splitHostPort(s: string): [string, number] {
  const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(s)
  return m === null ? [s, 443] : [m[1]!, Number(m[2])]
}

export interface TlsFiles {
  /** PEM of the certificate (also its own CA: give it to NODE_EXTRA_CA_CERTS or `ca`). */
  cert: string
  key: string
  certPath: string
}

let tls: TlsFiles | { missing: string } | undefined

/** A self-signed certificate for localhost and 127.0.0.1, made once by openssl; why not, when it cannot be. */
export function selfSigned(): TlsFiles | { missing: string } {
  if (tls !== undefined) return tls
  if (!existsSync('/usr/bin/openssl')) {
    const failed = aptInstall('openssl')
    if (failed !== null) return (tls = { missing: failed })
  }
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-tls-'))
  const certPath = join(dir, 'cert.pem')
  const keyPath = join(dir, 'key.pem')
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '2',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,DNS:robots.test,IP:127.0.0.1'], { stdio: 'ignore' })
  } catch (e) {
    return (tls = { missing: `openssl could not make a certificate: ${(e as Error).message}` })
  }
  return (tls = { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath })
}

/** An https server on 127.0.0.1 with the self-signed certificate; records the paths asked and User-Agents. */
export async function serveTls(files: TlsFiles, handler: http.RequestListener): Promise<{ origin: string; port: number; requests: string[]; agents: (string | undefined)[]; close(): Promise<void> }> {
  const requests: string[] = []
  const agents: (string | undefined)[] = []
  const sockets = new Set<Socket>()
  const server = https.createServer({ cert: files.cert, key: files.key }, (req, res) => {
    requests.push(req.url ?? '')
    agents.push(req.headers['user-agent'])
    handler(req, res)
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    origin: `https://127.0.0.1:${port}`, port, requests, agents,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
