// `robotstxt filter AGENT [--urls FILE|-] [--verdicts | --json] [--concurrency N] [--threads N]`: a
// mixed-host URL list in, the allowed URLs out (or every verdict), each origin's robots.txt fetched
// once.
//
// One thread streams the lines through checkUrls. With --threads N, blocks of lines go to N
// workers (FILTER_BLOCKS), each running checkUrls on its block with a RobotsCache whose storage is
// the main thread's cache (asked through the pool): an origin is still fetched once, by the main
// thread, and each worker compiles its rules for itself. Both ways split lines with the same
// blockLines and turn verdicts into output with the same Tally, so the output is the same bytes.
//
// Memory is flat whatever the input size (test/cli-threads.test.ts): checkUrls holds at most its
// maxPending lines and reading waits past that; output goes out every OUT_PIECE characters (one
// thread, waiting for 'drain') or is encoded that often (a worker); the pool holds at most
// threads x BLOCKS_IN_FLIGHT blocks, and a worker's lines are made as they are checked.

import { NUMERIC_OPTIONS } from '../engine/args.js'
import { checkUrls, type UrlVerdict } from '../http/check-urls.js'
import { RobotsCache, type StoredRobots } from '../http/cache.js'
import type { RobotsFetch, RobotsOutcome } from '../http/fetch.js'
import { inOrder, type Work } from '../threads/pool.js'
import { describeFsError, errorCode, InputError, UsageError } from './errors.js'
import { HELP } from './help.js'
import { agentArgument, COMMON_OPTIONS, FETCH_OPTIONS, numberFlag, parse, threadsOption } from './options.js'
import { ProgressLine } from './progress.js'
import { fetchSettings, openList } from './source.js'
import { proxyDispatcher, type ProxyConfig } from './proxy.js'
import { blockLines, drained, fileReader, lineBlocks, MAX_TEXT_LINE_BYTES, MAX_URL_LINE, streamReader, textLines, type LineBlock } from './stream.js'
import { escapeControls, printableJson } from './style.js'
import { BLOCKS_IN_FLIGHT, cliWorker, FILTER_YOUNG_MB } from './workers.js'

const OPTIONS = {
  ...COMMON_OPTIONS, ...FETCH_OPTIONS,
  urls: { type: 'string' }, verdicts: { type: 'boolean' }, json: { type: 'boolean' }, concurrency: { type: 'string' }, threads: { type: 'string' },
} as const

type Mode = 'json' | 'verdicts' | 'allowed'

/** What a worker needs: plain data. */
interface FilterSpec {
  agent: string
  mode: Mode
  concurrency: number
  timeoutMs: number
  userAgent: string
  proxy: ProxyConfig | null
}

/** One block's share of the output. */
interface FilterBlock {
  out: Uint8Array
  lines: number
  disallowed: number
  /** Lines that could not be checked, numbered from 0 in the block, with why (escaped). */
  rejected: { line: number; reason: string }[]
  /** Each origin of the block with its outcome, for the progress line. */
  origins: [string, RobotsOutcome][]
}

/** Characters of output gathered before they are written (one thread) or encoded (a worker's block). */
const OUT_PIECE = 65536

const TOO_LONG = `longer than ${MAX_URL_LINE.toLocaleString('en-US')} characters; expected one URL per line`

/** The output, rejections and counts of verdicts, in order. */
class Tally {
  out = ''
  lines = 0
  disallowed = 0
  rejected: FilterBlock['rejected'] = []
  readonly origins = new Map<string, RobotsOutcome>()
  constructor(readonly mode: Mode) {}

  /** `shown`: the line as read, escaped (stream.ts blockLines), when it held ill-formed UTF-8. */
  add(v: UrlVerdict, tooLong: boolean, shown: string | undefined): void {
    if (v.error !== undefined) this.rejected.push({ line: this.lines, reason: escapeControls(tooLong ? TOO_LONG : v.error) })
    else if (!v.allowed) this.disallowed++
    if (v.origin !== null && v.outcome !== null && !this.origins.has(v.origin)) this.origins.set(v.origin, v.outcome)
    this.out += render(v, this.mode, shown)
    this.lines++
  }
}

