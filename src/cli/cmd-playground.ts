// `robotstxt playground [--port N] [--host H]`: serves the playground page (dist/playground/, built
// with the package) on localhost and prints its address. Opens nothing; stops on Ctrl-C.

import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { InputError, UsageError } from './errors.js'
import { HELP } from './help.js'
import { COMMON_OPTIONS, parse } from './options.js'

const OPTIONS = { ...COMMON_OPTIONS, port: { type: 'string' }, host: { type: 'string' } } as const

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
}

/** The page's files, read once: only these names are ever served, so no path can leave the folder. */
export function playgroundFiles(dir: string): Map<string, { type: string; body: Buffer }> {
  const files = new Map<string, { type: string; body: Buffer }>()
  for (const name of readdirSync(dir)) {
    const ext = name.slice(name.lastIndexOf('.'))
    const type = TYPES[ext]
    if (type !== undefined) files.set('/' + name, { type, body: readFileSync(join(dir, name)) })
  }
  const index = files.get('/index.html')
  if (index !== undefined) files.set('/', index)
  return files
}

/** Runs `playground`; resolves when the server stops. */
export async function runPlayground(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, 'playground')
  if (values.help === true) {
    process.stdout.write(HELP.playground!)
    return 0
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`, 'playground')
  const portArg = values.port as string | undefined
  const port = portArg === undefined ? 0 : /^[0-9]+$/.test(portArg) && Number(portArg) <= 65535 ? Number(portArg) : NaN
  if (Number.isNaN(port)) throw new UsageError(`--port: expected a port number from 0 to 65535, got "${portArg}"`, 'playground')
  const host = (values.host as string | undefined) ?? '127.0.0.1'

  // dist/cli.js sits beside dist/playground/.
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'playground')
  let files: ReturnType<typeof playgroundFiles>
  try {
    files = playgroundFiles(dir)
  } catch {
    throw new InputError(`the playground is not built (no ${dir}); run npm run build`)
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split(/[?#]/)[0]!
    if (path === '/api/live') {
      // The page asks whether a live fetch is offered: only the example Worker can (CORS).
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"live":false}')
      return
    }
    const file = req.method === 'GET' || req.method === 'HEAD' ? files.get(path) : undefined
    if (file === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n')
      return
    }
    res.writeHead(200, {
      'content-type': file.type, 'content-length': file.body.length, 'cache-control': 'no-cache',
      // The page needs nothing from elsewhere: say so to the browser too ('wasm-unsafe-eval' lets it
      // compile the engine, nothing more).
      'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:",
      'x-content-type-options': 'nosniff',
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new InputError(`cannot listen on ${host}:${port}: ${(err as Error).message}`)))
    server.listen(port, host, () => resolve())
  })
  const address = server.address() as AddressInfo
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
  process.stdout.write(`robotstxt playground: http://${shown}:${address.port}/\n(Ctrl-C to stop; the page runs in your browser and sends nothing anywhere)\n`)
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve())
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return 0
}
