// The survey on hostile inputs, all written with warcio (or cut from what it wrote): each bad part
// gives an error row with its offset (or a lint count for a bad body), the rows of every good
// record are still there, and nothing throws.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEFAULT_MAX_BYTES, parseRobots } from '../src/engine/robots.js'
import { surveyRobots } from '../src/survey/index.js'
import type { SurveyRow } from '../src/survey/types.js'
import { concat, warcRecord, type Response } from './helpers/warc.js'

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-survey-hostile-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function survey(file: string, paths: string[] = []): Promise<SurveyRow[]> {
  const out: SurveyRow[] = []
  for await (const r of surveyRobots(file, { crawlers: ['GPTBot'], paths })) out.push(r)
  return out
}

const good = (i: number): Response => ({ url: `https://s${i}.example/robots.txt`, body: `User-agent: *\nDisallow: /p${i}\n` })

async function parts(n: number, gzip: boolean): Promise<Uint8Array[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => warcRecord(good(i), gzip)))
}

const summary = (rows: SurveyRow[]) => rows.map((r) => [r.origin, r.outcome, r.offset])

for (const gzip of [true, false]) {
  const kind = gzip ? 'WARC.gz' : 'WARC'

  test(`${kind} cut inside its last record: the complete records, then an error row where the cut record starts`, async () => {
    const p = await parts(3, gzip)
    const file = join(dir, `cut.${kind}`)
    const whole = concat(p)
    writeFileSync(file, whole.subarray(0, whole.length - 30))
    const rows = await survey(file)
    expect(summary(rows)).toEqual([
      ['https://s0.example', 'ok', 0], ['https://s1.example', 'ok', p[0]!.length], ['', 'error', p[0]!.length + p[1]!.length],
    ])
    expect(rows[2]!.error).toMatch(/truncated/)
  })

  test(`${kind} with garbage between records: an error row at the garbage, the records after it still read`, async () => {
    const p = await parts(3, gzip)
    const garbage = gzip ? Uint8Array.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xff, 0xfe]) : new TextEncoder().encode('garbage, not a record\r\n\r\n')
    const file = join(dir, `garbage.${kind}`)
    writeFileSync(file, concat([p[0]!, garbage, p[1]!, p[2]!]))
    const rows = await survey(file)
    const at = p[0]!.length
    expect(summary(rows)).toEqual([
      ['https://s0.example', 'ok', 0], ['', 'error', at],
      ['https://s1.example', 'ok', at + garbage.length], ['https://s2.example', 'ok', at + garbage.length + p[1]!.length],
    ])
  })

  test(`${kind}: a response record with no HTTP head is an error row with its origin and offset`, async () => {
    const p = await parts(2, gzip)
    const bad = await warcRecord({ url: 'https://nohead.example/robots.txt', body: 'User-agent: *\nDisallow: /\n', raw: true, type: 'response' }, gzip)
    const file = join(dir, `nohead.${kind}`)
    writeFileSync(file, concat([p[0]!, bad, p[1]!]))
    const rows = await survey(file)
    expect(summary(rows)).toEqual([['https://s0.example', 'ok', 0], ['https://nohead.example', 'error', p[0]!.length], ['https://s1.example', 'ok', p[0]!.length + bad.length]])
    expect(rows[1]!.error).toMatch(/HTTP status line/)
  })
}

test('a non-UTF-8 body is read as bytes, as Google does, and counted by lint', async () => {
  const body = concat([new TextEncoder().encode('User-agent: *\nDisallow: /caf'), Uint8Array.from([0xe9]), new TextEncoder().encode('\n')])
  const file = join(dir, 'latin1.warc.gz')
  writeFileSync(file, await warcRecord({ url: 'https://latin.example/robots.txt', body }, true))
  const [row] = await survey(file, ['/caf%E9', '/other'])
  expect(row!.outcome).toBe('ok')
  expect(row!.crawlers[0]!.paths.map((p) => p.allowed)).toEqual([true, false, true])
  expect(row!.lintCodes).toContain('invalid-utf8')
})

