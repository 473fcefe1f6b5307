// The API reference (`npm run docs`, TypeDoc into docs/api) builds without a warning, documents
// every export of the three public entries, each with an @example, and every example compiles
// against the package's published types (dist/*.d.ts) as a user's module would. Examples whose
// lines end in `// → value` are also run against dist/ and must print those values (the docs'
// convention, test/helpers/doc-blocks.ts).
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runBlock } from './helpers/doc-blocks.js'

const ROOT = join(import.meta.dirname, '..')
const work = mkdtempSync(join(tmpdir(), 'robotstxt-docs-'))

interface Comment { blockTags?: { tag: string; content: { kind: string; text: string }[] }[]; summary?: unknown[] }
interface Reflection { name: string; kind: number; comment?: Comment; signatures?: { comment?: Comment }[]; children?: Reflection[] }

/** TypeDoc's ReflectionKind.Reference: a re-export of something documented where it is declared. */
const REFERENCE = 4194304

let typedoc: { code: number; output: string }
let project: { children: Reflection[] }
/** Every export of each entry: `entry.name` and its @example code blocks. */
let exportsOf: { name: string; examples: string[]; documented: boolean }[]

function exec(file: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { cwd, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }))
  })
}

beforeAll(async () => {
  // The configuration of `npm run docs` (typedoc.json), written elsewhere so the test leaves docs/api alone.
  typedoc = await exec(join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc'), ['--out', join(work, 'api'), '--json', join(work, 'api.json')], ROOT)
  // A failed build writes no JSON: the first test then shows TypeDoc's messages.
  project = existsSync(join(work, 'api.json')) ? JSON.parse(readFileSync(join(work, 'api.json'), 'utf8')) as { children: Reflection[] } : { children: [] }
  exportsOf = project.children.flatMap((entry) => (entry.children ?? []).filter((r) => r.kind !== REFERENCE).map((r) => {
    const comments = [r.comment, ...(r.signatures ?? []).map((s) => s.comment)].filter((c): c is Comment => c !== undefined)
    const examples = comments.flatMap((c) => c.blockTags ?? []).filter((t) => t.tag === '@example')
      .flatMap((t) => t.content.filter((p) => p.kind === 'code').map((p) => /^```ts\n([\s\S]*?)\n?```$/.exec(p.text)?.[1] ?? ''))
    return { name: `${entry.name}.${r.name}`, examples, documented: comments.some((c) => (c.summary?.length ?? 0) > 0) }
  }))
}, 300_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('API reference (TypeDoc)', () => {
  test('npm run docs\'s configuration builds it with no warning', () => {
    expect(typedoc.output.replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(/\[warning\]|\[error\]/)
    expect(typedoc.code).toBe(0)
    expect(readdirSync(join(work, 'api'))).toContain('index.html')
  })

  test('the entries are the package\'s exports: the main entry, compat and crawlee', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
    expect(Object.keys(pkg.exports).filter((k) => k !== './package.json')).toEqual(['.', './compat', './crawlee'])
    expect(project.children.map((c) => c.name).sort()).toEqual(['compat', 'crawlee', 'index'])
  })

  test('every export is documented, with a TypeScript @example', () => {
    expect(exportsOf.length).toBeGreaterThan(40)
    expect(exportsOf.filter((e) => !e.documented).map((e) => e.name)).toEqual([])
    expect(exportsOf.filter((e) => e.examples.length === 0 || e.examples.some((x) => x === '')).map((e) => e.name)).toEqual([])
  })
})

describe('the @examples', () => {
  let files: { name: string; file: string; code: string }[]

  beforeAll(() => {
    // A user's project: robotstxt-wasm is this checkout (its exports give dist/), everything else
    // comes from this project's node_modules.
    const dir = join(work, 'examples')
    mkdirSync(join(dir, 'node_modules'), { recursive: true })
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (!entry.startsWith('.')) symlinkSync(join(ROOT, 'node_modules', entry), join(dir, 'node_modules', entry), 'dir')
    }
    symlinkSync(ROOT, join(dir, 'node_modules', 'robotstxt-wasm'), 'dir')
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: ['node'],
        strict: true, noEmit: true, skipLibCheck: true,
      },
      include: ['*.mts', '*.d.ts'],
    }))
    // What @cloudflare/workers-types adds to the DOM's CacheStorage, for the Workers examples.
    writeFileSync(join(dir, 'workers.d.ts'), 'interface CacheStorage { readonly default: Cache }\n')
    files = exportsOf.flatMap((e) => e.examples.map((code, i) => ({ name: e.name, file: `${e.name.replace(/\W/g, '_')}_${i}.mts`, code })))
    for (const f of files) writeFileSync(join(dir, f.file), `${f.code}\nexport {}\n`)
  })

  test('each compiles against the published types, as a module of a user\'s project', async () => {
    const { code, output } = await exec(join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), ['-p', 'tsconfig.json'], join(work, 'examples'))
    expect(output).toBe('')
    expect(code).toBe(0)
  }, 300_000)

  test('each that shows results (`// → value`) prints them', async () => {
    const shown = files.filter((f) => f.code.includes('// → '))
    expect(shown.length).toBeGreaterThan(20)
    const printed: string[][] = []
    const expected: string[][] = []
    for (const f of shown) {
      const block = { file: f.name, line: 0, lang: 'ts', test: '', skip: null, copyOf: null, code: f.code }
      const result = await runBlock(block, { root: ROOT })
      printed.push([f.name, ...result.shown])
      expected.push([f.name, ...result.expected])
    }
    expect(printed).toEqual(expected)
  }, 300_000)
})
