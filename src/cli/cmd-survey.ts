// `robotstxt survey INPUT... [--origins FILE] [--crawlers NAMES] [--set SETS] [--tokens T,...]
// [--paths P,...] [--by month|year|source] [--out FILE.jsonl|FILE.csv|FILE.parquet|-]
// [--report FILE.html] [--threads N] [--shard I/N] [--prefix URL] [--max-pipe-bytes N]`: the rows of
// surveyRobots to a file, the summary's table on stdout, the HTML report. The survey itself lives
// in the survey chunk (src/survey), loaded here on first use; this module owns the command line,
// the terminal table (a rendering of the summary, nothing more) and the progress line. Exit 0 when
// every record was read, 3 when some were bad, 2 on a usage error or an input that does not exist.

import { createWriteStream } from 'node:fs'
import { stat, writeFile } from 'node:fs/promises'
import { once } from 'node:events'
import { dirname } from 'node:path'
import type { Writable } from 'node:stream'
import { numberFits, NUMERIC_OPTIONS } from '../engine/args.js'
import { loadSurveyChunk } from '../survey/load.js'
import type { RowSink } from '../survey/parquet.js'
import type { SurveyGroup, SurveyOptions, SurveySummary } from '../survey/types.js'
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
  'tokens': { type: 'string' },
  'paths': { type: 'string' },
  'by': { type: 'string' },
  'out': { type: 'string' },
  'report': { type: 'string' },
  'threads': { type: 'string' },
  'shard': { type: 'string' },
  'prefix': { type: 'string' },
  'max-pipe-bytes': { type: 'string' },
  'proxy': { type: 'string' },
} as const

/** Origins read from --origins: a bound, since they are held in a list. */
const MAX_ORIGINS = 10_000_000

/** A comma-separated list; given empty (`--crawlers ''`) it is an error, not "no choice". */
function list(v: string | boolean | undefined, flag: string, what: string): string[] | undefined {
  if (typeof v !== 'string') return undefined
  const items = v.split(',').map((s) => s.trim()).filter((s) => s !== '')
  if (items.length === 0) throw new UsageError(`${flag}: expected ${what}, comma-separated, got "${v}"`, 'survey')
  return items
}

/** `--shard I/N`, I counted from 1: the API's [I - 1, N]. */
function shardOption(v: string | boolean | undefined): [number, number] | undefined {
  if (v === undefined) return undefined
  const m = typeof v === 'string' ? /^([0-9]+)\/([0-9]+)$/.exec(v) : null
  const i = m === null ? NaN : Number(m[1])
  const n = m === null ? NaN : Number(m[2])
  if (!(n >= 1 && n <= 1_000_000 && i >= 1 && i <= n)) throw new UsageError(`--shard: expected I/N with 1 <= I <= N (e.g. 1/4), got "${String(v)}"`, 'survey')
  return [i - 1, n]
}

const BY = ['month', 'year', 'source'] as const

function byOption(v: string | boolean | undefined): SurveyOptions['by'] {
  if (v === undefined) return undefined
  const by = BY.find((b) => b === v)
  if (by === undefined) throw new UsageError(`--by: expected month, year or source, got "${String(v)}"`, 'survey')
  return by
}

const UNITS: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 }

/** `--max-pipe-bytes N`: bytes, or KiB, MiB, GiB, TiB with a K, M, G or T (an optional iB or B after it). */
function bytesOption(v: string | boolean | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined
  const m = typeof v === 'string' ? /^([0-9]+)([kmgt]?)(?:i?b)?$/i.exec(v.trim()) : null
  const n = m === null ? NaN : Number(m[1]) * UNITS[m[2]!.toLowerCase()]!
  if (!numberFits(NUMERIC_OPTIONS.SurveyOptions.maxPipeBytes, n)) {
    throw new UsageError(`${flag}: expected a number of bytes >= 1, with K, M, G or T for KiB, MiB, GiB, TiB (e.g. 512M), got "${String(v)}"`, 'survey')
  }
  return n
}

async function readOrigins(path: string): Promise<string[]> {
  return readList(path, '--origins', MAX_ORIGINS, 'origins; split the list into shards', (line) => {
    const s = line.trim()
    return s === '' || s.startsWith('#') ? null : s
  }, false)
}

