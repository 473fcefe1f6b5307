// The package in a real browser: bundled with esbuild under the "browser" condition, served from
// 127.0.0.1 and run in Debian's Chromium through playwright-core. Labelled cases (the Google suite,
// the edge cases and 3,000 fuzz bodies) through check, the batches and the byte path, and lone
// surrogates on the TextEncoder batch path that browsers take. Skips only when Chromium cannot be
// installed, and says so.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureChromium, launchChromium } from './helpers/chromium.js'
import { ensureDist, ROOT } from './helpers/dist.js'

const chromium = ensureChromium()

describe.skipIf(chromium.path === null)(`browser: Chromium (${chromium.path === null ? `SKIPPED: ${chromium.reason}` : chromium.path})`, () => {
  let server: Server
  let base = ''
  let bundle = ''

  beforeAll(async () => {
    ensureDist()
    const out = await build({
      entryPoints: [join(ROOT, 'test', 'browser', 'page.js')], bundle: true, write: false, format: 'esm', platform: 'browser',
      conditions: ['browser'], target: 'es2022', logLevel: 'error',
    })
    bundle = out.outputFiles[0]!.text
    const cases = ['google-spec-cases.jsonl', 'edge-cases.jsonl', 'fuzz-cases.jsonl'].flatMap((f) =>
      readFileSync(join(ROOT, 'test', 'fixtures', f), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown))
    const files: Record<string, [string, string]> = {
      '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>robotstxt-wasm</title><script type="module" src="/page.js"></script>'],
      '/page.js': ['text/javascript', bundle],
      '/cases.json': ['application/json', JSON.stringify(cases)],
    }
    server = createServer((req, res) => {
      const f = files[req.url ?? '']
      if (f === undefined) res.writeHead(404).end()
      else res.writeHead(200, { 'content-type': f[0] }).end(f[1])
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

  test('the browser bundle embeds the wasm (no fetch of robots.wasm) and no Node built-in', () => {
    expect(bundle).not.toMatch(/from ["']node:/)
    expect(bundle).not.toMatch(/robots\.wasm["']/)
  })

  test('every labelled case of the Google suite, the edge cases and the fuzz bodies, every way; lone surrogates', async () => {
    const browser = await launchChromium(chromium.path!)
    try {
      const page = await browser.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(String(e)))
      await page.goto(base + '/')
      await page.waitForFunction(() => (window as unknown as { __results?: unknown }).__results !== undefined, undefined, { timeout: 60_000 })
      const r = await page.evaluate(() => (window as unknown as { __results: Record<string, unknown> }).__results) as {
        error?: string; cases: number; wrongCount: number; wrong: string[]; ms: number; hasBuffer: boolean; ua: string
        surrogates: { single: number[]; batch: number[]; big: number[] }
      }
      expect(errors).toEqual([])
      expect(r.error).toBeUndefined()
      console.log(`browser: ${r.cases} labelled cases in ${r.ms.toFixed(0)} ms on ${r.ua}`)
      expect(r.cases).toBe(16_999)
      expect(r.wrong).toEqual([])
      expect(r.wrongCount).toBe(0)
      expect(r.hasBuffer).toBe(false) // so the batches took the TextEncoder path
      expect(r.surrogates.single).toEqual([0, 1, 1, 0, 0, 1, 1])
      expect(r.surrogates.batch).toEqual(r.surrogates.single)
      expect(r.surrogates.big).toEqual([...r.surrogates.single, ...r.surrogates.single])
    } finally {
      await browser.close()
    }
  }, 120_000)
})
