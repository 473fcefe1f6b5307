// RobotsCache: one robots.txt answer per origin, kept and refreshed as HTTP.md "Caching" says.
// Implementation follows; the storage interface is fixed first so adapters can be built on it.

import type { RobotsOutcome } from './fetch.js'

/**
 * One origin's cached state as plain data, for a second-level `RobotsCacheStorage`. Every field
 * is a primitive or a `Uint8Array`, so a record survives structured cloning; a JSON store must
 * encode `body` itself (base64, or as the body of a `Response` in the Workers Cache API).
 */
export interface StoredRobots {
  /** The origin the record is for, as `RobotsFetch.origin`. */
  origin: string
  /** HTTP status of the fetch whose answer is kept; null for a network error or timeout. */
  status: number | null
  /** The answer served for the origin. */
  outcome: RobotsOutcome
  /** The robots.txt bytes (at most 512,000) when `outcome` is 'ok'; null otherwise. */
  body: Uint8Array | null
  /** When that fetch happened, ms since the epoch. */
  fetchedAt: number
  /** The record answers lookups until then; afterwards the next lookup fetches again. */
  expiresAt: number
  /** First failed fetch since the last successful one, ms since the epoch; null when reachable. */
  unreachableSince: number | null
  /**
   * True when status, outcome and body come from a successful fetch (2xx, 4xx, or a redirect
   * chain treated as 404), which keeps serving when later refreshes fail. False when they are a
   * failure's own answer (disallow-all, or allow-all after 30 days unreachable).
   */
  good: boolean
}

/**
 * A second level behind the in-memory `RobotsCache`, shared across cache instances (e.g. the
 * Workers Cache API or KV across a Worker's requests). The cache reads it on a memory miss before
 * fetching, and writes every result it keeps. A storage may drop records at any time; keeping a
 * record past `expiresAt` lets a failed refresh fall back to the last good copy. Errors thrown by
 * a storage are ignored (the lookup proceeds as a miss), so it never breaks crawling.
 */
export interface RobotsCacheStorage {
  /** The record last put for `origin`, if still held. */
  get(origin: string): Promise<StoredRobots | undefined>
  /** Keeps `record` for `origin`, replacing any earlier one. */
  put(origin: string, record: StoredRobots): Promise<void>
}
