// The User-Agent a fetch sends when the caller names none. Sites read it to learn who is crawling
// and how to reach them (RFC 9309 2.2.1: crawlers SHOULD send their product token in the
// User-Agent; Google's crawler documentation pairs each token with a page about the crawler), so
// a default never goes out as the runtime's own (`node`, `Bun/1.x`, `Deno/2.x`): it names the agent
// the fetch was made for, when there is one, and this package with its version and address.

declare const __ROBOTSTXT_VERSION__: string | undefined

/** The package version: inlined by every bundle (scripts/build.mjs), "0.0.0-dev" when the source runs unbundled. */
export const PACKAGE_VERSION: string = typeof __ROBOTSTXT_VERSION__ === 'string' ? __ROBOTSTXT_VERSION__ : '0.0.0-dev'

/** Where a site operator reads what this package is. */
export const PACKAGE_URL = 'https://www.npmjs.com/package/robotstxt-wasm'

/** The package as a User-Agent product with its contact comment. */
export const PACKAGE_USER_AGENT = `robotstxt-wasm/${PACKAGE_VERSION} (+${PACKAGE_URL})`

/**
 * The default User-Agent of a fetch made for `agent`: `AGENT (compatible; robotstxt-wasm/VERSION;
 * +URL)` with the agent as given (the first one of an array), or `robotstxt-wasm/VERSION (+URL)`
 * without an agent. Characters a header value cannot hold (controls, code points past U+00FF) are
 * left out of the agent's name.
 */
export function defaultUserAgent(agent?: string | readonly string[]): string {
  const first = agent === undefined ? '' : typeof agent === 'string' ? agent : agent[0] ?? ''
  const name = first.replace(NOT_IN_HEADER, '').trim()
  return name === '' ? PACKAGE_USER_AGENT : `${name} (compatible; robotstxt-wasm/${PACKAGE_VERSION}; +${PACKAGE_URL})`
}

/** What a header value cannot hold: C0 controls but tab, DEL, and code points past U+00FF. */
const NOT_IN_HEADER = /[\0-\x08\x0a-\x1f\x7f\u0100-\uffff]/g

/**
 * True where the platform fetch is a browser's: there a request header the page sets is a
 * CORS-unsafe header, which would cost every cross-origin robots.txt fetch a preflight that sites
 * do not answer, and the browser names itself anyway. Nothing is added there by default.
 */
export function inBrowser(): boolean {
  const g = globalThis as { document?: unknown; importScripts?: unknown }
  return typeof g.document === 'object' || typeof g.importScripts === 'function'
}
