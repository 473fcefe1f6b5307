// Loading the ROBOTS argument: a file path, '-' for stdin, or an http(s) URL fetched with
// fetchRobots (RFC 9309 2.3-2.4 and Google's documented handling). Files are read only up to the 500 KiB limit the parser applies anyway, so
// a huge file costs no memory; its full size is still known for lint. Also how every command
// that fetches takes its fetch options (--timeout, --user-agent, --proxy and the proxy
// environment) and says how a fetch turned out.

import { open, type FileHandle } from 'node:fs/promises'
import { fetchRobots, type RobotsFetch } from '../http/fetch.js'
import { defaultUserAgent } from '../http/user-agent.js'
import { concatBytes } from '../engine/bytes.js'
import { DEFAULT_MAX_BYTES, parseRobots, type Robots } from '../engine/robots.js'
import { describeFsError, InputError, UsageError } from './errors.js'
import { timeoutOption } from './options.js'
import { proxyConfig, proxyDispatcher, type ProxyConfig, type ProxyDispatcher } from './proxy.js'
import { fileReader, streamReader, textLines } from './stream.js'
import { escapeControls } from './style.js'

/** A robots.txt ready to query, with what lint needs to know about where it came from. */
export interface LoadedRobots {
  /** The ROBOTS argument as given (for messages). */
  label: string
  robots: Robots
  /** The bytes parsed (at most DEFAULT_MAX_BYTES); empty when a fetch did not give 'ok'. */
  body: Uint8Array
  /** Size of the whole input in bytes when known (not for fetches and endless streams). */
  size: number | null
  /** The input is longer than the 500 KiB limit: only `body` was parsed. */
  truncated: boolean
  /** The fetch result when ROBOTS was a URL. */
  fetched: RobotsFetch | null
}

/** How a command fetches: its FETCH_OPTIONS and the proxy environment, checked. */
export interface FetchSettings {
  timeoutMs: number
  /** Sent as User-Agent: --user-agent, else the default for the command's agent (http/user-agent.ts). */
  userAgent: string
  /** Where requests go (--proxy, HTTPS_PROXY, HTTP_PROXY, NO_PROXY); null: straight to each site. */
  proxy: ProxyConfig | null
  /** The dispatcher that sends them there; undefined without a proxy. */
  dispatcher: ProxyDispatcher | undefined
}

/**
 * The fetch settings of `command` from its parsed FETCH_OPTIONS; `agent` is the AGENT the fetch is
 * made for, which the default User-Agent names (commands without one send the package's own).
 */
export function fetchSettings(values: Record<string, string | boolean | undefined>, command: string, agent?: string): FetchSettings {
  const timeoutMs = timeoutOption(values.timeout, command)
  const given = values['user-agent']
  if (given !== undefined && (typeof given !== 'string' || given.trim() === '' || /[\0\r\n]/.test(given))) {
    throw new UsageError(`--user-agent: expected a User-Agent header value (not empty, no line breaks), got ${JSON.stringify(String(given))}`, command)
  }
  const proxy = proxyConfig(values.proxy as string | undefined, process.env, command)
  return { timeoutMs, userAgent: (given as string | undefined) ?? defaultUserAgent(agent), proxy, dispatcher: proxyDispatcher(proxy) }
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//

/** True when the ROBOTS argument is meant as a URL rather than a file path. */
function isUrlArgument(arg: string): boolean {
  return SCHEME.test(arg)
}

/**
 * Reads or fetches ROBOTS. Throws InputError when it cannot be read and UsageError for a URL that
 * cannot be fetched at all (bad syntax, another scheme). A fetch that fails on the network is not
 * an error: it is an outcome ('disallow-all'), as for a crawler.
 */
export async function loadRobots(arg: string, options: FetchSettings, command: string): Promise<LoadedRobots> {
  if (isUrlArgument(arg)) {
    let url: URL
    try {
      url = new URL(arg)
    } catch {
      throw new UsageError(`ROBOTS: not a valid URL: ${arg}`, command)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`ROBOTS: only http and https URLs can be fetched, got "${url.protocol}"`, command)
    }
    let fetched: RobotsFetch
    try {
      fetched = await fetchRobots(url, { timeoutMs: options.timeoutMs, userAgent: options.userAgent, dispatcher: options.dispatcher })
    } catch (err) {
      // Network failures are outcomes, never exceptions; a TypeError is about the arguments.
      if (err instanceof TypeError) throw new UsageError(`ROBOTS: ${err.message}`, command)
      throw err
    }
    const body = fetched.outcome === 'ok' ? fetched.robots.bodyBytes : new Uint8Array(0)
    // fetchRobots stops reading at the limit, so a body of exactly that length may have been cut.
    return { label: arg, robots: fetched.robots, body, size: null, truncated: body.length >= DEFAULT_MAX_BYTES, fetched }
  }
  const { bytes, size, truncated } = await readInput(arg, DEFAULT_MAX_BYTES)
  return { label: arg === '-' ? '(stdin)' : arg, robots: parseRobots(bytes), body: bytes, size, truncated, fetched: null }
}

/**
 * One line on how a fetch turned out, for stderr: the status (or "no response" and why), the
 * outcome, how long a failure holds, the robots.txt and, when it differs, the URL that answered:
 * "200 ok (https://example.com/robots.txt, from https://www.example.com/robots.txt after 1 redirect)",
 * "no response: connection refused (connect ECONNREFUSED 127.0.0.1:9); disallow-all, retry after 60 s (http://127.0.0.1:9/robots.txt)".
 * Escaped for a terminal: a message may quote what a server sent.
 */
