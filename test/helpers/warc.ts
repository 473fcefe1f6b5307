// Writes real WARC files with warcio (the library the survey reads them with), including hostile
// ones: the tests build their inputs with the same serializer Common Crawl's tooling agrees with.
import { WARCRecord, WARCSerializer, type WARCType } from 'warcio'
import { concatBytes } from '../../src/engine/bytes.js'

export interface Response {
  url: string
  status?: number
  body: string | Uint8Array
  /** A raw payload instead of an HTTP response (a record with no HTTP head). */
  raw?: boolean
  type?: string
}

const enc = new TextEncoder()

/** One record, serialized (gzip: one gzip member per record, as Common Crawl writes them). */
export async function warcRecord(r: Response, gzip: boolean): Promise<Uint8Array> {
  const bytes = typeof r.body === 'string' ? enc.encode(r.body) : r.body
  const type = (r.raw ? 'resource' : (r.type ?? 'response')) as WARCType
  const record = WARCRecord.create(
    {
      url: r.url, type, warcVersion: 'WARC/1.1', date: '2026-01-01T00:00:00Z',
      ...(type === 'response' ? { statusline: `HTTP/1.1 ${r.status ?? 200} X`, httpHeaders: { 'Content-Type': 'text/plain' } } : {}),
    },
    (async function* () { yield bytes })(),
  )
  // A "response" with no HTTP head: warcio adds one to response records, so the record is written
  // as a resource and its type renamed in the serialized header (same length).
  const raw = r.raw === true && (r.type ?? 'response') === 'response'
  const out = await WARCSerializer.serialize(record, { gzip: gzip && !raw })
  if (!raw) return out
  const text = new TextDecoder('latin1').decode(out).replace('WARC-Type: resource', 'WARC-Type: response')
  const plain = Uint8Array.from(text, (c) => c.charCodeAt(0))
  if (!gzip) return plain
  const { gzipSync } = await import('node:zlib')
  return new Uint8Array(gzipSync(plain))
}

/** A whole WARC file. */
export async function warcFile(records: readonly Response[], gzip: boolean): Promise<Uint8Array> {
  const parts = await Promise.all(records.map((r) => warcRecord(r, gzip)))
  return concat(parts)
}

/** Byte arrays joined. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  return concatBytes(parts, parts.reduce((n, p) => n + p.length, 0))
}

/**
 * A WARC.gz in Common Crawl's robots.txt layout: a warcinfo record, then for each response its
 * request, the response and a metadata record, each record one gzip member, all dated `date`.
 */
export async function commonCrawlWarc(records: readonly Response[], date: string): Promise<Uint8Array> {
  const members: Uint8Array[] = []
  const write = async (record: WARCRecord): Promise<void> => {
    members.push(await WARCSerializer.serialize(record, { gzip: true }))
  }
  await write(WARCRecord.createWARCInfo({ filename: 'robots.warc.gz', warcVersion: 'WARC/1.0', date }, { software: 'robotstxt-wasm tests', format: 'WARC File Format 1.0' }))
  for (const r of records) {
    const url = new URL(r.url)
    await write(WARCRecord.create({ url: r.url, type: 'request', warcVersion: 'WARC/1.0', date, statusline: `GET ${url.pathname} HTTP/1.1`, httpHeaders: { 'Host': url.host, 'User-Agent': 'CCBot/2.0 (https://commoncrawl.org/faq/)' } }, []))
    const body = typeof r.body === 'string' ? enc.encode(r.body) : r.body
    await write(WARCRecord.create({ url: r.url, type: 'response', warcVersion: 'WARC/1.0', date, statusline: `HTTP/1.1 ${r.status ?? 200} X`, httpHeaders: { 'Content-Type': 'text/plain' } }, (async function* () { yield body })()))
    await write(WARCRecord.create({ url: r.url, type: 'metadata', warcVersion: 'WARC/1.0', date }, [enc.encode('fetchTimeMs: 42\r\n')]))
  }
  return concat(members)
}
