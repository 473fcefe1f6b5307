// What the code and docs cite is in the repository: every Markdown file name that a file of src/,
// assembly/, test/, docs/, bench/ or scripts/ mentions is a file the repository has (the contract
// files the project was written against are not in it: a comment cites RFC 9309 sections, Google's
// documentation pages and google/robotstxt function names instead). Paths into ../shared, where the
// tests read labelled cases, are the one exception.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from './helpers/dist.js'

const FOLDERS = ['src', 'assembly', 'test', 'docs', 'bench', 'scripts']
const TRACKED = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...FOLDERS, '*.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean)

test('every Markdown file cited in src/, assembly/, test/, docs/, bench/ and scripts/ is a file of the repository', () => {
  const have = new Set(TRACKED.filter((f) => f.endsWith('.md')).map((f) => basename(f)))
  const missing: string[] = []
  for (const file of TRACKED) {
    if (!FOLDERS.some((f) => file.startsWith(`${f}/`)) || /\.(jsonl|json|png|svg|wasm|gz|br)$/.test(file)) continue
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
    lines.forEach((line, i) => {
      // A path token, maybe into ../shared; never a property access (a name right after a dot).
      for (const m of line.matchAll(/(?<![\w./])(\.\.\/shared\/)?(?:[\w./-]*\/)?([\w-]+\.md)\b/g)) {
        if (m[1] === undefined && !have.has(m[2]!)) missing.push(`${file}:${i + 1} ${m[0]}`)
      }
    })
  }
  expect(missing).toEqual([])
})
