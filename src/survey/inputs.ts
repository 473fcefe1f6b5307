// The survey's inputs as one stream of records, in a deterministic order: the paths in the order
// given (after the shard's pick), a folder's files sorted by name, a listing's files in its order,
// a file's records in file order. A path is a folder of robots.txt files, a .jsonl file of
// {origin, status, body} lines, a WARC or WARC.gz file or its http(s) URL, or a Common Crawl paths
// listing (*.paths, *.paths.gz; a file or a URL) of WARC files. Nothing here throws for bad
// content: unreadable parts become error records with their offset and reading goes on. Bodies
// are cut to DEFAULT_MAX_BYTES as they are read, and a JSONL line is bounded too, so memory never
// depends on the input; a pipe's copy on disk stops at the plan's maxPipeBytes, so disk use does
// not either; a URL is read as a stream (byte-source.ts).

import { createReadStream, type Dirent, type Stats } from 'node:fs'
import { mkdtemp, open, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { Readable } from 'node:stream'
import { basename, dirname, join, relative } from 'node:path'
import { createGunzip } from 'node:zlib'
import { concatBytes, encoder } from '../engine/bytes.js'
import { DEFAULT_MAX_BYTES } from '../engine/robots.js'
import { robotsOrigin } from '../http/origin.js'
import { fileSource, HttpSource, type ByteSource } from './byte-source.js'
import type { SurveyRecord } from './row.js'
import { capturedDate, fileStart, warcRecords } from './warc.js'

/** A JSONL line longer than this is an error record (a 500 KiB body escaped as JSON stays far below). */
const MAX_JSONL_LINE = 16 << 20

/**
 * One unit of work: a file or URL to read, and the folder it was found in (its origin is named
 * from it); `error` when the unit is a folder's subfolder or a listing that could not be read.
 */
export interface InputUnit { path: string; folder: string | null; error?: string }

/** The units of the inputs, and the files each folder held that are not read. */
export interface InputUnits {
  units: InputUnit[]
  /** Per folder input with such files: how many were skipped (not `robots.txt` or `*.txt`). */
  skipped: { folder: string; files: number }[]
}

/** An http(s) URL, not a file path. */
export const isUrl = (path: string): boolean => /^https?:\/\//i.test(path)

/** A Common Crawl paths listing, by its name: `robotstxt.paths`, `warc.paths.gz`. */
export const isListing = (path: string): boolean => /\.paths(\.gz)?$/i.test(isUrl(path) ? path.replace(/[?#].*$/, '') : path)

/** How units are found: what a listing's lines are relative to, and the User-Agent of fetches. */
export interface UnitOptions { prefix: string; userAgent: string }

/**
 * The input paths as units, folders expanded into their files (sorted) and listings into the files
 * they name, in a deterministic order; then the shard's share: unit i belongs to shard i mod
 * count. A path that cannot be read stays a unit (it becomes an error record), and so do a
 * subfolder that cannot be listed and a listing that cannot be read.
 */
export async function inputUnits(paths: readonly string[], shard: readonly [number, number], options: UnitOptions): Promise<InputUnits> {
  const units: InputUnit[] = []
  const skipped: InputUnits['skipped'] = []
  for (const path of paths) {
    if (isListing(path)) {
      units.push(...(await listingUnits(path, options)))
      continue
    }
    let folder = false
    try {
      folder = !isUrl(path) && (await stat(path)).isDirectory()
    } catch {
      // Reported by unitRecords, in order.
    }
    if (!folder) {
      units.push({ path, folder: null })
      continue
    }
    const found = await folderUnits(path)
    if (found.skipped > 0) skipped.push({ folder: path, files: found.skipped })
    units.push(...found.units.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
  }
  const [index, count] = shard
  return { units: units.filter((_, i) => i % count === index), skipped }
}

/** The files a folder input reads: `robots.txt`, or any name ending in `.txt` (the corpus names each file after its host). */
const ROBOTS_FILE = /(^|\.)txt$/i
const isRobotsFile = (name: string): boolean => ROBOTS_FILE.test(name)

/**
 * The robots.txt files under `root`, at any depth, and how many other files were skipped. A
 * symbolic link to a file is read as that file; a link to a folder is not followed, so a link loop
 * cannot make the walk endless; a link that resolves to nothing (dangling, looping) stays a unit
 * and becomes an error record when read.
 */
async function folderUnits(root: string): Promise<{ units: InputUnit[]; skipped: number }> {
  const units: InputUnit[] = []
  let skipped = 0
  const folders = [root]
  for (let dir = folders.pop(); dir !== undefined; dir = folders.pop()) {
    let entries: Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (e) {
      units.push({ path: dir, folder: root, error: `cannot read ${dir}: ${errorCode(e)}` })
      continue
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        folders.push(path)
        continue
      }
      let file = entry.isFile()
      if (!file && entry.isSymbolicLink()) {
        file = true
        try {
          file = !(await stat(path)).isDirectory()
        } catch {
          // Read as a file, it gives the error record.
        }
      }
      if (!file) continue
      if (isRobotsFile(entry.name)) units.push({ path, folder: root })
      else skipped++
    }
  }
  return { units, skipped }
}

const errorCode = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e))

/** The most files a listing may name (Common Crawl's largest name about 100,000). */
const MAX_LISTED = 10_000_000
/** The longest line of a listing. */
const MAX_LISTING_LINE = 8192
/** The time a listing's download may take (Common Crawl's are a few MB). */
const LISTING_TIMEOUT_MS = 300_000

/**
 * The files a paths listing names, one per line (blank lines and `#` comments skipped), each
 * relative to `prefix` unless it is a URL itself; a listing that cannot be read is one error unit.
 */
async function listingUnits(listing: string, options: UnitOptions): Promise<InputUnit[]> {
  const units: InputUnit[] = []
  try {
    for await (const line of listingLines(listing, options.userAgent)) {
      if (line.length > MAX_LISTING_LINE) throw new Error(`a line longer than ${MAX_LISTING_LINE} characters`)
      const entry = line.trim()
      if (entry === '' || entry.startsWith('#')) continue
      if (units.length === MAX_LISTED) throw new Error(`more than ${MAX_LISTED} files listed`)
      units.push({ path: listedPath(entry, options.prefix), folder: null })
    }
  } catch (e) {
    return [{ path: listing, folder: null, error: `cannot read the listing ${listing}: ${errorCode(e)}` }]
  }
  return units
}

/** A listing's line resolved against the prefix (a URL ending in `/`, or a folder). */
function listedPath(line: string, prefix: string): string {
  if (isUrl(line)) return line
  const relativePath = line.replace(/^\/+/, '')
  return isUrl(prefix) ? new URL(relativePath, prefix).href : join(prefix, relativePath)
}

/** The lines of a listing file or URL, gunzipped when its name ends in `.gz`. */
async function* listingLines(listing: string, userAgent: string): AsyncGenerator<string> {
  let bytes: Readable
  if (isUrl(listing)) {
    const res = await fetch(listing, { headers: { 'user-agent': userAgent }, signal: AbortSignal.timeout(LISTING_TIMEOUT_MS) })
    if (res.status !== 200 || res.body === null) {
      res.body?.cancel().catch(() => undefined)
      throw new Error(`HTTP ${res.status}`)
    }
    bytes = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>)
  } else {
    bytes = createReadStream(listing)
  }
  const gzip = /\.gz$/i.test(isUrl(listing) ? listing.replace(/[?#].*$/, '') : listing)
  const stream: Readable = gzip ? bytes.pipe(createGunzip()) : bytes
  // pipe() does not pass the source's errors on.
  if (gzip) bytes.on('error', (e) => stream.destroy(e))
  const decoder = new TextDecoder()
  let text = ''
  try {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true })
      const lines = text.split('\n')
      text = lines.pop()!
      yield* lines
      if (text.length > MAX_LISTING_LINE) throw new Error(`a line longer than ${MAX_LISTING_LINE} characters`)
    }
    text += decoder.decode()
    if (text !== '') yield text
  } finally {
    stream.destroy()
    bytes.destroy()
  }
}

/** How inputs are read: the bound on a pipe's copy, and the User-Agent of fetches. */
export interface ReadOptions { maxPipeBytes: number; userAgent: string }

/** The records of one unit; a pipe is copied up to `maxPipeBytes` bytes (see spooled). */
export async function* unitRecords(unit: InputUnit, options: ReadOptions): AsyncGenerator<SurveyRecord> {
  if (unit.error !== undefined) {
    yield failed(unit.path, 0, unit.error)
    return
  }
  if (unit.folder !== null) {
    yield await folderRecord(unit.path, unit.folder)
    return
  }
  const path = unit.path
  if (isUrl(path)) {
    yield* guarded(path, sourceRecords(() => HttpSource.open(path, { userAgent: options.userAgent }), path))
    return
  }
  let kind: Stats
  try {
    kind = await stat(path)
  } catch (e) {
    yield failed(path, 0, `cannot read ${path}: ${errorCode(e)}`)
    return
  }
  // A device (/dev/zero) is refused: copied like a pipe, it could fill the disk without end.
  if (!kind.isFile() && !kind.isFIFO() && !kind.isSocket()) yield failed(path, 0, `cannot read ${path}: not a file, a pipe or a folder`)
  else if (/\.jsonl$/i.test(path)) yield* guarded(path, jsonlRecords(path))
  else if (kind.isFile()) yield* guarded(path, sourceRecords(() => fileSource(path), path))
  else yield* guarded(path, spooled(path, options.maxPipeBytes))
}

/** The WARC records of a source opened here and closed when they are read (or the reader stops). */
async function* sourceRecords(opening: () => Promise<ByteSource>, name: string): AsyncGenerator<SurveyRecord> {
  const src = await opening()
  try {
    yield* warcRecords(src, name)
  } finally {
    await src.close()
  }
}

/**
 * The records of `records`, then an error record at the last offset reached if the file itself
 * fails (cannot be opened or read): a unit's failure never ends the survey.
 */
async function* guarded(path: string, records: AsyncGenerator<SurveyRecord>): AsyncGenerator<SurveyRecord> {
  let offset = 0
  try {
    for await (const r of records) {
      offset = r.offset
      yield r
    }
  } catch (e) {
    yield failed(path, offset, `cannot read ${path}: ${errorCode(e)}`)
  }
}

/** The paths that name this process's standard input. */
const STDIN = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'])

/**
 * A pipe or socket (`/dev/stdin`, `<(...)`) copied to a temporary file, then read as JSONL when its
 * first byte other than white space is `{`, else as WARC: a WARC is read at offsets (a bad part is
 * skipped by seeking to the next record), which a pipe cannot do. The copy costs disk, not memory,
 * stops after `bound` bytes (an endless pipe would fill the disk), and is removed when the records
 * are read or the reader stops. What the pipe held past the bound is an error record at `bound`,
 * after the records of the copy (the one the bound cuts is an error record of its own).
 */
async function* spooled(path: string, bound: number): AsyncGenerator<SurveyRecord> {
  const dir = await mkdtemp(join(tmpdir(), 'robotstxt-survey-'))
  try {
    const copy = join(dir, 'input')
    // A socket (a child process's stdin, as node:child_process makes it) cannot be opened by path.
    const cut = await copyUpTo(STDIN.has(path) ? process.stdin : createReadStream(path), copy, bound)
    if (await startsJson(copy)) yield* jsonlRecords(copy, path)
    else yield* sourceRecords(() => fileSource(copy), path)
    if (cut) yield failed(path, bound, `pipe input longer than the bound of ${bound} bytes (maxPipeBytes, --max-pipe-bytes): bytes from ${bound} not read`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Copies `source` to a new file at `file` up to `bound` bytes; true when the source held more (it is
 * then left unread and destroyed).
 */
async function copyUpTo(source: Readable, file: string, bound: number): Promise<boolean> {
  const out = await open(file, 'wx')
  let copied = 0
  try {
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      const part = copied + chunk.length > bound ? chunk.subarray(0, bound - copied) : chunk
      for (let at = 0; at < part.length;) at += (await out.write(part, at, part.length - at)).bytesWritten
      copied += part.length
      if (part.length < chunk.length) return true
    }
    return false
  } finally {
    await out.close()
  }
}

/** The file's first byte other than white space (in its first 4 KiB) is `{`. */
async function startsJson(file: string): Promise<boolean> {
  return utf8.decode(await fileStart(file, 4096)).trimStart().startsWith('{')
}

function failed(source: string, offset: number, error: string, origin = ''): SurveyRecord {
  return { origin, source, offset, captured: null, status: null, body: null, bytes: 0, error }
}

/**
 * A file of a folder of robots.txt files, as fetched with status 200. The origin is the file's path
 * in the folder without `.txt` (the shared corpus names each file after its host); for a file named
 * `robots.txt`, its folder's path in the folder (the folder's own name at the top).
 */
async function folderRecord(file: string, dir: string): Promise<SurveyRecord> {
  const inFolder = relative(dir, file)
  const origin = /^robots\.txt$/i.test(basename(file))
    ? (dirname(inFolder) === '.' ? basename(dir) : dirname(inFolder))
    : inFolder.replace(/\.txt$/i, '')
  try {
    const { body, bytes } = await readHead(file)
    return { origin, source: file, offset: 0, captured: null, status: 200, body, bytes, error: null }
  } catch (e) {
    return failed(file, 0, `cannot read ${file}: ${errorCode(e)}`, origin)
  }
}

/** The first DEFAULT_MAX_BYTES of a file and its size. */
async function readHead(file: string): Promise<{ body: Uint8Array; bytes: number }> {
  const fh = await open(file, 'r')
  try {
    const bytes = (await fh.stat()).size
    const body = new Uint8Array(Math.min(bytes, DEFAULT_MAX_BYTES))
    let at = 0
    while (at < body.length) {
      const { bytesRead } = await fh.read(body, at, body.length - at, at)
      if (bytesRead === 0) break
      at += bytesRead
    }
    return { body: at === body.length ? body : body.slice(0, at), bytes }
  } finally {
    await fh.close()
  }
}

/** Lines of a file with the byte offset of each; a line over `max` bytes comes as null (its offset kept). */
async function* offsetLines(path: string, max: number): AsyncGenerator<{ offset: number; line: Uint8Array | null }> {
  let parts: Uint8Array[] = []
  let kept = 0
  let tooLong = false
  let lineStart = 0
  let pos = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 }) as AsyncIterable<Uint8Array>) {
    let from = 0
    for (;;) {
      const nl = chunk.indexOf(0x0a, from)
      const end = nl < 0 ? chunk.length : nl
      if (!tooLong) {
        if (kept + end - from > max) {
          tooLong = true
          parts = []
        } else if (end > from) {
          parts.push(chunk.subarray(from, end))
          kept += end - from
        }
      }
      if (nl < 0) break
      yield { offset: lineStart, line: tooLong ? null : concatBytes(parts, kept) }
      parts = []
      kept = 0
      tooLong = false
      lineStart = pos + nl + 1
      from = nl + 1
    }
    pos += chunk.length
  }
  if (tooLong || kept > 0) yield { offset: lineStart, line: tooLong ? null : concatBytes(parts, kept) }
}