/** A block of lines checked on a worker, through a cache that asks the main thread for each robots.txt. */
export const FILTER_BLOCKS: Work<FilterSpec, LineBlock, FilterBlock> = {
  tag: 'robotstxt filter',
  setup: (spec, ask) => {
    const storage = { get: async (origin: string) => (await ask(origin)) as StoredRobots | undefined, put: async () => undefined }
    // The main thread answers within its own fetch timeout; bounding the wait by that same timeout
    // made a worker give up first on a slow robots.txt and fetch it a second time itself.
    const cache = new RobotsCache({ timeoutMs: spec.timeoutMs, userAgent: spec.userAgent, dispatcher: proxyDispatcher(spec.proxy), storage, storageMs: Infinity })
    const encoder = new TextEncoder()
    return async (block) => {
      const tooLong = new Set<number>()
      const shown = new Map<number, string>()
      const tally = new Tally(spec.mode)
      // The output in pieces of bytes: its strings go while young, as the one-thread path's do.
      const pieces: Uint8Array[] = []
      let size = 0
      const lines = blockLines(block, (i) => tooLong.add(i), (i, s) => shown.set(i, s))
      for await (const v of checkUrls(lines, { agent: spec.agent, cache, concurrency: spec.concurrency })) {
        const at = tally.lines
        const s = shown.get(at)
        if (s !== undefined) shown.delete(at)
        tally.add(v, tooLong.delete(at), s)
        if (tally.out.length >= OUT_PIECE) {
          const piece = encoder.encode(tally.out)
          pieces.push(piece)
          size += piece.length
          tally.out = ''
        }
      }
      const last = encoder.encode(tally.out)
      const out = new Uint8Array(size + last.length)
      let at = 0
      for (const piece of [...pieces, last]) {
        out.set(piece, at)
        at += piece.length
      }
      return { out, lines: tally.lines, disallowed: tally.disallowed, rejected: tally.rejected, origins: [...tally.origins] }
    }
  },
  jobBuffers: (block) => [block.bytes.buffer as ArrayBuffer],
  resultBuffers: (r) => [r.out.buffer as ArrayBuffer],
}

/**
 * A fetch result as the storage record a worker's cache adopts. `good` is read only when a
 * worker's own refresh fails after the record expired, which asking the main thread first avoids.
 */
function storedOf(r: RobotsFetch): StoredRobots {
  return {
    origin: r.origin, status: r.status, outcome: r.outcome, body: r.outcome === 'ok' ? r.robots.bodyBytes : null,
    fetchedAt: r.fetchedAt, expiresAt: r.expiresAt, unreachableSince: r.unreachableSince, good: r.unreachableSince === null,
    url: r.url, redirects: r.redirects, error: r.error,
  }
}

/** Origins remembered for the progress line's counts; past it the count shows as "N+". */
const MAX_COUNTED_ORIGINS = 100_000

