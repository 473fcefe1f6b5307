// WARC and WARC.gz input (a file or a URL: byte-source.ts), read with warcio (a maintained WARC
// library, bundled into the survey chunk). Response records become survey records; request, metadata, warcinfo and other records
// are skipped. warcio stops without a word at truncated or garbage gzip data, reads anything as
// a record, reads a record as long as it says whatever follows, and never returns from skipping a
// record cut short, so this module checks what it gets: a record must start with a `WARC/` version
// line, be as long as it says (each is drained, never skipped), in a plain WARC be followed by
// CR/LF bytes and the next `WARC/` line (or the file's end) and hold no other record's start in its
// header block, and, for a response, have an HTTP status line and a head of at most MAX_HEAD bytes
// that ends at its first empty line (warcio's head reader runs on to a CR LF CR LF in the body when
// there is none after the status line, so the head's end is found here); and when reading stops
// before the end of the file, the bytes not read become an error record with their offset, and
// reading resumes at the next record start (the next gzip member, or the next `WARC/1.` line) after
// them. Offsets only grow, so a hostile file cannot make this loop; every body is cut to
// DEFAULT_MAX_BYTES as it is read.
//
// A WARC.gz's members are inflated by node:zlib (gzip.ts's GzipMembers: native, several times
// pako's speed) and read one by one: a whole non-response record is skipped, a plain response
// (Common Crawl's) is read here from its bytes (fastResponse, held to warcio's reading by the
// tests), and any other member is parsed by warcio on its own, so a record never runs past its
// member. A member too large to inflate at once is read by warcio's own gzip reader instead, and
// then the native reader takes over again.

import { open } from 'node:fs/promises'
import { AsyncIterReader, LimitReader, StatusAndHeaders, StatusAndHeadersParser, WARCParser, type WARCRecord } from 'warcio'
import { concatBytes } from '../engine/bytes.js'
import { DEFAULT_MAX_BYTES } from '../engine/robots.js'
import { robotsOrigin } from '../http/origin.js'
import { SourceError, sourceChunks, sourceStart, type ByteSource } from './byte-source.js'
import { GzipMembers, nativeGzip, type GzipMember } from './gzip.js'
import type { SurveyRecord } from './row.js'

const GZIP_MAGIC = [0x1f, 0x8b, 0x08]
const WARC_LINE = new TextEncoder().encode('WARC/1.')
const WARC_START = [...new TextEncoder().encode('WARC/')]
const SCAN_CHUNK = 1 << 16

/**
 * The records of one WARC or WARC.gz file (a local file or a URL: `src`), with error records for
 * what could not be read; `name` names the file in the records (and by its name, says gzip).
 * Throws only when the file itself cannot be read (the caller reports that).
 */
