// The GitHub Action (action.yml at the repository's root), run as the runner runs a composite
// action: the YAML read by a maintained parser (yaml), the inputs given `with:` merged over their
// defaults, every `${{ inputs.NAME }}` and `${{ github.action_path }}` substituted (any other
// expression fails the test: the runner would evaluate something this test does not), and each
// step's script run by `bash --noprofile --norc -eo pipefail`, GitHub's command for `shell: bash`,
// in a site's workspace. robotstxt-wasm comes from `npm pack` of this checkout, installed offline:
// no test depends on the registry.
import { execFile, type ExecFileException } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { ensureDist, ROOT } from './helpers/dist.js'
import { closeAll, reply, serve } from './helpers/server.js'

interface Input { description: string; required?: boolean; default?: string }
interface Step { name?: string; shell?: string; env?: Record<string, string>; run?: string; uses?: string }
interface Action { name: string; description: string; inputs: Record<string, Input>; runs: { using: string; steps: Step[] } }

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

// Child processes must not inherit the npm_* settings of an enclosing `npm test`.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))

let tmp = ''
let tarball = ''

beforeAll(async () => {
  ensureDist()
  tmp = mkdtempSync(join(tmpdir(), 'robotstxt-action-'))
  const pack = await sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT)
  expect(pack.code, pack.stderr).toBe(0)
  tarball = join(tmp, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename)
}, 120_000)

afterAll(async () => {
  await closeAll()
  if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
})

interface Run { code: number; stdout: string; stderr: string }

function sh(file: string, args: string[], cwd: string, env: Record<string, string | undefined> = baseEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, encoding: 'utf8', timeout: 120_000 }, (error: ExecFileException | null, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr })
    })
  })
}

/** `value` with the runner's expressions substituted; only inputs and the action's path are known here. */
function substitute(value: string, inputs: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    const input = /^inputs\.([A-Za-z_][\w-]*)$/.exec(expr)
    if (input !== null) return inputs[input[1]!] ?? ''
    if (expr === 'github.action_path') return ROOT
    throw new Error(`action.yml: an expression this test does not evaluate: ${expr}`)
  })
}

/**
 * Runs the action's steps in `workspace` with `given` as its `with:` inputs, as the runner would;
 * resolves to the last step's result (a step that fails ends the job there).
 */
async function runAction(workspace: string, given: Record<string, string>): Promise<Run> {
  for (const name of Object.keys(given)) expect(Object.keys(action.inputs), `unknown input ${name}`).toContain(name)
  const inputs: Record<string, string> = {}
  for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = given[name] ?? spec.default ?? ''
  let last: Run = { code: 0, stdout: '', stderr: '' }
  for (const [i, step] of action.runs.steps.entries()) {
    const script = join(tmp, `step-${i}-${Date.now()}.sh`)
    writeFileSync(script, substitute(step.run!, inputs))
    const env: Record<string, string | undefined> = {
      ...baseEnv, npm_config_offline: 'true', npm_config_update_notifier: 'false',
      GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: ROOT,
    }
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = substitute(value, inputs)
    last = await sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], workspace, env)
    if (last.code !== 0) return last
  }
  return last
}

/** A site's repository: examples/site-ci's robots.txt and expectations.txt. */
function workspace(): string {
  const dir = mkdtempSync(join(tmp, 'site-'))
  for (const f of ['robots.txt', 'expectations.txt']) cpSync(join(ROOT, 'examples', 'site-ci', f), join(dir, f))
  return dir
}