const utf8 = new TextDecoder()

/**
 * JSONL: one `{origin, status, body, captured}` per line (`status` required: a number, or null for
 * no response; `captured` optional; blank lines skipped); `source` names the file in the records.
 */
async function* jsonlRecords(path: string, source = path): AsyncGenerator<SurveyRecord> {
  for await (const { offset, line } of offsetLines(path, MAX_JSONL_LINE)) {
    if (line === null) {
      yield failed(source, offset, `line longer than ${MAX_JSONL_LINE} bytes`)
      continue
    }
    const text = utf8.decode(line).trim()
    if (text === '') continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      yield failed(source, offset, 'not a JSON line')
      continue
    }
    yield jsonRecord(value, source, offset)
  }
}

function jsonRecord(value: unknown, source: string, offset: number): SurveyRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return failed(source, offset, 'expected an object {origin, status, body}')
  const { origin: rawOrigin, status, body, captured: rawCaptured } = value as Record<string, unknown>
  let origin: string
  try {
    origin = robotsOrigin(String(rawOrigin))
  } catch {
    return failed(source, offset, 'origin: expected an http(s) URL')
  }
  // A line without a status says nothing of what the server answered: not taken as a 200.
  if (status === undefined) return failed(source, offset, 'status: missing (an HTTP status, or null for no response)', origin)
  if (status !== null && (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 999)) {
    return failed(source, offset, 'status: expected an HTTP status (100-999) or null', origin)
  }
  if (body !== undefined && body !== null && typeof body !== 'string') return failed(source, offset, 'body: expected a string', origin)
  const captured = rawCaptured === undefined || rawCaptured === null ? null : typeof rawCaptured === 'string' ? capturedDate(rawCaptured) : undefined
  if (captured === undefined || (captured === null && rawCaptured !== undefined && rawCaptured !== null)) {
    return failed(source, offset, 'captured: expected an ISO 8601 date (2024-07-13T05:12:34Z) or null', origin)
  }
  const bytes = typeof body === 'string' ? encoder.encode(body) : new Uint8Array(0)
  return { origin, source, offset, captured, status, body: bytes.length > DEFAULT_MAX_BYTES ? bytes.slice(0, DEFAULT_MAX_BYTES) : bytes, bytes: bytes.length, error: null }
}
