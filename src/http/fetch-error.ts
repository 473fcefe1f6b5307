// Why a robots.txt fetch got no usable answer, as a short code a crawler can count and act on, and
// a message a person can read. The platform fetch reports failures as a TypeError whose `cause`
// chain carries the system or client error code (Node's undici: ECONNREFUSED, ENOTFOUND,
// UND_ERR_SOCKET, a TLS verification code, a zlib code); other fetches report less, and what cannot
// be told apart is 'other'. RFC 9309 2.3.1.4 and Google treat all of these alike (everything
// disallowed for now); the code only says which one happened.

/**
 * Why a fetch failed:
 * - `dns`: the host name did not resolve;
 * - `refused`: the connection was refused;
 * - `reset`: the connection dropped before a response arrived;
 * - `timeout`: `timeoutMs` passed (or the client's own connect or header timeout);
 * - `tls`: the TLS handshake or certificate check failed;
 * - `truncated`: the body ended before it was complete (the connection dropped, fewer bytes than
 *   its Content-Length, a compressed stream cut short);
 * - `decoding`: a compressed body could not be decoded;
 * - `redirects`: a redirect chain that led to no robots.txt (more than 5 redirects, a loop, a
 *   Location that is not a usable http(s) URL, or a 3xx handed to `robotsFromResponse`): RFC 9309
 *   2.3.1.2 handles it as a 404, so this code comes with the outcome 'allow-all';
 * - `aborted`: the fetch was aborted by something other than the caller's `signal` (which rejects);
 * - `other`: anything else (a custom fetch's own error, a proxy that refused the tunnel, a
 *   response without an HTTP status).
 *
 * @example
 * ```ts
 * import { fetchRobots, type FetchErrorCode } from 'robotstxt-wasm'
 *
 * const site = await fetchRobots('https://example.com/')
 * const code: FetchErrorCode | undefined = site.error?.code
 * if (code === 'dns') console.log('no such host: drop it from the frontier')
 * ```
 */
export type FetchErrorCode = 'dns' | 'refused' | 'reset' | 'timeout' | 'tls' | 'truncated' | 'decoding' | 'redirects' | 'aborted' | 'other'

/**
 * `RobotsFetch.error`: why the fetch got no usable answer. Frozen.
 *
 * @example
 * ```ts
 * import { fetchRobots, type RobotsFetchError } from 'robotstxt-wasm'
 *
 * const { error }: { error: RobotsFetchError | null } = await fetchRobots('https://example.com/')
 * if (error !== null) console.log(`${error.code}: ${error.message}`) // e.g. "refused: connection refused (connect ECONNREFUSED 93.184.215.14:443)"
 * ```
 */
export interface RobotsFetchError {
  /** What kind of failure (see `FetchErrorCode`). */
  readonly code: FetchErrorCode
  /** What happened, in words, with the underlying error's own message in parentheses when there is one. */
  readonly message: string
}

/** Every code, in the order the docs list them. */
export const FETCH_ERROR_CODES: readonly FetchErrorCode[] = Object.freeze(['dns', 'refused', 'reset', 'timeout', 'tls', 'truncated', 'decoding', 'redirects', 'aborted', 'other'])

/** What each code says, in words: the start of every message. */
export const FETCH_ERROR_PHRASES: Readonly<Record<FetchErrorCode, string>> = Object.freeze({
  dns: 'host name not resolved',
  refused: 'connection refused',
  reset: 'connection reset',
  timeout: 'timed out',
  tls: 'TLS failure',
  truncated: 'truncated response',
  decoding: 'undecodable body',
  redirects: 'redirect chain without a robots.txt',
  aborted: 'aborted',
  other: 'fetch failed',
})

/** A frozen error record with the code's phrase, and `detail` after it when given. */
export function fetchError(code: FetchErrorCode, detail?: string): RobotsFetchError {
  const phrase = FETCH_ERROR_PHRASES[code]
  const text = detail === undefined || detail === '' || detail === phrase ? phrase : `${phrase} (${clip(detail)})`
  return Object.freeze({ code, message: text })
}

/** Marks an error raised while a response body was read (the status line had arrived). */
export class BodyError extends Error {
  constructor(readonly reason: unknown) {
    super('robots.txt body could not be read')
  }
}

