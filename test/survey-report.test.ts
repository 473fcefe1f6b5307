// The survey's HTML report in Debian's Chromium (playwright-core): one static page that loads
// nothing else, drawn from the summary: the headline per crawler (blocked entirely / partly, by a
// group naming it and by *, side by side) whose bar widths are the shares of the sites read, the
// trend per crawler set over the groups, the same origins compared across snapshots, preference
// adoption and lint findings; input text escaped. The screenshot in docs/survey.md is taken here.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { surveyPlan, surveyReport, surveyRobots } from '../src/survey/index.js'
import type { SurveyOptions, SurveySummary } from '../src/survey/types.js'
import { CORPUS, corpusAvailable } from './helpers/cases.js'
import { ensureChromium, launchChromium } from './helpers/chromium.js'
import { ROOT } from './helpers/dist.js'
import { concat, warcRecord } from './helpers/warc.js'

const chromium = ensureChromium()
let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-survey-report-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function report(input: string | string[], options: SurveyOptions, label?: string): Promise<{ html: string; summary: SurveySummary }> {
  const run = surveyRobots(input, options)
  for await (const _ of run);
  const summary = await run.summary
  const inputs = label !== undefined ? [label] : Array.isArray(input) ? input : [input]
  const html = surveyReport(summary, { inputs, paths: surveyPlan(options).paths, date: '2026-12-07' })
  return { html, summary }
}

/** Three snapshots of the same sites as JSONL lines (`captured` in January, July, next January). */
function snapshots(sites: { origin: string; body: string }[], change: (site: number, snapshot: number, body: string) => { status: number; body?: string }): string {
  const dates = ['2024-01-15T00:00:00Z', '2024-07-15T00:00:00Z', '2025-01-15T00:00:00Z']
  return dates.flatMap((captured, s) => sites.map((site, i) => JSON.stringify({ origin: site.origin, captured, ...change(i, s, site.body) }))).join('\n') + '\n'
}

