// Entry `robotstxt-wasm/crawlee`: Google-exact robots.txt for Crawlee crawlers. crawlee and @crawlee/*
// are optional peers of this entry only; they are imported lazily, never by the main entry.

export {
  RobotsTxtFile, withGoogleRobots,
  type CrawleeSitemap, type CrawlerClass, type GoogleRobotsOptions, type RobotsTxtFileFindOptions,
  type RobotsTxtFileSitemapsOptions, type SitemapsStrategy,
} from './integrations/crawlee.js'
export { RobotsCache, type RobotsCacheOptions, type RobotsCacheStorage, type StoredRobots } from './public.js'
