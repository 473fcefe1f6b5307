// The engine and http names the package exports, shared by the Node/bundler entry (index.ts) and
// the workerd entry, which add redisStorage. Below integrations/: the Crawlee integration imports
// these names from here, and the build makes that an import of the package itself (one RobotsCache).

export { parseRobots, Robots, DEFAULT_MAX_BYTES, type ParseOptions } from './engine/robots.js'
export { Matcher, type Verdict } from './engine/matcher.js'
export type { LineReport } from './engine/line-report.js'
export type { Directive } from './engine/directives.js'
export type { UsagePreference } from './engine/preferences.js'
export { crawlers, crawlerTokens, type Crawler } from './engine/crawlers.js'
export { diffRobots, type RobotsDiff, type VerdictChange, type DiffOptions } from './engine/diff.js'
export { fetchRobots, type FetchOptions, type RobotsFetch, type RobotsOutcome } from './http/fetch.js'
export { robotsFromResponse, statusOutcome, type RobotsFromResponseOptions, type RobotsResponse } from './http/response.js'
export type { FetchErrorCode, RobotsFetchError } from './http/fetch-error.js'
export { RobotsCache, type LookupOptions, type RobotsCacheOptions, type RobotsCacheStats, type RobotsCacheStorage, type StoredRobots } from './http/cache.js'
export { robotsOrigin } from './http/origin.js'
export { checkUrls, type CheckUrlsOptions, type UrlVerdict } from './http/check-urls.js'
export { workersCacheStorage, type WorkersCache, type WorkersCacheStorageOptions } from './http/workers-cache.js'
export { surveyRobots } from './survey/lazy.js'
export type {
  SurveyInput, SurveyOptions, SurveyRow, SurveyCrawler, SurveyPathVerdict, SurveyOutcome, SurveyRun, SurveySummary, SurveyGroup, SurveyCrawlerTotals, SurveyChange,
} from './survey/types.js'
