// `robotstxt survey INPUT... [--origins FILE] [--crawlers NAMES|--set SETS] [--paths P,...]
// [--out FILE.jsonl|FILE.csv|-] [--report FILE.html] [--threads N] [--shard I/N]
// [--max-pipe-bytes N]`: the rows of surveyRobots to a file, the aggregate table on stdout, the
// HTML report. The survey itself lives in the survey chunk (src/survey), loaded here on first use;
// this module owns the command line, the terminal table and the progress line. Exit 0 when every
// record was read, 3 when some were bad.

import { createWriteStream } from 'node:fs'
import { stat, writeFile } from 'node:fs/promises'
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { loadSurveyChunk } from '../survey/load.js'
import type { SurveyTotals } from '../survey/aggregate.js'
import type { SurveyOptions } from '../survey/types.js'
import { describeFsError, InputError, UsageError } from './errors.js'
import { HELP } from './help.js'
import { COMMON_OPTIONS, parse, threadsOption } from './options.js'
import { ProgressLine } from './progress.js'
import { installGlobalProxy, proxyConfig } from './proxy.js'
import { readList } from './source.js'
import { escapeControls, styleFor, type Style } from './style.js'

const OPTIONS = {
  ...COMMON_OPTIONS,
  'origins': { type: 'string' },
  'crawlers': { type: 'string' },
  'set': { type: 'string' },
  'paths': { type: 'string' },
  'out': { type: 'string' },
  'report': { type: 'string' },
  'threads': { type: 'string' },
  'shard': { type: 'string' },
  'max-pipe-bytes': { type: 'string' },
  'proxy': { type: 'string' },
} as const

/** Origins read from --origins: a bound, since they are held in a list. */
const MAX_ORIGINS = 10_000_000

const list = (v: string | boolean | undefined): string[] | undefined =>
  typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter((s) => s !== '') : undefined

/** `--shard I/N`, I counted from 1: the API's [I - 1, N]. */
function shardOption(v: string | boolean | undefined): [number, number] | undefined {
  if (v === undefined) return undefined
  const m = typeof v === 'string' ? /^([0-9]+)\/([0-9]+)$/.exec(v) : null
  const i = m === null ? NaN : Number(m[1])
  const n = m === null ? NaN : Number(m[2])
  if (!(n >= 1 && n <= 1_000_000 && i >= 1 && i <= n)) throw new UsageError(`--shard: expected I/N with 1 <= I <= N (e.g. 1/4), got "${String(v)}"`, 'survey')
  return [i - 1, n]
}

const UNITS: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 }

/** `--max-pipe-bytes N`: bytes, or KiB, MiB, GiB, TiB with a K, M, G or T (an optional iB or B after it). */
function bytesOption(v: string | boolean | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined
  const m = typeof v === 'string' ? /^([0-9]+)([kmgt]?)(?:i?b)?$/i.exec(v.trim()) : null
  const n = m === null ? NaN : Number(m[1]) * UNITS[m[2]!.toLowerCase()]!
  if (!(n >= 1) || !Number.isSafeInteger(n)) throw new UsageError(`${flag}: expected a number of bytes >= 1, with K, M, G or T for KiB, MiB, GiB, TiB (e.g. 512M), got "${String(v)}"`, 'survey')
  return n
}

async function readOrigins(path: string): Promise<string[]> {
  return readList(path, '--origins', MAX_ORIGINS, 'origins; split the list into shards', (line) => {
    const s = line.trim()
    return s === '' || s.startsWith('#') ? null : s
  }, false)
}

