// The import structure of src/ as src/README.md states it: every relative import of every
// src/**/*.ts, read with TypeScript's own pre-processor, goes to the same folder or to a folder the
// README's layer table lets it import; the entries at the top import anything, nothing imports an
// entry; and no chain of imports comes back to where it started.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'
import { ROOT } from './helpers/dist.js'

const SRC = join(ROOT, 'src')

/** Each `.ts` under src/ (declaration files too), as a path relative to src/. */
const FILES = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => f.split('\\').join('/')).sort()

/**
 * file -> the src files it imports (relative specifiers, `.js` written for `.ts`). Packages and
 * files outside src/ (the built .wasm) are not part of the layers.
 */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of FILES) {
    const info = ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true)
    const targets: string[] = []
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue
      const target = relative(SRC, join(SRC, dirname(file), fileName)).split('\\').join('/').replace(/\.js$/, '.ts')
      if (!target.startsWith('../')) targets.push(target)
    }
    graph.set(file, targets)
  }
  return graph
}

/** The layer table of src/README.md: the part a file belongs to -> the parts it may import. */
function layerTable(): Map<string, string[]> {
  const table = new Map<string, string[]>()
  for (const line of readFileSync(join(SRC, 'README.md'), 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    const part = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1]
    if (part === undefined || cells.length < 5) continue
    table.set(part, [...(cells[3] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
  }
  return table
}

/** The part of the table `file` belongs to: its folder (`http/`) or its own name (`public.ts`); null for an entry. */
function partOf(file: string, table: Map<string, string[]>): string | null {
  const folder = file.includes('/') ? `${file.slice(0, file.indexOf('/'))}/` : null
  if (folder !== null) return folder
  return table.has(file) ? file : null
}

describe('src/ layers (src/README.md)', () => {
  const graph = importGraph()
  const table = layerTable()

  test('every import inside src/ names a src file', () => {
    expect([...graph].flatMap(([file, targets]) => targets.filter((t) => !FILES.includes(t)).map((t) => `${file} -> ${t}`))).toEqual([])
  })

  test('the README table names every folder of src/', () => {
    const folders = new Set(FILES.filter((f) => f.includes('/')).map((f) => `${f.slice(0, f.indexOf('/'))}/`))
    expect([...folders].filter((f) => !table.has(f))).toEqual([])
    expect(table.get('engine/')).toEqual([])
    expect(table.get('flow/')).toEqual([])
  })

  test('flow/, shared by http/ (browsers, Workers) and threads/ (Node), imports no package: no platform API', () => {
    const flow = FILES.filter((f) => f.startsWith('flow/'))
    expect(flow.length).toBeGreaterThan(0)
    const packages = flow.flatMap((file) => ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true).importedFiles
      .filter(({ fileName }) => !fileName.startsWith('.')).map(({ fileName }) => `${file} -> ${fileName}`))
    expect(packages).toEqual([])
  })

  test('each import goes to the same part or one the table allows; no entry is imported', () => {
    const wrong: string[] = []
    for (const [file, targets] of graph) {
      const from = partOf(file, table)
      for (const target of targets) {
        const to = partOf(target, table)
        if (to === null) wrong.push(`${file} imports the entry ${target}`)
        else if (from !== null && to !== from && !table.get(from)!.includes(to)) wrong.push(`${file} (${from}) imports ${target} (${to})`)
      }
    }
    expect(wrong).toEqual([])
  })

  test('no import cycles', () => {
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const path: string[] = []
    const visit = (file: string): void => {
      state.set(file, 'open')
      path.push(file)
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '))
        else if (!state.has(next)) visit(next)
      }
      path.pop()
      state.set(file, 'done')
    }
    for (const file of FILES) if (!state.has(file)) visit(file)
    expect(cycles).toEqual([])
  })
})
