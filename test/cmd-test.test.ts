// `robotstxt test ROBOTS EXPECTATIONS`, run for real: the built dist/cli.js as a child process.
// Every format (the JUnit XML checked by libxml2's xmllint), the exit codes, malformed expectation
// files (each error with its line number, the good lines still checked), hostile text (control
// characters, XML specials, '%') in every format, a robots.txt URL served on 127.0.0.1, and the
// examples/site-ci workflow's own command. Verdicts are compared with Robots.check in-process.
import { execFile, execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { judgeExpectations, parseExpectations } from '../src/cli/expectations.js'
import { crawlerTokens, parseRobots } from '../src/index.js'
import { aptInstall } from './helpers/apt.js'
import { bodyArb, pathArb } from './helpers/arbitraries.js'
import { fuzzOptions } from './helpers/fuzz.js'
import { DIST, ensureDist, ROOT } from './helpers/dist.js'
import { closeAll, reply, serve } from './helpers/server.js'

const CLI = join(DIST, 'cli.js')
const SITE = join(ROOT, 'examples', 'site-ci')

const ROBOTS = `User-agent: *
Disallow: /private/
Allow: /private/open

User-agent: GPTBot
Disallow: /

User-agent: Googlebot
Disallow: /search
`

const EXPECTATIONS = `# expectations for the shop
Googlebot allow /products/
Googlebot disallow /search?q=x
Bingbot disallow /private/x
Bingbot allow https://example.com/private/open   # a full URL
GPTBot allow /blog/

Googlebot-Image disallow /search
`

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the CLI in `cwd` with `args`, `input` on stdin. */
function cli(args: string[], input = '', cwd = tmp): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '' }, maxBuffer: 1 << 26 }, (_err, stdout, stderr) => {
      resolve({ code: child.exitCode, stdout, stderr })
    })
    child.stdin!.on('error', () => {})
    child.stdin!.end(input)
  })
}

let tmp = ''

function write(name: string, content: string): string {
  writeFileSync(join(tmp, name), content)
  return name
}

beforeAll(() => {
  ensureDist()
  tmp = mkdtempSync(join(tmpdir(), 'robotstxt-test-'))
  write('robots.txt', ROBOTS)
  write('expectations.txt', EXPECTATIONS)
})

afterAll(async () => {
  await closeAll()
  rmSync(tmp, { recursive: true, force: true })
})

interface JsonReport {
  robots: string
  expectations: string
  fetch: { origin: string; status: number | null; outcome: string; url: string | null; redirects: number; error: { code: string; message: string } | null } | null
  summary: { total: number; passed: number; failed: number; malformed: number }
  results: { line: number; agent: string; tokens: string[]; expected: string; url: string; checkedAs?: string; passed: boolean; allowed: boolean; robotsLine: number; rule: { kind: string; pattern: string } | null }[]
  errors: { line: number; message: string }[]
}