describe.skipIf(chromium.path === null)(`survey report in Chromium (${chromium.path ?? `SKIPPED: ${chromium.reason}`})`, () => {
  test('a static page: per set, each crawler blocked entirely / partly by name and by * side by side, bar widths the shares of the sites read; failures never drawn as blocking; text escaped', async () => {
    const input = join(dir, 'r.warc.gz')
    writeFileSync(input, concat(await Promise.all([
      warcRecord({ url: 'https://a.example/robots.txt', body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no, search=yes\nDisallow: /x\n' }, true),
      warcRecord({ url: 'https://b.example/robots.txt', body: 'User-agent: *\nDisallow: /private\nDisallow: nope\n' }, true),
      warcRecord({ url: 'https://c.example/robots.txt', body: 'User-agent: *\nDisallow: /\n' }, true),
      warcRecord({ url: 'https://d.example/robots.txt', status: 404, body: '' }, true),
      warcRecord({ url: 'https://e.example/robots.txt', status: 503, body: '' }, true),
    ])))
    const { html, summary } = await report(input, { crawlers: ['GPTBot', 'Googlebot'], tokens: ['x<img src=y>'] })
    const file = join(dir, 'report.html')
    writeFileSync(file, html)
    const browser = await launchChromium(chromium.path!)
    try {
      const page = await browser.newPage()
      const requests: string[] = []
      page.on('request', (r) => requests.push(r.url()))
      await page.goto(pathToFileURL(file).href)
      expect(requests).toEqual([pathToFileURL(file).href])
      expect(await page.locator('script, img, link, iframe').count()).toBe(0)
      // Sets in order; a crawler given by token only is under "other", its name shown as text.
      expect(await page.locator('figure[id^="set-"]').evaluateAll((fs) => fs.map((f) => f.id))).toEqual(['set-search', 'set-ai-training', 'set-other'])
      expect(await page.locator('#set-other text.label').textContent()).toBe('x<img src=y>')
      // GPTBot over the 3 sites read: blocked by name on a, partly by * on b, entirely by * on c;
      // d (404) and e (503) are in the outcomes table, in no bar.
      const gpt = summary.total.crawlers.find((c) => c.name === 'GPTBot')!
      expect([summary.total.ok, gpt.blockedByName, gpt.partialByName, gpt.blockedByStar, gpt.partialByStar, gpt.allowed]).toEqual([3, 1, 0, 1, 1, 0])
      const bars = await page.locator('#set-ai-training g.bar').evaluateAll((gs) => gs.map((g) => [
        g.getAttribute('data-sub'),
        [...g.querySelectorAll('rect[data-value]')].map((r) => [r.getAttribute('class'), Number(r.getAttribute('data-value')), Math.round(r.getBoundingClientRect().width)]),
      ]))
      expect(bars).toEqual([
        ['by name', [['name-entirely', 1, Math.round(400 / 3)], ['name-partly', 0, 0]]],
        ['by *', [['star-entirely', 1, Math.round(400 / 3)], ['star-partly', 1, Math.round(400 / 3)]]],
      ])
      expect(await page.locator('#set-ai-training text.note').textContent()).toBe('name 33.3% + 0.0% · * 33.3% + 33.3%')
      expect(await page.locator('#set-ai-training figcaption').textContent()).toContain('of the 3 sites read')
      expect(await page.locator('#preferences text.label').allTextContents()).toEqual(['any preference', 'ai-train', 'search'])
      expect(await page.locator('#lint text.label').allTextContents()).toContain('never-matches')
      expect(await page.locator('#outcomes').innerText()).toMatch(/ok: robots\.txt read\s+3\s+60\.0%\s+allow-all: no robots\.txt \(4xx\)\s+1\s+20\.0%\s+disallow-all: failures \(429, 5xx, no response\)\s+1\s+20\.0%\s+status 503\s+1\s+20\.0%/)
      // Without --by there is no trend: the page says how to get one.
      expect(await page.locator('figure.trend').count()).toBe(0)
      expect(await page.locator('body').innerText()).toContain('Group the rows (--by month, year or source) to see shares over time.')
    } finally {
      await browser.close()
    }
  }, 120_000)

  test('three snapshots by month: a line per crawler of each set over time (y the share of each month\'s sites read), and the sites whose rules changed between snapshots', async () => {
    const sites = Array.from({ length: 10 }, (_, i) => ({ origin: `https://s${i}.example`, body: 'User-agent: *\nDisallow: /admin/\n' }))
    // s0-s1 block GPTBot by name from July, s2 from next January; s9 fails in July (503).
    const file = join(dir, 'snapshots.jsonl')
    writeFileSync(file, snapshots(sites, (i, s, body) => {
      if (i === 9 && s === 1) return { status: 503 }
      const named = (i < 2 && s >= 1) || (i === 2 && s === 2)
      return { status: 200, body: named ? `User-agent: GPTBot\nDisallow: /\n\n${body}` : body }
    }))
    const { html, summary } = await report(file, { crawlers: ['GPTBot', 'Googlebot'], by: 'month' })
    expect(summary.groups.map((g) => [g.key, g.ok, g.crawlers[0]!.blockedByName])).toEqual([['2024-01', 10, 0], ['2024-07', 9, 2], ['2025-01', 10, 3]])
    expect(summary.changes.map((c) => [c.from, c.to, c.origins, c.crawlers[0]])).toEqual([
      ['2024-01', '2024-07', 9, { name: 'GPTBot', changed: 2, restricted: 0, lifted: 0 }],
      ['2024-07', '2025-01', 9, { name: 'GPTBot', changed: 1, restricted: 0, lifted: 0 }],
    ])
    const page = join(dir, 'snapshots.html')
    writeFileSync(page, html)
    const browser = await launchChromium(chromium.path!)
    try {
      const tab = await browser.newPage({ viewport: { width: 960, height: 900 } })
      await tab.goto(pathToFileURL(page).href)
      expect(await tab.locator('figure.trend').evaluateAll((fs) => fs.map((f) => f.id))).toEqual(['trend-search', 'trend-ai-training'])
      // GPTBot's line: 0 of 10, 2 of 9, 3 of 10 sites read, so its points rise and the last is highest.
      const ys = await tab.locator('#trend-ai-training g.series[data-crawler="GPTBot"] circle').evaluateAll((cs) => cs.map((c) => { const r = c.getBoundingClientRect(); return r.y + r.height / 2 }))
      expect(ys).toHaveLength(3)
      expect(ys[0]!).toBeGreaterThan(ys[1]!)
      expect(ys[1]!).toBeGreaterThan(ys[2]!)
      // The axis tops out at 30%: the points sit at 0, 22.2% and 30% of its height.
      const axis = await tab.locator('#trend-ai-training line.grid').evaluateAll((ls) => ls.map((l) => { const r = l.getBoundingClientRect(); return r.y + r.height / 2 }))
      const [bottom, , top] = axis as [number, number, number]
      expect((bottom - ys[1]!) / (bottom - top)).toBeCloseTo((2 / 9) / 0.3, 2)
      expect((bottom - ys[2]!) / (bottom - top)).toBeCloseTo(1, 2)
      // The table beside the line: by name, and (in brackets) by any rule, a name's or *'s.
      expect(await tab.locator('#trend-ai-training table.data').innerText()).toMatch(/GPTBot\s+0\.0% \(100\.0%\)\s+22\.2% \(100\.0%\)\s+30\.0% \(100\.0%\)/)
      expect(await tab.locator('#trend-ai-training svg text.n').allTextContents()).toEqual(['10 read', '9 read', '10 read'])
      // The changes: per pair, GPTBot's bar is the share of the sites read in both that changed.
      expect(await tab.locator('figure[id^="change-"] figcaption').allTextContents()).toEqual([
        '2024-01 → 2024-07: of the 9 sites read in both, those whose rules for each crawler changed',
        '2024-07 → 2025-01: of the 9 sites read in both, those whose rules for each crawler changed',
      ])
      const changed = await tab.locator('#change-0 g.row').first().locator('rect[data-value]').evaluateAll((rs) => rs.map((r) => [r.getAttribute('class'), Number(r.getAttribute('data-value')), Math.round(r.getBoundingClientRect().width)]))
      // Partly by * before, entirely by name after: a change, neither newly blocked nor unblocked.
      expect(changed).toEqual([['restricted', 0, 0], ['lifted', 0, 0], ['other-change', 2, Math.round((400 * 2) / 9)]])
      expect(await tab.locator('#change-0 text.note').first().textContent()).toBe('2 changed (22.2%) · 0 newly blocked · 0 unblocked')
    } finally {
      await browser.close()
    }
  }, 120_000)

  test.skipIf(!corpusAvailable())('the corpus files as three snapshots: the screenshot in docs/survey.md (docs/survey-report.png)', async () => {
    const folder = join(CORPUS, 'robots')
    const sites = readdirSync(folder).sort().slice(0, 600).map((name) => ({ origin: `https://${name.replace(/\.txt$/, '')}`, body: readFileSync(join(folder, name), 'latin1') }))
    // Made-up changes, so that the charts have something to show: some sites add AI crawler groups.
    const file = join(dir, 'corpus-snapshots.jsonl')
    writeFileSync(file, snapshots(sites, (i, s, body) => {
      if (i % 41 === 7) return { status: 503 }
      if (i % 29 === 3) return { status: 404 }
      let b = body
      if (s >= 1 && i % 9 === 0) b = `User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n${b}`
      if (s >= 2 && i % 7 === 0) b = `User-agent: ClaudeBot\nUser-agent: Google-Extended\nDisallow: /\n\n${b}`
      return { status: 200, body: b }
    }))
    const { html } = await report(file, { sets: ['ai-training'], crawlers: ['Googlebot', 'Bingbot'], by: 'month' }, 'corpus-snapshots.jsonl')
    const page = join(dir, 'corpus.html')
    writeFileSync(page, html)
    const browser = await launchChromium(chromium.path!)
    try {
      const tab = await browser.newPage({ viewport: { width: 960, height: 800 } })
      await tab.goto(pathToFileURL(page).href)
      expect(await tab.locator('figure').count()).toBe(8)
      // The run checks the page; only UPDATE_DOCS=1 writes the guide's picture (a test never edits tracked files).
      const shot = process.env.UPDATE_DOCS === '1' ? join(ROOT, 'docs', 'survey-report.png') : join(dir, 'survey-report.png')
      await tab.screenshot({ path: shot, fullPage: true })
    } finally {
      await browser.close()
    }
  }, 300_000)
})
