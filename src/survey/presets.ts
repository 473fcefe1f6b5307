// The crawlers the survey asks about, by name, and the sets they belong to. The list itself is the
// engine's (src/engine/crawlers.ts); this module only resolves the survey's `crawlers`/`sets`
// options against it. Until that module lands, INTERIM below stands in with the same shape.

/** A crawler preset: every robots.txt token it obeys (most specific first), its operator, its sets. */
export interface CrawlerPreset {
  readonly name: string
  readonly tokens: readonly string[]
  readonly operator: string
  readonly sets: readonly string[]
  readonly source: string
}

const P = (name: string, tokens: string[], operator: string, sets: string[], source: string): CrawlerPreset =>
  Object.freeze({ name, tokens: Object.freeze(tokens), operator, sets: Object.freeze(sets), source })

const INTERIM: readonly CrawlerPreset[] = Object.freeze([
  P('Googlebot', ['Googlebot'], 'Google', ['search'], 'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers'),
  P('Googlebot-Image', ['Googlebot-Image', 'Googlebot'], 'Google', ['search'], 'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers'),
  P('Google-Extended', ['Google-Extended'], 'Google', ['ai-training'], 'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers'),
  P('Bingbot', ['bingbot', 'msnbot'], 'Microsoft', ['search'], 'https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0'),
  P('DuckDuckBot', ['DuckDuckBot'], 'DuckDuckGo', ['search'], 'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot'),
  P('YandexBot', ['YandexBot', 'Yandex'], 'Yandex', ['search'], 'https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html'),
  P('Baiduspider', ['Baiduspider'], 'Baidu', ['search'], 'https://www.baidu.com/search/robots_english.html'),
  P('Applebot', ['Applebot'], 'Apple', ['search'], 'https://support.apple.com/en-us/119829'),
  P('Applebot-Extended', ['Applebot-Extended'], 'Apple', ['ai-training'], 'https://support.apple.com/en-us/119829'),
  P('GPTBot', ['GPTBot'], 'OpenAI', ['ai-training'], 'https://platform.openai.com/docs/bots'),
  P('OAI-SearchBot', ['OAI-SearchBot'], 'OpenAI', ['ai-assistants'], 'https://platform.openai.com/docs/bots'),
  P('ChatGPT-User', ['ChatGPT-User'], 'OpenAI', ['ai-assistants'], 'https://platform.openai.com/docs/bots'),
  P('ClaudeBot', ['ClaudeBot', 'anthropic-ai'], 'Anthropic', ['ai-training'], 'https://support.anthropic.com/en/articles/8896518'),
  P('Claude-User', ['Claude-User'], 'Anthropic', ['ai-assistants'], 'https://support.anthropic.com/en/articles/8896518'),
  P('Claude-SearchBot', ['Claude-SearchBot'], 'Anthropic', ['ai-assistants'], 'https://support.anthropic.com/en/articles/8896518'),
  P('CCBot', ['CCBot'], 'Common Crawl', ['ai-training'], 'https://commoncrawl.org/ccbot'),
  P('PerplexityBot', ['PerplexityBot'], 'Perplexity', ['ai-assistants'], 'https://docs.perplexity.ai/guides/bots'),
  P('Perplexity-User', ['Perplexity-User'], 'Perplexity', ['ai-assistants'], 'https://docs.perplexity.ai/guides/bots'),
  P('Meta-ExternalAgent', ['meta-externalagent'], 'Meta', ['ai-training'], 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers'),
  P('Bytespider', ['Bytespider'], 'ByteDance', ['ai-training'], 'https://bytedance.com'),
  P('Amazonbot', ['Amazonbot'], 'Amazon', ['ai-assistants'], 'https://developer.amazon.com/amazonbot'),
  P('cohere-ai', ['cohere-ai', 'cohere-training-data-crawler'], 'Cohere', ['ai-training'], 'https://cohere.com'),
  P('Diffbot', ['Diffbot'], 'Diffbot', ['ai-training'], 'https://docs.diffbot.com/docs/about-the-diffbot-crawler'),
  P('MistralAI-User', ['MistralAI-User'], 'Mistral', ['ai-assistants'], 'https://docs.mistral.ai/robots'),
  P('AhrefsBot', ['AhrefsBot'], 'Ahrefs', ['seo'], 'https://ahrefs.com/robot'),
  P('SemrushBot', ['SemrushBot'], 'Semrush', ['seo'], 'https://www.semrush.com/bot/'),
  P('MJ12bot', ['MJ12bot'], 'Majestic', ['seo'], 'https://mj12bot.com/'),
  P('DotBot', ['DotBot'], 'Moz', ['seo'], 'https://moz.com/help/moz-procedures/crawlers/dotbot'),
  P('rogerbot', ['rogerbot'], 'Moz', ['seo'], 'https://moz.com/help/moz-procedures/crawlers/rogerbot'),
  P('BLEXBot', ['BLEXBot'], 'WebMeUp', ['seo'], 'https://webmeup-crawler.com/'),
])

/** The preset list the survey resolves names against. */
export const crawlers: readonly CrawlerPreset[] = INTERIM
