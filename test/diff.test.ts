// diffRobots and `robotstxt diff`: verdict changes between two versions of a robots.txt, found
// without a URL list (probes made from the rules), with the deciding line on each side.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, test } from 'vitest'
import { crawlerTokens, diffRobots, parseRobots } from '../src/index.js'
import { DIST, ensureDist } from './helpers/dist.js'
import { fuzzOptions } from './helpers/fuzz.js'

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
  test('bad arguments are TypeErrors that say what was expected', () => {
    expect(() => diffRobots(1 as unknown as string, '')).toThrow(/body: expected a string or a Uint8Array/)
    expect(() => diffRobots('', '', { agents: [] })).toThrow(/options\.agents: expected a non-empty array/)
    expect(() => diffRobots('', '', { agents: ['a', []] })).toThrow(/options\.agents\[1\]: expected a user-agent string or a non-empty array/)
    expect(() => diffRobots('', '', { agents: [['a', 5 as unknown as string]] })).toThrow(/options\.agents\[0\]\[1\]: expected a user-agent string/)
    expect(() => diffRobots('', '', { agents: [5 as unknown as string] })).toThrow(/options\.agents\[0\]: expected a user-agent string or an array of them/)
    expect(() => diffRobots('', '', { urls: [1 as unknown as string] })).toThrow(/options\.urls\[0\]/)
  })

  // Brute force over every path of up to 4 bytes from the patterns' alphabet: whenever some path
  // changes verdict, the rule-made probes find a change too.
  const alphabet = ['/', 'a', 'b', '.', 'x']
  const universe: string[] = ['/']
  for (let len = 1; len <= 4; len++) {
    for (let n = 0; n < alphabet.length ** len; n++) {
      let p = '/'
      for (let k = 0, m = n; k < len; k++, m = Math.floor(m / alphabet.length)) p += alphabet[m % alphabet.length]
      universe.push(p)
    }
  }
  const piece = fc.constantFrom('a', 'b', '.', '*', '/', 'ab', '*a', 'x')
  const pattern = fc.tuple(fc.constantFrom('/', '/', '*'), fc.array(piece, { maxLength: 3 }), fc.boolean()).map(([h, xs, anchor]) => h + xs.join('') + (anchor ? '$' : ''))
  const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern).map(([k, p]) => `${k}: ${p}`)
  const file = fc.array(rule, { maxLength: 4 }).map((rs) => 'User-agent: *\n' + rs.join('\n') + '\n')
  test(`a change that exists on some short path is found without a URL list (${fuzzOptions(3_000).numRuns} runs)`, () => {
    fc.assert(
      fc.property(file, file, (a, b) => {
        const ma = parseRobots(a).matcher('x')
        const mb = parseRobots(b).matcher('x')
        const brute = universe.some((u) => ma.isAllowed(u) !== mb.isAllowed(u))
        if (!brute) return
        expect(diffRobots(a, b, { agents: ['x'] }).changes.length).toBeGreaterThan(0)
      }),
      fuzzOptions(3_000, 0xd1ff),
    )
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
  const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    ensureDist()
    return new Promise((resolve) => {
      execFile(process.execPath, [join(DIST, 'cli.js'), 'diff', ...args], (err, stdout, stderr) => resolve({ code: err ? (err as { code?: number }).code ?? 1 : 0, stdout, stderr }))
    })
  }
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
})