test('a 10 MB body is cut to 500 KiB like every body: rules past the cut do not count, bytes gives the whole size', async () => {
  const head = 'User-agent: *\nDisallow: /early\n'
  const pad = `# ${'x'.repeat(98)}\n`.repeat(100_000)
  const body = new TextEncoder().encode(`${head}${pad}Disallow: /late\n`)
  const file = join(dir, 'big.warc.gz')
  writeFileSync(file, concat([await warcRecord({ url: 'https://big.example/robots.txt', body }, true), await warcRecord(good(1), true)]))
  const rows = await survey(file, ['/early', '/late'])
  expect(rows.map((r) => r.origin)).toEqual(['https://big.example', 'https://s1.example'])
  expect(rows[0]!.bytes).toBe(body.length)
  expect(rows[0]!.crawlers[0]!.paths.map((p) => p.allowed)).toEqual([true, false, true])
  expect(rows[0]!.lintCodes).toContain('too-large')
})

test('a file that is not a WARC (text, random gzip) is one error row at offset 0; the next input is still read', async () => {
  const text = join(dir, 'notes.warc')
  writeFileSync(text, 'User-agent: *\nDisallow: /\n'.repeat(50))
  const gz = join(dir, 'random.warc.gz')
  writeFileSync(gz, gzipSync(Buffer.from('just some gzip text\n'.repeat(20))))
  const next = join(dir, 'ok.warc.gz')
  writeFileSync(next, await warcRecord(good(7), true))
  const rows: SurveyRow[] = []
  for await (const r of surveyRobots([text, gz, join(dir, 'missing.warc'), next], { crawlers: ['GPTBot'] })) rows.push(r)
  expect(rows.map((r) => [r.source.slice(dir.length + 1), r.outcome, r.offset])).toEqual([
    ['notes.warc', 'error', 0], ['random.warc.gz', 'error', 0], ['missing.warc', 'error', 0], ['ok.warc.gz', 'ok', 0],
  ])
  expect(rows[0]!.error).toMatch(/not a WARC record/)
  expect(rows[2]!.error).toMatch(/ENOENT/)
})

test('WARC.gz: a member whose CRC does not match its data is an error row at the member; the next records are read', async () => {
  const p = await parts(3, true)
  const bad = p[1]!.slice()
  // The trailer's CRC-32 (8 bytes from the end): the deflate data still inflates, only the check fails.
  bad[bad.length - 8]! ^= 0xff
  const file = join(dir, 'crc.warc.gz')
  writeFileSync(file, concat([p[0]!, bad, p[2]!]))
  const rows = await survey(file)
  expect(summary(rows)).toEqual([['https://s0.example', 'ok', 0], ['', 'error', p[0]!.length], ['https://s2.example', 'ok', p[0]!.length + bad.length]])
  expect(rows[1]!.error).toMatch(/gzip/)
})

test('WARC.gz: a whole WARC as one gzip member, with a file name in its header, gives every record (at the member\'s offset)', async () => {
  const plain = concat(await parts(3, false))
  // gzip(1) writes FNAME; zlib writes none: the header is rewritten with the flag and a name.
  const z = gzipSync(plain)
  const named = concat([z.subarray(0, 3), Uint8Array.from([0x08]), z.subarray(4, 10), new TextEncoder().encode('all.warc\0'), z.subarray(10)])
  const file = join(dir, 'one-member.warc.gz')
  writeFileSync(file, concat([named, await warcRecord(good(3), true)]))
  const rows = await survey(file)
  expect(summary(rows)).toEqual([
    ['https://s0.example', 'ok', 0], ['https://s1.example', 'ok', 0], ['https://s2.example', 'ok', 0], ['https://s3.example', 'ok', named.length],
  ])
})

