// Errors that end the command with exit status 2 and a one-line message on stderr (no stack):
// the user typed something wrong or named input that cannot be read.

/** A mistake in the command line; the message is followed by a pointer to the command's help. */
export class UsageError extends Error {
  /** The subcommand whose help to point at, if known. */
  readonly command: string | undefined
  /** The help's line for the option at fault ("--timeout MS  time limit ..."), printed under the message. */
  readonly usage: string | undefined

  constructor(message: string, command?: string, usage?: string) {
    super(message)
    this.name = 'UsageError'
    this.command = command
    this.usage = usage
  }
}

/** Input that cannot be read or fetched (a missing file, a bad robots.txt URL, a URL list line too long). */
export class InputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InputError'
  }
}

/** `err.code` of a Node system error, or undefined. */
export function errorCode(err: unknown): string | undefined {
  if (err !== null && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code
  return undefined
}

/** A short reason for a failed file operation: "no such file", "is a directory", ... */
export function describeFsError(err: unknown): string {
  switch (errorCode(err)) {
    case 'ENOENT': return 'no such file'
    case 'EISDIR': return 'is a directory'
    case 'EACCES':
    case 'EPERM': return 'permission denied'
    case 'ENOTDIR': return 'not a directory'
    default: return err instanceof Error ? err.message : String(err)
  }
}