export async function* warcRecords(src: ByteSource, name: string): AsyncGenerator<SurveyRecord> {
  const size = src.size
  // A .gz name counts as much as the magic: a file whose first member is damaged is still gzip
  // (read as plain WARC, its intact members would all be lost), unless it starts as a plain WARC.
  const head = await sourceStart(src, Math.max(GZIP_MAGIC.length, WARC_START.length))
  const gz = startsWith(head, GZIP_MAGIC) || (/\.gz$/i.test(name) && !startsWith(head, WARC_START))
  let start = 0
  // Native inflation, until a member too large for it: warcio's reader then reads that member.
  let native = gz && nativeGzip
  // The file, read at each plain record's declared end and to find where reading resumes.
  const peek = new FileWindow(src)
  while (start < size) {
    if (native) {
      const members = new GzipMembers(src, start)
      for await (const member of members.members()) {
        if (member.data.length === 0 || wholeOtherRecord(member.data)) continue
        // Most members are one plain response: read at once, with no generator of their own.
        const fast = fastResponse(member.data, name, member.offset)
        if (fast !== null) yield fast
        else yield* memberRecords(member, name)
      }
      const stop = members.stop
      if (stop === null) return
      if (stop.reason === null) {
        native = false
        start = stop.at
        continue
      }
      const next = await nextRecordStart(peek, stop.at + 1, true)
      yield errorRecord(name, stop.at, `${stop.reason}: bytes ${stop.at}-${(next ?? size) - 1} skipped`)
      if (next === null) return
      start = next
      continue
    }
    // A plain WARC, or a WARC.gz member too large for the native reader: warcio reads the file's
    // bytes (inflating them itself), with its offsets (in the compressed file for .gz).
    const file = sourceChunks(src, start, SCAN_CHUNK)
    const at = (parserOffset: number): number => start + parserOffset
    let end = start
    let stopped: string | null = null
    let resume: number | null = null
    const parser = new WARCParser(file, { keepHeadersCase: true, parseHttp: false })
    // Plain WARC: where the next record starts, as found after the last one's declared end (warcio
    // keeps the previous record's offset when a `WARC/` line follows a record with no separator).
    let nextAt: number | null = null
    try {
      for await (const record of parser) {
        const offset = nextAt ?? at(parser.offset)
        // Past the large member warcio was reading for the native reader: back to that reader.
        if (gz && nativeGzip && offset > start) {
          resume = offset
          break
        }
        if (!record.warcHeaders.statusline.startsWith('WARC/')) {
          stopped = 'not a WARC record (no WARC/ version line)'
          end = offset
          break
        }
        const { rec, complete } = await readRecord(record, name, offset)
        if (!complete) {
          stopped = 'truncated WARC record'
          end = offset
          break
        }
        end = start + parser.offset + parser.recordLength
        if (!gz) {
          // warcio reads a record as long as it says, whatever follows: a record cut short takes the
          // next record's first bytes as its own and the next record is lost (warcio only warns).
          // So a record counts only when its declared end is followed by CR/LF bytes and then the
          // end of the file or a `WARC/` line, and no `WARC/1.` record start lies inside it (inside
          // its header block only, when its end is sound: a body may hold a WARC). A record cut short
          // in its header block takes the next record's header lines as its own, so its Content-Length
          // and block too, and may end soundly.
          const headEnd = start + parser._warcHeadersLength
          const after = await separatorEnd(peek, end)
          const inner = await nextRecordStart(peek, offset + 1, false, after.followed ? headEnd : end)
          if (inner !== null) {
            stopped = 'truncated WARC record (it runs into the next record)'
            end = offset
            break
          }
          if (!after.followed) {
            if (rec !== null) yield rec
            stopped = 'not a WARC record (no WARC/ version line)'
            end = after.at
            break
          }
          nextAt = after.at
        }
        if (rec !== null) yield rec
      }
      if (stopped === null && resume === null) {
        end = Math.max(end, start + parser.offset)
        if (end < size) stopped = gz ? 'truncated or corrupt gzip data' : 'truncated or unreadable WARC data'
      }
    } catch (e) {
      // The file could not be read at all from here: the caller reports it.
      if (e instanceof SourceError) throw e
      stopped = `unreadable WARC data (${e instanceof Error ? e.message : String(e)})`
      end = Math.max(end, at(parser.offset))
    } finally {
      // A reader left early (a stop, a hand-over) is closed.
      await file.return(undefined)
    }
    native = gz && nativeGzip
    if (resume !== null) {
      start = resume
      continue
    }
    if (stopped === null) return
    const next = await nextRecordStart(peek, end + 1, gz)
    yield errorRecord(name, end, `${stopped}: bytes ${end}-${(next ?? size) - 1} skipped`)
    if (next === null) return
    start = next
  }
}

/**
 * The records of one gzip member (its data inflated) that is not a whole non-response record
 * (wholeOtherRecord) nor a plain response (fastResponse), read by warcio: the member's data alone,
 * so that a record cut short inside its member is found there (warcio reads a record as long as it
 * says, and in the members' joined stream would take the next member's bytes as its own) and
 * reading goes on at the next member. Every record of a member has the member's offset.
 */
async function* memberRecords(member: GzipMember, name: string): AsyncGenerator<SurveyRecord> {
  const { data, offset, end } = member
  const skipped = (why: string): SurveyRecord => errorRecord(name, offset, `${why}: bytes ${offset}-${end - 1} skipped`)
  const parser = new WARCParser(new AsyncIterReader([data], null), { keepHeadersCase: true, parseHttp: false })
  try {
    for await (const record of parser) {
      if (!record.warcHeaders.statusline.startsWith('WARC/')) {
        yield skipped('not a WARC record (no WARC/ version line)')
        return
      }
      const { rec, complete } = await readRecord(record, name, offset)
      if (!complete) {
        yield skipped('truncated WARC record')
        return
      }
      if (rec !== null) yield rec
    }
  } catch (e) {
    yield skipped(`unreadable WARC data (${e instanceof Error ? e.message : String(e)})`)
  }
}

const CRLF2 = Buffer.from('\r\n\r\n')
const TYPE_LINE = Buffer.from('\r\nWARC-Type: ')
const LENGTH_LINE = Buffer.from('\r\nContent-Length: ')
const RESPONSE = Buffer.from('response\r\n')

