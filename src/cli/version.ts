// The package version, replaced by its literal value when scripts/build.mjs bundles dist/cli.js
// (esbuild `define`), so the bundle needs no package.json at run time.

declare const __ROBOTSTXT_VERSION__: string | undefined

/** The version from package.json, or "0.0.0-dev" when the source runs unbundled. */
export const VERSION: string = typeof __ROBOTSTXT_VERSION__ === 'string' ? __ROBOTSTXT_VERSION__ : '0.0.0-dev'