/** An error of our own whose code is already known (a cut identity body, an unfollowable redirect). */
export class CodedError extends Error {
  constructor(readonly code: FetchErrorCode, message: string) {
    super(message)
  }
}

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'EAI_ADDRFAMILY', 'ENODATA'])
const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ESOCKETTIMEDOUT'])
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ERR_STREAM_PREMATURE_CLOSE', 'HPE_INVALID_EOF_STATE'])
/** zlib's "unexpected end of file": the encoded stream stopped before its end. */
const CUT_STREAM = new Set(['Z_BUF_ERROR'])
const CORRUPT_STREAM = new Set(['Z_DATA_ERROR', 'Z_NEED_DICT', 'Z_STREAM_ERROR', 'ERR_BROTLI_DECOMPRESSION_FAILED', 'ERR_ZSTD_DECOMPRESSION_FAILED'])
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED', 'CERT_UNTRUSTED', 'CERT_REJECTED',
  'HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_TLS_HANDSHAKE_TIMEOUT', 'EPROTO',
])

/** What a message without a code says, for the runtimes that give none. */
const WORDS: readonly [RegExp, FetchErrorCode][] = [
  [/\bdns error\b|failed to lookup address|name (or service )?not known/i, 'dns'],
  [/connection refused/i, 'refused'],
  [/connection reset|connection closed before/i, 'reset'],
  [/certificate|\btls\b|\bssl\b/i, 'tls'],
  [/timed? ?out\b/i, 'timeout'],
]

/** One link of an error's cause chain, as far as we read it. */
interface Link {
  code: string | undefined
  name: string | undefined
  message: string | undefined
}

/** The error and its causes (at most 8 deep, so a cyclic chain ends). */
function chain(err: unknown): Link[] {
  const links: Link[] = []
  let e: unknown = err
  for (let depth = 0; depth < 8 && e !== null && e !== undefined; depth++) {
    if (typeof e !== 'object') {
      links.push({ code: undefined, name: undefined, message: String(e) })
      break
    }
    const o = e as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; reason?: unknown }
    links.push({
      code: typeof o.code === 'string' ? o.code : undefined,
      name: typeof o.name === 'string' ? o.name : undefined,
      message: typeof o.message === 'string' ? o.message : undefined,
    })
    e = e instanceof BodyError ? e.reason : o.cause
  }
  return links
}

/**
 * What `err`, thrown by a fetch or while its body was read, says about the failure. `timedOut`:
 * the fetch's own time limit aborted it.
 */
export function classifyFetchError(err: unknown, timedOut: boolean): RobotsFetchError {
  const links = chain(err)
  // The most specific message: the deepest one with a code, else the deepest at all.
  const detail = ([...links].reverse().find((l) => l.code !== undefined && l.message) ?? [...links].reverse().find((l) => l.message))?.message
  if (timedOut) return fetchError('timeout', detail)
  const own = err instanceof CodedError ? err : err instanceof BodyError && err.reason instanceof CodedError ? err.reason : null
  if (own !== null) return fetchError(own.code, own.message)
  const inBody = err instanceof BodyError
  for (const l of links) {
    if (l.code === undefined) continue
    if (DNS.has(l.code)) return fetchError('dns', detail)
    if (l.code === 'ECONNREFUSED') return fetchError('refused', detail)
    if (TIMEOUT.has(l.code)) return fetchError('timeout', detail)
    if (TLS_CODES.has(l.code) || l.code.startsWith('ERR_TLS_') || l.code.startsWith('ERR_SSL_') || l.code.startsWith('CERT_')) return fetchError('tls', detail)
    if (CUT_STREAM.has(l.code)) return fetchError('truncated', detail)
    if (CORRUPT_STREAM.has(l.code)) return fetchError('decoding', detail)
    if (DROPPED.has(l.code)) return fetchError(inBody ? 'truncated' : 'reset', detail)
  }
  if (links.some((l) => l.name === 'AbortError' || l.name === 'TimeoutError')) return fetchError(links.some((l) => l.name === 'TimeoutError') ? 'timeout' : 'aborted', detail)
  // undici's "terminated" is the body stream ending with its connection.
  if (inBody && links.some((l) => l.message === 'terminated')) return fetchError('truncated', detail)
  // Runtimes that give no code say it in words (Deno: "dns error", "Connection refused (os error 111)").
  const words = links.map((l) => l.message ?? '').join(' ')
  for (const [pattern, code] of WORDS) if (pattern.test(words)) return fetchError(code === 'reset' && inBody ? 'truncated' : code, detail)
  return fetchError('other', detail)
}

/** At most 300 characters of a message. */
function clip(s: string): string {
  return s.length > 300 ? `${s.slice(0, 297)}...` : s
}