/**
 * A gzip member's data that is exactly one well-formed record of a type other than response: a
 * `WARC/1.` line, a header block with `WARC-Type: ` and `Content-Length: ` lines as Common Crawl
 * writes them, and the block and CR LF CR LF filling the member to its end. Common Crawl writes
 * each request and metadata record as such a member; reading them was most of the parsing of its
 * files, and they give no row. Anything else (a response, several records in one member, another
 * spelling, a record that says another length) goes to warcio and the checks above, as always.
 */
function wholeOtherRecord(data: Uint8Array): boolean {
  if (data.length < 16 || !startsWith(data, WARC_START) || data[5] !== 0x31 || data[6] !== 0x2e) return false
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.length)
  const headEnd = bytes.indexOf(CRLF2)
  if (headEnd < 0 || headEnd > MAX_HEAD) return false
  const type = bytes.indexOf(TYPE_LINE)
  if (type < 0 || type > headEnd || bytes.compare(RESPONSE, 0, RESPONSE.length, type + TYPE_LINE.length, type + TYPE_LINE.length + RESPONSE.length) === 0) return false
  const at = bytes.indexOf(LENGTH_LINE)
  if (at < 0 || at > headEnd) return false
  let length = 0
  let i = at + LENGTH_LINE.length
  for (; i < headEnd + 2 && bytes[i]! >= 0x30 && bytes[i]! <= 0x39 && i - at < 40; i++) length = length * 10 + bytes[i]! - 0x30
  if (i === at + LENGTH_LINE.length || bytes[i] !== 0x0d || bytes[i + 1] !== 0x0a) return false
  const end = headEnd + 4 + length
  return end + 4 === data.length && bytes.indexOf(CRLF2, end) === end
}

const TARGET_LINE = 'WARC-Target-URI'
const FAST_FIELDS = new Map([['warc-type', 'WARC-Type'], ['warc-target-uri', TARGET_LINE], ['warc-date', 'WARC-Date'], ['content-length', 'Content-Length']])
const ENCODINGS = new Set(['transfer-encoding', 'content-encoding'])

/**
 * The record of a gzip member that is exactly one plain response record, read here without
 * warcio; null for anything else, which warcio and readRecord then read (the same row, or the
 * same error row, comes out either way: the tests hold the two paths to each other). Plain means:
 * a `WARC/1.0` or `WARC/1.1` line; a header block of ASCII `Name: value` lines, no continuation
 * line, with WARC-Type `response`, one WARC-Target-URI, at most one WARC-Date and one decimal
 * Content-Length, spelt as here; the block and CR LF CR LF filling the member to its end; an HTTP
 * head that ends within MAX_HEAD with a status line whose second word is a status from 100 to 999
 * (as warcio reads it) and no Transfer-Encoding or Content-Encoding header (warcio decodes those);
 * a WARC-Target-URI of an http(s) origin. Common Crawl's responses are such members.
 */
export function fastResponse(data: Uint8Array, source: string, offset: number): SurveyRecord | null {
  if (data.length < 16 || !startsWith(data, WARC_START) || data[5] !== 0x31 || data[6] !== 0x2e || data[8] !== 0x0d || data[9] !== 0x0a) return null
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.length)
  const warcEnd = bytes.indexOf(CRLF2)
  if (warcEnd < 0 || warcEnd > MAX_HEAD) return null
  for (let i = 0; i < warcEnd; i++) if (data[i]! >= 0x80) return null
  const fields = new Map<string, string>()
  const lines = bytes.toString('latin1', 10, warcEnd).split('\r\n')
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon <= 0 || line[0] === ' ' || line[0] === '\t') return null
    const field = line.slice(0, colon)
    const known = FAST_FIELDS.get(field.toLowerCase())
    if (known === undefined) continue
    if (known !== field || fields.has(known)) return null
    fields.set(known, line.slice(colon + 1).trim())
  }
  const length = fields.get('Content-Length')
  let uri = fields.get(TARGET_LINE)
  if (fields.get('WARC-Type') !== 'response' || length === undefined || !/^[0-9]+$/.test(length) || uri === undefined) return null
  const blockStart = warcEnd + 4
  const blockEnd = blockStart + Number(length)
  if (blockEnd + 4 !== data.length || bytes.indexOf(CRLF2, blockEnd) !== blockEnd) return null
  const block = data.subarray(blockStart, blockEnd)
  const end = headEnd(block)
  if (end < 0 || end > MAX_HEAD) return null
  const lineEnd = block.indexOf(0x0a) + 1
  const statusline = utf8.decode(block.subarray(0, lineEnd)).trimEnd()
  const words = statusline.split(' ')
  const status = words.length > 1 ? Number(words[1]) : NaN
  if (!Number.isInteger(status) || status < 100 || status > 999) return null
  // warcio's header reading takes a name as the text before the colon, spaces at its start dropped.
  for (const line of bytes.toString('latin1', blockStart + lineEnd, blockStart + end).split('\n')) {
    const colon = line.indexOf(':')
    if (colon > 0 && ENCODINGS.has(line.slice(0, colon).trimStart().toLowerCase())) return null
  }
  if (uri.startsWith('<') && uri.endsWith('>')) uri = uri.slice(1, -1)
  let origin: string
  try {
    origin = robotsOrigin(uri)
  } catch {
    return null
  }
  const body = block.subarray(end)
  // A view of the region's inflated buffer, not a copy: the row is computed at once, or the body
  // copied into a batch's buffer for the workers (pool.ts), so it pins that buffer only briefly.
  return { origin, source, offset, captured: capturedDate(fields.get('WARC-Date')), status, body: body.subarray(0, DEFAULT_MAX_BYTES), bytes: body.length, error: null }
}

