// The `robotstxt` command (package.json "bin", bundled to dist/cli.js). The only part of the
// package that uses node: modules; the library itself runs anywhere. Loaded as one of its own
// worker threads (check --urls and filter with --threads N), it serves jobs instead.

import { CHECK_BLOCKS, runCheck } from './cli/cmd-check.js'
import { runDiff } from './cli/cmd-diff.js'
import { runExplain } from './cli/cmd-explain.js'
import { FILTER_BLOCKS, runFilter } from './cli/cmd-filter.js'
import { runLint } from './cli/cmd-lint.js'
import { runPlayground } from './cli/cmd-playground.js'
import { runTest } from './cli/cmd-test.js'
import { runSurvey } from './cli/cmd-survey.js'
import { InputError, UsageError } from './cli/errors.js'
import { HELP } from './cli/help.js'
import { outputFailed } from './cli/output.js'
import { escapeControls } from './cli/style.js'
import { VERSION } from './cli/version.js'
import { serveWork } from './threads/pool.js'

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  check: runCheck,
  diff: runDiff,
  explain: runExplain,
  filter: runFilter,
  lint: runLint,
  playground: runPlayground,
  test: runTest,
  survey: runSurvey,
}

/** Runs the command line `argv` (without node and script); resolves to the exit status. */
async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv
  if (first === undefined) {
    process.stderr.write(HELP.main!)
    return 2
  }
  if (first === '--help' || first === '-h') {
    process.stdout.write(HELP.main!)
    return 0
  }
  if (first === '--version' || first === '-V') {
    process.stdout.write(`${VERSION}\n`)
    return 0
  }
  if (first === 'help') {
    const topic = rest[0]
    if (topic === undefined) {
      process.stdout.write(HELP.main!)
      return 0
    }
    if (!Object.hasOwn(COMMANDS, topic)) throw new UsageError(`no help for unknown command "${topic}"; commands: ${Object.keys(COMMANDS).join(', ')}`)
    process.stdout.write(HELP[topic]!)
    return 0
  }
  const run = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined
  if (run === undefined) {
    throw new UsageError(first.startsWith('-') ? `unknown option "${first}" (a command comes first)` : `unknown command "${first}"; commands: ${Object.keys(COMMANDS).join(', ')}`)
  }
  return run(rest)
}

if (!serveWork([CHECK_BLOCKS, FILTER_BLOCKS])) {
  process.stdout.on('error', outputFailed)
  main(process.argv.slice(2)).then(
    (status) => {
      process.exitCode = status
    },
    (err: unknown) => {
      // Messages quote arguments, file names and URLs: escaped like any text output (cli/style.ts).
      if (err instanceof UsageError) {
        const help = err.command !== undefined ? `robotstxt help ${err.command}` : 'robotstxt --help'
        const usage = err.usage !== undefined ? `  ${escapeControls(err.usage)}\n` : ''
        process.stderr.write(`robotstxt${err.command !== undefined ? ` ${err.command}` : ''}: ${escapeControls(err.message)}\n${usage}Try '${help}'.\n`)
      } else if (err instanceof InputError) {
        process.stderr.write(`robotstxt: ${escapeControls(err.message)}\n`)
      } else {
        const text = err instanceof Error ? (err.stack ?? err.message) : String(err)
        process.stderr.write(`robotstxt: unexpected error: ${text.split('\n').map(escapeControls).join('\n')}\n`)
      }
      process.exitCode = 2
    },
  )
}
