// Which robots.txt governs a URL (RFC 9309 2.3-2.4 and Google's documented handling, "Which robots.txt applies to a URL"): the one at the
// root of the URL's origin. The WHATWG URL parser does the normalisation the rules ask for: it
// lower-cases the host, converts internationalised names to punycode, canonicalises IPv4 and IPv6
// addresses and drops the scheme's default port, all in `URL.origin`.

import { fail } from '../engine/args.js'

/** The origin of a URL and the address of the robots.txt that governs it. */
export interface RobotsLocation {
  /** `scheme://host[:port]`, as `URL.origin` gives it. */
  origin: string
  /** `origin + '/robots.txt'`. */
  robotsUrl: string
}

const EXPECTED = 'an absolute http: or https: URL'

/** Parses `url` (a string or a `URL`) into its origin; anything but an http(s) URL is a TypeError. */
export function locateRobots(url: unknown, param = 'url'): RobotsLocation {
  let parsed: URL
  if (url instanceof URL) parsed = url
  else if (typeof url === 'string') {
    // URL.canParse is Node 19.9+; a throwing constructor works everywhere.
    try {
      parsed = new URL(url)
    } catch {
      return fail(param, EXPECTED, url)
    }
  } else return fail(param, 'a string or a URL', url)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(param, EXPECTED, url instanceof URL ? url.href : url)
  const origin = parsed.origin
  return { origin, robotsUrl: `${origin}/robots.txt` }
}

/**
 * The origin whose robots.txt governs `url`: `scheme://host[:port]` with the host lower-cased and
 * in punycode, IP addresses in canonical form, and the default port (80 for http, 443 for https)
 * dropped. Its robots.txt is at `robotsOrigin(url) + '/robots.txt'`. Only http: and https: URLs are
 * accepted (a TypeError otherwise): they are the schemes the platform `fetch` reaches.
 *
 * @example
 * ```ts
 * import { robotsOrigin } from 'robotstxt-wasm'
 *
 * robotsOrigin('HTTP://www.Exämple.com:80/a?b') // → 'http://www.xn--exmple-cua.com'
 * robotsOrigin('https://example.com:8443/') // → 'https://example.com:8443'
 * ```
 */
export function robotsOrigin(url: string | URL): string {
  return locateRobots(url).origin
}
