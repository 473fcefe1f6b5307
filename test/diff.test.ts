// diffRobots and `robotstxt diff`: verdict changes between two versions of a robots.txt, found
// without a URL list (probes made from the rules), with the deciding line on each side.
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { crawlerTokens, diffRobots, parseRobots } from '../src/index.js'
import { MAX_CHANGES } from '../src/engine/diff.js'
import { MAX_DIFF_URLS } from '../src/cli/cmd-diff.js'
import { DIST, ensureDist } from './helpers/dist.js'

describe('diff: changes found from the rules alone', () => {
  // Each case: the change expected (the URL the probes happen to find it on may be another one).
  const cases: [string, string, string, string, { allowed: boolean; line: number }, { allowed: boolean; line: number }][] = [
    ['a new disallow', 'User-agent: *\nDisallow: /a\n', 'User-agent: *\nDisallow: /a\nDisallow: /b\n', '/b', { allowed: true, line: 0 }, { allowed: false, line: 3 }],
    ['an end anchor added', 'User-agent: *\nDisallow: /a\n', 'User-agent: *\nDisallow: /a$\n', '/ax', { allowed: false, line: 2 }, { allowed: true, line: 0 }],
    ['a longer allow wins over a shorter disallow', 'User-agent: *\nDisallow: /ab\n', 'User-agent: *\nDisallow: /ab\nAllow: /a*c\n', '/abc', { allowed: false, line: 2 }, { allowed: true, line: 3 }],
    ['a wildcard narrowed', 'User-agent: *\nDisallow: /*.pdf\n', 'User-agent: *\nDisallow: /*.pdf$\n', '/.pdfx', { allowed: false, line: 2 }, { allowed: true, line: 0 }],
    ['a group for one crawler added', 'User-agent: *\nDisallow: /p\n', 'User-agent: *\nDisallow: /p\n\nUser-agent: GPTBot\nDisallow: /\n', '/', { allowed: true, line: 0 }, { allowed: false, line: 5 }],
    ['percent-encoding: %aa equals %AA, é equals %C3%A9', 'User-agent: *\nDisallow: /%aa\n', 'User-agent: *\nDisallow: /%AA\nDisallow: /é\n', '/%C3%A9', { allowed: true, line: 0 }, { allowed: false, line: 3 }],
    ['the index.html rule', 'User-agent: *\nDisallow: /d/\n', 'User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n', '/d/', { allowed: false, line: 2 }, { allowed: true, line: 3 }],
    // Issue 34: '/b%a' keeps '%' apart from the end that 'Allow: *%$' needs (no probe had a byte after it).
    ['a "%" not at the end', 'User-agent: *\nDisallow: *%\nAllow: /b\n', 'User-agent: *\nDisallow: *%\nAllow: *%$\n', '/b%a', { allowed: true, line: 3 }, { allowed: false, line: 2 }],
    ['the directory of an index.html allow, both sides', 'User-agent: *\nAllow: /\nAllow: /a/index.html\n', 'User-agent: *\nDisallow: /\nDisallow: /a/index.html\nAllow: /%\n', '/a/', { allowed: true, line: 3 }, { allowed: false, line: 2 }],
    ['"%" before a hex digit: "/%a" matches "/%a/", never "/%ab" (read as "/%AB")', 'User-agent: *\nDisallow: /%a\n', 'User-agent: *\nDisallow: /%a$\n', '/%a/', { allowed: false, line: 2 }, { allowed: true, line: 0 }],
  ]
  test.each(cases)('%s', (_, a, b, url, was, is) => {
    const d = diffRobots(a, b)
    const same = (x: { allowed: boolean; line: number }, y: { allowed: boolean; line: number }) => x.allowed === y.allowed && x.line === y.line
    expect(d.changes.some((c) => same(c.old, was) && same(c.new, is)), JSON.stringify(d.changes.slice(0, 5))).toBe(true)
    // The example URL of the case changes too, with the same lines.
    const at = diffRobots(a, b, { urls: [url] }).changes
    expect(at.length).toBeGreaterThan(0)
    expect(at[0]!.old).toEqual(was)
    expect(at[0]!.new).toEqual(is)
  })
  test('identical files, or only comments and other keys changed: no change', () => {
    const a = 'User-agent: *\nDisallow: /a\n'
    expect(diffRobots(a, a).changes).toEqual([])
    expect(diffRobots(a, '# hello\nUser-agent: *\nCrawl-delay: 5\nDisallow: /a # same\n').changes).toEqual([])
  })
  test('default agents: *, Googlebot and every agent named in either file; a URL list replaces the probes', () => {
    const d = diffRobots('User-agent: Bingbot\nDisallow: /\n', 'User-agent: GPTBot/1.0\nDisallow: /\n', { urls: ['https://x.example/a', '/b'] })
    expect(d.agents).toEqual(['*', 'Googlebot', 'Bingbot', 'GPTBot'])
    expect(d.probes).toBe(2)
    expect(d.changes.map((c) => `${c.agent} ${c.url}`)).toEqual(['Bingbot https://x.example/a', 'Bingbot /b', 'GPTBot https://x.example/a', 'GPTBot /b'])
  })
  test("a crawler's tokens as one agent: its groups merge, as in check, and it is reported as its first token", () => {
    const oldBody = 'User-agent: *\nDisallow: /img/\n\nUser-agent: Googlebot\nAllow: /\n'
    const newBody = oldBody + '\nUser-agent: Googlebot-Image\nDisallow: /img/\n'
    const urls = ['https://x.example/img/a.png', 'https://x.example/page']
    const d = diffRobots(oldBody, newBody, { agents: [crawlerTokens('Googlebot-Image'), 'Googlebot-Image'], urls })
    expect(d.agents).toEqual(['Googlebot-Image', 'Googlebot-Image'])
    // With its tokens the Googlebot group allowed /img/ before; the token alone read the * group,
    // which already disallowed it, so only the first agent sees a change.
    expect(d.changes).toEqual([{ agent: 'Googlebot-Image', url: urls[0], old: { allowed: true, line: 5 }, new: { allowed: false, line: 8 } }])
    for (const [body, side] of [[oldBody, 'old'], [newBody, 'new']] as const) {
      const v = parseRobots(body).check(urls[0]!, crawlerTokens('Googlebot-Image'))
      expect({ allowed: v.allowed, line: v.line }).toEqual(d.changes[0]![side])
    }
  })
  test('agents that select the same groups get the same changes; a group unchanged on both sides gives none', () => {
    const a = 'User-agent: A\nUser-agent: B\nDisallow: /p\n\nUser-agent: C\nDisallow: /q\n'
    const b = 'User-agent: A\nUser-agent: B\nDisallow: /p\nDisallow: /r\n\nUser-agent: C\nAllow: /q/a\nDisallow: /q\n'
    const d = diffRobots(a, b, { agents: ['A', 'B', 'C', 'D'] })
    const by = (agent: string) => d.changes.filter((c) => c.agent === agent).map((c) => [c.url, c.old, c.new])
    expect(by('A')).toEqual(by('B'))
    expect(by('A').map(([url]) => url)).toContain('/r')
    expect(by('C').map(([url]) => url)).toContain('/q/a')
    expect(by('D')).toEqual([])
  })
  // 1,000 agents in one group that gains 1,000 rules: 2,002,000 changes before the cap.
  test('changes stop at MAX_CHANGES, and truncated says so', () => {
    const agents = Array.from({ length: 1_000 }, (_, i) => `User-agent: bot${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)}\n`).join('')
    const rules = Array.from({ length: 1_000 }, (_, i) => `Disallow: /p${i}\n`).join('')
    const d = diffRobots(agents + 'Disallow: /zzz\n', agents + rules)
    expect(d.agents.length).toBe(1_002)
    expect(d.changes.length).toBe(MAX_CHANGES)
    expect(d.truncated).toBe(true)
  })
  test('bad arguments are TypeErrors that say what was expected', () => {
    expect(() => diffRobots(1 as unknown as string, '')).toThrow(/body: expected a string or a Uint8Array/)
    expect(() => diffRobots('', '', { agents: [] })).toThrow(/options\.agents: expected a non-empty array/)
    expect(() => diffRobots('', '', { agents: ['a', []] })).toThrow(/options\.agents\[1\]: expected a user-agent string or a non-empty array/)
    expect(() => diffRobots('', '', { agents: [['a', 5 as unknown as string]] })).toThrow(/options\.agents\[0\]\[1\]: expected a user-agent string/)
    expect(() => diffRobots('', '', { agents: [5 as unknown as string] })).toThrow(/options\.agents\[0\]: expected a user-agent string or an array of them/)
    expect(() => diffRobots('', '', { urls: [1 as unknown as string] })).toThrow(/options\.urls\[0\]/)
    expect(() => diffRobots('', '', { agents: ['x', '/1.0'] })).toThrow(/options\.agents\[1\]: expected a user-agent with a non-empty product token/)
  })

  // Issue 34: "//a" alone reads as host a, path /; the change is reported where check reads "//a".
  test('a path starting with "//" is reported behind a host, and check gives it the reported verdicts', () => {
    const a = 'User-agent: *\nDisallow: /\n'
    const b = 'User-agent: *\nDisallow: /\nAllow: //a$\n'
    const d = diffRobots(a, b, { agents: ['x'] })
    expect(d.changes).toEqual([{ agent: 'x', url: 'http://probe.invalid//a', old: { allowed: false, line: 2 }, new: { allowed: true, line: 3 } }])
    expect(parseRobots(a).check(d.changes[0]!.url, 'x')).toMatchObject({ allowed: false, line: 2 })
    expect(parseRobots(b).check(d.changes[0]!.url, 'x')).toMatchObject({ allowed: true, line: 3 })
  })
})