const isUrl = (p: string): boolean => /^https?:\/\//i.test(p)
const isListing = (p: string): boolean => /\.paths(\.gz)?$/i.test(p.replace(/[?#].*$/, ''))

/** Every local INPUT exists: a name that does not is a one-line error (exit 2), not a survey of nothing. */
async function checkInputsExist(inputs: readonly string[]): Promise<void> {
  for (const input of inputs) {
    if (isUrl(input)) continue
    try {
      await stat(input)
    } catch (e) {
      throw new InputError(`cannot read ${escapeControls(input)}: ${describeFsError(e)}`)
    }
  }
}

/** The API's TypeError in the command's words: its options named as the flags. */
function asUsage(e: TypeError): UsageError {
  const flag = (o: string): string => `--${o === 'sets' ? 'set' : o.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
  return new UsageError(e.message.replace(/options\.(\w+)/g, (_, o: string) => flag(o)), 'survey')
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
  if (positionals.length === 0 && originsFile === undefined) throw new UsageError('missing INPUT (a WARC/WARC.gz file or URL, a paths listing, a folder or a .jsonl file) or --origins FILE', 'survey')
  const out = values.out as string | undefined
  if (out !== undefined && out !== '-' && !/\.(jsonl|csv|parquet)$/i.test(out)) throw new UsageError(`--out: expected a file name ending in .jsonl, .csv or .parquet, or '-', got "${out}"`, 'survey')
  const report = values.report as string | undefined
  if (report !== undefined && !/\.html?$/i.test(report)) throw new UsageError(`--report: expected a file name ending in .html, got "${report}"`, 'survey')
  const prefix = values.prefix as string | undefined
  if (prefix !== undefined && !positionals.some(isListing)) throw new UsageError('--prefix: applies to a paths listing (an INPUT ending in .paths or .paths.gz), and no INPUT is one', 'survey')
  const options: SurveyOptions = {
    crawlers: list(values.crawlers, '--crawlers', 'crawler preset names'),
    sets: list(values.set, '--set', 'set names'),
    tokens: list(values.tokens, '--tokens', 'robots.txt product tokens'),
    paths: list(values.paths, '--paths', 'paths'),
    by: byOption(values.by),
    threads: threadsOption(values.threads, 'survey'), shard: shardOption(values.shard),
    maxPipeBytes: bytesOption(values['max-pipe-bytes'], '--max-pipe-bytes'),
    ...(prefix !== undefined ? { prefix } : {}),
  }
  const chunk = await loadSurveyChunk()
  let plan
  try {
    plan = chunk.surveyPlan(options)
  } catch (e) {
    if (e instanceof TypeError) throw asUsage(e)
    throw e
  }
  await checkInputsExist(positionals.filter((p) => p !== '/dev/stdin'))
  const origins = originsFile === undefined ? [] : await readOrigins(originsFile)
  // Every fetch of the run (--origins, WARC URLs, listings) goes through --proxy or the proxy
  // environment, as every command's do.
  const proxy = proxyConfig(values.proxy as string | undefined, process.env, 'survey')
  if (proxy !== null) installGlobalProxy(proxy)

  let progress = new Progress(false, [])
  const run = chunk.surveyChecked({ paths: positionals, origins }, plan, {
    units: (found) => {
      for (const { folder, files } of found.skipped) {
        process.stderr.write(`robotstxt: ${escapeControls(folder)}: ${files} ${files === 1 ? 'file' : 'files'} skipped (a folder's files are read when named robots.txt or *.txt)\n`)
      }
      progress = new Progress(process.stderr.isTTY === true, found.units)
    },
  })
  const sink = out === undefined ? null : await openSink(chunk, out, plan)
  let bad = 0
  try {
    for await (const row of run) {
      if (row.outcome === 'error') {
        bad++
        process.stderr.write(`${progress.clear()}robotstxt: ${escapeControls(row.source)}: offset ${row.offset}: ${escapeControls(row.error ?? '')}\n`)
      }
      progress.count(row)
      await sink?.write(row)
    }
  } catch (e) {
    await sink?.abort()
    throw e
  }
  await sink?.close()
  progress.done()
  const summary = await run.summary
  if (report !== undefined) {
    const inputs = [...positionals, ...(originsFile !== undefined ? [`origins from ${originsFile}`] : [])]
    const html = chunk.surveyReport(summary, { inputs, paths: plan.paths, date: new Date().toISOString().slice(0, 10) })
    try {
      await writeFile(report, html)
    } catch (e) {
      throw new InputError(`cannot write ${report}: ${describeFsError(e)}`)
    }
  }
  const table = renderSummary(summary, styleFor(out === '-' ? process.stderr : process.stdout))
  if (out === '-') process.stderr.write(table)
  else process.stdout.write(table)
  return bad > 0 ? 3 : 0
}

