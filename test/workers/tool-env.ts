// The environment every wrangler/workerd run of the Workers tests gets: nothing may contact
// Cloudflare, and wrangler's per-user state stays inside the project.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The project root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Environment variables for wrangler, in the test process and in wrangler child processes. */
export const TOOL_ENV: Record<string, string> = {
  // No usage telemetry to Cloudflare.
  WRANGLER_SEND_METRICS: 'false',
  // miniflare would otherwise download the `request.cf` object from workers.cloudflare.com.
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  // The CLI banner comes with an update check against the npm registry.
  WRANGLER_HIDE_BANNER: 'true',
  // wrangler keeps its user config, logs and caches under $XDG_CONFIG_HOME/.wrangler: keep them
  // in the project's git-ignored .config/ rather than the user's home.
  XDG_CONFIG_HOME: join(ROOT, '.config'),
}
