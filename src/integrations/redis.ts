// redisStorage: a RobotsCacheStorage over Redis or Valkey, so that a crawler fleet fetches each
// robots.txt once. The caller passes its own client (node-redis 4/5/6, ioredis, iovalkey): this file
// imports none of them and speaks plain commands through whichever method the client has.
//
// Keys, under `prefix` (default "robotstxt:"):
//   <prefix><origin>        the record as JSON (body base64), kept `ttlMs` after each write
//   <prefix>lock:<origin>   the fleet-wide fetch lock: a random token, expiring after `lockMs`
//
// Fleet-wide single flight: a `get` that finds no fresh record takes the lock (SET NX PX) and
// answers a miss, so its cache fetches and then `put`s, which writes the record and releases the
// lock in one script (only if the lock is still its own), or, when it keeps nothing, `release`s
// it. A `get` that finds the lock taken polls for the record until it appears, or the lock frees
// (its holder died: at most lockMs), or lockMs has passed; then it takes the lock itself or
// answers what it has.
//
// Best effort (see RobotsCacheStorage): every command is bounded by COMMAND_MS; a failed or slow
// command opens a circuit for OUTAGE_MS during which calls fail at once, so a Redis outage costs
// each lookup nothing but its own fetch, never a wait per call. A client that says it is not
// connected (node-redis `isReady`, ioredis `status`) is not sent commands at all, which would wait
// in its offline queue and run late, once it reconnects; its own reconnection brings the storage
// back, at the first call after it is ready again (or after OUTAGE_MS, when a command failed).

import { fail, NUMERIC_OPTIONS, numberOption } from '../engine/args.js'
import { base64Bytes } from '../engine/bytes.js'
import type { RobotsCacheStorage, StoredRobots } from '../http/cache.js'

/**
 * Options of `redisStorage`.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis'
 * import { RobotsCache, redisStorage, type RedisStorageOptions } from 'robotstxt-wasm'
 *
 * const options: RedisStorageOptions = { prefix: 'crawl:robots:', lockMs: 5_000 }
 * const client = await createClient({ url: 'redis://localhost:6379' }).connect()
 * const cache = new RobotsCache({ storage: redisStorage(client, options), timeoutMs: 5_000 })
 * ```
 */
export interface RedisStorageOptions {
  /** Key prefix; default "robotstxt:". */
  prefix?: string
  /**
   * How long a fetch lock lasts, in ms (default 10,000): the most a dead lock holder costs the
   * fleet. Keep it no longer than the cache's `timeoutMs` (default 10 s), which bounds each wait.
   */
  lockMs?: number
  /**
   * How long Redis keeps a record after it is written, in ms (default 30 days). Past `expiresAt`
   * a record is still the last good copy that a failed refresh falls back on (Google keeps using
   * the last cached copy while the robots.txt is unreachable).
   */
  ttlMs?: number
}

/** Bound on one Redis command, in ms. */
const COMMAND_MS = 2_000
/** After a failed or slow command, calls fail at once for this long, in ms. */
const OUTAGE_MS = 5_000
/** Between two looks at a lock held by another process, in ms (plus up to half again, jittered). */
const POLL_MS = 25

// KEYS[1] record, KEYS[2] lock; ARGV[1] value, ARGV[2] ttl ms, ARGV[3] our lock token or ''.
const PUT_SCRIPT = `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
return 1`

// KEYS[1] lock; ARGV[1] our token: deletes the lock only while it is still ours.
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

type Command = (args: string[]) => Promise<unknown>

/**
 * ioredis / iovalkey states without a connection to use now. Not 'wait' (lazyConnect: the first
 * command connects); 'connecting' is in, as node-redis's `isReady` is false then: a lookup does not
 * wait for a connection that may never come.
 */
const DISCONNECTED = new Set(['connecting', 'reconnecting', 'close', 'end'])

/** True when the client itself says it has no connection now (node-redis `isReady`, ioredis `status`). */
function disconnected(client: unknown): boolean {
  const c = client as { isReady?: unknown; status?: unknown }
  if (typeof c.isReady === 'boolean') return !c.isReady
  return typeof c.status === 'string' && DISCONNECTED.has(c.status)
}

/** The client's raw command method: ioredis/iovalkey `call`, node-redis `sendCommand`. */
function commandOf(client: unknown): Command {
  const c = client as { call?: unknown; sendCommand?: unknown } | null
  if (c !== null && typeof c === 'object') {
    // ioredis also has a sendCommand, taking its own Command objects: `call` comes first.
    if (typeof c.call === 'function') {
      const call = c.call as (...args: string[]) => Promise<unknown>
      return (args) => call.apply(c, args)
    }
    if (typeof c.sendCommand === 'function') {
      const send = c.sendCommand as (args: string[]) => Promise<unknown>
      return (args) => send.call(c, args)
    }
  }
  return fail('client', 'a connected Redis or Valkey client (node-redis, ioredis or iovalkey)', client)
}

/**
 * A `RobotsCacheStorage` over Redis or Valkey, shared by every process of a crawler fleet: pass it
 * as `new RobotsCache({ storage: redisStorage(client) })` in each. N processes asking at once for
 * an origin nobody has fetched cause one robots.txt fetch.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis'
 * import { RobotsCache, redisStorage } from 'robotstxt-wasm'
 *
 * const client = await createClient({ url: 'redis://localhost:6379' }).connect()
 * // Every process of the fleet does the same: each robots.txt is fetched once for all of them.
 * const cache = new RobotsCache({ storage: redisStorage(client), userAgent: 'MyBot/1.0' })
 * ```
 */