/** A WARC 1.0 date to the second: fields in range (a day past its month's end is left as written). */
const WARC_DATE = /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$/

function errorRecord(source: string, offset: number, error: string): SurveyRecord {
  return { origin: '', source, offset, captured: null, status: null, body: null, bytes: 0, error }
}

/** A WARC-Date as the rows give it (ISO 8601 to the second, UTC); null when absent or not a date. */
export function capturedDate(value: string | null | undefined): string | null {
  // WARC 1.0's own form (every Common Crawl record) is the rows' form: kept as it is, unparsed.
  if (value !== null && value !== undefined && WARC_DATE.test(value)) return value
  if (value === null || value === undefined || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}/.test(value)) return null
  const t = Date.parse(value)
  if (!Number.isFinite(t)) return null
  return `${new Date(t).toISOString().slice(0, 19)}Z`
}

/**
 * Reads a record to its end: a response becomes a survey record (an error record when it has no
 * usable origin or HTTP head), other types null. `complete` is false when the input ended before
 * the record's declared length; warcio cannot skip past such an end (it waits for bytes forever),
 * so every record is drained here instead of skipped.
 */
async function readRecord(record: WARCRecord, source: string, offset: number): Promise<{ rec: SurveyRecord | null; complete: boolean }> {
  const reader = record.reader
  // Checked after the record is drained: a LimitReader with bytes still to come met the input's end.
  const complete = async (): Promise<boolean> => {
    for await (const _ of reader) { /* the rest of the record, unread */ }
    return !(reader instanceof LimitReader) || reader.limit <= 0
  }
  if (record.warcType !== 'response') return { rec: null, complete: await complete() }
  let origin: string
  try {
    origin = robotsOrigin(record.warcTargetURI ?? '')
  } catch {
    return { rec: errorRecord(source, offset, 'response record without an http(s) WARC-Target-URI'), complete: await complete() }
  }
  // The HTTP head is read within the record's own bytes: warcio's own head reading (parseHttp)
  // would run on into the next record of an uncompressed WARC when a record has no head.
  const raw = new AsyncIterReader(reader, null)
  const head = await httpHead(raw)
  if (head === TOO_LONG) {
    return { rec: { ...errorRecord(source, offset, `response record whose HTTP head is longer than ${MAX_HEAD} bytes`), origin }, complete: await complete() }
  }
  const status = head?.statusCode
  if (head === null || typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 999) {
    return { rec: { ...errorRecord(source, offset, 'response record without an HTTP status line'), origin }, complete: await complete() }
  }
  // Decoded as warcio decodes a record's content: de-chunked, then uncompressed.
  const transfer = head.headers.get('transfer-encoding')
  const chunked = transfer === 'chunked'
  const encoding = head.headers.get('content-encoding') ?? (chunked ? null : transfer)
  const { body, bytes } = await readCut(encoding === null && !chunked ? raw : new AsyncIterReader(raw, encoding, chunked))
  return { rec: { origin, source, offset, captured: capturedDate(record.warcDate), status, body, bytes, error: null }, complete: await complete() }
}

