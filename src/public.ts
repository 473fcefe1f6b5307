// Everything the package exports, shared by the Node/bundler entry (index.ts) and the workerd entry.

export { parseRobots, Robots, DEFAULT_MAX_BYTES, type ParseOptions } from './robots.js'
export { Matcher, type Verdict } from './matcher.js'
export type { LineReport } from './parse.js'
export type { FetchOptions, RobotsFetch, RobotsOutcome } from './fetch.js'
export type { RobotsCacheStorage, StoredRobots } from './cache.js'
export { workersCacheStorage, type WorkersCache, type WorkersCacheStorageOptions } from './workers-cache.js'
