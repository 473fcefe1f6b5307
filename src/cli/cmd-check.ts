// `robotstxt check ROBOTS AGENT URL...` and `robotstxt check ROBOTS AGENT --urls FILE [--threads N]`.
// --urls reads blocks of lines and checks them as CHECK_BLOCKS on --threads N threads (this one and
// N - 1 workers, each compiling the matcher once from the same VerdictSpec): the output is the same
// bytes for any N.

import { describeFsError, errorCode, InputError, UsageError } from './errors.js'
import { HELP } from './help.js'
import { agentOption, COMMON_OPTIONS, FETCH_OPTIONS, notOnOrigin, onOrigin, onOriginLine, optionError, parse, threadsOption, urlArgument, type AgentChoice } from './options.js'
import { bulkStdout } from './output.js'
import { describeFetch, fetchSettings, loadRobots, openList, type LoadedRobots } from './source.js'
import { BLOCK, checkBlock, fileReader, lineBlocks, MAX_URL_LINE, streamReader, writeVerdicts, type BlockVerdicts, type LineBlock, type LineFilter, type LinesReport, type StreamResult } from './stream.js'
import { escapeControls } from './style.js'
import { BLOCKS_IN_FLIGHT, cliWorker } from './workers.js'
import { DEFAULT_MAX_BYTES, parseRobots, type Robots } from '../engine/robots.js'
import { getEngine } from '../engine/wasm.js'
import { verdictLines } from '../engine/wasm-urls.js'
import { inOrder, type Work } from '../threads/pool.js'

const OPTIONS = { ...COMMON_OPTIONS, ...FETCH_OPTIONS, token: { type: 'string' }, urls: { type: 'string' }, threads: { type: 'string' } } as const

/** What a thread needs to give the CLI's verdicts: plain data, sent to each worker as it is. */
interface VerdictSpec {
  /** The robots.txt bytes parsed (empty when a fetch did not give 'ok'). */
  body: Uint8Array
  /** The agent argument: a user-agent, or a preset's tokens (a plain array: it is sent to workers). */
  agent: string | string[]
  /** The verdict code of every URL when a fetch gave allow-all (0) or disallow-all (~0); else null. */
  constant: number | null
  /** The origin of a fetched robots.txt: URLs elsewhere are rejected. */
  origin: string | null
}

/** A block of --urls lines, and the buffer of an output already written, for this block's output. */
interface CheckJob { block: LineBlock; into: Uint8Array | null }

/**
 * A block of --urls lines checked on any thread. Its buffer and the spare output buffer move to
 * the worker; the output comes back in the result, the block's buffer (and the spare when the
 * output did not fit in it) to be read into again.
 */
export const CHECK_BLOCKS: Work<VerdictSpec, CheckJob, BlockVerdicts> = {
  tag: 'robotstxt check --urls',
  setup: (spec) => {
    const v = cliVerdicts(spec)
    return (job) => checkBlock(job.block, v.lines, v.filter, job.into ?? undefined)
  },
  jobBuffers: (job) => job.into === null ? [job.block.bytes.buffer as ArrayBuffer] : [job.block.bytes.buffer as ArrayBuffer, job.into.buffer as ArrayBuffer],
  resultBuffers: (r) => [r.out.buffer as ArrayBuffer],
}

