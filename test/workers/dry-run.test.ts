// `wrangler deploy --dry-run` on a minimal Worker that depends on the packed package (what `npm pack`
// would publish, installed as a `file:` dependency is): wrangler must resolve the `workerd` export
// condition and upload the .wasm as its own module, since Workers refuse to compile wasm from bytes.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BLOCKED, run, WRANGLER } from './child.js'
import { startWorker, type RunningWorker } from './harness.js'
import { ROOT } from './tool-env.js'

const WORKER = `import { parseRobots } from 'robotstxt-wasm'

export default {
  fetch(request) {
    const robots = parseRobots('User-agent: *\\nDisallow: /private\\n')
    return Response.json(robots.check(new URL(request.url).searchParams.get('url'), 'ExampleBot'))
  },
}
`

describe('wrangler deploy --dry-run picks the workerd entry (package.json exports "workerd")', () => {
  let dir: string
  let out: string
  let wrangler: ReturnType<typeof run>
  let bundle: string
  let wasmFiles: string[]
  const packagedWasm = () => readFileSync(join(dir, 'node_modules', 'robotstxt-wasm', 'dist', 'robots.wasm'))

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'robotstxt-wasm-dry-run-'))
    out = join(dir, 'out')
    // The files `npm publish` would ship, unpacked where `npm install` would put them.
    const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--no-update-notifier', '--pack-destination', dir], ROOT)
    expect(pack.status, pack.stderr).toBe(0)
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }]
    const pkg = join(dir, 'node_modules', 'robotstxt-wasm')
    mkdirSync(pkg, { recursive: true })
    const untar = run('tar', ['-xzf', join(dir, filename), '-C', pkg, '--strip-components=1'], dir)
    expect(untar.status, untar.stderr).toBe(0)
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'dry-run-check', private: true, type: 'module', dependencies: { 'robotstxt-wasm': `file:${filename}` } }))
    writeFileSync(join(dir, 'wrangler.jsonc'), JSON.stringify({ name: 'dry-run-check', main: 'src/index.js', compatibility_date: '2026-04-01' }))
    mkdirSync(join(dir, 'src'))
    writeFileSync(join(dir, 'src', 'index.js'), WORKER)

    wrangler = run(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--outdir', out], dir)
    bundle = readFileSync(join(out, 'index.js'), 'utf8')
    wasmFiles = readdirSync(out).filter((f) => f.endsWith('.wasm'))
  })

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('wrangler succeeds without contacting the network', () => {
    expect(wrangler.status, wrangler.stderr).toBe(0)
    expect(wrangler.stdout).toContain('--dry-run: exiting now.')
    expect(`${wrangler.stdout}${wrangler.stderr}`).not.toContain(BLOCKED)
  })

  test('the bundle is built from dist/workerd.js, not the bytes-embedding dist/index.js', () => {
    expect(bundle).toContain('node_modules/robotstxt-wasm/dist/workerd.js')
    expect(bundle).not.toContain('robotstxt-wasm/dist/index.js')
  })

  test('the .wasm is emitted as a separate module, byte-identical to the packaged one', () => {
    expect(wasmFiles).toHaveLength(1)
    expect(readFileSync(join(out, wasmFiles[0]!)).equals(packagedWasm())).toBe(true)
    // Imported as a module (wrangler's CompiledWasm rule), which workerd hands over as a WebAssembly.Module.
    expect(bundle).toMatch(new RegExp(`^import \\w+ from "\\./${wasmFiles[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}";$`, 'm'))
  })

  test('no wasm bytes are inlined in the JavaScript', () => {
    const b64 = packagedWasm().toString('base64')
    expect(bundle).not.toContain(b64.slice(0, 64))
    expect(bundle).not.toMatch(/["'`]AGFzbQ/) // any base64 string of a wasm module starts so ("\0asm")
  })

  describe('the emitted upload runs unchanged in workerd', () => {
    let worker: RunningWorker
    beforeAll(async () => {
      worker = await startWorker({ name: 'dry-run-output', entrypoint: join(out, 'index.js'), noBundle: true })
    })
    afterAll(async () => {
      await worker?.dispose()
    })

    test('it answers with the matcher', async () => {
      const r1 = await worker.fetch(`/?url=${encodeURIComponent('https://example.com/private/x')}`)
      expect(await r1.json()).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' } })
      const r2 = await worker.fetch(`/?url=${encodeURIComponent('https://example.com/public')}`)
      expect(await r2.json()).toEqual({ allowed: true, line: 0 })
    })
  })
})
