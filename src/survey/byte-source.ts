// An input's bytes read at offsets, whether a local file or an http(s) URL: the WARC readers
// (warc.ts, gzip.ts) read through this and nothing else, so that a Common Crawl file on a server
// is read as a file on disk is, never held whole.
//
// A URL is read over one connection at a time, front to back, keeping the last RETAIN bytes (the
// readers look back a little: a region re-read one member at a time, the search for the next
// record after a bad one); a read further back, or far ahead, opens a new connection with a Range
// request at that offset. A connection that drops, stalls for IDLE_MS or ends early is opened
// again from the first byte not yet received (Range: bytes=N-), so no record is lost or read
// twice; MAX_RETRIES failures in a row without a byte received end the read with an error. A
// server that ignores Range answers 200: its body is read from the start and the bytes before
// the offset dropped.

import { open, type FileHandle } from 'node:fs/promises'

/** An input's bytes, read at offsets. */
export interface ByteSource {
  /** Size in bytes. */
  readonly size: number
  /** Reads up to `length` bytes at `position` into `buf` from `offset` (fewer when fewer have come); resolves to the count, 0 at the end. */
  read(buf: Uint8Array, offset: number, length: number, position: number): Promise<number>
  close(): Promise<void>
}

/** A local file as a ByteSource. */
export async function fileSource(path: string): Promise<ByteSource> {
  const fh: FileHandle = await open(path, 'r')
  try {
    const size = (await fh.stat()).size
    return {
      size,
      read: async (buf, offset, length, position) => (await fh.read(buf, offset, length, position)).bytesRead,
      close: () => fh.close(),
    }
  } catch (e) {
    await fh.close()
    throw e
  }
}

/** The first `n` bytes of `src` (fewer when it is shorter). */
export async function sourceStart(src: ByteSource, n: number): Promise<Uint8Array> {
  const buf = new Uint8Array(Math.min(n, src.size))
  let at = 0
  while (at < buf.length) {
    const got = await src.read(buf, at, buf.length - at, at)
    if (got === 0) break
    at += got
  }
  return buf.subarray(0, at)
}

/** The bytes of `src` from `start` to its end, in fresh chunks of at most `chunk` bytes. */
export async function* sourceChunks(src: ByteSource, start: number, chunk: number): AsyncGenerator<Uint8Array> {
  for (let pos = start; pos < src.size;) {
    const buf = new Uint8Array(Math.min(chunk, src.size - pos))
    const got = await src.read(buf, 0, buf.length, pos)
    if (got === 0) return
    pos += got
    yield got === buf.length ? buf : buf.subarray(0, got)
  }
}

/** Bytes kept behind the connection's position, for reads that look back. */
const RETAIN = 4 << 20
/** A read this far ahead of the connection or less is reached by reading on, not by a new request. */
const SKIP_AHEAD = 1 << 20
/** No byte for this long: the connection is taken as dropped. */
const IDLE_MS = 30_000
/** Failures in a row (no byte received in between) before the read gives up. */
const MAX_RETRIES = 5
/** The wait before the first retry, doubled at each one after. */
const RETRY_MS = 250

/** How a URL is fetched: the User-Agent sent, and the fetch to use (default: the global one). */
export interface HttpSourceOptions {
  userAgent: string
  fetch?: typeof globalThis.fetch
}

/** An http(s) URL as a ByteSource (see the module's comment). */
export class HttpSource implements ByteSource {
  readonly size: number
  readonly #url: string
  readonly #options: HttpSourceOptions
  /** The live connection, its abort, and the file offset of the next byte it gives. */
  #reader: ReadableStreamDefaultReader<Uint8Array> | null
  #abort: AbortController | null
  #at: number
  /** Bytes kept, contiguous, ending at #at; #lo is the offset of the first. */
  #kept: Uint8Array[] = []
  #lo: number
  /** Reads run one at a time: each may move the connection. */
  #queue: Promise<unknown> = Promise.resolve()
  /** Connections opened after the first (drops, seeks). */
  reconnects = 0
  /** The most bytes kept at once (the tests of the bound). */
  maxKept = 0

  private constructor(url: string, options: HttpSourceOptions, size: number, c: Connection) {
    this.#url = url
    this.#options = options
    this.size = size
    this.#reader = c.reader
    this.#abort = c.abort
    this.#at = 0
    this.#lo = 0
    this.#take(c.first)
  }