type Chunk = Awaited<ReturnType<typeof loadSurveyChunk>>

/** The sink of --out: JSONL or CSV lines (buffered, written as the stream drains), or Parquet through DuckDB. */
async function openSink(chunk: Chunk, out: string, plan: Parameters<Chunk['csvHeader']>[0]): Promise<RowSink> {
  if (/\.parquet$/i.test(out)) {
    // The file is written at the end: a folder that is not there is found now, not after the run.
    try {
      if (!(await stat(dirname(out))).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' })
    } catch (e) {
      throw new InputError(`cannot write ${out}: ${describeFsError(e)}`)
    }
    let sink: RowSink
    try {
      sink = await chunk.parquetSink(out)
    } catch (e) {
      throw new InputError(`--out ${out}: ${e instanceof Error ? e.message : String(e)}`)
    }
    return {
      write: (row) => sink.write(row),
      abort: () => sink.abort(),
      async close() {
        try {
          await sink.close()
        } catch (e) {
          throw new InputError(`cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`)
        }
      },
    }
  }
  const csv = /\.csv$/i.test(out)
  const stream: Writable = out === '-' ? process.stdout : createWriteStream(out)
  // The stream's first error, kept by one listener; each wait checks it, so nothing is left pending
  // per wait (a race against a promise that stays pending all run keeps a reaction per drain).
  let failure: InputError | null = null
  stream.on('error', (e) => { failure ??= new InputError(`cannot write ${out}: ${describeFsError(e)}`) })
  const event = async (name: 'drain' | 'finish'): Promise<void> => {
    if (failure !== null) throw failure
    try {
      // events.once rejects when 'error' is emitted while it waits.
      await once(stream, name)
    } catch (e) {
      throw failure ?? e
    }
  }
  let buffer = csv ? chunk.csvHeader(plan) : ''
  const flush = async (): Promise<void> => {
    if (buffer === '') return
    const text = buffer
    buffer = ''
    if (!stream.write(text)) await event('drain')
  }
  return {
    async write(row) {
      buffer += csv ? chunk.csvLine(row, plan) : chunk.jsonLine(row)
      if (buffer.length >= 1 << 16) await flush()
    },
    async close() {
      await flush()
      if (stream === process.stdout) return
      stream.end()
      await event('finish')
    },
    async abort() {
      if (stream !== process.stdout) stream.destroy()
    },
  }
}

/** The size of each input file (for the ETA), or null when some size is unknown (a URL, a file gone). */
async function inputSizes(units: readonly { path: string }[]): Promise<Map<string, number> | null> {
  if (units.some((u) => isUrl(u.path))) return null
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

/** The columns of the crawler table: header, and the count of a crawler's totals. */
const COLUMNS: [string, (c: SurveyGroup['crawlers'][number]) => number][] = [
  ['entirely by name', (c) => c.blockedByName],
  ['entirely by *', (c) => c.blockedByStar],
  ['partly by name', (c) => c.partialByName],
  ['partly by *', (c) => c.partialByStar],
  ['allowed', (c) => c.allowed],
  ['named', (c) => c.named],
]

/** One group's lines: its records and outcomes, failures by cause, then every share over its ok records. */
function renderGroup(g: SurveyGroup, sample: number, st: Style): string {
  const o = g.outcomes
  const about = sample > 1 ? 'about ' : ''
  let text = `${st.bold('records')} ${int(g.records)} of ${about}${int(g.origins)} ${g.origins === 1 ? 'origin' : 'origins'}: ${int(o.ok)} ok, ` +
    `${int(o['allow-all'])} allow-all (no robots.txt), ${int(o['disallow-all'])} disallow-all (failures), ${int(o.error)} unreadable\n`
  if (g.failures.length > 0) {
    const causes = g.failures.map((f) => `${f.status !== null ? `status ${f.status}` : escapeControls(f.code ?? 'no response')} x${int(f.records)}`)
    text += `failures: ${causes.join(', ')}\n`
  }
  if (g.ok === 0) return `${text}no robots.txt was read: no shares\n`
  text += `shares of the ${int(g.ok)} ${g.ok === 1 ? 'record' : 'records'} whose robots.txt was read (ok):\n`
  const names = g.crawlers.map((c) => escapeControls(c.name))
  const width = Math.max(7, ...names.map((n) => n.length))
  const setWidth = Math.max(3, ...g.crawlers.map((c) => c.sets.join(',').length))
  text += `${st.bold(`${'crawler'.padEnd(width)}  ${'set'.padEnd(setWidth)}  ${COLUMNS.map(([h]) => h).join('  ')}`)}\n`
  g.crawlers.forEach((c, i) => {
    text += `${names[i]!.padEnd(width)}  ${c.sets.join(',').padEnd(setWidth)}  ${COLUMNS.map(([h, count]) => pct(count(c), g.ok).padStart(h.length)).join('  ')}\n`
  })
  const prefs = g.preferences.map((p) => `${escapeControls(p.category)} n ${pct(p.no, g.ok)} y ${pct(p.yes, g.ok)}`)
  text += `preferences: ${pct(g.withPreferences, g.ok)} of the ${int(g.ok)} state one${prefs.length > 0 ? ` (${prefs.join(', ')})` : ''}\n`
  const lint = g.lint.slice(0, 5).map((l) => `${l.code} ${pct(l.records, g.ok)}`)
  text += `lint: ${pct(g.withLintErrors, g.ok)} of the ${int(g.ok)} with errors${lint.length > 0 ? `; most common: ${lint.join(', ')}` : ''}\n`
  return text
}

/** The summary as the terminal shows it: the total, then each group, then the changes between consecutive groups. */
export function renderSummary(s: SurveySummary, st: Style): string {
  let text = renderGroup(s.total, s.originSample, st)
  for (const g of s.groups) text += `\n${st.bold(`${s.by} ${escapeControls(g.key)}`)}\n${renderGroup(g, s.originSample, st)}`
  if (s.changes.length > 0) {
    const sampled = s.originSample > 1 ? ` (a sample: 1 origin in ${int(s.originSample)}, chosen by a hash of the origin)` : ''
    text += `\n${st.bold('the same origins in consecutive groups')}${sampled}: per crawler, origins whose class or by changed; restricted: allowed before, blocked after; lifted: the reverse\n`
    for (const c of s.changes) {
      text += `${escapeControls(c.from)} -> ${escapeControls(c.to)}: ${int(c.origins)} ${c.origins === 1 ? 'origin' : 'origins'} read (ok) in both\n`
      if (c.origins === 0) continue
      const names = c.crawlers.map((x) => escapeControls(x.name))
      const width = Math.max(7, ...names.map((n) => n.length))
      text += `${st.bold(`${'crawler'.padEnd(width)}  ${'changed'.padStart(16)}  ${'restricted'.padStart(16)}  ${'lifted'.padStart(16)}`)}\n`
      c.crawlers.forEach((x, i) => {
        const cell = (n: number): string => `${int(n)} (${pct(n, c.origins)})`.padStart(16)
        text += `${names[i]!.padEnd(width)}  ${cell(x.changed)}  ${cell(x.restricted)}  ${cell(x.lifted)}\n`
      })
    }
  }
  if (s.skippedFiles > 0) text += `${int(s.skippedFiles)} files of the folders skipped (not robots.txt or *.txt)\n`
  return text
}

/** The progress line on a terminal: records/s, origins, and the ETA when the input size is known. */
class Progress {
  #sizes: Map<string, number> | null = null
  #total = 0
  readonly #start = Date.now()
  readonly #line: ProgressLine
  #records = 0
  #origins = 0
  #doneBytes = 0
  #source = ''
  #offset = 0

  /** `units`: the input files, whose sizes (found as the survey starts) give the ETA. */
  constructor(tty: boolean, units: readonly { path: string }[]) {
    this.#line = new ProgressLine(tty, (final) => this.#text(final))
    if (!tty) return
    inputSizes(units).then((sizes) => {
      this.#sizes = sizes
      this.#total = sizes === null ? 0 : [...sizes.values()].reduce((a, b) => a + b, 0)
    }, () => undefined)
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
