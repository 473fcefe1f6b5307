// Strict Content-Encoding on undici, the fetch of Node and of the `undici` package. undici decodes
// gzip, deflate, br and zstd leniently (zlib's sync flush at the end, as cURL does), so an encoded
// stream cut short inside complete HTTP framing reads as a whole, shorter body. A robots.txt cut
// short must not pass for the file: RFC 9309 2.3.1.4 and Google's documentation count an
// incomplete response as a server error. Bun's fetch already rejects such bodies, and browsers and
// Workers never call a dispatcher.
//
// `strictDispatcher` wraps an undici dispatcher: the response bytes go to the fetch unchanged and
// also through node:zlib's strict decoders, whose output is dropped. When the encoded stream has not
// reached its end as the response completes, the fetch sees the response fail instead. Invariants:
// the fetch's own decoding, back-pressure and cancellation are untouched; a coding undici does not
// decode (it then hands over the raw bytes) is not checked; an empty body is an empty file; the
// handler keeps the shape (legacy `onHeaders`... or `onResponseStart`... methods) that tells undici
// which handler API it speaks.

import { DEFAULT_MAX_BYTES } from '../engine/args.js'

/** The parts of node:zlib used here (taken at run time: this module is bundled for Workers too). */
interface Zlib {
  createGunzip(): ZlibStream
  createInflate(): ZlibStream
  createInflateRaw(): ZlibStream
  createBrotliDecompress(): ZlibStream
  createZstdDecompress?(): ZlibStream
}

interface ZlibStream {
  write(chunk: Uint8Array): boolean
  end(): void
  destroy(): void
  pause(): void
  resume(): void
  on(event: 'data', listener: (chunk: Uint8Array) => void): void
  on(event: 'end', listener: () => void): void
  on(event: 'error', listener: (error: Error) => void): void
  once(event: 'drain', listener: () => void): void
}

/** An undici dispatcher, as far as fetch uses one. */
export interface Dispatcher {
  dispatch(options: object, handler: object): boolean
}

/** A step of the check: encoded bytes in, decoded bytes out to the next one. */
interface Sink {
  /** False when the step wants no more until `drain` calls back. */
  write(chunk: Uint8Array): boolean
  drain(then: () => void): void
  end(): void
  fail(error: Error): void
}

type Method = (...args: unknown[]) => unknown

/** Decoded bytes past which a check is settled: the most a robots.txt fetch reads (RFC 9309 2.5; Google's 500 KiB limit). */
const DECODED_ENOUGH = DEFAULT_MAX_BYTES

/** The key undici keeps its global dispatcher under (the same for Node's copy and the package). */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1')
/** Responses without a body in the Fetch standard; undici decodes nothing for them. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])

let zlibModule: Zlib | null | undefined

function nodeZlib(): Zlib | null {
  if (zlibModule === undefined) {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    zlibModule = typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule('node:zlib') as Zlib | undefined) ?? null : null
  }
  return zlibModule
}

/**
 * `base` wrapped so that its responses' encoded bodies must end; null where node:zlib is out of
 * reach (Node < 20.16, Workers, browsers: their fetch needs no dispatcher). `base` defaults to
 * undici's global dispatcher, looked up at each request so `setGlobalDispatcher` keeps working.
 */
export function strictDispatcher(base?: Dispatcher): Dispatcher | null {
  const zlib = nodeZlib()
  if (zlib === null) return null
  const target = (): Dispatcher => {
    const d = base ?? (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER]
    // Only undici calls a dispatcher, and loading undici installs its global one.
    if (d === undefined) throw new Error('strictDispatcher: no undici global dispatcher')
    return d
  }
  return {
    dispatch: (options, handler) => target().dispatch(options, strictHandler(handler as Record<string, unknown>, zlib)),
    // undici's fetch reads this to pick the body it hands a MockAgent.
    get isMockActive(): unknown {
      return (target() as { isMockActive?: unknown }).isMockActive
    },
  } as Dispatcher
}

let platformDispatcher: Dispatcher | null | undefined

/** The `dispatcher` request option for the platform fetch: the global dispatcher, made strict. */
export function platformStrictDispatcher(): Dispatcher | null {
  return (platformDispatcher ??= strictDispatcher())
}

/** The fetch handler with the encoded body also fed to a strict decoder. */
function strictHandler(handler: Record<string, unknown>, zlib: Zlib): object {
  const wrapped: Record<string, Method> = {}
  for (let o: object | null = handler; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      const value = handler[key]
      if (key !== 'constructor' && typeof value === 'function' && !(key in wrapped)) wrapped[key] = (...args) => (value as Method).apply(handler, args)
    }
  }
  let check: Check | null = null
  const start = (status: number, encoding: string | null): void => {
    check = status >= 200 && !NULL_BODY_STATUS.has(status) && encoding !== null ? newCheck(encoding, zlib) : null
  }
  // Completion waits for the check; a failed check turns into the response's error.
  const finish = (complete: () => void, fail: (e: Error) => void): void => {
    const c = check
    check = null
    if (c === null) complete()
    else c.end().then(complete, fail)
  }
  const abandon = (): void => {
    check?.destroy()
    check = null
  }
  // The legacy handler API (undici 5-7).
  const { onHeaders, onData, onComplete, onError } = wrapped
  if (onHeaders !== undefined && onData !== undefined && onComplete !== undefined && onError !== undefined) {
    wrapped.onHeaders = (status, rawHeaders, ...rest) => {
      start(status as number, contentEncoding(rawHeaders as unknown[]))
      return onHeaders(status, rawHeaders, ...rest)
    }
    wrapped.onData = (chunk) => {
      check?.write(chunk as Uint8Array)
      return onData(chunk)
    }
    wrapped.onComplete = (...args) => finish(() => onComplete(...args), (e) => onError(e))
    wrapped.onError = (error) => {
      abandon()
      return onError(error)
    }
  }
  // The handler API of undici 7+ (Node 26's fetch).
  const { onResponseStart, onResponseData, onResponseEnd, onResponseError } = wrapped
  if (onResponseStart !== undefined && onResponseData !== undefined && onResponseEnd !== undefined && onResponseError !== undefined) {
    wrapped.onResponseStart = (controller, status, headers, ...rest) => {
      start(status as number, headerValue((headers as Record<string, unknown>)['content-encoding']))
      return onResponseStart(controller, status, headers, ...rest)
    }
    wrapped.onResponseData = (controller, chunk) => {
      check?.write(chunk as Uint8Array)
      return onResponseData(controller, chunk)
    }
    wrapped.onResponseEnd = (controller, ...args) => finish(() => onResponseEnd(controller, ...args), (e) => onResponseError(controller, e))
    wrapped.onResponseError = (controller, error) => {
      abandon()
      return onResponseError(controller, error)
    }
  }
  return wrapped
}