export function redisStorage(client: unknown, options?: RedisStorageOptions): RobotsCacheStorage {
  const command = commandOf(client)
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options', 'an object', options)
  const prefix = options?.prefix ?? 'robotstxt:'
  if (typeof prefix !== 'string') fail('options.prefix', 'a string', prefix)
  // Whole ms: Redis' PX takes an integer.
  const lockMs = numberOption('options.lockMs', options?.lockMs, NUMERIC_OPTIONS.RedisStorageOptions.lockMs)
  const ttlMs = numberOption('options.ttlMs', options?.ttlMs, NUMERIC_OPTIONS.RedisStorageOptions.ttlMs)

  let downUntil = 0
  /** Locks this process holds: origin -> token and when it was taken (pruned after lockMs). */
  const held = new Map<string, { token: string; at: number }>()

  const run = async (args: string[]): Promise<unknown> => {
    if (Date.now() < downUntil) throw new Error('robotstxt-wasm: Redis storage is skipped after a failed command')
    if (disconnected(client)) throw new Error('robotstxt-wasm: Redis storage is skipped while the client is not connected')
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      return await Promise.race([
        command(args),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`robotstxt-wasm: Redis command took over ${COMMAND_MS} ms`)), COMMAND_MS)
        }),
      ])
    } catch (err) {
      downUntil = Date.now() + OUTAGE_MS
      throw err
    } finally {
      clearTimeout(timer)
    }
  }

  const recordKey = (origin: string): string => prefix + origin
  const lockKey = (origin: string): string => `${prefix}lock:${origin}`

  const read = async (origin: string): Promise<StoredRobots | undefined> => decode(await run(['GET', recordKey(origin)]), origin)

  const tryLock = async (origin: string): Promise<boolean> => {
    const token = randomToken()
    const ok = await run(['SET', lockKey(origin), token, 'NX', 'PX', String(lockMs)])
    if (replyText(ok) !== 'OK') return false
    const now = Date.now()
    for (const [o, h] of held) if (now - h.at > lockMs) held.delete(o)
    held.set(origin, { token, at: now })
    return true
  }

  const unlock = async (origin: string): Promise<void> => {
    const mine = held.get(origin)
    held.delete(origin)
    if (mine !== undefined) await run(['EVAL', RELEASE_SCRIPT, '1', lockKey(origin), mine.token])
  }

  return {
    async get(origin: string): Promise<StoredRobots | undefined> {
      const deadline = Date.now() + lockMs
      for (;;) {
        const record = await read(origin)
        if (record !== undefined && Date.now() < record.expiresAt) return record
        // Missing or expired: one process of the fleet refreshes it; the others wait for its put.
        if (await tryLock(origin)) {
          // The previous holder may have put a fresh record and released the lock between our read
          // and our lock: read again, so that it is not fetched twice.
          const again = await read(origin)
          if (again === undefined || Date.now() >= again.expiresAt) return again ?? record
          await unlock(origin)
          return again
        }
        if (Date.now() >= deadline) return record
        await new Promise((r) => setTimeout(r, POLL_MS + Math.random() * (POLL_MS / 2)))
      }
    },

    async put(origin: string, record: StoredRobots): Promise<void> {
      const mine = held.get(origin)
      held.delete(origin)
      await run(['EVAL', PUT_SCRIPT, '2', recordKey(origin), lockKey(origin), encode(record), String(ttlMs), mine?.token ?? ''])
    },

    // The cache kept nothing (no-store, max-age=0, a body over maxBytes, a fetch every waiter
    // left): the lock is freed now, not left for the fleet to wait out (lockMs).
    async release(origin: string): Promise<void> {
      await unlock(origin)
    },
  }
}

function randomToken(): string {
  const c = globalThis.crypto
  return typeof c?.randomUUID === 'function' ? c.randomUUID() : `${Date.now()}-${Math.random()}`
}

function encode(record: StoredRobots): string {
  return JSON.stringify({ ...record, body: record.body === null ? null : bytesBase64(record.body) })
}

/** A string reply as text: a client may hand it over as bytes (node-redis with a Buffer type mapping). */
function replyText(raw: unknown): string | null {
  return typeof raw === 'string' ? raw : raw instanceof Uint8Array ? new TextDecoder().decode(raw) : null
}

/** A stored value back into a record; anything malformed is a miss (the cache checks it again). */
function decode(raw: unknown, origin: string): StoredRobots | undefined {
  const text = replyText(raw)
  if (text === null) return undefined
  try {
    const r = JSON.parse(text) as Record<string, unknown>
    if (r === null || typeof r !== 'object' || r.origin !== origin) return undefined
    const body = typeof r.body === 'string' ? base64Bytes(r.body) : null
    return { ...(r as unknown as StoredRobots), body }
  } catch {
    return undefined
  }
}

function bytesBase64(bytes: Uint8Array): string {
  const B = (globalThis as { Buffer?: { from(b: ArrayBufferLike, o: number, l: number): { toString(e: 'base64'): string } } }).Buffer
  if (B !== undefined) return B.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}