export function describeFetch(f: RobotsFetch): string {
  const head = fetchOutcome(f)
  const retry = f.outcome === 'disallow-all' || f.unreachableSince !== null ? `, retry after ${Math.round((f.expiresAt - f.fetchedAt) / 1000).toLocaleString('en-US')} s` : ''
  const robotsUrl = `${f.origin}/robots.txt`
  const from = f.url !== null && f.url !== robotsUrl ? `, from ${f.url}${f.redirects > 0 ? ` after ${f.redirects} redirect${f.redirects === 1 ? '' : 's'}` : ''}` : ''
  return escapeControls(`${head}${retry} (${robotsUrl}${from})`)
}

/** The status and outcome of a fetch, and why there was no usable answer when there was none: "503 disallow-all", "no response: connection refused (...); disallow-all" (not escaped). */
export function fetchOutcome(f: RobotsFetch): string {
  return f.error === null ? `${f.status} ${f.outcome}` : `${f.status ?? 'no response'}: ${f.error.message}; ${f.outcome}`
}

/** What a fetch got, in a sentence's words: its status, or "no response: " and why (not escaped: the printers escape). */
export function fetchStatus(f: RobotsFetch): string {
  return f.status !== null ? String(f.status) : `no response: ${f.error?.message ?? 'no status'}`
}

/** A fetch in the --json outputs: where it went, what came back and why nothing did. */
export function fetchJson(f: RobotsFetch): { origin: string; status: number | null; outcome: string; url: string | null; redirects: number; error: { code: string; message: string } | null } {
  return { origin: f.origin, status: f.status, outcome: f.outcome, url: f.url, redirects: f.redirects, error: f.error === null ? null : { code: f.error.code, message: f.error.message } }
}

/** The first `max` bytes of a file, or of stdin for '-'; InputError when it cannot be read. */
export async function readInput(arg: string, max: number): Promise<Capped> {
  if (arg !== '-') return readFileCapped(arg, max)
  try {
    return await readStreamCapped(process.stdin, max)
  } catch (err) {
    throw new InputError(`cannot read stdin: ${describeFsError(err)}`)
  }
}

/** The first `max` bytes of a file; for a regular file, no byte past `max` is read. */
async function readFileCapped(path: string, max: number): Promise<Capped> {
  let handle
  try {
    handle = await open(path, 'r')
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${describeFsError(err)}`)
  }
  try {
    const info = await handle.stat()
    if (info.isDirectory()) throw new InputError(`cannot read ${path}: is a directory`)
    // Not a regular file, or one that reports no size (/proc): read it as a stream.
    if (!info.isFile() || info.size === 0) return await readStreamCapped(handle.createReadStream({ autoClose: false }), max)
    const buf = new Uint8Array(Math.min(info.size, max))
    let have = 0
    while (have < buf.length) {
      const { bytesRead } = await handle.read(buf, have, buf.length - have, null)
      if (bytesRead === 0) break
      have += bytesRead
    }
    return { bytes: buf.subarray(0, have), size: info.size, truncated: info.size > max }
  } catch (err) {
    if (err instanceof InputError) throw err
    throw new InputError(`cannot read ${path}: ${describeFsError(err)}`)
  } finally {
    await handle.close()
  }
}

export interface Capped {
  bytes: Uint8Array
  /** Total size when known (regular files, or a stream that ended within the limit). */
  size: number | null
  /** More than `max` bytes exist; only the first `max` were kept. */
  truncated: boolean
}

/**
 * Reads a stream (stdin, a pipe, a device) up to `max` + 1 bytes and stops: an endless source such
 * as /dev/zero must not hang the command, and lint only needs to know that there was more.
 */
async function readStreamCapped(stream: AsyncIterable<Uint8Array> & { destroy(): void }, max: number): Promise<Capped> {
  const chunks: Uint8Array[] = []
  let kept = 0
  let truncated = false
  for await (const chunk of stream) {
    const part = chunk.subarray(0, max - kept)
    chunks.push(part)
    kept += part.length
    if (part.length < chunk.length) {
      truncated = true
      stream.destroy()
      break
    }
  }
  return { bytes: concatBytes(chunks, kept), size: truncated ? null : kept, truncated }
}

/** A list file opened for reading into buffers of the caller's; "no such file" surfaces here, before any output, as an input error. */
export async function openList(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r')
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${describeFsError(err)}`)
  }
}

/**
 * The lines of a list file ("-": stdin, where `stdin` allows it) that `keep` keeps (it gives the
 * text to hold, or null to skip the line), read as a stream: each list is held whole by its
 * command, so it is refused past `max` kept lines ("more than MAX" then `tooMany`), past a line of
 * MAX_URL_LINE characters, and when the file cannot be read; each error names `option`.
 */
export async function readList(path: string, option: string, max: number, tooMany: string, keep: (line: string) => string | null, stdin = true): Promise<string[]> {
  let list: FileHandle | null = null
  const out: string[] = []
  try {
    if (path !== '-' || !stdin) list = await open(path, 'r')
    const read = list === null ? streamReader(process.stdin) : fileReader(list)
    for await (const line of textLines(read, (n) => { throw new InputError(`${option} line ${n}: too long`) })) {
      const kept = keep(line)
      if (kept === null) continue
      if (out.length >= max) throw new InputError(`${option}: more than ${max.toLocaleString('en-US')} ${tooMany}`)
      out.push(kept)
    }
  } catch (e) {
    // A file that opens but cannot be read (a folder: EISDIR) is refused as one that cannot be opened.
    if (e instanceof InputError) throw e
    throw new InputError(`${option}: cannot read ${path}: ${describeFsError(e)}`)
  } finally {
    await list?.close()
  }
  return out
}