/** The longest HTTP head read (status line, header lines, blank line): a head is held whole. */
const MAX_HEAD = 1 << 20
const TOO_LONG = Symbol('too long')
const LF_LF = Buffer.from('\n\n')
const LF_CRLF = Buffer.from('\n\r\n')

/**
 * The HTTP head of a response block, parsed; `block` keeps the bytes after it. Null without a status
 * line, TOO_LONG when the head runs past MAX_HEAD. warcio's head reader takes the status line, then
 * everything to the next CR LF CR LF as header lines: with none after the status line
 * (`HTTP/1.1 200 OK` CRLF CRLF, or lines ending in LF alone) it took the body as header lines and
 * held the whole block looking for one. So the head's end, its first empty line, is found here
 * first, and warcio parses only a head whose end is in the bytes in hand. A record's head is in its
 * first chunk (a WARC.gz member comes whole, a plain WARC in 64 KiB reads): a normal record costs a
 * search of its head's bytes and nothing else (no copy, no reader of its own, and the status line
 * found here is one warcio's parser does not read again); chunks are joined only for a head that a
 * read splits.
 */
async function httpHead(block: AsyncIterReader): Promise<StatusAndHeaders | null | typeof TOO_LONG> {
  let buf: Uint8Array | null = null
  let end = -1
  for await (const chunk of block) {
    buf = buf === null ? chunk : concatBytes([buf, chunk], buf.length + chunk.length)
    end = headEnd(buf)
    if (end >= 0 || buf.length > MAX_HEAD) break
  }
  if (buf === null) return null
  if (end > MAX_HEAD || (end < 0 && buf.length > MAX_HEAD)) return TOO_LONG
  // The status line as warcio reads it: to its LF, or to the block's end.
  const line = buf.indexOf(0x0a)
  const lineEnd = line < 0 ? buf.length : line + 1
  const statusline = utf8.decode(buf.subarray(0, lineEnd)).trimEnd()
  if (statusline === '') return null
  if (end >= 0 && end <= line + 3) {
    block.unread(buf.subarray(end))
    return new StatusAndHeaders({ statusline, headers: new Headers() })
  }
  const parser = new StatusAndHeadersParser()
  if (end >= 0 && !(buf[end - 4] === 0x0d && buf[end - 3] === 0x0a && buf[end - 2] === 0x0d)) {
    // An empty line that is not CR LF CR LF, which warcio would read past: it gets the head alone.
    block.unread(buf.subarray(end))
    return parser.parse(new AsyncIterReader([buf.subarray(lineEnd, end)], null), { firstLine: statusline, headersClass: Headers })
  }
  // The head ends at the first CR LF CR LF, or the block ends: warcio reads no further than `buf`.
  block.unread(buf.subarray(lineEnd))
  return parser.parse(block, { firstLine: statusline, headersClass: Headers })
}

/**
 * Where the HTTP head at the start of `b` ends: after its first empty line (LF or CR LF after the
 * LF that ends the line before); -1 when `b` does not hold it.
 */
function headEnd(b: Uint8Array): number {
  const line = b.indexOf(0x0a)
  if (line < 0) return -1
  const all = Buffer.from(b.buffer, b.byteOffset, b.length)
  // CR LF CR LF, the usual end, first: an LF LF is then looked for only before it.
  const crlf = all.indexOf(LF_CRLF, line)
  const lf = (crlf < 0 ? all : all.subarray(0, crlf + 1)).indexOf(LF_LF, line)
  return lf >= 0 ? lf + 2 : crlf >= 0 ? crlf + 3 : -1
}

const utf8 = new TextDecoder()

/** The decoded payload's first DEFAULT_MAX_BYTES, and its whole size (the rest is read and dropped). */
async function readCut(content: AsyncIterable<Uint8Array>): Promise<{ body: Uint8Array; bytes: number }> {
  const chunks: Uint8Array[] = []
  let kept = 0
  let bytes = 0
  for await (const chunk of content) {
    bytes += chunk.length
    if (kept >= DEFAULT_MAX_BYTES) continue
    const part = chunk.subarray(0, DEFAULT_MAX_BYTES - kept)
    chunks.push(part)
    kept += part.length
  }
  // A single chunk is copied: it may be a view of a larger buffer, which the body must not pin.
  return { body: chunks.length === 1 ? new Uint8Array(chunks[0]!) : concatBytes(chunks, kept), bytes }
}