/** Runs `check`; resolves to the exit status. */
export async function runCheck(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, 'check')
  if (values.help === true) {
    process.stdout.write(HELP.check!)
    return 0
  }
  const urlsFile = values.urls as string | undefined
  const threads = threadsOption(values.threads, 'check')
  const { robotsArg, agent, rest: urls } = robotsAndAgent(positionals, values.token, 'check')
  if (urlsFile !== undefined) {
    if (urls.length > 0) throw new UsageError('give either URL arguments or --urls FILE, not both', 'check')
    if (urlsFile === '') throw optionError('urls', 'expected a file path or "-" for stdin', 'check')
    if (urlsFile === '-' && robotsArg === '-') throw new UsageError('ROBOTS and --urls cannot both be stdin ("-")', 'check')
  } else {
    if (values.threads !== undefined) throw optionError('threads', 'goes with --urls FILE', 'check')
    if (urls.length === 0) throw new UsageError('missing URL (or --urls FILE for a list)', 'check')
    for (const u of urls) urlArgument(u, 'check')
  }
  const fetch = fetchSettings(values, 'check', agent.name)

  const loaded = await loadRobots(robotsArg, fetch, 'check')
  reportFetch(loaded)
  reportCut(loaded)
  if (agent.note !== null) process.stderr.write(`${escapeControls(agent.note)}\n`)
  const spec = verdictSpec(loaded, agent.agent)

  if (urlsFile === undefined) {
    const verdicts = cliVerdicts(spec, loaded.robots)
    // URL arguments are the user's command line: one that cannot be checked is an input error.
    for (const u of urls) {
      const reason = verdicts.reject(u)
      if (reason !== null) throw new InputError(reason)
    }
    const out = verdicts.strings(urls)
    let text = ''
    let anyDisallowed = false
    for (let i = 0; i < urls.length; i++) {
      const v = out[i]!
      if (v < 0) anyDisallowed = true
      text += `${v < 0 ? 'disallowed' : 'allowed'}\t${v < 0 ? ~v : v}\t${escapeControls(urls[i]!)}\n`
    }
    process.stdout.write(text)
    return anyDisallowed ? 1 : 0
  }

  const list = urlsFile === '-' ? null : await openList(urlsFile)
  const output = bulkStdout()
  try {
    // Buffers of checked blocks and of written outputs, used again: as many as the blocks in flight.
    const inputs: ArrayBuffer[] = []
    const outputs: ArrayBuffer[] = []
    const recycle = (buffers: ArrayBuffer[]): void => {
      for (const b of buffers) (b.byteLength === BLOCK ? inputs : outputs).push(b)
    }
    const blocks = lineBlocks(list === null ? streamReader(process.stdin) : fileReader(list), MAX_URL_LINE, inputs)
    const jobs = withOutputs(blocks, outputs)
    const checked = inOrder(jobs, CHECK_BLOCKS, { threads, inFlight: BLOCKS_IN_FLIGHT, worker: cliWorker(), data: spec, callerWorks: true, recycle })
    const result = await writeVerdicts(checked, output.stream, process.stderr, progressReporter(), (b) => outputs.push(b))
    await output.close()
    return result.bad > 0 ? 3 : result.disallowed > 0 ? 1 : 0
  } catch (err) {
    // A system error here comes from reading the list (a failed write ends the process in outputFailed).
    if (errorCode(err) !== undefined) throw new InputError(`cannot read ${urlsFile === '-' ? 'stdin' : urlsFile}: ${describeFsError(err)}`)
    throw err
  } finally {
    await list?.close()
  }
}

/** On stderr, how a fetched robots.txt turned out: "robots.txt: 503 disallow-all, retry after 60 s (https://…/robots.txt)" (source.ts's describeFetch). */
export function reportFetch(loaded: LoadedRobots): void {
  const f = loaded.fetched
  if (f === null) return
  process.stderr.write(`robots.txt: ${describeFetch(f)}\n`)
}

/**
 * ROBOTS and the agent of `check` and `explain`: `ROBOTS AGENT REST...`, or `ROBOTS REST...` with
 * `--token NAME` (one raw product token, never a preset).
 */
export function robotsAndAgent(positionals: string[], token: string | boolean | undefined, command: string): { robotsArg: string; agent: AgentChoice; rest: string[] } {
  const [robotsArg, ...after] = positionals
  if (robotsArg === undefined) throw new UsageError('missing ROBOTS (a file path or an http(s) URL)', command)
  if (typeof token === 'string') return { robotsArg, agent: agentOption(token, command, true), rest: after }
  const [agentArg, ...rest] = after
  if (agentArg === undefined) throw new UsageError('missing AGENT (a crawler preset such as Googlebot-Image, or a user-agent; --token NAME for one product token)', command)
  return { robotsArg, agent: agentOption(agentArg, command), rest }
}

/**
 * On stderr, where a robots.txt over the 500 KiB limit was cut (RFC 9309 2.5; Google's documented
 * limit): the verdicts come from the part before the cut only.
 */