/** Runs `survey`; resolves to 3 when some records could not be read, else 0. */
export async function runSurvey(argv: string[]): Promise<number> {
  const parsed = parse(argv, OPTIONS, 'survey')
  const values = parsed.values
  if (values.help === true) {
    process.stdout.write(HELP.survey!)
    return 0
  }
  // '-' is stdin, as for the other commands; read once, it is empty the second time.
  if (parsed.positionals.filter((p) => p === '-').length > 1) throw new UsageError('INPUT: stdin ("-") can be given once', 'survey')
  const positionals = parsed.positionals.map((p) => (p === '-' ? '/dev/stdin' : p))
  const originsFile = values.origins as string | undefined
  if (positionals.length === 0 && originsFile === undefined) throw new UsageError('missing INPUT (a WARC/WARC.gz file, a folder or a .jsonl file) or --origins FILE', 'survey')
  const out = values.out as string | undefined
  if (out !== undefined && out !== '-' && !/\.(jsonl|csv)$/i.test(out)) throw new UsageError(`--out: expected a file name ending in .jsonl or .csv, or '-', got "${out}"`, 'survey')
  const report = values.report as string | undefined
  if (report !== undefined && !/\.html?$/i.test(report)) throw new UsageError(`--report: expected a file name ending in .html, got "${report}"`, 'survey')
  const options: SurveyOptions = {
    crawlers: list(values.crawlers), sets: list(values.set), paths: list(values.paths),
    threads: threadsOption(values.threads, 'survey'), shard: shardOption(values.shard),
    maxPipeBytes: bytesOption(values['max-pipe-bytes'], '--max-pipe-bytes'),
  }
  const origins = originsFile === undefined ? [] : await readOrigins(originsFile)
  // The live fetches (--origins) go through --proxy or the proxy environment, as every command's do.
  const proxy = proxyConfig(values.proxy as string | undefined, process.env, 'survey')
  if (proxy !== null) installGlobalProxy(proxy)

  const chunk = await loadSurveyChunk()
  let plan
  let rows
  try {
    plan = chunk.surveyPlan(options)
    rows = chunk.surveyRobots({ paths: positionals, origins }, options)
  } catch (e) {
    // The API's TypeErrors name its options; the command's user knows the flags.
    if (e instanceof TypeError) throw new UsageError(e.message.replace(/options\.(\w+)/, (_, o: string) => `--${o === 'sets' ? 'set' : o.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`), 'survey')
    throw e
  }

  const progress = new Progress(process.stderr.isTTY === true, await inputSizes(await chunk.inputUnits(positionals, plan.shard)))
  const aggregate = new chunk.SurveyAggregate(plan)
  const csv = out !== undefined && /\.csv$/i.test(out)
  const sink: Writable | null = out === undefined ? null : out === '-' ? process.stdout : createWriteStream(out)
  // The sink's first error, kept by one listener; each wait checks it, so nothing is left pending
  // per wait (a race against a promise that stays pending all run keeps a reaction per drain).
  let sinkFailure: InputError | null = null
  sink?.on('error', (e) => { sinkFailure ??= new InputError(`cannot write ${out}: ${describeFsError(e)}`) })
  const sinkEvent = async (event: 'drain' | 'finish'): Promise<void> => {
    if (sinkFailure !== null) throw sinkFailure
    try {
      // events.once rejects when 'error' is emitted while it waits.
      await once(sink!, event)
    } catch (e) {
      throw sinkFailure ?? e
    }
  }
  let buffer = csv ? chunk.csvHeader(plan) : ''
  const flush = async (): Promise<void> => {
    if (sink === null || buffer === '') return
    const text = buffer
    buffer = ''
    if (!sink.write(text)) await sinkEvent('drain')
  }
  let bad = 0
  for await (const row of rows) {
    aggregate.add(row)
    if (row.outcome === 'error') {
      bad++
      process.stderr.write(`${progress.clear()}robotstxt: ${escapeControls(row.source)}: offset ${row.offset}: ${escapeControls(row.error ?? '')}\n`)
    }
    progress.count(row)
    if (sink !== null) {
      buffer += csv ? chunk.csvLine(row, plan) : chunk.jsonLine(row)
      if (buffer.length >= 1 << 16) await flush()
    }
  }
  await flush()
  progress.done()
  if (sink !== null && sink !== process.stdout) {
    sink.end()
    await sinkEvent('finish')
  }
  if (report !== undefined) {
    const inputs = [...positionals, ...(originsFile !== undefined ? [`origins from ${originsFile}`] : [])]
    const html = chunk.surveyReport(aggregate.totals, { inputs, paths: plan.paths, date: new Date().toISOString().slice(0, 10) })
    try {
      await writeFile(report, html)
    } catch (e) {
      throw new InputError(`cannot write ${report}: ${describeFsError(e)}`)
    }
  }
  const table = renderTable(aggregate.totals, styleFor(out === '-' ? process.stderr : process.stdout))
  if (out === '-') process.stderr.write(table)
  else process.stdout.write(table)
  return bad > 0 ? 3 : 0
}