describe('robotstxt test: formats', () => {
  test('text: a line per expectation with the deciding line, then a summary; exit 1 on a failure', async () => {
    const r = await cli(['test', 'robots.txt', 'expectations.txt'])
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe([
      'pass  expectations.txt:2  Googlebot allow /products/  ->  allowed: no rule of robots.txt matches',
      'pass  expectations.txt:3  Googlebot disallow /search?q=x  ->  disallowed by robots.txt:9 (Disallow: /search)',
      'pass  expectations.txt:4  Bingbot disallow /private/x  ->  disallowed by robots.txt:2 (Disallow: /private/)',
      'pass  expectations.txt:5  Bingbot allow https://example.com/private/open  ->  allowed by robots.txt:3 (Allow: /private/open)',
      'FAIL  expectations.txt:6  GPTBot allow /blog/  ->  disallowed by robots.txt:6 (Disallow: /)',
      'pass  expectations.txt:8  Googlebot-Image (Googlebot-Image, Googlebot) disallow /search  ->  disallowed by robots.txt:9 (Disallow: /search)',
      'robots.txt: 5 of 6 expectations met, 1 failed',
      '',
    ].join('\n'))
    expect(r.code).toBe(1)
  })

  test('all met: exit 0', async () => {
    write('met.txt', 'Googlebot allow /\nGPTBot disallow /x\n')
    const r = await cli(['test', 'robots.txt', 'met.txt'])
    expect(r).toEqual({ code: 0, stdout: expect.stringContaining('robots.txt: all 2 expectations met\n'), stderr: '' })
  })

  test('json: every verdict and line is Robots.check\'s, for the preset\'s tokens', async () => {
    const r = await cli(['test', 'robots.txt', 'expectations.txt', '--format', 'json'])
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout) as JsonReport
    expect(report).toMatchObject({ robots: 'robots.txt', expectations: 'expectations.txt', fetch: null, summary: { total: 6, passed: 5, failed: 1, malformed: 0 }, errors: [] })
    const robots = parseRobots(ROBOTS)
    const { expectations } = parseExpectations(EXPECTATIONS)
    expect(report.results.map((x) => x.line)).toEqual([2, 3, 4, 5, 6, 8])
    for (const [i, res] of report.results.entries()) {
      const e = expectations[i]!
      const v = robots.check(e.url, e.tokens)
      expect(res).toEqual({ line: e.line, agent: e.agent, tokens: [...e.tokens], expected: e.expected, url: e.url, passed: v.allowed === (e.expected === 'allow'), allowed: v.allowed, robotsLine: v.line, rule: v.rule ?? null })
    }
    // Googlebot-Image is a preset: it obeys the Googlebot group, which a lone token would not.
    expect(report.results[5]).toMatchObject({ tokens: [...crawlerTokens('Googlebot-Image')], allowed: false, robotsLine: 9 })
    expect(parseRobots(ROBOTS).check('/search', 'Googlebot-Image').allowed).toBe(true)
  })

  test('github: an ::error on each failed expectation\'s line naming the deciding line, then the summary', async () => {
    const r = await cli(['test', 'robots.txt', 'expectations.txt', '--format', 'github'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe(
      '::error file=expectations.txt,line=6,title=robots.txt%3A GPTBot allow /blog/::expected GPTBot allow /blog/, but it is disallowed by robots.txt:6 (Disallow: /)\n'
      + 'robots.txt: 5 of 6 expectations met, 1 failed\n',
    )
  })

  test('junit: valid XML, one testcase per expectation, the failure with its message', async () => {
    const r = await cli(['test', 'robots.txt', 'expectations.txt', '--format', 'junit'])
    expect(r.code).toBe(1)
    const path = write('report.xml', r.stdout)
    const xpath = (q: string) => xmllint(['--xpath', q, path])
    expect(xpath('string(/testsuites/@tests)')).toBe('6')
    expect(xpath('string(/testsuites/testsuite/@failures)')).toBe('1')
    expect(xpath('count(//testcase)')).toBe('6')
    expect(xpath('string(//testcase[failure]/@line)')).toBe('6')
    expect(xpath('string(//testcase[failure]/@name)')).toBe('GPTBot allow /blog/')
    expect(xpath('string(//failure/@message)')).toBe('expected GPTBot allow /blog/, but it is disallowed by robots.txt:6 (Disallow: /)')
  })

  test('--format with another value is a usage error', async () => {
    const r = await cli(['test', 'robots.txt', 'expectations.txt', '--format', 'tap'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^robotstxt test: --format: expected one of text, json, github, junit, got "tap"\n/)
  })
})

/** xmllint (libxml2) on `args`, installed from Debian when missing; its answer, or it throws on ill-formed XML. */
function xmllint(args: string[]): string {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' })
  } catch {
    const failed = aptInstall('libxml2-utils')
    if (failed !== null) throw new Error(failed)
  }
  // --xpath ends its answer with a newline.
  return execFileSync('xmllint', args, { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).replace(/\n$/, '')
}

describe('robotstxt test: exit status 2', () => {
  test.each([
    [[], /missing ROBOTS/],
    [['robots.txt'], /missing EXPECTATIONS/],
    [['robots.txt', 'expectations.txt', 'extra'], /test takes ROBOTS and EXPECTATIONS, got 3 arguments/],
    [['-', '-'], /cannot both be stdin/],
    [['robots.txt', 'expectations.txt', '--frob'], /unknown option "--frob": test takes the options --timeout, --user-agent, --proxy, --format, --origin, --allow-unavailable and --help/],
    [['robots.txt', 'expectations.txt', '--origin'], /--origin needs a value\n  --origin ORIGIN  the site the expectations' URLs are written for/],
    [['robots.txt', 'expectations.txt', '--origin', 'www.example.com'], /--origin: expected an http\(s\) origin such as https:\/\/www.example.com \(no path, query or fragment\), got "www.example.com"/],
    [['robots.txt', 'expectations.txt', '--origin', 'https://www.example.com/shop'], /--origin: expected an http\(s\) origin/],
    [['robots.txt', 'expectations.txt', '--allow-unavailable=yes'], /--allow-unavailable takes no value, got "yes"/],
  ])('usage error %j', async (args, message) => {
    const r = await cli(['test', ...args])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toContain("Try 'robotstxt help test'.")
  })

  test('unreadable files and an expectations file without expectations', async () => {
    write('empty.txt', '# nothing yet\n\n')
    for (const [args, message] of [
      [['nope.txt', 'expectations.txt'], 'robotstxt: cannot read nope.txt: no such file\n'],
      [['robots.txt', 'nope.txt'], 'robotstxt: cannot read nope.txt: no such file\n'],
      [['robots.txt', 'empty.txt'], 'robotstxt: empty.txt: no expectations (each line is "AGENT allow|disallow URL-OR-PATH")\n'],
    ] as const) {
      expect(await cli(['test', ...args])).toEqual({ code: 2, stdout: '', stderr: message })
    }
  })

  test('an expectations file over the size limit is refused, not read whole', async () => {
    const big = write('big.txt', 'Googlebot allow /\n'.repeat(((1 << 20) / 18) + 1))
    const r = await cli(['test', 'robots.txt', big])
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'robotstxt: big.txt: longer than 1,048,576 bytes; split it into several files\n' })
  })
})

describe('robotstxt test: a malformed expectations file', () => {
  const BAD = [
    'Googlebot allow /ok',                   // 1
    'Googlebot',                             // 2
    'Googlebot allow',                       // 3
    'Googlebot alow /x',                     // 4
    'Googlebot allow /a b',                  // 5
    '/bot allow /x',                         // 6
    'Googlebot disallow example.com/x',      // 7
    '\tGPTBot\tDISALLOW\t/\t# tabs, upper case\r', // 8
    'Googlebot allow //cdn.example.com/x',   // 9
  ].join('\n')

  test('each bad line is an error naming file:line and what was expected; the good lines are still checked', async () => {
    write('bad.txt', BAD)
    const r = await cli(['test', 'robots.txt', 'bad.txt'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe([
      'robotstxt: bad.txt:2: expected "AGENT allow|disallow URL-OR-PATH", got "Googlebot": allow|disallow and URL-OR-PATH are missing',
      'robotstxt: bad.txt:3: expected "AGENT allow|disallow URL-OR-PATH", got "Googlebot allow": URL-OR-PATH is missing',
      'robotstxt: bad.txt:4: expected "allow" or "disallow" after the agent, got "alow"',
      'robotstxt: bad.txt:5: expected "AGENT allow|disallow URL-OR-PATH", got 4 fields (a space in a URL is written %20; a comment starts with " #")',
      'robotstxt: bad.txt:6: expected an AGENT (a crawler name such as Googlebot-Image, a user-agent token, or token:NAME), got "/bot"',
      'robotstxt: bad.txt:7: expected an absolute URL (https://host/path) or a path starting with "/", got "example.com/x"',
      'robotstxt: bad.txt:9: expected an absolute URL (https://host/path) or a path starting with "/", got "//cdn.example.com/x"',
      '',
    ].join('\n'))
    expect(r.stdout).toBe([
      'pass  bad.txt:1  Googlebot allow /ok  ->  allowed: no rule of robots.txt matches',
      'pass  bad.txt:8  GPTBot disallow /  ->  disallowed by robots.txt:6 (Disallow: /)',
      'robots.txt: all 2 expectations met; 7 malformed lines in bad.txt',
      '',
    ].join('\n'))
  })

  test('github and junit report the malformed lines too', async () => {
    const gh = await cli(['test', 'robots.txt', 'bad.txt', '--format', 'github'])
    expect(gh.code).toBe(2)
    expect(gh.stdout.split('\n').filter((l) => l.startsWith('::error ')).map((l) => /line=(\d+),title=malformed expectation::/.exec(l)?.[1])).toEqual(['2', '3', '4', '5', '6', '7', '9'])
    const junit = await cli(['test', 'robots.txt', 'bad.txt', '--format', 'junit'])
    const path = write('bad.xml', junit.stdout)
    expect(xmllint(['--xpath', 'string(/testsuites/@errors)', path])).toBe('7')
    expect(xmllint(['--xpath', 'count(//testcase[not(error)])', path])).toBe('2')
  })

  test('parseExpectations never throws and loses no good line among any garbage', () => {
    const good = fc.record({
      agent: fc.constantFrom('Googlebot', 'googlebot-image', 'GPTBot', 'x_bot'),
      verdict: fc.constantFrom('allow', 'disallow', 'Disallow'),
      url: fc.constantFrom('/', '/a#frag', 'https://example.com/p?q=1', '/%E2%9C%93'),
      sep: fc.constantFrom(' ', '\t', '  \t '),
    })
    const line = fc.oneof(good.map((g) => ({ good: g, text: [g.agent, g.verdict, g.url].join(g.sep) })), fc.string().map((text) => ({ good: null, text: text.replace(/\n/g, '') })))
    fc.assert(fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
      const parsed = parseExpectations(lines.map((l) => l.text).join('\n'))
      for (const [i, l] of lines.entries()) {
        if (l.good === null) continue
        expect(parsed.expectations.find((e) => e.line === i + 1)).toMatchObject({ agent: l.good.agent, expected: l.good.verdict.toLowerCase(), url: l.good.url })
      }
      expect(parsed.expectations.length + parsed.errors.length).toBeLessThanOrEqual(lines.length)
    }), { numRuns: 300 })
  })
})

describe('robotstxt test: verdicts', () => {
  test(`judgeExpectations gives robots.check's verdict, line and rule for every expectation, agents and URLs repeated in any order (${fuzzOptions(2_000).numRuns} runs)`, () => {
    const agentArb = fc.constantFrom('Googlebot', 'googlebot-image', 'GPTBot', 'a', 'b', 'foo', 'x/1.0', 'token:Googlebot-Image')
    const expectationArb = fc.tuple(agentArb, fc.constantFrom('allow', 'disallow'), pathArb)
    fc.assert(fc.property(fc.tuple(bodyArb, fc.boolean()), fc.array(expectationArb, { maxLength: 40 }), ([body, asBytes], lines) => {
      const robots = parseRobots(asBytes ? new TextEncoder().encode(body) : body)
      const { expectations } = parseExpectations(lines.map(([a, v, p]) => `${a} ${v} ${p}`).join('\n'))
      const results = judgeExpectations(robots, expectations, null)
      expect(results.length).toBe(expectations.length)
      for (const [i, r] of results.entries()) {
        const v = robots.check(expectations[i]!.url, expectations[i]!.tokens)
        expect([r.allowed, r.robotsLine, r.rule]).toEqual([v.allowed, v.line, v.rule ?? null])
        expect(r.passed).toBe(v.allowed === (r.expected === 'allow'))
      }
    }), fuzzOptions(2_000))
  })
})

describe('robotstxt test: hostile text', () => {
  // An escape sequence, a C1 CSI, a bidi override, XML specials and '%' in the URLs and patterns.
  const HOSTILE_ROBOTS = 'User-agent: *\nDisallow: /x\x1b[2J<&>"\'%25\nDisallow: /rtl\u202e\u0085\n'
  const HOSTILE_EXPECTATIONS = 'Googlebot allow /x\x1b[2J<&>"\'%25y\nGooglebot allow /rtl\u202e\u0085\r\nGooglebot allow /ok\x01\ufffe\n'

  // A file name is untrusted text too.
  const HOSTILE_NAME = 'hostile, file: %\x1b.txt'

  beforeAll(() => {
    write('hostile-robots.txt', HOSTILE_ROBOTS)
    write(HOSTILE_NAME, HOSTILE_EXPECTATIONS)
  })

  test('text: control characters are printed escaped', async () => {
    const r = await cli(['test', 'hostile-robots.txt', HOSTILE_NAME])
    expect(r.code).toBe(1)
    expect(r.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/)
    expect(r.stdout).toContain('FAIL  hostile, file: %\\x1b.txt:1  Googlebot allow /x\\x1b[2J<&>"\'%25y  ->  disallowed by hostile-robots.txt:2 (Disallow: /x\\x1b[2J<&>"\'%25)\n')
    expect(r.stdout).toContain('Googlebot allow /rtl\\u202e\\x85  ->  disallowed by hostile-robots.txt:3')
    expect(r.stdout).toContain('pass  hostile, file: %\\x1b.txt:3  Googlebot allow /ok\\x01\ufffe  ->  allowed')
  })

  test('json: exact values, with no raw control character in the text', async () => {
    const r = await cli(['test', 'hostile-robots.txt', HOSTILE_NAME, '--format', 'json'])
    expect(r.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/)
    const report = JSON.parse(r.stdout) as JsonReport
    expect(report.expectations).toBe(HOSTILE_NAME)
    expect(report.results.map((x) => x.url)).toEqual(['/x\x1b[2J<&>"\'%25y', '/rtl\u202e\u0085', '/ok\x01\ufffe'])
    expect(report.results[0]!.rule).toEqual({ kind: 'disallow', pattern: '/x\x1b[2J<&>"\'%25' })
  })

  test('github: %, CR and LF escaped in the message, and : and , too in properties', async () => {
    const r = await cli(['test', 'hostile-robots.txt', HOSTILE_NAME, '--format', 'github'])
    const lines = r.stdout.split('\n')
    expect(r.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/)
    expect(lines[0]).toBe('::error file=hostile%2C file%3A %25\\x1b.txt,line=1,title=robots.txt%3A Googlebot allow /x\\x1b[2J<&>"\'%2525y::'
      + 'expected Googlebot allow /x\\x1b[2J<&>"\'%2525y, but it is disallowed by hostile-robots.txt:2 (Disallow: /x\\x1b[2J<&>"\'%2525)')
    expect(lines[1]).toMatch(/^::error file=hostile%2C file%3A %25\\x1b\.txt,line=2,title=robots\.txt%3A Googlebot allow \/rtl\\u202e\\x85::/)
    expect(lines.slice(2)).toEqual(['hostile-robots.txt: 1 of 3 expectations met, 2 failed', ''])
  })

  test('junit: XML specials and control characters leave valid XML with the text readable', async () => {
    const r = await cli(['test', 'hostile-robots.txt', HOSTILE_NAME, '--format', 'junit'])
    const path = write('hostile.xml', r.stdout)
    expect(xmllint(['--xpath', 'string(//testcase[@line="1"]/@name)', path])).toBe('Googlebot allow /x\\x1b[2J<&>"\'%25y')
    expect(xmllint(['--xpath', 'string(//testcase[@line="1"]/failure)', path])).toContain('(Disallow: /x\\x1b[2J<&>"\'%25)')
    expect(xmllint(['--xpath', 'string(//testcase[@line="3"]/@name)', path])).toBe('Googlebot allow /ok\\x01\\ufffe')
    expect(xmllint(['--xpath', 'string(//testcase[@line="1"]/@classname)', path])).toBe('hostile, file: %\\x1b.txt')
  })
})

describe('robotstxt test: ROBOTS as a URL', () => {
  test('fetched from 127.0.0.1: paths and URLs of that origin are checked, another origin is an error with its line', async () => {
    const server = await serve(reply(200, ROBOTS))
    write('remote.txt', `GPTBot disallow /\nGooglebot allow ${server.origin}/products/\nGooglebot allow https://other.example/x\n`)
    const r = await cli(['test', `${server.origin}/robots.txt`, 'remote.txt'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`robots.txt: 200 ok (${server.origin}/robots.txt)\nrobotstxt: remote.txt:3: "https://other.example/x" is not on ${server.origin}, whose robots.txt was fetched\n`)
    expect(r.stdout).toBe([
      `pass  remote.txt:1  GPTBot disallow /  ->  disallowed by ${server.origin}/robots.txt:6 (Disallow: /)`,
      `pass  remote.txt:2  Googlebot allow ${server.origin}/products/  ->  allowed: no rule of ${server.origin}/robots.txt matches`,
      `${server.origin}/robots.txt: all 2 expectations met; 1 malformed line in remote.txt`,
      '',
    ].join('\n'))
    expect(server.count()).toBe(1)
  })

})

/** `text` as a RegExp source that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A server whose robots.txt gives no usable file, each way a fetch can fail, and how the run names the failure. */
const UNUSABLE: [string, string, () => Promise<string>][] = [
  ['connection refused', 'no response: connection refused', async () => {
    const server = await serve(reply(200, ROBOTS))
    await server.close()
    return server.origin
  }],
  ['503', 'HTTP 503', async () => (await serve(reply(503, 'down'))).origin],
  ['500', 'HTTP 500', async () => (await serve(reply(500, 'oops'))).origin],
  ['429', 'HTTP 429', async () => (await serve(reply(429, 'slow down', { 'retry-after': '60' }))).origin],
  ['a timeout', 'no response: timed out', async () => (await serve(() => {})).origin],
  ['a body cut short', 'no response: truncated response', async () => (await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' })
    res.write('User-agent: *\nDisallow: /private/\n')
    setTimeout(() => res.socket?.destroy(), 20)
  })).origin],
  ['an undecodable gzip body', 'no response: undecodable body', async () => (await serve(reply(200, 'not gzip at all, just text', { 'content-encoding': 'gzip' }))).origin],
]