describe('action.yml', () => {
  test('is a composite action of bash steps whose inputs reach the script only through env', () => {
    expect(action.runs.using).toBe('composite')
    expect(Object.keys(action.inputs)).toEqual(['robots', 'expectations', 'origin', 'format', 'allow-unavailable', 'package'])
    expect([action.inputs.robots!.required, action.inputs.expectations!.required]).toEqual([true, true])
    for (const step of action.runs.steps) {
      expect(step.shell).toBe('bash')
      // An expression in the script's text would splice input text into the command line.
      expect(step.run).not.toMatch(/\$\{\{/)
    }
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toMatch(/\S/)
  })

  test('the site-ci example passes: the step exits 0 with the summary', async () => {
    const r = await runAction(workspace(), { robots: 'robots.txt', expectations: 'expectations.txt', package: tarball })
    expect(r.stderr).not.toMatch(/npm error/)
    expect([r.code, r.stdout]).toEqual([0, 'robots.txt: all 9 expectations met\n'])
  }, 120_000)

  test('a robots.txt that stops meeting an expectation fails the step, annotating its line', async () => {
    const site = workspace()
    const robots = readFileSync(join(site, 'robots.txt'), 'utf8')
    writeFileSync(join(site, 'robots.txt'), robots.replace('User-Agent: GPTBot\nUser-Agent: CCBot\nDisallow: /\n', ''))
    const r = await runAction(site, { robots: 'robots.txt', expectations: 'expectations.txt', package: tarball })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^::error file=expectations\.txt,line=14,title=robots\.txt%3A GPTBot disallow \/::/m)
  }, 120_000)

  test('without the package input: this version, from the workspace where the site installed it', async () => {
    const site = workspace()
    writeFileSync(join(site, 'package.json'), JSON.stringify({ name: 'site', version: '1.0.0', private: true }))
    const install = await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--save-dev', tarball], site)
    expect(install.code, install.stderr).toBe(0)
    const r = await runAction(site, { robots: 'robots.txt', expectations: 'expectations.txt', format: 'text' })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/\nrobots\.txt: all 9 expectations met\n$/)
    expect(JSON.parse(readFileSync(join(site, 'node_modules', 'robotstxt-wasm', 'package.json'), 'utf8')).version).toBe(VERSION)
  }, 120_000)

  test('a preview server with origin: production URLs are checked on it; a 503 fails with exit 4 unless allow-unavailable', async () => {
    const preview = await serve(reply(200, readFileSync(join(ROOT, 'examples', 'site-ci', 'robots.txt'), 'utf8')))
    const inputs = { robots: `${preview.origin}/robots.txt`, expectations: 'expectations.txt', package: tarball }
    const site = workspace()
    // expectations.txt has https://www.example.com/products/ on line 8: an error without origin.
    expect((await runAction(site, inputs)).code).toBe(2)
    const ok = await runAction(site, { ...inputs, origin: 'https://www.example.com' })
    expect([ok.code, ok.stdout]).toEqual([0, `${preview.origin}/robots.txt: all 9 expectations met\n`])
    preview.handle(reply(503, 'down'))
    const down = await runAction(site, { ...inputs, origin: 'https://www.example.com' })
    expect(down.code).toBe(4)
    expect(down.stdout).toMatch(/^::error title=robots\.txt unavailable::.*no usable robots\.txt \(HTTP 503\)/)
    const allowed = await runAction(site, { ...inputs, origin: 'https://www.example.com', 'allow-unavailable': 'true' })
    expect(allowed.code).toBe(1)
    expect(allowed.stdout).toMatch(/^::warning title=robots\.txt unavailable::/)
  }, 120_000)

  test('a bad allow-unavailable value fails the step with an annotation', async () => {
    const r = await runAction(workspace(), { robots: 'robots.txt', expectations: 'expectations.txt', 'allow-unavailable': 'yes', package: tarball })
    expect([r.code, r.stdout]).toEqual([2, "::error title=robots.txt test::allow-unavailable: expected 'true' or 'false', got 'yes'\n"])
  })

  test('input text is data, never shell: quotes, $(...) and ; in a path run nothing', async () => {
    const site = workspace()
    const r = await runAction(site, { robots: 'robots.txt', expectations: '"; touch pwned; echo "$(touch pwned2)', package: tarball })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('cannot read "; touch pwned; echo "$(touch pwned2): no such file')
    expect([existsSync(join(site, 'pwned')), existsSync(join(site, 'pwned2'))]).toEqual([false, false])
  }, 120_000)
})
