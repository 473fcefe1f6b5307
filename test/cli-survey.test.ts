// `robotstxt survey` as users run it: dist/cli.js in a child process on generated WARC.gz files,
// live origins on 127.0.0.1, the README's commands (shards queried as one table with DuckDB),
// exit statuses, escaped terminal output and the progress line on a pseudo-terminal.
import { DuckDBInstance } from '@duckdb/node-api'
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CORPUS, corpusAvailable } from './helpers/cases.js'
import { ensureDist, ROOT } from './helpers/dist.js'
import { CLI, collected, runCli, type Run } from './helpers/cli.js'
import { closeAll, serve } from './helpers/server.js'
import { concat, warcRecord } from './helpers/warc.js'

let tmp = ''

beforeAll(() => {
  ensureDist()
  tmp = mkdtempSync(join(tmpdir(), 'robotstxt-cli-survey-'))
}, 300_000)
afterAll(async () => {
  await closeAll()
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
})

function run(args: string[], cwd = tmp): Promise<Run> {
  return runCli(args, undefined, {}, cwd)
}

async function sql(query: string, cwd = tmp): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    await connection.run(`SET file_search_path = '${cwd}'`)
    return (await connection.runAndReadAll(query)).getRowObjectsJson() as Record<string, unknown>[]
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

/** A WARC.gz of `n` corpus files (or small synthetic ones without the corpus), from `from`. */
async function corpusWarc(path: string, from: number, n: number): Promise<void> {
  const folder = join(CORPUS, 'robots')
  const names = corpusAvailable() ? readdirSync(folder).sort().slice(from, from + n) : []
  const records = corpusAvailable()
    ? names.map((name) => ({ url: `https://${name.replace(/\.txt$/, '')}/robots.txt`, body: new Uint8Array(readFileSync(join(folder, name))) }))
    : Array.from({ length: n }, (_, i) => ({ url: `https://s${from + i}.example/robots.txt`, body: i % 3 === 0 ? 'User-agent: GPTBot\nDisallow: /\n' : 'User-agent: *\nDisallow: /search\n' }))
  writeFileSync(path, concat(await Promise.all(records.map((r) => warcRecord(r, true)))))
}