  /** Opens `url` from its start; rejects when the server does not give the file and its length. */
  static async open(url: string, options: HttpSourceOptions): Promise<HttpSource> {
    let failures = 0
    for (;;) {
      try {
        const c = await connect(url, 0, options)
        if (c.size === null) {
          c.abort.abort()
          throw new FatalHttpError('the server gave no length for the file (no Content-Length or Content-Range)')
        }
        return new HttpSource(url, options, c.size, c)
      } catch (e) {
        if (e instanceof FatalHttpError) throw e
        if (++failures > MAX_RETRIES) throw new SourceError(`no answer after ${MAX_RETRIES + 1} tries (${e instanceof Error ? e.message : String(e)})`)
        await sleep(RETRY_MS << (failures - 1))
      }
    }
  }

  read(buf: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    const run = this.#queue.then(() => this.#read(buf, offset, length, position))
    this.#queue = run.catch(() => undefined)
    return run
  }

  async #read(buf: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    const want = Math.min(length, this.size - position)
    if (want <= 0) return 0
    if (position < this.#lo || position > this.#at + SKIP_AHEAD) {
      // Far from the connection: the next pull opens one at `position`, the kept bytes let go.
      this.#drop()
      this.#kept = []
      this.#lo = position
      this.#at = position
    }
    // As a file's read: what has come, at least a byte (a caller that wants more reads again), so
    // that a connection that fails later costs none of the bytes before it.
    while (this.#at <= position) await this.#pull()
    this.#trim(position)
    const have = Math.min(want, this.#at - position)
    // Copy [position, position + have) out of the kept chunks.
    let chunkStart = this.#lo
    let copied = 0
    for (const chunk of this.#kept) {
      const chunkEnd = chunkStart + chunk.length
      const from = Math.max(position + copied, chunkStart)
      if (from < chunkEnd && copied < have) {
        const n = Math.min(chunkEnd - from, have - copied)
        buf.set(chunk.subarray(from - chunkStart, from - chunkStart + n), offset + copied)
        copied += n
      }
      chunkStart = chunkEnd
      if (copied === have) break
    }
    return copied
  }

  /** Drops kept chunks wholly before both `position` and the last RETAIN bytes. */
  #trim(position: number): void {
    const keepFrom = Math.min(position, this.#at - RETAIN)
    while (this.#kept.length > 1 && this.#lo + this.#kept[0]!.length <= keepFrom) this.#lo += this.#kept.shift()!.length
  }

  /**
   * One more chunk of the file at #at: from the connection, opened (again) from #at when there is
   * none or it failed (dropped, stalled, ended early), up to MAX_RETRIES failures in a row.
   */
  async #pull(): Promise<void> {
    for (let failures = 0; ; ) {
      try {
        if (this.#reader === null) await this.#open(this.#at)
        if (this.#take(await this.#next())) return
        // Nothing came: the connection ended before the file did.
        this.#drop()
      } catch (e) {
        this.#drop()
        if (e instanceof FatalHttpError) throw e
        if (++failures > MAX_RETRIES) throw new SourceError(`the connection failed ${MAX_RETRIES + 1} times in a row at byte ${this.#at} (${e instanceof Error ? e.message : String(e)})`)
        await sleep(RETRY_MS << (failures - 1))
        continue
      }
      if (++failures > MAX_RETRIES) throw new SourceError(`the connection ended ${MAX_RETRIES + 1} times in a row at byte ${this.#at}, before the file's end`)
      await sleep(RETRY_MS << (failures - 1))
    }
  }

  /** The connection's next chunk; null at its end; throws when it fails or stalls for IDLE_MS. */
  async #next(): Promise<Uint8Array | null> {
    const result = await withIdleLimit(this.#reader!.read(), () => this.#abort?.abort())
    return result.done || !(result.value instanceof Uint8Array) ? null : result.value
  }

  /** Keeps the next bytes of the file (none past its size); false when there were none. */
  #take(chunk: Uint8Array | null): boolean {
    if (chunk === null) return false
    const part = chunk.length > this.size - this.#at ? chunk.subarray(0, this.size - this.#at) : chunk
    if (part.length === 0) return false
    this.#kept.push(part)
    this.#at += part.length
    this.maxKept = Math.max(this.maxKept, this.#at - this.#lo)
    return true
  }

  /** A new connection from `position` (= #at). */
  async #open(position: number): Promise<void> {
    this.reconnects++
    const c = await connect(this.#url, position, this.#options)
    if (c.size !== null && c.size !== this.size) {
      c.abort.abort()
      throw new FatalHttpError(`the file changed on the server while it was read (${this.size} bytes, now ${c.size})`)
    }
    this.#reader = c.reader
    this.#abort = c.abort
    this.#take(c.first)
  }

  #drop(): void {
    this.#abort?.abort()
    this.#reader?.cancel().catch(() => undefined)
    this.#reader = null
    this.#abort = null
  }

  async close(): Promise<void> {
    await this.#queue
    this.#drop()
    this.#kept = []
  }
}

/** The input itself could not be read (not bad content in it): the readers stop there. */
export class SourceError extends Error {}

/** An answer that a retry cannot change (a 404, a changed file): the read stops at once. */
class FatalHttpError extends SourceError {}

/** A connection reading a URL from a position. */
interface Connection {
  reader: ReadableStreamDefaultReader<Uint8Array>
  abort: AbortController
  /** The file's size, when the server said it. */
  size: number | null
  /** Bytes from `position` already read (a server that ignored the range): they come first. */
  first: Uint8Array | null
}

/** A connection reading `url` from `position`; a 4xx (but 429) or an unusable answer is a FatalHttpError. */
async function connect(url: string, position: number, options: HttpSourceOptions): Promise<Connection> {
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), IDLE_MS)
  let res: Response
  try {
    // identity: the offsets are the file's bytes, which an encoding would change.
    res = await (options.fetch ?? globalThis.fetch)(url, { headers: { 'range': `bytes=${position}-`, 'user-agent': options.userAgent, 'accept-encoding': 'identity' }, signal: abort.signal })
  } finally {
    clearTimeout(timer)
  }
  const retryable = res.status === 429 || res.status >= 500
  if ((res.status !== 200 && res.status !== 206) || res.body === null) {
    res.body?.cancel().catch(() => undefined)
    const message = `HTTP ${res.status}`
    throw retryable ? new Error(message) : new FatalHttpError(message)
  }
  const encoding = res.headers.get('content-encoding')
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') {
    abort.abort()
    throw new FatalHttpError(`the server sent the file encoded (Content-Encoding: ${encoding}), so its offsets are not the file's`)
  }
  const reader = res.body.getReader()
  if (res.status === 206) {
    const m = /^bytes ([0-9]+)-[0-9]+\/([0-9]+|\*)$/i.exec(res.headers.get('content-range')?.trim() ?? '')
    if (m === null || Number(m[1]) !== position) {
      abort.abort()
      throw new FatalHttpError(`the server answered a range from byte ${position} with Content-Range "${res.headers.get('content-range') ?? ''}"`)
    }
    return { reader, abort, size: m[2] === '*' ? null : Number(m[2]), first: null }
  }
  const length = res.headers.get('content-length')
  const size = length !== null && /^[0-9]+$/.test(length.trim()) ? Number(length) : null
  // 200: the whole file; the bytes before `position` are read and dropped.
  return { reader, abort, size, first: await skip(reader, position, abort) }
}

/** Reads and drops `n` bytes of `reader`; resolves to the rest of the chunk that runs past them (the first bytes wanted), if any. */
async function skip(reader: ReadableStreamDefaultReader<Uint8Array>, n: number, abort: AbortController): Promise<Uint8Array | null> {
  let left = n
  while (left > 0) {
    const { done, value } = await withIdleLimit(reader.read(), () => abort.abort())
    if (done) throw new Error('the connection ended before the offset asked for')
    if (value.length > left) return value.subarray(left)
    left -= value.length
  }
  return null
}

/** `p`, or a rejection after IDLE_MS (after calling `onIdle`, which aborts the connection). */
function withIdleLimit<T>(p: Promise<T>, onIdle: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onIdle()
      reject(new Error(`no data for ${IDLE_MS / 1000} s`))
    }, IDLE_MS)
  })
  return Promise.race([p, idle]).finally(() => clearTimeout(timer))
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
