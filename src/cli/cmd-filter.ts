// `robotstxt filter AGENT [--urls FILE|-] [--verdicts | --json] [--concurrency N]`: a mixed-host URL
// list in, the allowed URLs out (or every verdict), each origin's robots.txt fetched once.

import { checkUrls, type UrlVerdict } from '../http/check-urls.js'
import { RobotsCache } from '../http/cache.js'
import { describeFsError, errorCode, InputError, UsageError } from './errors.js'
import { HELP } from './help.js'
import { agentArgument, COMMON_OPTIONS, FETCH_OPTIONS, parse, timeoutOption } from './options.js'
import { ProgressLine } from './progress.js'
import { openInput } from './source.js'
import { MAX_URL_LINE, textLines } from './stream.js'
import { escapeControls } from './style.js'

const OPTIONS = {
  ...COMMON_OPTIONS, ...FETCH_OPTIONS,
  urls: { type: 'string' }, verdicts: { type: 'boolean' }, json: { type: 'boolean' }, concurrency: { type: 'string' },
} as const

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
  const timeoutMs = timeoutOption(values.timeout, 'filter')
  const cache = new RobotsCache({ timeoutMs, userAgent: (values['user-agent'] as string | undefined) ?? agent })
  const mode = values.json === true ? 'json' : values.verdicts === true ? 'verdicts' : 'allowed'

  const input = urlsFile === '-' ? process.stdin : await openInput(urlsFile)
  const tooLong = new Set<number>()
  const progress = new Progress(process.stderr.isTTY === true)
  let lineNo = 0
  let disallowed = 0
  let bad = 0
  let out = ''
  try {
    for await (const v of checkUrls(textLines(input, (n) => tooLong.add(n)), { agent, cache, concurrency })) {
      lineNo++
      if (v.error !== undefined) {
        bad++
        const why = tooLong.delete(lineNo) ? `longer than ${MAX_URL_LINE.toLocaleString('en-US')} characters; expected one URL per line` : v.error
        process.stderr.write(`${progress.clear()}robotstxt: --urls line ${lineNo}: ${escapeControls(why)}\n`)
      } else if (!v.allowed) disallowed++
      progress.count(v)
      out += render(v, mode)
      if (out.length >= 65536) {
        if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r))
        out = ''
      }
    }
  } catch (err) {
    if (errorCode(err) !== undefined) throw new InputError(`cannot read ${urlsFile === '-' ? 'stdin' : urlsFile}: ${describeFsError(err)}`)
    throw err
  }
  process.stdout.write(out)
  progress.summary()
  return bad > 0 ? 3 : disallowed > 0 ? 1 : 0
}

function render(v: UrlVerdict, mode: 'json' | 'verdicts' | 'allowed'): string {
  if (mode === 'json') return JSON.stringify(v) + '\n'
  if (mode === 'allowed') return v.allowed ? escapeControls(v.url) + '\n' : ''
  const verdict = v.error !== undefined ? 'error' : v.allowed ? 'allowed' : 'disallowed'
  return `${verdict}\t${v.line}\t${v.outcome ?? '-'}\t${escapeControls(v.url)}\n`
}

function concurrencyOption(value: string | boolean | undefined): number {
  if (value === undefined) return 16
  const n = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : NaN
  if (!(n >= 1 && n <= 10_000)) throw new UsageError(`--concurrency: expected a whole number from 1 to 10000, got "${String(value)}"`, 'filter')
  return n
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
    if (v.origin !== null && v.outcome !== null && !this.#origins.has(v.origin)) {
      if (this.#origins.size < MAX_COUNTED_ORIGINS) this.#origins.set(v.origin, v.outcome)
      else this.#overflow = true
    }
    this.#progress.tick(this.#urls, 1024)
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
