// Types of `require('robotstxt-wasm/compat')` (dist/compat.cjs, whose module.exports is the
// function itself, like robots-parser's). The ESM types are emitted by tsc from compat/parser.ts;
// this file declares the same shape with `export =`, and test/compat.test.ts compiles a CommonJS and
// an ESM consumer against the built package to keep the two in step.

declare namespace robotsParser {
  /** A parsed robots.txt with robots-parser's methods (see compat/parser.ts for each one). */
  interface Robot {
    /** True when `ua` may fetch `url`; `undefined` for a URL of another protocol, host or port. */
    isAllowed(url: string | URL, ua?: string): boolean | undefined
    /** Exactly `!isAllowed(url, ua)` (so `true` for a URL of another origin). */
    isDisallowed(url: string | URL, ua?: string): boolean | undefined
    /** True only when a group naming `ua` disallows `url` (the `*` group is not consulted); `undefined` for another origin. */
    isExplicitlyDisallowed(url: string | URL, ua: string): boolean | undefined
    /** The line of the deciding rule, from 1; -1 when no rule matched or the origin differs. */
    getMatchingLineNumber(url: string | URL, ua?: string): number
    /** robots-parser's crawl-delay for `ua` (its last value in the agent's groups, else `*`'s). */
    getCrawlDelay(ua?: string): number | undefined
    /** Values of all `Sitemap:` lines in file order, duplicates kept. */
    getSitemaps(): string[]
    /** The last `Host:` value, lower-cased, or `null`. */
    getPreferredHost(): string | null
  }
}

/**
 * A drop-in for robots-parser 3.0.1: parses `contents`, the robots.txt found at `url`. Verdicts and
 * matching lines follow Google's semantics; everything else follows robots-parser.
 */
declare function robotsParser(url: string | URL, contents: string): robotsParser.Robot

export = robotsParser
