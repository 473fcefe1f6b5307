// Starts a Worker in a real workerd through wrangler's API (the engine behind `wrangler dev`),
// local only: no remote bindings, no inspector, no persistence, no file watching.
import { unstable_startWorker } from 'wrangler'

/** A Worker running in a local workerd, reachable over HTTP on 127.0.0.1. */
export interface RunningWorker {
  /** The Worker's address, http://127.0.0.1:PORT/. */
  readonly url: URL
  /** `fetch` of a path (or absolute URL) against the Worker. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** Stops workerd. */
  dispose(): Promise<void>
}

export interface WorkerSpec {
  name: string
  /** The Worker's entry module; or take it (and the rest) from `config`. */
  entrypoint?: string
  /** A wrangler.jsonc to run, as `wrangler dev -c` would. */
  config?: string
  /** Module aliases for wrangler's bundler (its `alias` setting). */
  alias?: Record<string, string>
  /** Used when no `config` gives one. */
  compatibilityDate?: string
  /** Run `entrypoint` as it is, with the modules beside it (an already bundled Worker). */
  noBundle?: boolean
  /** Directory where workerd keeps its local storage (the Cache API included) across restarts; default none. */
  persist?: string
  /** Port on 127.0.0.1; default any free one. */
  port?: number
}

export async function startWorker(spec: WorkerSpec): Promise<RunningWorker> {
  const worker = await unstable_startWorker({
    name: spec.name,
    ...(spec.entrypoint !== undefined ? { entrypoint: spec.entrypoint } : {}),
    ...(spec.config !== undefined ? { config: spec.config } : { compatibilityDate: spec.compatibilityDate ?? '2026-04-01' }),
    sendMetrics: false,
    build: {
      ...(spec.alias !== undefined ? { alias: spec.alias } : {}),
      ...(spec.noBundle === true ? { bundle: false, findAdditionalModules: true } : {}),
    },
    dev: {
      remote: false,
      server: { hostname: '127.0.0.1', port: spec.port ?? 0 },
      inspector: false,
      persist: spec.persist ?? false,
      watch: false,
      logLevel: 'warn',
    },
  })
  try {
    await worker.ready
    const url = await worker.url
    return {
      url,
      fetch: (path, init) => fetch(new URL(path, url), init),
      dispose: () => worker.dispose(),
    }
  } catch (err) {
    await worker.dispose()
    throw err
  }
}