/** The Content-Encoding values of undici's raw header list (name, value, name, value...). */
function contentEncoding(rawHeaders: unknown[]): string | null {
  const values: string[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (String(rawHeaders[i]).toLowerCase() !== 'content-encoding') continue
    const value = headerValue(rawHeaders[i + 1])
    if (value !== null) values.push(value)
  }
  return values.length === 0 ? null : values.join(',')
}

/** A header value undici hands over: a string, a Buffer, or a list of them. */
function headerValue(value: unknown): string | null {
  if (value === undefined || value === null) return null
  return Array.isArray(value) ? value.map(String).join(',') : String(value)
}

interface Check {
  write(chunk: Uint8Array): void
  /** Resolves when the encoded stream ended where the body did; rejects otherwise. */
  end(): Promise<void>
  destroy(): void
}

/**
 * A strict decoder chain for `encoding` (codings in the order applied, as in the header), or null
 * when a coding is one undici leaves undecoded, as it then does with the whole chain.
 */
function newCheck(encoding: string, zlib: Zlib): Check | null {
  const codings = encoding.toLowerCase().split(',').map((c) => c.trim())
  if (codings.every((c) => c === '' || c === 'identity')) return null
  let resolveEnd!: () => void
  let rejectEnd!: (e: Error) => void
  const ended = new Promise<void>((resolve, reject) => {
    resolveEnd = resolve
    rejectEnd = reject
  })
  ended.catch(noop)
  const stages: Stage[] = []
  // Decoded past the body limit, the stream's end no longer matters: the fetch reads no further
  // and cancels the rest. Decoding on would spend a bomb's whole output (8 GiB from 6 KB of brotli:
  // 29 s of CPU) after the fetch has returned, where the fetch's cancel no longer reaches the check.
  let decoded = 0
  let sink: Sink = {
    write: (out) => {
      decoded += out.length
      if (decoded > DECODED_ENOUGH) {
        resolveEnd()
        for (const s of stages) s.destroy()
      }
      return true
    },
    drain: (then) => then(),
    end: () => resolveEnd(),
    fail: (e) => rejectEnd(e),
  }
  for (const coding of codings) {
    if (coding === '' || coding === 'identity') continue
    const stage = decoderStage(coding, zlib, sink)
    if (stage === null) return null
    stages.push(stage)
    sink = stage
  }
  let bytes = 0
  return {
    // The response's own bytes are not held back: the fetch's back-pressure bounds them.
    write: (chunk) => {
      bytes += chunk.length
      sink.write(chunk)
    },
    end: () => {
      // Nothing sent is an empty body, not a cut stream.
      if (bytes === 0) return Promise.resolve()
      sink.end()
      return ended
    },
    destroy: () => {
      for (const s of stages) s.destroy()
    },
  }
}

interface Stage extends Sink {
  destroy(): void
}

/**
 * One strict decoder feeding `next`, or null for a coding undici does not decode. It pauses while
 * `next` is full, so a chain of codings (a bomb inside a bomb) holds no more than zlib's buffers.
 */
function decoderStage(coding: string, zlib: Zlib, next: Sink): Stage | null {
  let make: ((first: Uint8Array) => ZlibStream) | null = null
  if (coding === 'gzip' || coding === 'x-gzip') make = () => zlib.createGunzip()
  // undici takes "deflate" as zlib-wrapped when the first byte says so, else as raw deflate.
  else if (coding === 'deflate') make = (first) => ((first[0]! & 0x0f) === 0x08 ? zlib.createInflate() : zlib.createInflateRaw())
  else if (coding === 'br') make = () => zlib.createBrotliDecompress()
  else if (coding === 'zstd' && typeof zlib.createZstdDecompress === 'function') make = () => zlib.createZstdDecompress!()
  if (make === null) return null
  let stream: ZlibStream | null = null
  let failed = false
  const fail = (e: Error): void => {
    if (failed) return
    failed = true
    next.fail(e)
  }
  return {
    write: (chunk) => {
      if (chunk.length === 0 || failed) return true
      if (stream === null) {
        const s = make(chunk)
        s.on('data', (out) => {
          if (!next.write(out)) {
            s.pause()
            next.drain(() => s.resume())
          }
        })
        s.on('end', () => next.end())
        s.on('error', fail)
        stream = s
      }
      return stream.write(chunk)
    },
    drain: (then) => {
      if (stream === null) then()
      else stream.once('drain', then)
    },
    end: () => {
      if (stream === null) fail(new Error(`empty ${coding} stream`))
      else stream.end()
    },
    fail,
    destroy: () => stream?.destroy(),
  }
}

function noop(): void {}
