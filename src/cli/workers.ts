// The CLI's worker threads: which module they load, and how much work each holds. The workers run
// the CLI bundle itself (dist/cli.js), which serves jobs instead of running a command when it is
// loaded as a worker (cli.ts); from the unbundled source (tests), they run the built bundle.

declare const __CLI_BUNDLE__: boolean | undefined

/** The module the CLI's workers load. */
export function cliWorker(): URL {
  return typeof __CLI_BUNDLE__ === 'boolean' ? new URL(import.meta.url) : new URL('../../dist/cli.js', import.meta.url)
}

/**
 * Blocks of URL lines out per thread: a few queued, so that a worker keeps busy while the main
 * thread waits for a read or is not scheduled. Each is at most a BLOCK of input and its output.
 */
export const BLOCKS_IN_FLIGHT = 4

/**
 * The young generation of a `filter` worker, in MiB. Its blocks make a string, a verdict and an
 * output line per URL, all short-lived: with V8's default young generation (up to 3 x 16 MiB semi
 * spaces per thread) each worker's heap settled near 200 MiB to hold about 15 MiB; with this, near
 * 70 MiB, at the same CPU time.
 */
export const FILTER_YOUNG_MB = 16