/** Runs `filter`; resolves to the exit status. */
export async function runFilter(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, 'filter')
  if (values.help === true) {
    process.stdout.write(HELP.filter!)
    return 0
  }
  const [agentArg, ...extra] = positionals
  if (agentArg === undefined) throw new UsageError('missing AGENT (a user-agent such as Googlebot)', 'filter')
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}; URLs come from --urls FILE or stdin`, 'filter')
  const agent = agentArgument(agentArg, 'filter')
  if (values.verdicts === true && values.json === true) throw new UsageError('give --verdicts or --json, not both', 'filter')
  const urlsFile = (values.urls as string | undefined) ?? '-'
  if (urlsFile === '') throw new UsageError('--urls: expected a file path or "-" for stdin', 'filter')
  const concurrency = concurrencyOption(values.concurrency)
  const mode: Mode = values.json === true ? 'json' : values.verdicts === true ? 'verdicts' : 'allowed'

  const threads = threadsOption(values.threads, 'filter')
  // A request made for AGENT names it and this package; never AGENT alone (a site would take the
  // request for that crawler's own), never the runtime's default.
  const { timeoutMs, userAgent, proxy, dispatcher } = fetchSettings(values, 'filter', agent)
  const cache = new RobotsCache({ timeoutMs, userAgent, dispatcher })

  const list = urlsFile === '-' ? null : await openList(urlsFile)
  const read = list === null ? streamReader(process.stdin) : fileReader(list)
  const progress = new Progress(process.stderr.isTTY === true)
  let lineNo = 0
  let disallowed = 0
  let bad = 0
  /** Writes a tally's rejections (numbered from lineNo) and output, and counts them. */
  const emit = async (t: Pick<FilterBlock, 'lines' | 'disallowed' | 'rejected'> & { out: string | Uint8Array }): Promise<void> => {
    if (t.rejected.length > 0) {
      let report = progress.clear()
      for (const r of t.rejected) report += `robotstxt: --urls line ${lineNo + r.line + 1}: ${r.reason}\n`
      process.stderr.write(report)
    }
    lineNo += t.lines
    disallowed += t.disallowed
    bad += t.rejected.length
    if (t.out.length > 0 && !process.stdout.write(t.out)) await drained(process.stdout)
  }
  try {
    if (threads === 1) {
      const tooLong = new Set<number>()
      const shown = new Map<number, string>()
      let tally = new Tally(mode)
      let seen = 0
      for await (const v of checkUrls(textLines(read, (n) => tooLong.add(n), (n, s) => shown.set(n, s)), { agent, cache, concurrency })) {
        const s = shown.get(++seen)
        if (s !== undefined) shown.delete(seen)
        tally.add(v, tooLong.delete(seen), s)
        progress.count(v)
        if (tally.out.length >= OUT_PIECE) {
          await emit(tally)
          tally = new Tally(mode)
        }
      }
      await emit(tally)
    } else {
      const spec: FilterSpec = { agent, mode, concurrency, timeoutMs, userAgent, proxy }
      const answer = async (origin: unknown): Promise<StoredRobots> => {
        if (typeof origin !== 'string') throw new TypeError('a filter worker asks for an origin')
        return storedOf(await cache.get(origin + '/'))
      }
      // Input buffers back from the workers, read into again: as many as the blocks in flight.
      const spares: ArrayBuffer[] = []
      const recycle = (buffers: ArrayBuffer[]): void => void spares.push(...buffers)
      const blocks = inOrder(lineBlocks(read, MAX_TEXT_LINE_BYTES, spares), FILTER_BLOCKS, { threads, inFlight: BLOCKS_IN_FLIGHT, worker: cliWorker(), data: spec, answer, recycle,
        resourceLimits: { maxYoungGenerationSizeMb: FILTER_YOUNG_MB } })
      for await (const b of blocks) {
        await emit(b)
        progress.block(b.lines, b.origins)
      }
    }
  } catch (err) {
    if (errorCode(err) !== undefined) throw new InputError(`cannot read ${urlsFile === '-' ? 'stdin' : urlsFile}: ${describeFsError(err)}`)
    throw err
  } finally {
    await list?.close()
  }
  progress.summary()
  return bad > 0 ? 3 : disallowed > 0 ? 1 : 0
}

/**
 * One verdict as output. Text modes echo the line as read, escaped (`shown`, for ill-formed UTF-8,
 * or the URL through escapeControls); --json gives the URL exactly as it was checked.
 */
function render(v: UrlVerdict, mode: Mode, shown: string | undefined): string {
  if (mode === 'json') return printableJson(v, 0) + '\n'
  const url = shown ?? escapeControls(v.url)
  if (mode === 'allowed') return v.allowed ? url + '\n' : ''
  const verdict = v.error !== undefined ? 'error' : v.allowed ? 'allowed' : 'disallowed'
  return `${verdict}\t${v.line}\t${v.outcome ?? '-'}\t${url}\n`
}

/** `--concurrency N`: checkUrls' `concurrency`, bounded for a command line. */
const CONCURRENCY_FLAG = { ...NUMERIC_OPTIONS.CheckUrlsOptions.concurrency, max: 10_000 } as const

function concurrencyOption(value: string | boolean | undefined): number {
  return numberFlag('concurrency', value, CONCURRENCY_FLAG, 'filter')
}

/** The progress line on a terminal (URLs/s, origins and their outcomes), and the summary at the end. */
class Progress {
  readonly #start = Date.now()
  readonly #origins = new Map<string, string>()
  readonly #progress: ProgressLine
  #overflow = false
  #urls = 0

  constructor(tty: boolean) {
    this.#progress = new ProgressLine(tty, () => this.#line())
  }

  count(v: UrlVerdict): void {
    this.#urls++
    if (v.origin !== null && v.outcome !== null) this.#origin(v.origin, v.outcome)
    this.#progress.tick(this.#urls, 1024)
  }

  /** A block's lines and origins, from a worker. */
  block(lines: number, origins: readonly [string, RobotsOutcome][]): void {
    this.#urls += lines
    for (const [origin, outcome] of origins) this.#origin(origin, outcome)
    this.#progress.tick(this.#urls, 1)
  }

  #origin(origin: string, outcome: RobotsOutcome): void {
    if (this.#origins.has(origin)) return
    if (this.#origins.size < MAX_COUNTED_ORIGINS) this.#origins.set(origin, outcome)
    else this.#overflow = true
  }

  /** Erases the progress line (before another message), returning what to write first. */
  clear(): string {
    return this.#progress.clear()
  }

  summary(): void {
    this.#progress.done()
  }

  #line(): string {
    const secs = Math.max((Date.now() - this.#start) / 1000, 0.001)
    const outcomes = { ok: 0, 'allow-all': 0, 'disallow-all': 0 } as Record<string, number>
    for (const o of this.#origins.values()) outcomes[o]!++
    const origins = `${this.#origins.size.toLocaleString('en-US')}${this.#overflow ? '+' : ''}`
    return `${this.#urls.toLocaleString('en-US')} URLs (${Math.round(this.#urls / secs).toLocaleString('en-US')}/s), ${origins} origins: ` +
      `${outcomes.ok} ok, ${outcomes['allow-all']} allow-all, ${outcomes['disallow-all']} disallow-all`
  }
}