export function reportCut(loaded: LoadedRobots): void {
  const at = cutLine(loaded)
  if (at === null) return
  const size = loaded.size !== null ? `${loaded.size.toLocaleString('en-US')} bytes` : 'longer than 500 KiB'
  process.stderr.write(`robotstxt: ${escapeControls(robotsLabel(loaded))} is ${size}: crawlers read only the first ${DEFAULT_MAX_BYTES.toLocaleString('en-US')} (500 KiB), so ${at.mid ? `line ${at.line} is cut there and the lines after it are` : `the lines from ${at.line} on are`} ignored\n`)
}

/** Where the 500 KiB cut fell: the last line read, and whether the cut is inside it; null when nothing was cut. */
export function cutLine(loaded: LoadedRobots): { line: number; mid: boolean } | null {
  if (!loaded.truncated) return null
  const body = loaded.body
  const last = body[body.length - 1]
  // parsed.lineCount counts the (empty) line after a final line break, where the next line starts.
  return { line: loaded.robots.parsed.lineCount, mid: !(last === 0x0a || last === 0x0d) }
}

function robotsLabel(loaded: LoadedRobots): string {
  return loaded.fetched === null ? loaded.label : `${loaded.fetched.origin}/robots.txt`
}

/** The VerdictSpec of the loaded robots.txt. */
function verdictSpec(loaded: LoadedRobots, agent: string | readonly string[]): VerdictSpec {
  const fetched = loaded.fetched
  return {
    body: loaded.body, agent: typeof agent === 'string' ? agent : [...agent],
    constant: fetched === null || fetched.outcome === 'ok' ? null : fetched.outcome === 'allow-all' ? 0 : ~0,
    origin: fetched === null ? null : fetched.origin,
  }
}

/**
 * Verdicts under a robots.txt, as the CLI codes them (the matching line when allowed, ~line when
 * disallowed): the matcher's for a file or a fetch that gave 'ok', a constant for allow-all /
 * disallow-all (line 0). URLs on another origin than a fetched robots.txt are rejected: its rules
 * say nothing about them. `robots` is spec.body parsed, when the caller has it already.
 */
function cliVerdicts(spec: VerdictSpec, robots?: Robots): {
  strings(urls: readonly string[]): Int32Array
  lines: LinesReport
  filter: LineFilter | null
  reject(url: string): string | null
} {
  const { constant, origin } = spec
  const matcher = (robots ?? parseRobots(spec.body)).matcher(spec.agent)
  // checkMany/checkLines give -line for a disallow; the CLI's code is ~line, which also holds line 0.
  const toCodes = (out: Int32Array): Int32Array => {
    if (constant !== null) out.fill(constant)
    else for (let i = 0; i < out.length; i++) if (out[i]! < 0) out[i] = out[i]! - 1
    return out
  }
  return {
    strings: (urls) => {
      const out = new Int32Array(urls.length)
      if (constant === null) matcher.checkMany(urls, out)
      return toCodes(out)
    },
    // The matcher checks and writes each line in one wasm pass; a constant verdict is written in
    // one pass too, with no codes array.
    lines: constant === null
      ? (block, marks, into) => matcher.verdictLines(block, marks, into)
      : (block, marks, into) => verdictLines(getEngine(), block, constant, marks, into),
    filter: origin === null ? null : (block, start, end) => onOriginLine(block, start, end, origin) ? null : notOnOrigin(new TextDecoder().decode(block.subarray(start, end)), origin),
    reject: (url) => (origin === null || onOrigin(url, origin) ? null : notOnOrigin(url, origin)),
  }
}

/** Each block with a written output's buffer, when there is one, for its own output. */
async function* withOutputs(blocks: AsyncIterable<LineBlock>, outputs: ArrayBuffer[]): AsyncGenerator<CheckJob> {
  for await (const block of blocks) {
    const spare = outputs.pop()
    yield { block, into: spare === undefined ? null : new Uint8Array(spare) }
  }
}

/** Progress on stderr, at most a few times a second, only when stderr is a terminal. */
function progressReporter(): ((r: StreamResult) => void) | undefined {
  if (process.stderr.isTTY !== true) return undefined
  let last = 0
  const show = (r: StreamResult) => {
    const now = Date.now()
    if (now - last < 250) return
    last = now
    process.stderr.write(`\r\x1b[K${r.total.toLocaleString('en-US')} URLs checked, ${r.disallowed.toLocaleString('en-US')} disallowed`)
  }
  process.once('beforeExit', () => {
    if (last !== 0) process.stderr.write('\r\x1b[K')
  })
  return show
}