test('WARC.gz: a gzip header\'s bytes inside a member (stored uncompressed) split nothing: every record, at its member\'s offset', async () => {
  const magic = Uint8Array.from([0x1f, 0x8b, 0x08])
  const body = concat([new TextEncoder().encode('# '), magic, new TextEncoder().encode('\nUser-agent: *\nDisallow: /m\n')])
  const plain = await warcRecord({ url: 'https://m.example/robots.txt', body }, false)
  const stored = new Uint8Array(gzipSync(plain, { level: 0 }))
  expect(Buffer.from(stored).indexOf(magic, 1)).toBeGreaterThan(0)
  const p = await parts(2, true)
  const file = join(dir, 'stored.warc.gz')
  writeFileSync(file, concat([p[0]!, stored, p[1]!]))
  const rows = await survey(file, ['/m'])
  expect(summary(rows)).toEqual([['https://s0.example', 'ok', 0], ['https://m.example', 'ok', p[0]!.length], ['https://s1.example', 'ok', p[0]!.length + stored.length]])
  expect(rows[1]!.crawlers[0]!.paths.map((x) => x.allowed)).toEqual([true, false])
})

test('a chunked response body is de-chunked as warcio de-chunks it, whether the record is read at once or as a stream', async () => {
  const robots = 'User-agent: *\nDisallow: /c\n'
  const enc = new TextEncoder()
  const hex = robots.length.toString(16)
  // Over the 1 MiB a record is read at once up to: read as a stream.
  const big = `${robots}${'#'.repeat(1_200_000)}\n`
  const response = (head: string, body: Uint8Array | string) => concat([enc.encode(`HTTP/1.1 200 OK\r\n${head}\r\n`), typeof body === 'string' ? enc.encode(body) : body])
  for (const gzip of [true, false]) {
    const file = join(dir, `encoded-${gzip}.warc${gzip ? '.gz' : ''}`)
    writeFileSync(file, concat(await Promise.all([
      warcRecord({ url: 'https://chunked.example/robots.txt', raw: true, body: response('Transfer-Encoding: chunked\r\n', `${hex}\r\n${robots}\r\n0\r\n\r\n`) }, gzip),
      warcRecord({ url: 'https://big.example/robots.txt', raw: true, body: response('Transfer-Encoding: chunked\r\n', `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`) }, gzip),
      warcRecord({ url: 'https://plain.example/robots.txt', raw: true, body: response('Content-Length: 27\r\n', robots) }, gzip),
      warcRecord(good(1), gzip),
    ])))
    const rows = await survey(file, ['/c'])
    expect(rows.map((r) => [r.origin, r.outcome, r.bytes, r.crawlers[0]?.paths[1]?.allowed])).toEqual([
      ['https://chunked.example', 'ok', robots.length, false],
      ['https://big.example', 'ok', big.length, false],
      ['https://plain.example', 'ok', robots.length, false],
      ['https://s1.example', 'ok', good(1).body.length, true],
    ])
  }
})

// Cut in the separator, in the body, in the HTTP head, in the WARC header block.
for (const short of [5, 30, 100, 200]) {
  test(`WARC: a record ${short} bytes short inside the file (its Content-Length runs into the next record) is an error row at its offset; the next records are read`, async () => {
    const p = await parts(4, false)
    const cut = p[1]!.subarray(0, p[1]!.length - short)
    const file = join(dir, `cut-mid-${short}.warc`)
    writeFileSync(file, concat([p[0]!, cut, p[2]!, p[3]!]))
    const rows = await survey(file)
    const at = p[0]!.length
    expect(summary(rows)).toEqual([
      ['https://s0.example', 'ok', 0], ['', 'error', at],
      ['https://s2.example', 'ok', at + cut.length], ['https://s3.example', 'ok', at + cut.length + p[2]!.length],
    ])
    expect(rows[1]!.error).toMatch(/truncated/)
  })
}

