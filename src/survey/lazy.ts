// `surveyRobots` as the package's main entries export it: the arguments are checked at once (a
// TypeError for bad ones), and the survey chunk (dist/survey.js: the readers, warcio, the worker
// pool) is loaded on the first iteration, so importing the package loads none of it. On runtimes
// without Node's files and worker threads (Workers, browsers) the iteration rejects with an Error.

import { loadSurveyChunk } from './load.js'
import { sourcesOf, surveyPlan } from './plan.js'
import type { SurveyInput, SurveyOptions, SurveyRun, SurveySummary } from './types.js'

function onNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: unknown } } }).process
  return typeof p?.versions?.node === 'string'
}

/**
 * One row per robots.txt of the input (WARC/WARC.gz files or their URLs, Common Crawl paths
 * listings, folders of files, JSONL of `{origin, status, body}`, or `{origins}` to fetch live), in
 * input order, for each crawler and path of `options` (default: every crawler preset, path `/`),
 * and their summary (`summary`, once the rows are read). Node only.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { surveyRobots } from 'robotstxt-wasm'
 *
 * writeFileSync('sites.jsonl', JSON.stringify({ origin: 'https://example.com', status: 200, body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\n' }) + '\n')
 * for await (const row of surveyRobots('sites.jsonl', { crawlers: ['GPTBot', 'Googlebot'], paths: ['/cart'] })) {
 *   row.crawlers.map((c) => `${c.name}: ${c.class}`) // → [ 'GPTBot: blocked', 'Googlebot: partial' ]
 * }
 * ```
 */
export function surveyRobots(input: SurveyInput, options?: SurveyOptions): SurveyRun {
  // Checked here, at the call, and what was checked is what runs: the chunk reads neither again.
  const sources = sourcesOf(input)
  const plan = surveyPlan(options)
  let settle: { resolve: (s: SurveySummary) => void; reject: (e: unknown) => void } | undefined
  const summary = new Promise<SurveySummary>((resolve, reject) => (settle = { resolve, reject }))
  summary.catch(() => undefined)
  return {
    summary,
    async *[Symbol.asyncIterator]() {
      try {
        if (!onNode()) throw new Error('surveyRobots runs on Node only (it reads files and uses worker threads)')
        let chunk: Awaited<ReturnType<typeof loadSurveyChunk>>
        try {
          chunk = await loadSurveyChunk()
        } catch (e) {
          throw new Error(`surveyRobots: the survey module (dist/survey.js) could not be loaded: ${e instanceof Error ? e.message : String(e)}`)
        }
        const run = chunk.surveyChecked(sources, plan)
        // The first iteration to end settles the summary (a later settle does nothing).
        run.summary.then(settle!.resolve, settle!.reject)
        yield* run
      } catch (e) {
        settle!.reject(e)
        throw e
      }
    },
  }
}
