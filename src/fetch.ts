// fetchRobots: one robots.txt fetch on the platform `fetch`, turned into an outcome (HTTP.md).
// Implementation follows; the types are fixed first so the cache storage can be built on them.

import type { Robots } from './robots.js'

/** What a fetch means for crawling (HTTP.md, "Outcome of a fetch"). */
export type RobotsOutcome = 'ok' | 'allow-all' | 'disallow-all'

/** Options of `fetchRobots` (and of `RobotsCache`, which passes them to every fetch). */
export interface FetchOptions {
  /** The `fetch` to use; default `globalThis.fetch`. */
  fetch?: typeof fetch
  /** Time limit of the whole fetch, redirects and body included, in ms; default 10,000. */
  timeoutMs?: number
  /** Sent as the `User-Agent` request header. */
  userAgent?: string
  /** Aborts the fetch: the promise rejects with `signal.reason`, and nothing is cached. */
  signal?: AbortSignal
}

/** The result of fetching one origin's robots.txt. */
export interface RobotsFetch {
  /** `scheme://host[:port]`: default port dropped, host lower-case and in punycode. */
  readonly origin: string
  /** Final HTTP status; null on a network error, a timeout or a truncated body. */
  readonly status: number | null
  /** How the fetch decides crawling: follow `robots`, allow everything, or disallow everything. */
  readonly outcome: RobotsOutcome
  /** The parsed file when `outcome` is 'ok'; otherwise an empty `Robots`. */
  readonly robots: Robots
  /** Time of the fetch, ms since the epoch. */
  readonly fetchedAt: number
  /** Reuse this result until then (24 h default, `Cache-Control: max-age`, or the retry delay). */
  readonly expiresAt: number
  /** Start of the current run of failed fetches of this origin (ms since the epoch); null when reachable. */
  readonly unreachableSince: number | null
  /**
   * True when `agent` may fetch `url` under this result: the rules for 'ok', true for
   * 'allow-all', false for 'disallow-all'. `url` must be on `origin` (else a TypeError).
   */
  isAllowed(url: string | URL, agent: string | readonly string[]): boolean
}