describe('robotstxt test: a ROBOTS fetch that gives no usable robots.txt fails the run (exit 4)', () => {
  const expectations = 'Googlebot allow /\nGPTBot disallow /\n'

  test.each(UNUSABLE)('%s: exit 4 and an error in every format, no expectation checked', async (_kind, problem, start) => {
    const origin = await start()
    write('gate.txt', expectations)
    const args = ['test', `${origin}/robots.txt`, 'gate.txt', '--timeout', '500']
    const text = await cli(args)
    expect(text.code).toBe(4)
    // The reason is the fetch's own words: its code's phrase, then the platform's detail in parentheses.
    const reason = `\\(${escapeRegExp(problem)}( \\([^\\n]*\\))?\\)`
    const unavailable = `${escapeRegExp(`${origin}/robots.txt`)}: no usable robots.txt ${reason}: crawlers treat every URL as disallowed until a fetch succeeds; 2 expectations not checked \\(--allow-unavailable checks them against disallow-all\\)`
    expect(text.stdout).toMatch(new RegExp(`^ERROR  ${unavailable}\\n${escapeRegExp(`${origin}/robots.txt: no usable robots.txt, 2 expectations not checked`)}\\n$`))

    const json = await cli([...args, '--format', 'json'])
    expect(json.code).toBe(4)
    const report = JSON.parse(json.stdout) as JsonReport & { fetch: { passed: boolean; message: string }; notChecked: unknown[] }
    expect(report.fetch).toMatchObject({ origin, outcome: 'disallow-all', passed: false, message: expect.stringContaining('no usable robots.txt') })
    expect(report.summary).toEqual({ total: 0, passed: 0, failed: 0, malformed: 0, notChecked: 2 })
    expect(report.results).toEqual([])
    expect(report.notChecked).toHaveLength(2)

    const github = await cli([...args, '--format', 'github'])
    expect(github.code).toBe(4)
    expect(github.stdout.split('\n')[0]).toMatch(new RegExp(`^::error title=robots.txt unavailable::${unavailable}$`))

    const junit = await cli([...args, '--format', 'junit'])
    expect(junit.code).toBe(4)
    const path = write('gate.xml', junit.stdout)
    expect(xmllint(['--xpath', 'string(/testsuites/@errors)', path])).toBe('1')
    expect(xmllint(['--xpath', 'string(/testsuites/@failures)', path])).toBe('0')
    expect(xmllint(['--xpath', 'string(//testcase[@name="robots.txt fetch"]/error/@type)', path])).toBe('unavailable')
    expect(xmllint(['--xpath', 'count(//testcase/skipped)', path])).toBe('2')
  }, 30_000)

  test('the exit status is 4 even with malformed lines (nothing could be checked), and 2 once the fetch works', async () => {
    const server = await serve(reply(503, 'down'))
    write('gate-bad.txt', 'Googlebot allow /\nGooglebot maybe /\n')
    expect((await cli(['test', `${server.origin}/robots.txt`, 'gate-bad.txt'])).code).toBe(4)
    server.handle(reply(200, ROBOTS))
    expect((await cli(['test', `${server.origin}/robots.txt`, 'gate-bad.txt'])).code).toBe(2)
  })

  test('--allow-unavailable: the expectations are checked against disallow-all, and every format still reports the fetch', async () => {
    const server = await serve(reply(503, 'down'))
    write('down.txt', 'Googlebot allow /\nGPTBot disallow /\n')
    const args = ['test', `${server.origin}/robots.txt`, 'down.txt', '--allow-unavailable']
    const text = await cli(args)
    expect(text.code).toBe(1)
    expect(text.stdout).toBe([
      `WARNING  ${server.origin}/robots.txt: no usable robots.txt (HTTP 503): crawlers treat every URL as disallowed until a fetch succeeds; with --allow-unavailable the expectations are checked against that`,
      `FAIL  down.txt:1  Googlebot allow /  ->  disallowed: ${server.origin}/robots.txt gave no usable robots.txt (HTTP 503), so every URL is disallowed`,
      `pass  down.txt:2  GPTBot disallow /  ->  disallowed: ${server.origin}/robots.txt gave no usable robots.txt (HTTP 503), so every URL is disallowed`,
      `${server.origin}/robots.txt: 1 of 2 expectations met, 1 failed`,
      '',
    ].join('\n'))
    const report = JSON.parse((await cli([...args, '--format', 'json'])).stdout) as JsonReport & { fetch: { passed: boolean } }
    expect(report.fetch).toMatchObject({ origin: server.origin, status: 503, outcome: 'disallow-all', url: `${server.origin}/robots.txt`, redirects: 0, error: null, passed: false })
    expect(report.results.map((x) => [x.allowed, x.robotsLine, x.passed])).toEqual([[false, 0, false], [false, 0, true]])
    const github = await cli([...args, '--format', 'github'])
    expect(github.stdout).toMatch(/^::warning title=robots\.txt unavailable::.*no usable robots\.txt \(HTTP 503\)/)
    const path = write('down.xml', (await cli([...args, '--format', 'junit'])).stdout)
    expect(xmllint(['--xpath', 'string(//testcase[@name="robots.txt fetch"]/skipped/@message)', path])).toContain('no usable robots.txt (HTTP 503)')
    expect(xmllint(['--xpath', 'string(/testsuites/@failures)', path])).toBe('1')
    // Every expectation met: the run passes, still saying why.
    write('down-met.txt', 'GPTBot disallow /\n')
    const met = await cli(['test', `${server.origin}/robots.txt`, 'down-met.txt', '--allow-unavailable'])
    expect(met.code).toBe(0)
    expect(met.stdout).toMatch(/^WARNING {2}/)
  })

  test('a 404 is no robots.txt: every URL allowed, said in every format; "GPTBot disallow /" fails naming the 404', async () => {
    const server = await serve(reply(404, 'not found'))
    write('missing.txt', 'Googlebot allow /\nGPTBot disallow /\n')
    const args = ['test', `${server.origin}/robots.txt`, 'missing.txt']
    const text = await cli(args)
    expect(text.code).toBe(1)
    expect(text.stdout).toBe([
      `NOTE  ${server.origin}/robots.txt: no robots.txt (HTTP 404): crawlers may fetch every URL, and the expectations are checked against that`,
      `pass  missing.txt:1  Googlebot allow /  ->  allowed: ${server.origin}/robots.txt gave no robots.txt (HTTP 404), so every URL is allowed`,
      `FAIL  missing.txt:2  GPTBot disallow /  ->  allowed: ${server.origin}/robots.txt gave no robots.txt (HTTP 404), so every URL is allowed`,
      `${server.origin}/robots.txt: 1 of 2 expectations met, 1 failed`,
      '',
    ].join('\n'))
    const report = JSON.parse((await cli([...args, '--format', 'json'])).stdout) as JsonReport & { fetch: { passed: boolean; message: string } }
    expect(report.fetch).toMatchObject({ status: 404, outcome: 'allow-all', passed: true, message: expect.stringContaining('no robots.txt (HTTP 404)') })
    const github = (await cli([...args, '--format', 'github'])).stdout.split('\n')
    expect(github[0]).toMatch(/^::notice title=no robots\.txt::.*no robots\.txt \(HTTP 404\)/)
    expect(github[1]).toMatch(/^::error file=missing\.txt,line=2,.*::expected GPTBot disallow \/, but it is allowed: .* gave no robots\.txt \(HTTP 404\)/)
    const path = write('missing.xml', (await cli([...args, '--format', 'junit'])).stdout)
    expect(xmllint(['--xpath', 'string(//testcase[@name="robots.txt fetch"]/system-out)', path])).toContain('no robots.txt (HTTP 404)')
    expect(xmllint(['--xpath', 'string(//testcase[failure]/failure/@message)', path])).toContain('HTTP 404')
  })
})