/** The size of each input file (for the ETA), or null when some size is unknown. */
async function inputSizes(units: readonly { path: string }[]): Promise<Map<string, number> | null> {
  const sizes = new Map<string, number>()
  for (const u of units) {
    try {
      sizes.set(u.path, (await stat(u.path)).size)
    } catch {
      return null
    }
  }
  return sizes
}

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)}%`)
const int = (n: number): string => n.toLocaleString('en-US')

/** The aggregate table: outcomes, then per crawler the share of sites blocking it entirely / partly and naming it. */
export function renderTable(t: SurveyTotals, st: Style): string {
  const o = t.outcomes
  let text = `${st.bold('records')} ${int(o.ok + o['allow-all'] + o['disallow-all'] + o.error)}: ${int(o.ok)} ok, ${int(o['allow-all'])} allow-all, ` +
    `${int(o['disallow-all'])} disallow-all, ${int(o.error)} unreadable\n`
  const names = t.crawlers.map((c) => escapeControls(c.name))
  const width = Math.max(7, ...names.map((n) => n.length))
  const setWidth = Math.max(3, ...t.crawlers.map((c) => c.sets.join(',').length))
  const head = `${'crawler'.padEnd(width)}  ${'set'.padEnd(setWidth)}  ${'blocked'.padStart(8)}  ${'partly'.padStart(8)}  ${'allowed'.padStart(8)}  ${'named'.padStart(8)}`
  text += `${st.bold(head)}\n`
  t.crawlers.forEach((c, i) => {
    text += `${names[i]!.padEnd(width)}  ${c.sets.join(',').padEnd(setWidth)}  ${pct(c.blocked, t.read).padStart(8)}  ${pct(c.partial, t.read).padStart(8)}  ` +
      `${pct(c.allowed, t.read).padStart(8)}  ${pct(c.named, t.read).padStart(8)}\n`
  })
  const prefs = [...t.preferences].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, p]) => `${escapeControls(k)} n ${pct(p.no, t.read)} y ${pct(p.yes, t.read)}`)
  text += `preferences: ${pct(t.withPreferences, t.read)} of sites${prefs.length > 0 ? ` (${prefs.join(', ')})` : ''}\n`
  const lint = [...t.lint].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5).map(([k, n]) => `${k} ${pct(n, t.read)}`)
  text += `lint: ${pct(t.withLintErrors, t.read)} of sites with errors${lint.length > 0 ? `; most common: ${lint.join(', ')}` : ''}\n`
  return text
}

/** The progress line on a terminal: records/s, origins, and the ETA when the input size is known. */
class Progress {
  readonly #sizes: Map<string, number> | null
  readonly #total: number
  readonly #start = Date.now()
  readonly #line: ProgressLine
  #records = 0
  #origins = 0
  #doneBytes = 0
  #source = ''
  #offset = 0

  constructor(tty: boolean, sizes: Map<string, number> | null) {
    this.#sizes = sizes
    this.#total = sizes === null ? 0 : [...sizes.values()].reduce((a, b) => a + b, 0)
    this.#line = new ProgressLine(tty, (final) => this.#text(final))
  }

  count(row: { source: string; offset: number; origin: string }): void {
    this.#records++
    if (row.origin !== '') this.#origins++
    if (row.source !== this.#source) {
      // A source is done once the next one starts.
      this.#doneBytes += this.#sizes?.get(this.#source) ?? 0
      this.#source = row.source
    }
    this.#offset = row.offset
    this.#line.tick(this.#records, 256)
  }

  clear(): string {
    return this.#line.clear()
  }

  done(): void {
    this.#line.done()
  }

  #text(final: boolean): string {
    const secs = Math.max((Date.now() - this.#start) / 1000, 0.001)
    let eta = ''
    const done = this.#doneBytes + this.#offset
    if (!final && this.#total > 0 && done > 0 && done < this.#total) {
      const left = Math.round((secs * (this.#total - done)) / done)
      eta = `, ETA ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
    }
    return `${int(this.#records)} records (${int(Math.round(this.#records / secs))}/s), ${int(this.#origins)} origins${eta}`
  }
}
