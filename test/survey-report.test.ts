// The survey's HTML report in Debian's Chromium (playwright-core): one static page that loads
// nothing else, with a chart per crawler set whose bars have the widths of the shares, preference
// adoption and lint findings, and input text escaped. The screenshot in the README is taken here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SurveyAggregate, surveyPlan, surveyReport, surveyRobots } from '../src/survey/index.js'
import type { SurveyOptions } from '../src/survey/types.js'
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

async function report(input: string | string[], options: SurveyOptions): Promise<{ html: string; totals: SurveyAggregate['totals'] }> {
  const aggregate = new SurveyAggregate(surveyPlan(options))
  for await (const row of surveyRobots(input, options)) aggregate.add(row)
  const html = surveyReport(aggregate.totals, { inputs: Array.isArray(input) ? input : [input], paths: surveyPlan(options).paths, date: '2026-11-25' })
  return { html, totals: aggregate.totals }
}

describe.skipIf(chromium.path === null)(`survey report in Chromium (${chromium.path ?? `SKIPPED: ${chromium.reason}`})`, () => {
  test('a static page: charts per set with bar widths of the shares, preferences, lint; nothing fetched, text escaped', async () => {
    const input = join(dir, 'r.warc.gz')
    writeFileSync(input, concat(await Promise.all([
      warcRecord({ url: 'https://a.example/robots.txt', body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no, search=yes\nDisallow: /x\n' }, true),
      warcRecord({ url: 'https://b.example/robots.txt', body: 'User-agent: *\nDisallow: /private\nDisallow: nope\n' }, true),
      warcRecord({ url: 'https://c.example/robots.txt', body: 'User-agent: *\nDisallow: /\n' }, true),
      warcRecord({ url: 'https://d.example/robots.txt', status: 404, body: '' }, true),
    ])))
    const { html, totals } = await report(input, { crawlers: ['GPTBot', 'Googlebot', 'x<img src=y>'] })
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
      // GPTBot of the 4 sites read: blocked on a and c, partly on b (Disallow: /private), allowed on d (404).
      const gpt = totals.crawlers.find((c) => c.name === 'GPTBot')!
      expect([gpt.blocked, gpt.partial, gpt.allowed]).toEqual([2, 1, 1])
      const bars = await page.locator('#set-ai-training rect.blocked, #set-ai-training rect.partial').evaluateAll((rs) =>
        rs.map((r) => [r.getAttribute('class'), Number(r.getAttribute('data-value')), r.getBoundingClientRect().width]))
      expect(bars.map(([c, v]) => [c, v])).toEqual([['blocked', 2], ['partial', 1]])
      expect(bars[0]![2]).toBeCloseTo(420 * (2 / 4), 0)
      expect(bars[1]![2]).toBeCloseTo(420 * (1 / 4), 0)
      expect(await page.locator('#preferences text.label').allTextContents()).toEqual(['any preference', 'ai-train', 'search'])
      expect(await page.locator('#lint text.label').allTextContents()).toContain('never-matches')
      expect(await page.locator('#outcomes').innerText()).toMatch(/ok\s+3\s+75\.0%\s+allow-all\s+1\s+25\.0%/)
    } finally {
      await browser.close()
    }
  }, 120_000)

  test.skipIf(!corpusAvailable())('the corpus folder report, screenshot for the README (docs/survey-report.png)', async () => {
    const { html } = await report(join(CORPUS, 'robots'), { paths: ['/search'] })
    const file = join(dir, 'corpus.html')
    writeFileSync(file, html)
    const browser = await launchChromium(chromium.path!)
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 800 } })
      await page.goto(pathToFileURL(file).href)
      // Four sets, the crawlers of no set, preferences, lint.
      expect(await page.locator('figure').count()).toBe(7)
      await page.screenshot({ path: join(ROOT, 'docs', 'survey-report.png'), fullPage: true })
    } finally {
      await browser.close()
    }
  }, 300_000)
})