describe('robotstxt survey', () => {
  test('an --out that cannot be written: exit 2, says so, and no hang', async () => {
    const input = join(tmp, 'unwritable.warc.gz')
    writeFileSync(input, concat([await warcRecord({ url: 'https://a.example/robots.txt', body: 'User-agent: *\nDisallow: /x\n' }, true)]))
    const r = await run(['survey', input, '--crawlers', 'GPTBot', '--out', join(tmp, 'no-such-dir', 'rows.jsonl')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/robotstxt: cannot write .*no-such-dir/)
  })

  test('a WARC.gz to CSV and JSONL, the report, the table on stdout; exit 0', async () => {
    const input = join(tmp, 'one.warc.gz')
    writeFileSync(input, concat([
      await warcRecord({ url: 'https://a.example/robots.txt', body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\nDisallow: /search\n' }, true),
      await warcRecord({ url: 'https://b.example/robots.txt', status: 404, body: '' }, true),
    ]))
    const csv = await run(['survey', input, '--crawlers', 'GPTBot,Googlebot', '--paths', '/search', '--out', 'one.csv', '--report', 'one.html'])
    expect(csv).toMatchObject({ code: 0, stderr: '' })
    expect(csv.stdout).toMatch(/^records 2 of 2 origins: 1 ok, 1 allow-all \(no robots\.txt\), 0 disallow-all \(failures\), 0 unreadable\n/)
    // Every share over the 1 record read: b.example's 404 is counted above, not as allowing.
    expect(csv.stdout).toMatch(/\nshares of the 1 record whose robots\.txt was read \(ok\):\n/)
    expect(csv.stdout).toMatch(/\ncrawler +set +entirely by name +entirely by \* +partly by name +partly by \* +allowed +named\n/)
    expect(csv.stdout).toMatch(/\nGPTBot +ai-training +100\.0% +0\.0% +0\.0% +0\.0% +0\.0% +100\.0%\n/)
    expect(csv.stdout).toMatch(/\nGooglebot +search +0\.0% +0\.0% +0\.0% +100\.0% +0\.0% +0\.0%\n/)
    expect(csv.stdout).toMatch(/preferences: 100\.0% of the 1 state one \(ai-train n 100\.0% y 0\.0%\)/)
    expect(csv.stdout).toMatch(/\nlint: 0\.0% of the 1 with errors\n/)
    expect(await sql(`SELECT origin, captured::VARCHAR AS captured, gptbot_class, gptbot_by, googlebot_by, googlebot_p2_allowed, googlebot_p2_line FROM 'one.csv' ORDER BY origin`)).toEqual([
      { origin: 'https://a.example', captured: '2026-01-01 00:00:00+00', gptbot_class: 'blocked', gptbot_by: 'name', googlebot_by: '*', googlebot_p2_allowed: false, googlebot_p2_line: '6' },
      { origin: 'https://b.example', captured: '2026-01-01 00:00:00+00', gptbot_class: null, gptbot_by: null, googlebot_by: null, googlebot_p2_allowed: true, googlebot_p2_line: '0' },
    ])
    expect(readFileSync(join(tmp, 'one.html'), 'utf8')).toMatch(/^<!doctype html>/)
    const jsonl = await run(['survey', input, '--crawlers', 'GPTBot', '--out', '-'])
    expect(jsonl.code).toBe(0)
    expect(jsonl.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { origin: string }).origin)).toEqual(['https://a.example', 'https://b.example'])
    expect(jsonl.stderr).toMatch(/^records 2/)
  })

  test('bad records: an error line with the offset on stderr (control characters escaped), error rows, exit 3', async () => {
    const good = await warcRecord({ url: 'https://a.example/robots.txt', body: 'User-agent: *\nDisallow: /x\n' }, true)
    const input = join(tmp, 'bad\x1b[31m.warc.gz')
    writeFileSync(input, concat([good, good]).subarray(0, 2 * good.length - 25))
    const r = await run(['survey', input, '--crawlers', 'GPTBot', '--out', 'bad.jsonl'])
    expect(r.code).toBe(3)
    expect(r.stderr).toBe(`robotstxt: ${join(tmp, 'bad\\x1b[31m.warc.gz')}: offset ${good.length}: truncated or corrupt gzip data: bytes ${good.length}-${2 * good.length - 26} skipped\n`)
    const rows = readFileSync(join(tmp, 'bad.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { outcome: string; offset: number })
    expect(rows.map((x) => [x.outcome, x.offset])).toEqual([['ok', 0], ['error', good.length]])
    expect(r.stdout).toMatch(/1 unreadable/)
  })

  test('live origins from --origins: fetched with the package fetch, outcomes by status, in list order', async () => {
    const ok = await serve((_req, res) => res.writeHead(200).end('User-agent: CCBot\nDisallow: /\n'))
    const gone = await serve((_req, res) => res.writeHead(404).end())
    const down = await serve((_req, res) => res.writeHead(503).end())
    writeFileSync(join(tmp, 'origins.txt'), `${ok.origin}\n# a comment\n${gone.origin}/any/page\n${down.origin}\nnot a url\n`)
    const r = await run(['survey', '--origins', 'origins.txt', '--crawlers', 'CCBot', '--out', 'live.jsonl'])
    expect(r.code).toBe(3)
    const rows = readFileSync(join(tmp, 'live.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { origin: string; outcome: string; status: number | null; crawlers: { class: string }[] })
    expect(rows.map((x) => [x.origin, x.outcome, x.status, x.crawlers[0]?.class ?? null])).toEqual([
      [ok.origin, 'ok', 200, 'blocked'], [gone.origin, 'allow-all', 404, null], [down.origin, 'disallow-all', 503, null], ['', 'error', null, null],
    ])
    expect(ok.count()).toBe(1)
    // The survey's requests name it: nothing goes out as node.
    expect(ok.headers[0]!['user-agent']).toMatch(/^robotstxt-wasm\/\S+ \(\+https:/)
    // The 503 is a failure, counted as one: no share of blocking comes from it.
    expect(r.stdout).toMatch(/^records 4 of 3 origins: 1 ok, 1 allow-all \(no robots\.txt\), 1 disallow-all \(failures\), 1 unreadable\nfailures: status 503 x1\n/)
    expect(r.stdout).toMatch(/\nCCBot +ai-training +100\.0% +0\.0% +0\.0% +0\.0% +0\.0% +100\.0%\n/)
  })

  test('usage errors exit 2 with the flag named', async () => {
    for (const [args, message] of [
      [['survey'], /missing INPUT/],
      [['survey', 'x.warc', '--threads', '0'], /--threads: expected a whole number from 1 to 256/],
      [['survey', 'x.warc', '--shard', '3/2'], /--shard: expected I\/N with 1 <= I <= N/],
      [['survey', 'x.warc', '--out', 'x.txt'], /--out: expected a file name ending in \.jsonl, \.csv or \.parquet/],
      [['survey', 'x.warc', '--crawlers', ''], /--crawlers: expected crawler preset names, comma-separated, got ""/],
      [['survey', 'x.warc', '--crawlers', ' , '], /--crawlers: expected crawler preset names/],
      [['survey', 'x.warc', '--tokens', ''], /--tokens: expected robots\.txt product tokens/],
      [['survey', 'x.warc', '--crawlers', 'GPTbot2'], /--crawlers\[0\]: expected a crawler preset's name \(did you mean GPTBot\? a raw robots\.txt token goes in --tokens\), got the string "GPTbot2"/],
      [['survey', 'x.warc', '--crawlers', 'GPTBot,claude'], /--crawlers\[1\]: expected a crawler preset's name \(did you mean Claude-SearchBot or Claude-User or ClaudeBot\?/],
      [['survey', 'x.warc', '--crawlers', 'zzzzzzzz'], /--crawlers\[0\]: expected a crawler preset's name \(a raw robots\.txt token goes in --tokens\)/],
      [['survey', 'x.warc', '--by', 'week'], /--by: expected month, year or source, got "week"/],
      [['survey', 'x.warc', '--prefix', 'https://data.commoncrawl.org/'], /--prefix: applies to a paths listing/],
      [['survey', 'x.paths.gz', '--prefix', 'ftp://mirror/'], /--prefix: expected an http\(s\) URL or a folder path/],
      [['survey', 'x.warc', '--set', 'robots'], /--set\[0\]: expected one of search, ai-training, ai-assistants, seo/],
      [['survey', 'x.warc', '--paths', 'nope'], /--paths\[0\]: expected a path starting with "\/"/],
      [['survey', 'x.warc', '--bogus'], /unknown option "--bogus": survey takes the options /],
      [['survey', '-', 'x.warc', '-'], /INPUT: stdin \("-"\) can be given once/],
      ...['0', '-1', '1.5', 'lots', '4X', '9999999T'].map((v) => [['survey', 'x.warc', `--max-pipe-bytes=${v}`], new RegExp(`--max-pipe-bytes: expected a number of bytes >= 1, with K, M, G or T for KiB, MiB, GiB, TiB \\(e\\.g\\. 512M\\), got "${v.replace('.', '\\.')}"`)]),
    ] as [string[], RegExp][]) {
      const r = await run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).toMatch(/Try 'robotstxt help survey'/)
    }
  })

  test('on a terminal, stderr shows the progress line with records/s, origins and the ETA', async () => {
    const input = join(tmp, 'tty.warc.gz')
    await corpusWarc(input, 0, 1500)
    const child = spawn('script', ['-qec', `${process.execPath} ${CLI} survey ${input} --crawlers GPTBot --out ${join(tmp, 'tty.jsonl')} > ${join(tmp, 'tty.out')}`, '/dev/null'])
    let typescript = ''
    child.stdout.on('data', (c: Buffer) => (typescript += c.toString()))
    child.stdin.end()
    expect(await new Promise<number | null>((resolve) => child.on('close', resolve))).toBe(0)
    expect(typescript).toMatch(/\x1b\[K1,500 records \([0-9,]+\/s\), 1,500 origins\r?\n/)
    // 1,500 records take more than 250 ms on any machine: lines before the last show the ETA.
    expect(typescript).toMatch(/\x1b\[K[0-9,]+ records \([0-9,]+\/s\), [0-9,]+ origins, ETA [0-9]+:[0-9]{2}\r/)
    expect(readFileSync(join(tmp, 'tty.out'), 'utf8')).toMatch(/^records 1,500/)
  }, 120_000)
})

describe('robotstxt survey: arguments and inputs', () => {
  const jsonl = (lines: object[]): string => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`

  test('an INPUT that does not exist is a one-line error and exit 2, not a table of dashes', async () => {
    const r = await run(['survey', 'nonexistent.warc.gz', '--crawlers', 'GPTBot'])
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'robotstxt: cannot read nonexistent.warc.gz: no such file\n' })
  })

  test('--tokens surveys raw product tokens, each a crawler of its own, beside the presets', async () => {
    writeFileSync(join(tmp, 'tokens.jsonl'), jsonl([{ origin: 'https://a.example', status: 200, body: 'User-agent: my-bot\nDisallow: /\n' }]))
    const r = await run(['survey', 'tokens.jsonl', '--crawlers', 'GPTBot', '--tokens', 'my-bot', '--out', '-'])
    expect(r.code).toBe(0)
    const [row] = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { crawlers: { name: string; class: string; by: string }[] })
    expect(row!.crawlers.map((c) => [c.name, c.class, c.by])).toEqual([['GPTBot', 'allowed', '*'], ['my-bot', 'blocked', 'name']])
  })

  test('a folder reads files named robots.txt or *.txt and says how many others it skipped', async () => {
    const folder = join(tmp, 'mixed')
    mkdirSync(join(folder, 'b.example'), { recursive: true })
    writeFileSync(join(folder, 'a.example.txt'), 'User-agent: *\nDisallow: /a\n')
    writeFileSync(join(folder, 'b.example', 'robots.txt'), 'User-agent: GPTBot\nDisallow: /\n')
    writeFileSync(join(folder, 'notes.markdown'), '# not a robots.txt\n')
    writeFileSync(join(folder, 'b.example', 'index.html'), '<html></html>\n')
    const r = await run(['survey', folder, '--crawlers', 'GPTBot', '--out', '-'])
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { origin: string }).origin)).toEqual(['a.example', 'b.example'])
    expect(r.stderr).toMatch(new RegExp(`^robotstxt: ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 2 files skipped \\(a folder's files are read when named robots\\.txt or \\*\\.txt\\)\\n`))
  })

  test('a JSONL line without status is an error row (exit 3), not a 200; captured is read, a bad one an error row', async () => {
    writeFileSync(join(tmp, 'nostatus.jsonl'), jsonl([
      { origin: 'https://a.example', body: 'User-agent: *\nDisallow: /\n' },
      { origin: 'https://b.example', status: 200, captured: '2024-07-13T05:12:34.250Z', body: '' },
      { origin: 'https://c.example', status: 200, captured: 'last tuesday', body: '' },
      { origin: 'https://d.example', status: null },
    ]))
    const r = await run(['survey', 'nostatus.jsonl', '--crawlers', 'GPTBot', '--out', '-'])
    expect(r.code).toBe(3)
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { origin: string; outcome: string; captured: string | null; error: string | null })
    expect(rows.map((x) => [x.origin, x.outcome, x.captured, x.error])).toEqual([
      ['https://a.example', 'error', null, 'status: missing (an HTTP status, or null for no response)'],
      ['https://b.example', 'ok', '2024-07-13T05:12:34Z', null],
      ['https://c.example', 'error', null, 'captured: expected an ISO 8601 date (2024-07-13T05:12:34Z) or null'],
      ['https://d.example', 'disallow-all', null, null],
    ])
    expect(r.stderr).toMatch(/offset 0: status: missing/)
  })

  test('--by month: the table per month, then the same origins compared between consecutive months', async () => {
    const at = (m: string) => `2024-${m}-10T00:00:00Z`
    writeFileSync(join(tmp, 'months.jsonl'), jsonl([
      { origin: 'https://a.example', status: 200, captured: at('01'), body: 'User-agent: *\nDisallow: /admin/\n' },
      { origin: 'https://b.example', status: 200, captured: at('01'), body: '' },
      { origin: 'https://c.example', status: 503, captured: at('01') },
      { origin: 'https://a.example', status: 200, captured: at('02'), body: 'User-agent: GPTBot\nDisallow: /\n' },
      { origin: 'https://b.example', status: 200, captured: at('02'), body: 'User-agent: GPTBot\nDisallow: /\n' },
      { origin: 'https://c.example', status: 200, captured: at('02'), body: '' },
    ]))
    const r = await run(['survey', 'months.jsonl', '--crawlers', 'GPTBot', '--by', 'month'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^records 6 of 3 origins: 5 ok, 0 allow-all \(no robots\.txt\), 1 disallow-all \(failures\), 0 unreadable\n/)
    expect(r.stdout).toContain('\nmonth 2024-01\nrecords 3 of 3 origins: 2 ok, 0 allow-all (no robots.txt), 1 disallow-all (failures), 0 unreadable\nfailures: status 503 x1\nshares of the 2 records')
    expect(r.stdout).toMatch(/\nmonth 2024-01\n[^]*?\nGPTBot +ai-training +0\.0% +0\.0% +0\.0% +50\.0% +50\.0% +0\.0%\n/)
    expect(r.stdout).toMatch(/\nmonth 2024-02\n[^]*?\nGPTBot +ai-training +66\.7% +0\.0% +0\.0% +0\.0% +33\.3% +66\.7%\n/)
    // a.example (partly by *, then entirely by name) and b.example (allowed, then blocked) changed;
    // c.example was not read in January, so it is no comparison.
    expect(r.stdout).toMatch(/\n2024-01 -> 2024-02: 2 origins read \(ok\) in both\n.*\nGPTBot +2 \(100\.0%\) +1 \(50\.0%\) +0 \(0\.0%\)\n/)
  })

  test('--out FILE.parquet: DuckDB reads back the JSONL\'s rows, nested, with typed columns', async () => {
    const input = join(tmp, 'pq.warc.gz')
    writeFileSync(input, concat(await Promise.all([
      warcRecord({ url: 'https://a.example/robots.txt', body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\nDisallow: /search\nCrawl-delay: 2.5\n' }, true),
      warcRecord({ url: 'https://b.example/robots.txt', status: 503, body: '' }, true),
      warcRecord({ url: 'https://c.example/robots.txt', status: 404, body: '' }, true),
    ])))
    for (const out of ['pq.parquet', 'pq.jsonl']) {
      const r = await run(['survey', input, '--crawlers', 'GPTBot,CCBot', '--paths', '/search', '--out', out])
      expect(r.code, r.stderr).toBe(0)
    }
    const query = (from: string) => `SELECT origin, captured, outcome, status, crawlers[1].class AS gpt_class, crawlers[1].by AS gpt_by, crawlers[2].paths[2].allowed AS cc_search,
      crawlers[2].crawlDelay AS cc_delay, crawlers[2].preferences['ai-train'] AS cc_train, len(crawlers) AS n FROM ${from} ORDER BY origin`
    const fromParquet = await sql(query("'pq.parquet'"))
    expect(fromParquet).toEqual(await sql(query("'pq.jsonl'")))
    expect(fromParquet).toEqual([
      { origin: 'https://a.example', captured: '2026-01-01 00:00:00', outcome: 'ok', status: '200', gpt_class: 'blocked', gpt_by: 'name', cc_search: false, cc_delay: 2.5, cc_train: false, n: '2' },
      { origin: 'https://b.example', captured: '2026-01-01 00:00:00', outcome: 'disallow-all', status: '503', gpt_class: null, gpt_by: null, cc_search: false, cc_delay: null, cc_train: null, n: '2' },
      { origin: 'https://c.example', captured: '2026-01-01 00:00:00', outcome: 'allow-all', status: '404', gpt_class: null, gpt_by: null, cc_search: true, cc_delay: null, cc_train: null, n: '2' },
    ])
    const [types] = await sql("SELECT typeof(captured) AS captured, typeof(crawlers) AS crawlers FROM 'pq.parquet' LIMIT 1")
    expect(types).toEqual({ captured: 'TIMESTAMP', crawlers: 'STRUCT("name" VARCHAR, "class" VARCHAR, "by" VARCHAR, named BOOLEAN, paths STRUCT(path VARCHAR, allowed BOOLEAN, line BIGINT)[], preferences MAP(VARCHAR, BOOLEAN), crawlDelay DOUBLE)[]' })
  })

  test('--out FILE.parquet without @duckdb/node-api installed: exit 2 naming the package, no file written', async () => {
    // The CLI and its survey chunk copied where no node_modules can be found.
    const bare = mkdtempSync(join(tmpdir(), 'robotstxt-bare-'))
    try {
      for (const f of ['cli.js', 'survey.js']) writeFileSync(join(bare, f), readFileSync(join(ROOT, 'dist', f)))
      writeFileSync(join(bare, 'package.json'), '{"type":"module"}')
      writeFileSync(join(bare, 'in.jsonl'), jsonl([{ origin: 'https://a.example', status: 200, body: '' }]))
      const r = await collected(spawn(process.execPath, [join(bare, 'cli.js'), 'survey', 'in.jsonl', '--crawlers', 'GPTBot', '--out', 'rows.parquet'], { cwd: bare }))
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/^robotstxt: --out rows\.parquet: writing Parquet needs the optional package @duckdb\/node-api \(npm install @duckdb\/node-api\)/)
      expect(readdirSync(bare).sort()).toEqual(['cli.js', 'in.jsonl', 'package.json', 'survey.js'])
    } finally {
      rmSync(bare, { recursive: true, force: true })
    }
  })

  test('live origins: bytes is the size before the 500 KiB cut (too-large found as for archives); a failure carries its code', async () => {
    const big = `User-agent: *\nDisallow: /early\n${'# pad\n'.repeat(120_000)}Disallow: /late\n`
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(big))
    // A port nothing listens on: the connection is refused.
    const closed = await serve((_req, res) => res.end())
    await closed.close()
    writeFileSync(join(tmp, 'live-big.txt'), `${server.origin}\n${closed.origin}\n`)
    const r = await run(['survey', '--origins', 'live-big.txt', '--crawlers', 'GPTBot', '--paths', '/late', '--out', '-'])
    expect(r.code).toBe(0)
    const [row, failed] = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { outcome: string; bytes: number; lintCodes: string[]; error: string | null; status: number | null; captured: string; crawlers: { paths: { allowed: boolean }[] }[] })
    expect(row!.bytes).toBe(big.length)
    expect(row!.lintCodes).toContain('too-large')
    expect(row!.crawlers[0]!.paths.map((p) => p.allowed)).toEqual([true, true])
    expect(Math.abs(Date.parse(row!.captured) - Date.now())).toBeLessThan(120_000)
    expect(failed).toMatchObject({ outcome: 'disallow-all', status: null })
    // The fetch's failure code (refused), or `other` from a fetch that gives none.
    expect(failed!.error).toMatch(/^(refused|other)$/)
    expect(r.stderr).toMatch(/failures: (refused|other) x1\n/)
  })
})

/** The CLI run as a user that root's permissions do not cover (nobody), when the tests run as root. */
function runUnprivileged(args: string[]): Promise<Run> {
  const asRoot = process.getuid?.() === 0
  const child = spawn(process.execPath, [CLI, ...args], { cwd: tmp, env: { ...process.env, NO_COLOR: '' }, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) })
  child.stdin.end()
  return collected(child)
}

describe('robotstxt survey on inputs it cannot read as files', () => {
  const robots = (i: number) => ({ url: `https://p${i}.example/robots.txt`, body: `User-agent: *\nDisallow: /p${i}\n` })
  const rows = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as { origin: string; source: string; offset: number; outcome: string; error: string | null })

  test('a WARC.gz, a WARC and JSONL on stdin (/dev/stdin) are read as a stream: every row, exit 0', async () => {
    const records = [robots(0), robots(1)]
    // A shell pipe, then (runCli) node:child_process's stdin, a socket.
    const file = join(tmp, 'piped.warc.gz')
    writeFileSync(file, concat(await Promise.all(records.map((x) => warcRecord(x, true)))))
    const piped = await collected(spawn('/bin/sh', ['-c', 'cat "$1" | "$2" "$3" survey /dev/stdin --crawlers GPTBot --out -', 'sh', file, process.execPath, CLI], { cwd: tmp }))
    expect(piped.stderr).not.toMatch(/robotstxt:/)
    expect(piped.code).toBe(0)
    expect(rows(piped.stdout).map((x) => [x.origin, x.source, x.outcome])).toEqual([['https://p0.example', '/dev/stdin', 'ok'], ['https://p1.example', '/dev/stdin', 'ok']])
    for (const gzip of [true, false]) {
      const r = await runCli(['survey', '/dev/stdin', '--crawlers', 'GPTBot', '--out', '-'], concat(await Promise.all(records.map((x) => warcRecord(x, gzip)))), {}, tmp)
      expect(r.stderr).not.toMatch(/robotstxt:/)
      expect(r.code).toBe(0)
      expect(rows(r.stdout).map((x) => [x.origin, x.source, x.outcome])).toEqual([['https://p0.example', '/dev/stdin', 'ok'], ['https://p1.example', '/dev/stdin', 'ok']])
    }
    const jsonl = records.map((x) => JSON.stringify({ origin: x.url, status: 200, body: x.body })).join('\n')
    const r = await runCli(['survey', '/dev/stdin', '--crawlers', 'GPTBot', '--out', '-'], jsonl, {}, tmp)
    expect(r.code).toBe(0)
    expect(rows(r.stdout).map((x) => [x.origin, x.offset, x.outcome])).toEqual([['https://p0.example', 0, 'ok'], ['https://p1.example', jsonl.indexOf('\n') + 1, 'ok']])
  })

  test('an endless pipe on stdin (-): the copy stops at --max-pipe-bytes, the rows before it are all there, an error line at the bound, exit 3; the copy is removed', async () => {
    const unit = await warcRecord(robots(0), true)
    const file = join(tmp, 'one.warc.gz')
    writeFileSync(file, unit)
    const bound = Math.floor(unit.length * 20.5)
    const temp = join(tmp, 'endless-tmp')
    mkdirSync(temp)
    // `cat` until the pipe's reader is gone (SIGPIPE): an endless pipe, to the survey.
    const endless = await collected(spawn('/bin/sh', ['-c', 'while cat "$1"; do :; done | "$2" "$3" survey - --crawlers GPTBot --out - --max-pipe-bytes "$4"', 'sh', file, process.execPath, CLI, String(bound)], { cwd: tmp, env: { ...process.env, TMPDIR: temp, NO_COLOR: '' } }))
    expect(endless.code).toBe(3)
    const got = rows(endless.stdout)
    expect(got.slice(0, 20).map((x) => [x.origin, x.source, x.offset, x.outcome])).toEqual(Array.from({ length: 20 }, (_, i) => ['https://p0.example', '/dev/stdin', i * unit.length, 'ok']))
    expect(got.slice(20).map((x) => [x.offset, x.outcome])).toEqual([[20 * unit.length, 'error'], [bound, 'error']])
    expect(endless.stderr).toContain(`robotstxt: /dev/stdin: offset ${bound}: pipe input longer than the bound of ${bound} bytes (maxPipeBytes, --max-pipe-bytes): bytes from ${bound} not read\n`)
    expect(readdirSync(temp)).toEqual([])
    // The suffixes: 1K is 1,024 bytes.
    const k = await runCli(['survey', '-', '--crawlers', 'GPTBot', '--out', '-', '--max-pipe-bytes', '1K'], concat([unit, unit, unit, unit, unit]), { TMPDIR: temp }, tmp)
    expect(k.code).toBe(3)
    expect(rows(k.stdout).at(-1)!.offset).toBe(1024)
  })

  test('unreadable WARC and JSONL files and an unreadable subfolder: an error row each, the other inputs read, exit 3', async () => {
    const base = join(tmp, 'unreadable')
    mkdirSync(join(base, 'folder', 'locked'), { recursive: true })
    mkdirSync(join(base, 'folder', 'open'))
    writeFileSync(join(base, 'folder', 'open', 'a.example.txt'), 'User-agent: *\nDisallow: /a\n')
    writeFileSync(join(base, 'folder', 'locked', 'b.example.txt'), 'User-agent: *\nDisallow: /b\n')
    writeFileSync(join(base, 'locked.warc.gz'), await warcRecord(robots(2), true))
    writeFileSync(join(base, 'locked.jsonl'), `${JSON.stringify({ origin: 'https://j.example', status: 200, body: '' })}\n`)
    writeFileSync(join(base, 'open.warc.gz'), await warcRecord(robots(3), true))
    // The run is nobody's when the tests run as root (root reads any file): the parents stay open to it.
    chmodSync(tmp, 0o755)
    chmodSync(join(base, 'folder', 'locked'), 0o000)
    chmodSync(join(base, 'locked.warc.gz'), 0o000)
    chmodSync(join(base, 'locked.jsonl'), 0o000)
    try {
      const r = await runUnprivileged(['survey', join(base, 'folder'), join(base, 'locked.warc.gz'), join(base, 'locked.jsonl'), join(base, 'open.warc.gz'), '--crawlers', 'GPTBot', '--out', '-'])
      expect(r.stderr).not.toMatch(/unexpected error/)
      expect(r.code).toBe(3)
      expect(rows(r.stdout).map((x) => [x.origin, x.source.slice(base.length + 1), x.outcome, x.error])).toEqual([
        ['', 'folder/locked', 'error', `cannot read ${join(base, 'folder', 'locked')}: EACCES`],
        ['open/a.example', 'folder/open/a.example.txt', 'ok', null],
        ['', 'locked.warc.gz', 'error', `cannot read ${join(base, 'locked.warc.gz')}: EACCES`],
        ['', 'locked.jsonl', 'error', `cannot read ${join(base, 'locked.jsonl')}: EACCES`],
        ['https://p3.example', 'open.warc.gz', 'ok', null],
      ])
    } finally {
      chmodSync(join(base, 'folder', 'locked'), 0o755)
    }
  })

  test('--origins naming a folder: exit 2 with the reason, as for a missing file', async () => {
    const r = await run(['survey', '--origins', tmp, '--crawlers', 'GPTBot'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`robotstxt: --origins: cannot read ${tmp}: is a directory\n`)
  })
})

test('the README survey commands run as shown: two shards, read as one table by DuckDB', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const block = /<!-- survey -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1]
  expect(block, 'README has a survey block after <!-- survey -->').toBeTruthy()
  const dir = join(tmp, 'readme')
  mkdirSync(join(dir, 'crawl'), { recursive: true })
  for (let i = 0; i < 3; i++) await corpusWarc(join(dir, 'crawl', `part-${i + 1}.warc.gz`), i * 300, 300)
  const commands = block!.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'))
  expect(commands.length).toBe(4)
  let query = ''
  for (const line of commands) {
    if (line.startsWith('duckdb -c ')) {
      query = JSON.parse(line.slice('duckdb -c '.length)) as string
      continue
    }
    expect(line).toMatch(/^robotstxt survey /)
    // The shell's glob, expanded as sh would (sorted).
    const args = line.slice('robotstxt '.length).split(/\s+/).flatMap((a) => (a === 'crawl/*.warc.gz' ? readdirSync(join(dir, 'crawl')).sort().map((f) => `crawl/${f}`) : [a]))
    const r = await run(args, dir)
    expect(r.code, `${line}\n${r.stderr}`).toBe(0)
  }
  expect(readFileSync(join(dir, 'survey.html'), 'utf8')).toMatch(/<svg/)
  const sharded = await sql(query, dir)
  const whole = await run(['survey', 'crawl/part-1.warc.gz', 'crawl/part-2.warc.gz', 'crawl/part-3.warc.gz', '--crawlers', 'GPTBot,CCBot,Googlebot', '--out', 'whole.jsonl'], dir)
  expect(whole.code).toBe(0)
  expect(sharded).toEqual(await sql(query.replace("'shard-*.jsonl'", "'whole.jsonl'"), dir))
  expect(sharded.map((r) => r.name)).toEqual(['CCBot', 'GPTBot', 'Googlebot'])
  const [counts] = await sql("SELECT (SELECT count(*) FROM 'shard-1.jsonl') AS a, (SELECT count(*) FROM 'shard-2.jsonl') AS b", dir)
  expect(counts).toEqual({ a: '600', b: '300' })
}, 300_000)