describe('robotstxt test --origin: expectations written for production, checked on a preview', () => {
  const PRODUCTION = `Googlebot allow https://www.example.com/products/
GPTBot disallow https://www.example.com/
Googlebot disallow https://www.example.com/search?q=shoes
Googlebot allow /private/open
`

  test('without --origin, URLs of another origin than the fetched one are malformed lines (exit 2)', async () => {
    const preview = await serve(reply(200, ROBOTS))
    write('production.txt', PRODUCTION)
    const r = await cli(['test', `${preview.origin}/robots.txt`, 'production.txt'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`production.txt:1: "https://www.example.com/products/" is not on ${preview.origin}, whose robots.txt was fetched`)
  })

  test('with --origin, a URL on it is checked as the same path on the preview; other origins stay errors', async () => {
    const preview = await serve(reply(200, ROBOTS))
    write('production.txt', `${PRODUCTION}Googlebot allow https://cdn.example.com/x\n`)
    const r = await cli(['test', `${preview.origin}/robots.txt`, 'production.txt', '--origin', 'https://www.example.com', '--format', 'json'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`production.txt:5: "https://cdn.example.com/x" is not on ${preview.origin}, whose robots.txt was fetched, nor on --origin https://www.example.com`)
    const report = JSON.parse(r.stdout) as JsonReport & { results: { checkedAs?: string }[] }
    expect(report.results.map((x) => [x.url, x.checkedAs, x.passed, x.robotsLine])).toEqual([
      ['https://www.example.com/products/', '/products/', true, 0],
      ['https://www.example.com/', '/', true, 6],
      ['https://www.example.com/search?q=shoes', '/search?q=shoes', true, 9],
      ['/private/open', undefined, true, 0],
    ])
    write('production-ok.txt', PRODUCTION)
    const ok = await cli(['test', `${preview.origin}/robots.txt`, 'production-ok.txt', '--origin', 'https://www.example.com/'])
    expect(ok).toMatchObject({ code: 0, stderr: `robots.txt: 200 ok (${preview.origin}/robots.txt)\n` })
    expect(ok.stdout).toContain(`pass  production-ok.txt:1  Googlebot allow https://www.example.com/products/  ->  allowed: no rule of ${preview.origin}/robots.txt matches\n`)
  })

  test('a URL spelled with the default port or an upper-case host is on the origin; its path is checked as written', async () => {
    write('spelled.txt', 'Googlebot disallow HTTPS://WWW.EXAMPLE.COM:443/search%3Fx\nGooglebot allow https://www.example.com\n')
    const r = await cli(['test', 'robots.txt', 'spelled.txt', '--origin', 'https://www.example.com', '--format', 'json'])
    const report = JSON.parse(r.stdout) as JsonReport & { results: { checkedAs?: string }[] }
    expect(report.results.map((x) => x.checkedAs)).toEqual(['/search%3Fx', '/'])
    expect(r.code).toBe(0)
  })

  test('with a file ROBOTS, --origin makes a URL on any other origin an error', async () => {
    write('mixed.txt', 'Googlebot allow https://www.example.com/a\nGooglebot allow https://elsewhere.example/a\n')
    const r = await cli(['test', 'robots.txt', 'mixed.txt', '--origin', 'https://www.example.com'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('robotstxt: mixed.txt:2: "https://elsewhere.example/a" is not on --origin https://www.example.com\n')
  })
})

describe('robotstxt test: presets and raw tokens', () => {
  const IMAGES = 'User-agent: *\nDisallow: /images/\n\nUser-agent: Googlebot\nAllow: /\n'

  test('a preset (any case) stands for every token it obeys, and the output names them; token:NAME checks the token alone', async () => {
    write('images-robots.txt', IMAGES)
    write('images.txt', 'googlebot-image allow /images/a.jpg\ntoken:Googlebot-Image disallow /images/a.jpg\nGooglebot-Video allow /images/v.mp4\n')
    const r = await cli(['test', 'images-robots.txt', 'images.txt'])
    expect(r.stdout).toBe([
      'pass  images.txt:1  googlebot-image (Googlebot-Image, Googlebot) allow /images/a.jpg  ->  allowed by images-robots.txt:5 (Allow: /)',
      'pass  images.txt:2  token:Googlebot-Image disallow /images/a.jpg  ->  disallowed by images-robots.txt:2 (Disallow: /images/)',
      'pass  images.txt:3  Googlebot-Video (Googlebot-Video, Googlebot) allow /images/v.mp4  ->  allowed by images-robots.txt:5 (Allow: /)',
      'images-robots.txt: all 3 expectations met',
      '',
    ].join('\n'))
    expect(r.code).toBe(0)
    // The same answers as check and explain give for the same words.
    const check = await cli(['check', 'images-robots.txt', 'googlebot-image', '/images/a.jpg'])
    expect(check).toMatchObject({ code: 0, stdout: 'allowed\t5\t/images/a.jpg\n' })
    expect((await cli(['check', 'images-robots.txt', '--token', 'Googlebot-Image', '/images/a.jpg'])).stdout).toBe('disallowed\t2\t/images/a.jpg\n')
  })

  test.each([['token:'], ['token:/x'], ['token:/1.0']])('AGENT %j is a malformed line', async (agent) => {
    write('raw-bad.txt', `${agent} allow /\nGooglebot allow /\n`)
    const r = await cli(['test', 'robots.txt', 'raw-bad.txt'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('raw-bad.txt:1: expected an AGENT')
  })
})

describe('examples/site-ci', () => {
  /** The workflow's `robotstxt test` step, as argv for dist/cli.js. */
  function workflowCommand(): string[] {
    const workflow = readFileSync(join(SITE, '.github', 'workflows', 'robots.yml'), 'utf8')
    const runs = [...workflow.matchAll(/^\s+run: (npx robotstxt-wasm test .*)$/gm)].map((m) => m[1]!)
    expect(runs).toEqual(['npx robotstxt-wasm test robots.txt expectations.txt --format github'])
    const [npx, bin, ...args] = runs[0]!.split(' ')
    expect([npx, bin]).toEqual(['npx', 'robotstxt-wasm'])
    return args
  }

  test('the workflow\'s command passes on the example', async () => {
    const r = await cli(workflowCommand(), '', SITE)
    expect(r).toEqual({ code: 0, stdout: 'robots.txt: all 9 expectations met\n', stderr: '' })
  })

  test('and fails, annotating the expectation, when the generated robots.txt stops meeting it', async () => {
    const site = mkdtempSync(join(tmp, 'site-'))
    cpSync(SITE, site, { recursive: true })
    // A framework upgrade drops the AI crawlers' group from the generated file.
    const robots = readFileSync(join(site, 'robots.txt'), 'utf8')
    writeFileSync(join(site, 'robots.txt'), robots.replace('User-Agent: GPTBot\nUser-Agent: CCBot\nDisallow: /\n', ''))
    const r = await cli(workflowCommand(), '', site)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^::error file=expectations\.txt,line=14,title=robots\.txt%3A GPTBot disallow \/::expected GPTBot disallow \/, but it is allowed by robots\.txt:4 \(Allow: \/\)\n/)
    expect(r.stdout).toMatch(/^::error file=expectations\.txt,line=15,/m)
    expect(r.stdout).toMatch(/robots\.txt: 7 of 9 expectations met, 2 failed\n$/)
  })

  test('and fails on an expectation the robots.txt does not meet', async () => {
    const site = mkdtempSync(join(tmp, 'site-'))
    cpSync(SITE, site, { recursive: true })
    const expectations = readFileSync(join(site, 'expectations.txt'), 'utf8')
    writeFileSync(join(site, 'expectations.txt'), `${expectations}Googlebot allow /cart\n`)
    const r = await cli(workflowCommand(), '', site)
    expect(r).toEqual({
      code: 1,
      stdout: '::error file=expectations.txt,line=16,title=robots.txt%3A Googlebot allow /cart::expected Googlebot allow /cart, but it is disallowed by robots.txt:6 (Disallow: /cart)\n'
        + 'robots.txt: 9 of 10 expectations met, 1 failed\n',
      stderr: '',
    })
  })
})

describe('robotstxt test: help', () => {
  test('help test, test --help and the command list', async () => {
    const a = await cli(['help', 'test'])
    expect(a.code).toBe(0)
    expect(a.stdout).toContain('robotstxt test ROBOTS EXPECTATIONS [--format text|json|github|junit]')
    expect(await cli(['test', '--help'])).toEqual(a)
    expect((await cli(['--help'])).stdout).toContain('robotstxt test ROBOTS EXPECTATIONS')
  })
})