test('WARC: after a header-only record (no Content-Length, no separator), the next row has its own record\'s offset', async () => {
  const p = await parts(2, false)
  const meta = new TextEncoder().encode('WARC/1.1\r\nWARC-Type: metadata\r\n\r\n')
  const file = join(dir, 'no-cl.warc')
  writeFileSync(file, concat([p[0]!, meta, p[1]!]))
  expect(summary(await survey(file))).toEqual([['https://s0.example', 'ok', 0], ['https://s1.example', 'ok', p[0]!.length + meta.length]])
})

test('WARC.gz whose first member is damaged (first byte flipped): an error row at 0, then the rows of the intact members', async () => {
  const p = await parts(3, true)
  const bad = p[0]!.slice()
  bad[0]! ^= 0xff
  const file = join(dir, 'bad-first.warc.gz')
  writeFileSync(file, concat([bad, p[1]!, p[2]!]))
  const rows = await survey(file)
  expect(summary(rows)).toEqual([['', 'error', 0], ['https://s1.example', 'ok', bad.length], ['https://s2.example', 'ok', bad.length + p[1]!.length]])
  expect(rows[0]!.error).toMatch(/gzip/)
})

test('a plain WARC named .warc.gz is still read as plain WARC', async () => {
  const p = await parts(2, false)
  const file = join(dir, 'plain-named.warc.gz')
  writeFileSync(file, concat(p))
  expect(summary(await survey(file))).toEqual([['https://s0.example', 'ok', 0], ['https://s1.example', 'ok', p[0]!.length]])
})


// warcio's head reader takes the status line, then reads to the first CR LF CR LF after it: with no
// header lines that is in the body, if anywhere, so the body was read as header lines.
const RULES = 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /private/open\nCrawl-delay: 3\nSitemap: https://x.example/s.xml\n'

/** The row's values a record's body decides (all but where the record is). */
const decided = (r: SurveyRow) => ({ ...r, origin: '', source: '', offset: 0 })

for (const gzip of [true, false]) {
  const kind = gzip ? 'WARC.gz' : 'WARC'

  test(`${kind}: a response whose HTTP head has no header lines (status line, blank line), or whose lines end in LF alone, gives the row of the same body under a CRLF head`, async () => {
    const enc = new TextEncoder()
    const heads = [
      'HTTP/1.1 200 OK\r\n\r\n', 'HTTP/1.1 200 OK\n\n', 'HTTP/1.1 200 OK\n\r\n',
      'HTTP/1.1 200 OK\nContent-Type: text/plain\nX-A: b\n\n', 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-A: b\n\r\n',
    ]
    // Over the cut: what lies past DEFAULT_MAX_BYTES does not count, bytes is the whole size.
    const long = `${RULES}${'# pad\n'.repeat(Math.ceil(DEFAULT_MAX_BYTES / 6))}Disallow: /late\n`
    // A body holding CR LF CR LF: warcio found the end of the "head" inside it.
    const crlf = `User-agent: *\r\nDisallow: /private\r\n\r\nUser-agent: GPTBot\r\nDisallow: /\r\n`
    for (const body of [RULES, long, crlf, '']) {
      for (const [h, head] of heads.entries()) {
        const bare = await warcRecord({ url: 'https://bare.example/robots.txt', raw: true, body: enc.encode(`${head}${body}`) }, gzip)
        const full = await warcRecord({ url: 'https://full.example/robots.txt', body }, gzip)
        const file = join(dir, `bare-head-${body.length}-${h}.${kind}`)
        writeFileSync(file, concat([bare, full]))
        const rows = await survey(file, ['/private', '/private/open', '/late'])
        expect(summary(rows)).toEqual([['https://bare.example', 'ok', 0], ['https://full.example', 'ok', bare.length]])
        expect(decided(rows[0]!)).toEqual(decided(rows[1]!))
        expect(rows[0]!.bytes).toBe(body.length)
        const robots = parseRobots(enc.encode(body).subarray(0, DEFAULT_MAX_BYTES))
        expect(rows[0]!.crawlers[0]!.paths.map((p) => [p.allowed, p.line])).toEqual(
          ['/', '/private', '/private/open', '/late'].map((p) => { const v = robots.check(p, ['GPTBot']); return [v.allowed, v.line] }),
        )
      }
    }
  })

  test(`${kind}: an HTTP head over 1 MiB is an error row with its origin (a head is held whole); the next record is read`, async () => {
    const block = new TextEncoder().encode(`HTTP/1.1 200 OK\r\n${'X-Pad: y\r\n'.repeat(120_000)}\r\nUser-agent: *\nDisallow: /\n`)
    const long = await warcRecord({ url: 'https://long.example/robots.txt', raw: true, body: block }, gzip)
    const p = await parts(1, gzip)
    const file = join(dir, `long-head.${kind}`)
    writeFileSync(file, concat([long, p[0]!]))
    const rows = await survey(file)
    expect(summary(rows)).toEqual([['https://long.example', 'error', 0], ['https://s0.example', 'ok', long.length]])
    expect(rows[0]!.error).toMatch(/HTTP head is longer than 1048576 bytes/)
  })
}