/** The first `n` bytes of the file at `path` (fewer when it is shorter). */
export async function fileStart(path: string, n: number): Promise<Uint8Array> {
  const fh = await open(path, 'r')
  try {
    const buf = new Uint8Array(n)
    const { bytesRead } = await fh.read(buf, 0, n, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

function startsWith(head: Uint8Array, magic: readonly number[]): boolean {
  return head.length >= magic.length && magic.every((b, i) => head[i] === b)
}

/**
 * A file read through a window of PEEK_WINDOW bytes: the checks at each plain record's end read a
 * few bytes there, and one read serves many small records (a read per check made the survey of a
 * plain WARC five times slower).
 */
class FileWindow {
  #buf = new Uint8Array(PEEK_WINDOW)
  #at = 0
  #len = 0

  constructor(private readonly src: ByteSource) {}

  /** Up to `n` bytes from `pos` (fewer at the end of the file), valid until the next call. */
  async get(pos: number, n: number): Promise<Uint8Array> {
    if (pos < this.#at || pos + n > this.#at + this.#len) {
      if (n > this.#buf.length) this.#buf = new Uint8Array(n)
      this.#at = pos
      this.#len = 0
      for (;;) {
        const bytesRead = await this.src.read(this.#buf, this.#len, this.#buf.length - this.#len, pos + this.#len)
        if (bytesRead === 0) break
        this.#len += bytesRead
        if (this.#len >= n) break
      }
    }
    const from = pos - this.#at
    return this.#buf.subarray(from, Math.min(from + n, this.#len))
  }
}

const PEEK_WINDOW = 1 << 16

/**
 * Where the CR/LF bytes from `end` stop, and whether the end of the file or a `WARC/` line comes
 * there (a record's declared end is sound only then).
 */
async function separatorEnd(file: FileWindow, end: number): Promise<{ at: number; followed: boolean }> {
  let pos = end
  for (;;) {
    const b = await file.get(pos, 256)
    let i = 0
    while (i < b.length && (b[i] === 0x0d || b[i] === 0x0a)) i++
    if (b.length === 0) return { at: pos, followed: true }
    if (i === b.length) {
      pos += i
      continue
    }
    pos += i
    const next = i + WARC_START.length <= b.length ? b : await file.get(pos, WARC_START.length)
    const k0 = next === b ? i : 0
    return { at: pos, followed: next.length - k0 >= WARC_START.length && WARC_START.every((c, k) => next[k0 + k] === c) }
  }
}

/**
 * The index in `b` of the first gzip member header, or of the first `WARC/1.` at a line start or
 * followed by a digit and CRLF (a record cut short ends anywhere, so the next one need not start a
 * line), starting before `limit`; -1 if none. `before` is the byte before b[0] (-1 at the file's start).
 */
function findRecordStart(b: Uint8Array, limit: number, before: number, gz: boolean): number {
  const needle = gz ? GZIP_MAGIC : WARC_LINE
  for (let i = b.indexOf(needle[0]!); i >= 0 && i < limit; i = b.indexOf(needle[0]!, i + 1)) {
    if (i + needle.length > b.length) return -1
    let j = 1
    while (j < needle.length && b[i + j] === needle[j]) j++
    if (j < needle.length) continue
    if (gz) return i
    const prev = i > 0 ? b[i - 1] : before
    if (prev === -1 || prev === 0x0a) return i
    const d = b[i + needle.length]
    if (d !== undefined && d >= 0x30 && d <= 0x39 && b[i + needle.length + 1] === 0x0d && b[i + needle.length + 2] === 0x0a) return i
  }
  return -1
}

/** Bytes kept between scanned chunks, so that a record start split across two is still seen. */
const OVERLAP = 16

/** The offset of the next record start (see findRecordStart) at or after `from` and before `until`; null if none. */
async function nextRecordStart(file: FileWindow, from: number, gz: boolean, until = Infinity): Promise<number | null> {
  let pos = from
  let before = from > 0 ? ((await file.get(from - 1, 1))[0] ?? -1) : -1
  for (;;) {
    const want = Math.min(SCAN_CHUNK, until - pos) + OVERLAP
    const b = await file.get(pos, want)
    const last = b.length < want
    // Candidates start before `limit`; the bytes after it are seen again in the next chunk.
    const limit = Math.min(last ? b.length : b.length - OVERLAP, until - pos)
    const i = findRecordStart(b, limit, before, gz)
    if (i >= 0) return pos + i
    if (last || pos + limit >= until) return null
    before = b[limit - 1]!
    pos += limit
  }
}
