// The code blocks of README.md and docs/*.md, and how they run. A ```js or ```ts block right after
// `<!-- test -->` (or `<!-- test: sites redis -->`) is executed against the built dist/, in a
// child process in a fresh directory; a line ending in `// → value` must print that value
// (util.inspect on one line). `<!-- not tested: why -->` exempts a block, and every other js/ts
// block is an error, so a new example cannot silently go unrun. A ```console block after
// `<!-- test -->` is a transcript whose commands must print what it shows; any block after
// `<!-- file: PATH -->` must be that repository file, as it is.
//
// Options of the marker: `sites` serves three fixture sites from 127.0.0.1 and rewrites the block's
// https://example.com, https://example.org and https://down.example.net to them; `redis` sets
// REDIS_URL (the caller starts the server).
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface DocBlock {
  /** Path from the repository's root. */
  file: string
  /** Line of the opening fence. */
  line: number
  lang: string
  /** The marker comment's text after `test` (`''`, `'sites redis'`), or null when not tested. */
  test: string | null
  /** Why the block is not tested, from `<!-- not tested: why -->`; null when unmarked. */
  skip: string | null
  /** The repository file this block must equal, from `<!-- file: PATH -->`; null when none. */
  copyOf: string | null
  code: string
}

/** Every fenced block of `markdown`, with the comment right before it. */
export function docBlocks(markdown: string, file: string): DocBlock[] {
  const blocks: DocBlock[] = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!)
    if (!open) continue
    let end = i + 1
    while (end < lines.length && lines[end] !== '```') end++
    const before = lines[i - 1] ?? ''
    const test = /^<!-- test(?::\s*([^>]*?))?\s*-->$/.exec(before)
    const skip = /^<!-- not tested: (.+?) -->$/.exec(before)
    const copyOf = /^<!-- file: (\S+) -->$/.exec(before)
    blocks.push({
      file, line: i + 1, lang: open[1]!, test: test ? (test[1] ?? '') : null, skip: skip ? skip[1]! : null, copyOf: copyOf ? copyOf[1]! : null,
      code: lines.slice(i + 1, end).join('\n'),
    })
    i = end
  }
  return blocks
}

/** What a block runs against: the built entries and, for `sites`, origins standing for the example hosts. */
export interface BlockEnv {
  root: string
  /** Example origin (`https://example.com`) to the local origin serving it. */
  sites?: ReadonlyMap<string, string>
  redisUrl?: string
}

const ENTRIES: Record<string, string> = { '': 'index.js', '/compat': 'compat.js', '/crawlee': 'crawlee.js' }

/** The block as a module: imports of the package point at dist/, hosts at the fixture sites. */
export function blockScript(block: DocBlock, env: BlockEnv): { script: string; expected: string[] } {
  let code = block.code
  if (block.test?.split(/\s+/).includes('sites')) {
    for (const [from, to] of env.sites ?? []) code = code.replaceAll(from, to)
  }
  code = code.replace(/from 'robotstxt-wasm(\/compat|\/crawlee)?'/g, (_, sub: string | undefined) =>
    `from ${JSON.stringify(pathToFileURL(join(env.root, 'dist', ENTRIES[sub ?? '']!)).href)}`)
  const expected: string[] = []
  const lines = code.split('\n').map((line) => {
    const m = /^(.*?)\s*\/\/ → (.*)$/.exec(line)
    if (!m) return line
    expected.push(m[2]!)
    // A leading `;` (ASI guard before a parenthesized line) stays in front of the call.
    const guard = m[1]!.startsWith(';') ? ';' : ''
    return `${guard}__show(${m[1]!.slice(guard.length)})`
  })
  const script = [
    "import { inspect as __inspect } from 'node:util'",
    "const __show = (x) => process.stdout.write('\\u0000→ ' + __inspect(x, { breakLength: Infinity, depth: 5 }) + '\\n')",
    ...lines,
  ].join('\n')
  return { script, expected }
}

/** Runs the block in a fresh directory holding `files`; resolves to the `// →` values it printed. */
export async function runBlock(block: DocBlock, env: BlockEnv, files: Record<string, string> = {}): Promise<{ shown: string[]; expected: string[] }> {
  const { script, expected } = blockScript(block, env)
  const dir = mkdtempSync(join(tmpdir(), 'doc-block-'))
  try {
    // Bare imports (crawlee, redis) resolve from the project's node_modules, as in a user's project.
    symlinkSync(join(env.root, 'node_modules'), join(dir, 'node_modules'), 'dir')
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    const path = join(dir, block.lang === 'ts' ? 'block.mts' : 'block.mjs')
    writeFileSync(path, script)
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [path], {
        cwd: dir, encoding: 'utf8', timeout: 60_000,
        env: { ...process.env, ...(env.redisUrl ? { REDIS_URL: env.redisUrl } : {}) },
      }, (error, out, err) => error ? reject(new Error(`${block.file}:${block.line}: ${error.message}\n${err}`)) : resolve(out))
    })
    const shown = stdout.split('\n').filter((l) => l.startsWith('\u0000→ ')).map((l) => l.slice(3))
    return { shown, expected }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The markdown files whose blocks are checked: README.md and every docs/*.md. */
export function docFiles(root: string, names: readonly string[]): { file: string; text: string }[] {
  return names.map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }))
}

/**
 * A ```console transcript: each `$ COMMAND` runs in sh, in a fresh directory where `examples/` is
 * the repository's, `robotstxt` is the built CLI, and robotstxt-wasm is installed (linked to this
 * checkout, its bins in node_modules/.bin) so that `npx robotstxt-wasm` runs it with npm offline;
 * resolves to each command's stdout and what the transcript shows for it.
 */
export async function runTranscript(block: DocBlock, root: string): Promise<{ printed: string[]; shown: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'doc-console-'))
  try {
    symlinkSync(join(root, 'examples'), join(dir, 'examples'), 'dir')
    const bin = join(dir, '.bin')
    mkdirSync(bin)
    writeFileSync(join(bin, 'robotstxt'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'dist', 'cli.js'))} "$@"\n`, { mode: 0o755 })
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true })
    symlinkSync(root, join(dir, 'node_modules', 'robotstxt-wasm'), 'dir')
    for (const name of ['robotstxt', 'robotstxt-wasm']) symlinkSync(join('..', 'robotstxt-wasm', 'dist', 'cli.js'), join(dir, 'node_modules', '.bin', name))
    const printed: string[] = []
    const shown: string[] = []
    for (const part of block.code.split(/^\$ /m).slice(1)) {
      const [command, ...output] = part.split('\n')
      shown.push(output.join('\n').trimEnd())
      printed.push(await new Promise<string>((resolve, reject) => {
        execFile('sh', ['-c', command!], {
          cwd: dir, encoding: 'utf8', timeout: 60_000,
          env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1', npm_config_offline: 'true', npm_config_update_notifier: 'false' },
        }, // The CLI's exit statuses 1-4 are answers, not failures.
          (error, out) => error && !(typeof error.code === 'number' && error.code <= 4) ? reject(new Error(`${block.file}:${block.line}: ${command}: ${error.message}`)) : resolve(out.trimEnd()))
      }))
    }
    return { printed, shown }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