test('WARC: a row does not depend on where the file\'s reads split the HTTP head (64 KiB reads; heads with and without header lines, CRLF and LF)', async () => {
  const enc = new TextEncoder()
  const heads = { bare: 'HTTP/1.1 200 OK\r\n\r\n', full: 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-A: b\r\n\r\n', lf: 'HTTP/1.1 200 OK\nContent-Type: text/plain\n\n' }
  for (const [name, head] of Object.entries(heads)) {
    const record = await warcRecord({ url: `https://${name}.example/robots.txt`, raw: true, body: enc.encode(`${head}${RULES}`) }, false)
    const blockAt = Buffer.from(record).indexOf('\r\n\r\n') + 4
    // The 64 KiB boundary falls at each byte of the head and the body's first one.
    for (let split = 1; split <= head.length + 1; split++) {
      // A first record padded so that the boundary lands `split` bytes into the second's HTTP block.
      let pad = 65536 - split - blockAt - 400
      let first = await warcRecord({ url: 'https://pad.example/robots.txt', body: `#${'x'.repeat(pad)}\n` }, false)
      pad += 65536 - split - blockAt - first.length
      first = await warcRecord({ url: 'https://pad.example/robots.txt', body: `#${'x'.repeat(pad)}\n` }, false)
      expect(first.length + blockAt + split).toBe(65536)
      const file = join(dir, `split-${name}-${split}.warc`)
      writeFileSync(file, concat([first, record]))
      const rows = await survey(file, ['/private', '/private/open'])
      expect(rows.map((r) => [r.origin, r.outcome, r.status, r.bytes, r.crawlers[0]?.paths.map((p) => p.allowed)])).toEqual([
        ['https://pad.example', 'ok', 200, pad + 2, [true, true, true]],
        [`https://${name}.example`, 'ok', 200, RULES.length, [true, true, true]],
      ])
      expect(rows[1]!.crawlers[0]!.crawlDelay).toBe(3)
    }
  }
})

test('a response with no header lines and a 48 MB body is read as a stream: the peak memory grows by far less than the body', async () => {
  const child = join(dir, 'survey-memory-child.mjs')
  await build({ entryPoints: [join(import.meta.dirname, 'helpers', 'survey-memory-child.ts')], bundle: true, platform: 'node', target: 'node18', format: 'esm', outfile: child, loader: { '.wasm': 'base64' }, external: ['@duckdb/node-api'], logLevel: 'error' })
  const enc = new TextEncoder()
  // No CR LF CR LF anywhere: warcio's head reader held the whole block looking for one.
  const body = enc.encode(`${RULES}${'Disallow: /padding/with/some/length\n'.repeat((48 << 20) / 36)}`)
  const block = concat([enc.encode('HTTP/1.1 200 OK\r\n\r\n'), body])
  const warmup = join(dir, 'memory-warmup.warc')
  writeFileSync(warmup, concat(await parts(2, false)))
  for (const gzip of [false, true]) {
    const file = join(dir, `memory-bare.warc${gzip ? '.gz' : ''}`)
    writeFileSync(file, concat([await warcRecord({ url: 'https://huge.example/robots.txt', raw: true, body: block }, gzip), await warcRecord(good(1), gzip)]))
    const r = JSON.parse(execFileSync(process.execPath, ['--expose-gc', child, warmup, file], { encoding: 'utf8', timeout: 120_000 })) as { rows: unknown[]; grewBy: number }
    console.log(`bare head, ${(body.length / 2 ** 20).toFixed(0)} MiB body, ${gzip ? 'WARC.gz' : 'WARC'}: peak memory +${(r.grewBy / 2 ** 20).toFixed(1)} MiB`)
    expect.soft(r.rows).toEqual([['https://huge.example', 'ok', body.length], ['https://s1.example', 'ok', good(1).body.length]])
    expect.soft(r.grewBy).toBeLessThan(body.length / 2)
    rmSync(file)
  }
})

test('WARC.gz in Common Crawl\'s layout: request and metadata members give no rows, responses keep their offsets; a request member whose record is cut short is still an error row', async () => {
  const { gzipSync } = await import('node:zlib')
  const response = (i: number) => warcRecord(good(i), true)
  const request = await warcRecord({ url: 'https://s0.example/robots.txt', type: 'request', body: 'GET /robots.txt HTTP/1.1\r\nHost: s0.example\r\n\r\n' }, true)
  const metadata = await warcRecord({ url: 'https://s0.example/robots.txt', type: 'metadata', body: 'fetchTimeMs: 12\r\n' }, true)
  const plainRequest = await warcRecord({ url: 'https://s1.example/robots.txt', type: 'request', body: 'GET /robots.txt HTTP/1.1\r\nHost: s1.example\r\n\r\n' }, false)
  // The member holds a record 10 bytes shorter than its Content-Length says.
  const cut = new Uint8Array(gzipSync(plainRequest.subarray(0, plainRequest.length - 10)))
  const [r0, r1, r2] = await Promise.all([response(0), response(1), response(2)])
  const whole = [request, r0!, metadata, request, r1!, metadata]
  const file = join(dir, 'cc-layout.warc.gz')
  writeFileSync(file, concat(whole))
  const at = (parts: Uint8Array[], k: number) => parts.slice(0, k).reduce((n, p) => n + p.length, 0)
  expect(summary(await survey(file))).toEqual([['https://s0.example', 'ok', at(whole, 1)], ['https://s1.example', 'ok', at(whole, 4)]])
  const broken = [r0!, cut, r2!]
  writeFileSync(file, concat(broken))
  const rows = await survey(file)
  expect(summary(rows)).toEqual([['https://s0.example', 'ok', 0], ['', 'error', at(broken, 1)], ['https://s2.example', 'ok', at(broken, 2)]])
  expect(rows[1]!.error).toMatch(/truncated/)
})

test('a WARC.gz\'s plain response members are read without warcio, and give the rows warcio gives; the others go to warcio', async () => {
  const { gzipSync } = await import('node:zlib')
  const { fastResponse } = await import('../src/survey/warc.js')
  const enc = new TextEncoder()
  /** A record as bytes, its WARC header lines as given. */
  const record = (warcLines: string[], block: string | Uint8Array, version = 'WARC/1.0') => {
    const b = typeof block === 'string' ? enc.encode(block) : block
    const head = enc.encode(`${version}\r\n${warcLines.join('\r\n')}\r\nContent-Length: ${b.length}\r\n\r\n`)
    return concat([head, b, enc.encode('\r\n\r\n')])
  }
  const lines = (uri: string, type = 'response') => [`WARC-Type: ${type}`, `WARC-Target-URI: ${uri}`, 'WARC-Date: 2024-08-10T10:00:00Z', 'WARC-Record-ID: <urn:uuid:1>']
  const robots = 'User-agent: *\nDisallow: /x\n'
  const variants: [string, Uint8Array, boolean][] = [
    ['plain 200', record(lines('https://a.example/robots.txt'), `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n${robots}`), true],
    ['404, LF head', record(lines('https://b.example/robots.txt'), `HTTP/1.1 404 Not Found\nServer: x\n\n`), true],
    ['no header lines', record(lines('http://c.example/robots.txt'), `HTTP/1.0 503\r\n\r\n${robots}`), true],
    ['URI in angle brackets (WARC/1.1)', record(lines('<https://d.example/robots.txt>'), `HTTP/1.1 200 OK\r\n\r\n${robots}`, 'WARC/1.1'), true],
    ['Common Crawl\'s renamed encodings', record(lines('https://e.example/robots.txt'), `HTTP/1.1 200 OK\r\nX-Crawler-Transfer-Encoding: chunked\r\nX-Crawler-Content-Encoding: gzip\r\n\r\n${robots}`), true],
    ['chunked', record(lines('https://f.example/robots.txt'), `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${robots.length.toString(16)}\r\n${robots}\r\n0\r\n\r\n`), false],
    ['gzip-encoded', record(lines('https://g.example/robots.txt'), concat([enc.encode('HTTP/1.1 200 OK\r\n content-encoding: gzip\r\n\r\n'), gzipSync(robots)])), false],
    ['lower-case WARC field', record(['warc-type: response', 'WARC-Target-URI: https://h.example/robots.txt'], `HTTP/1.1 200 OK\r\n\r\n${robots}`), false],
    ['a status warcio does not read', record(lines('https://i.example/robots.txt'), `HTTP/1.1  200 OK\r\n\r\n${robots}`), false],
    ['not an http(s) URI', record(lines('ftp://j.example/robots.txt'), `HTTP/1.1 200 OK\r\n\r\n${robots}`), false],
    ['a request', record(lines('https://k.example/robots.txt', 'request'), 'GET /robots.txt HTTP/1.1\r\n\r\n'), false],
    ['a non-ASCII header value', record([...lines('https://l.example/robots.txt'), 'X-Note: caf\u00e9'], `HTTP/1.1 200 OK\r\n\r\n${robots}`), false],
  ]
  for (const [what, bytes, fast] of variants) expect(fastResponse(bytes, 'x', 0) !== null, what).toBe(fast)
  const gz = join(dir, 'fast.warc.gz')
  const plain = join(dir, 'fast.warc')
  writeFileSync(gz, concat(variants.map(([, b]) => new Uint8Array(gzipSync(b)))))
  writeFileSync(plain, concat(variants.map(([, b]) => b)))
  const fromGz = await survey(gz, ['/x'])
  const fromPlain = await survey(plain, ['/x'])
  expect(fromGz.map(decided)).toEqual(fromPlain.map(decided))
  expect(fromGz.map((r) => [r.origin, r.outcome, r.status])).toEqual([
    ['https://a.example', 'ok', 200], ['https://b.example', 'allow-all', 404], ['http://c.example', 'disallow-all', 503],
    ['https://d.example', 'ok', 200], ['https://e.example', 'ok', 200], ['https://f.example', 'ok', 200], ['https://g.example', 'ok', 200],
    // h.example: warcio keeps the header's case, and a `warc-type` field is no WARC-Type: no row.
    ['https://i.example', 'error', null], ['', 'error', null], ['https://l.example', 'ok', 200],
  ])
  expect(fromGz.filter((r) => r.outcome === 'ok').every((r) => r.crawlers[0]!.paths[1]!.allowed === false && r.bytes === robots.length)).toBe(true)
})