describe('cli: robotstxt diff', () => {
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-diff-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = (name: string, text: string): string => {
    const p = join(dir, name)
    writeFileSync(p, text)
    return p
  }
  const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    ensureDist()
    return new Promise((resolve) => {
      execFile(process.execPath, [join(DIST, 'cli.js'), ...args], (err, stdout, stderr) => resolve({ code: err ? (err as { code?: number }).code ?? 1 : 0, stdout, stderr }))
    })
  }
  const run = (args: string[]) => cli(['diff', ...args])
  test('exit 1 and one line per change when a verdict changes; 0 when none does; 2 on usage errors', async () => {
    const a = file('a.txt', 'User-agent: *\nDisallow: /a\n')
    const b = file('b.txt', 'User-agent: *\nDisallow: /a\nDisallow: /private\n')
    const changed = await run([a, b, '--agents', 'Googlebot', '--urls', file('u.txt', '/private/x\n/a\n/public\n')])
    expect(changed).toEqual({ code: 1, stdout: 'Googlebot\t/private/x\tallowed\t0\tdisallowed\t3\n', stderr: '' })
    expect((await run([a, a])).code).toBe(0)
    expect((await run([a])).code).toBe(2)
    expect((await run([a, join(dir, 'missing.txt')])).code).toBe(2)
    const json = await run([a, b, '--json'])
    expect(json.code).toBe(1)
    const parsed = JSON.parse(json.stdout) as { changes: { agent: string; url: string }[] }
    expect(parsed.changes.some((c) => c.agent === '*' && c.url === '/private')).toBe(true)
  })

  test('a reported URL passed to check as printed gives the reported verdicts; "//a" alone is refused as a host', async () => {
    const a = file('slash-a.txt', 'User-agent: *\nDisallow: /\n')
    const b = file('slash-b.txt', 'User-agent: *\nDisallow: /\nAllow: //a$\n')
    const d = await run([a, b, '--agents', 'x'])
    expect(d).toEqual({ code: 1, stdout: 'x\thttp://probe.invalid//a\tdisallowed\t2\tallowed\t3\n', stderr: '' })
    const url = d.stdout.split('\t')[1]!
    expect(await cli(['check', a, 'x', url])).toMatchObject({ code: 1, stdout: `disallowed\t2\t${url}\n` })
    expect(await cli(['check', b, 'x', url])).toMatchObject({ code: 0, stdout: `allowed\t3\t${url}\n` })
    const refused = await cli(['check', b, 'x', '//a'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('got "//a", which starts with "//" and so names a host')
  })

  test('--urls is read as a stream and refused past MAX_DIFF_URLS; an endless stdin stops there (found by review: read whole, it grew past 4 GB)', async () => {
    const a = file('bound-a.txt', 'User-agent: *\nDisallow: /a\n')
    const b = file('bound-b.txt', 'User-agent: *\nDisallow: /b\n')
    // At the bound (empty lines are not URLs): accepted; /c changes on neither side, so no output.
    const at = file('at-bound.txt', '/c\n\n'.repeat(MAX_DIFF_URLS - 1) + '/a\n')
    expect(await run([a, b, '--agents', 'x', '--urls', at])).toEqual({ code: 1, stdout: 'x\t/a\tdisallowed\t2\tallowed\t0\n', stderr: '' })
    const over = await run([a, b, '--urls', file('over.txt', '/a\n'.repeat(MAX_DIFF_URLS + 1))])
    expect(over).toEqual({ code: 2, stdout: '', stderr: `robotstxt: --urls: more than ${MAX_DIFF_URLS.toLocaleString('en-US')} URLs; split the list\n` })
    // An endless stdin, as `yes /a | robotstxt diff ... --urls -`.
    const child = spawn(process.execPath, [join(DIST, 'cli.js'), 'diff', a, b, '--urls', '-'], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stdin.on('error', () => {})
    const line = Buffer.from('/a\n'.repeat(4096))
    const feed = (): void => { while (child.stdin.writable && child.stdin.write(line)); }
    child.stdin.on('drain', feed)
    feed()
    const code = await new Promise((resolve) => child.on('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toContain('--urls: more than')
  }, 60_000)

  test('a line past the longest URL line is an input error, not a string of its size', async () => {
    const a = file('long-a.txt', 'User-agent: *\nDisallow: /a\n')
    const r = await run([a, a, '--urls', file('long.txt', '/' + 'x'.repeat(4 * 1024 * 1024) + '\n')])
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'robotstxt: --urls line 1: too long\n' })
    // A folder opens but cannot be read: an input error too, not an unexpected one.
    expect(await run([a, a, '--urls', dir])).toEqual({ code: 2, stdout: '', stderr: `robotstxt: --urls: cannot read ${dir}: is a directory\n` })
  })

  test('an agent with no product token is a usage error, without a stack', async () => {
    const a = file('agent-a.txt', 'User-agent: *\nDisallow: /a\n')
    const r = await run([a, a, '--agents', '/1'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('robotstxt diff: --agents: expected a user-agent with a non-empty product token (e.g. "Googlebot"), got the string "/1"\nTry \'robotstxt help diff\'.\n')
  })
})
