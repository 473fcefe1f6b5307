// Where a command's bulk output goes, and what a failed write does: the one policy for stdout.

import { createWriteStream, fstatSync } from 'node:fs'
import type { Writable } from 'node:stream'
import { errorCode } from './errors.js'

/**
 * A failed write to stdout. A reader that went away (`robotstxt check … | head`) is not an error:
 * stop quietly. Any other failure (a full disk) ends the command with a one-line message and
 * status 2 instead of a stack trace.
 */
export function outputFailed(err: Error): never {
  if (errorCode(err) === 'EPIPE') process.exit(process.exitCode ?? 0)
  process.stderr.write(`robotstxt: cannot write the output: ${err.message}\n`)
  process.exit(2)
}

/** Bytes a file output holds before its writer waits for 'drain': a few blocks' output lines (stream.ts BLOCK). */
const FILE_OUTPUT_BUFFER = 1 << 22

/** An output stream and the promise that every byte given to it has been written. */
export interface BulkOutput {
  stream: Writable
  /** Ends the stream (stdout itself stays open) once all of it is written. */
  close(): Promise<void>
}

/**
 * stdout for many megabytes of output. Node writes process.stdout to a regular file synchronously,
 * so each block's write, and the kernel's throttling while it flushes dirty pages, stalls the
 * checking of the next block. On a regular file a WriteStream on fd 1 writes from libuv's thread
 * pool instead, overlapping the two. Pipes and terminals keep process.stdout, whose writes to a
 * pipe are asynchronous already.
 */
export function bulkStdout(): BulkOutput {
  let regular = false
  try {
    regular = fstatSync(1).isFile()
  } catch {
    // No fd 1 to inspect: process.stdout reports whatever is wrong on its first write.
  }
  if (!regular) return { stream: process.stdout, close: () => Promise.resolve() }
  const stream = createWriteStream('', { fd: 1, autoClose: false, highWaterMark: FILE_OUTPUT_BUFFER })
  stream.on('error', outputFailed)
  return { stream, close: () => new Promise<void>((resolve) => stream.end(resolve)) }
}
