// The survey's inputs as one stream of records, in a deterministic order: the paths in the order
// given (after the shard's pick), a folder's files sorted by name, a file's records in file order.
// A path is a folder of robots.txt files, a .jsonl file of {origin, status, body} lines, or a WARC
// or WARC.gz file. Nothing here throws for bad content: unreadable parts become error records with
// their offset and reading goes on. Bodies are cut to DEFAULT_MAX_BYTES as they are read, and a
// JSONL line is bounded too, so memory never depends on the input; a pipe's copy on disk stops at
// the plan's maxPipeBytes, so disk use does not either.

import { createReadStream, type Dirent, type Stats } from 'node:fs'
import { mkdtemp, open, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import type { Readable } from 'node:stream'
import { join, relative } from 'node:path'
import { concatBytes, encoder } from '../engine/bytes.js'
import { DEFAULT_MAX_BYTES } from '../engine/robots.js'
import { robotsOrigin } from '../http/origin.js'
import type { SurveyRecord } from './row.js'
import { fileStart, warcRecords } from './warc.js'

/** A JSONL line longer than this is an error record (a 500 KiB body escaped as JSON stays far below). */
const MAX_JSONL_LINE = 16 << 20

/**
 * One unit of work: a file to read, and the folder it was found in (its origin is named from it);
 * `error` when the unit is a folder's subfolder that could not be listed.
 */
export interface InputUnit { path: string; folder: string | null; error?: string }

/**
 * The input paths as units, folders expanded into their files (sorted), in a deterministic order;
 * then the shard's share: unit i belongs to shard i mod count. A path that cannot be read stays a
 * unit (it becomes an error record), and so does a subfolder that cannot be listed.
 */
export async function inputUnits(paths: readonly string[], shard: readonly [number, number]): Promise<InputUnit[]> {
  const units: InputUnit[] = []
  for (const path of paths) {
    let folder = false
    try {
      folder = (await stat(path)).isDirectory()
    } catch {
      // Reported by unitRecords, in order.
    }
    if (!folder) {
      units.push({ path, folder: null })
      continue
    }
    units.push(...(await folderUnits(path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
  }
  const [index, count] = shard
  return units.filter((_, i) => i % count === index)
}

/**
 * The files under `root`, at any depth. A symbolic link to a file is read as that file; a link to a
 * folder is not followed, so a link loop cannot make the walk endless; a link that resolves to
 * nothing (dangling, looping) stays a unit and becomes an error record when read.
 */
async function folderUnits(root: string): Promise<InputUnit[]> {
  const units: InputUnit[] = []
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
      if (entry.isDirectory()) folders.push(path)
      else if (entry.isFile()) units.push({ path, folder: root })
      else if (entry.isSymbolicLink()) {
        let file = true
        try {
          file = !(await stat(path)).isDirectory()
        } catch {
          // Read as a file, it gives the error record.
        }
        if (file) units.push({ path, folder: root })
      }
    }
  }
  return units
}

const errorCode = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? String(e)

/** The records of one unit; a pipe is copied up to `maxPipeBytes` bytes (see spooled). */
export async function* unitRecords(unit: InputUnit, maxPipeBytes: number): AsyncGenerator<SurveyRecord> {
  if (unit.error !== undefined) {
    yield failed(unit.path, 0, unit.error)
    return
  }
  if (unit.folder !== null) {
    yield await folderRecord(unit.path, unit.folder)
    return
  }
  const path = unit.path
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
  else if (kind.isFile()) yield* guarded(path, warcRecords(path))
  else yield* guarded(path, spooled(path, maxPipeBytes))
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
    else yield* warcRecords(copy, path)
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
  return { origin, source, offset, status: null, body: null, bytes: 0, error }
}

/**
 * A file of a folder of robots.txt files, as fetched with status 200. The origin is the file's path
 * in the folder without `.txt` (the shared corpus names each file after its host).
 */
async function folderRecord(file: string, dir: string): Promise<SurveyRecord> {
  const origin = relative(dir, file).replace(/\.txt$/i, '')
  try {
    const { body, bytes } = await readHead(file)
    return { origin, source: file, offset: 0, status: 200, body, bytes, error: null }
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
 * JSONL: one `{origin, status, body}` per line (`status` defaults to 200; blank lines skipped);
 * `source` names the file in the records.
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
  const { origin: rawOrigin, status = 200, body } = value as Record<string, unknown>
  let origin: string
  try {
    origin = robotsOrigin(String(rawOrigin))
  } catch {
    return failed(source, offset, 'origin: expected an http(s) URL')
  }
  if (status !== null && (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 999)) {
    return failed(source, offset, 'status: expected an HTTP status (100-999) or null', origin)
  }
  if (body !== undefined && body !== null && typeof body !== 'string') return failed(source, offset, 'body: expected a string', origin)
  const bytes = typeof body === 'string' ? encoder.encode(body) : new Uint8Array(0)
  return { origin, source, offset, status, body: bytes.length > DEFAULT_MAX_BYTES ? bytes.slice(0, DEFAULT_MAX_BYTES) : bytes, bytes: bytes.length, error: null }
}
