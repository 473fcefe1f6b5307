// Types of python.mjs for the test that runs bench/per-site.py.
export interface PerSiteLibrary {
  name: string
  error?: string
  total_ns?: number
  p50_ns?: number
  p95_ns?: number
  p99_ns?: number
  checks?: number
  agree?: number
}
export interface PerSitePy {
  python: string
  executable: string
  rounds: number
  sites: number
  libraries: PerSiteLibrary[]
}
export declare const PER_SITE_PY: string
export declare const PYTHON: string
export declare function ensureProtego(): Promise<string | null>
export declare function runPerSitePy(casesPath: string, robotsDir: string, rounds: number): PerSitePy
