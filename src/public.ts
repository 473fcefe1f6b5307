// Everything the package exports, shared by the Node/bundler entry (index.ts) and the workerd entry.

export { parseRobots, Robots, DEFAULT_MAX_BYTES, type ParseOptions } from './robots.js'
export { Matcher, type Verdict } from './matcher.js'
export type { LineReport } from './parse.js'
export { fetchRobots, type FetchOptions, type RobotsFetch, type RobotsOutcome } from './fetch.js'
export { RobotsCache, type LookupOptions, type RobotsCacheOptions, type RobotsCacheStorage, type StoredRobots } from './cache.js'
export { robotsOrigin } from './origin.js'
export { workersCacheStorage, type WorkersCache, type WorkersCacheStorageOptions } from './workers-cache.js'
