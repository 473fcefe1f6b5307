// Deterministic inputs for the benchmarks: a large realistic robots.txt and 100,000 varied URLs.

/** Small fast PRNG (mulberry32) so every run benchmarks the same inputs. */
export function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = ['search', 'cart', 'account', 'api', 'admin', 'static', 'images', 'tag', 'user', 'shop', 'blog', 'wp-admin',
  'cgi-bin', 'print', 'login', 'checkout', 'wishlist', 'compare', 'catalog', 'media', 'feeds', 'comments', 'archive',
  'category', 'product', 'help', 'news', 'events', 'docs', 'download', 'private', 'tmp', 'beta', 'preview', 'assets']
const PARAMS = ['sort', 'filter', 'sessionid', 'ref', 'utm_source', 'page', 'q', 'lang', 'color', 'size', 'print', 'replytocom']
const EXTS = ['pdf', 'json', 'xml', 'php', 'asp', 'gif', 'zip', 'doc']
const AGENTS = ['Googlebot', 'Bingbot', 'Slurp', 'DuckDuckBot', 'Baiduspider', 'YandexBot', 'AhrefsBot', '*']

const pick = (r, a) => a[Math.floor(r() * a.length)]

function ruleFor(r) {
  const w = pick(r, WORDS)
  const w2 = pick(r, WORDS)
  switch (Math.floor(r() * 8)) {
    case 0: return `Disallow: /${w}/`
    case 1: return `Disallow: /${w}/${w2}`
    case 2: return `Allow: /${w}/${w2}/`
    case 3: return `Disallow: /*?${pick(r, PARAMS)}=`
    case 4: return `Disallow: /*.${pick(r, EXTS)}$`
    case 5: return `Disallow: /${w}/*/${w2}`
    case 6: return `Allow: /${w}/index.html`
    default: return `Disallow: /${w}-${Math.floor(r() * 100)}*`
  }
}

/** About 200 lines: 8 groups (one of them global), 160 rules with `*` and `$`, comments, sitemaps. */
export function syntheticRobots(seed = 1) {
  const r = rng(seed)
  const lines = ['# Synthetic robots.txt for benchmarks', '']
  for (const agent of AGENTS) {
    lines.push(`User-agent: ${agent}`)
    if (agent === 'Bingbot') lines.push('User-agent: msnbot')
    for (let i = 0; i < 20; i++) lines.push(ruleFor(r))
    if (agent === 'Bingbot' || agent === 'YandexBot') lines.push('Crawl-delay: 2')
    lines.push('')
  }
  lines.push('Sitemap: https://www.example.com/sitemap.xml', 'Sitemap: https://www.example.com/news.xml')
  return lines.join('\n') + '\n'
}

/** `count` absolute URLs on www.example.com with queries, percent-escapes and non-ASCII. */
export function syntheticUrls(count = 100_000, seed = 2) {
  const r = rng(seed)
  const urls = []
  for (let i = 0; i < count; i++) {
    const depth = 1 + Math.floor(r() * 4)
    let path = ''
    for (let d = 0; d < depth; d++) path += '/' + (r() < 0.7 ? pick(r, WORDS) : pick(r, WORDS) + '-' + Math.floor(r() * 1000))
    const k = r()
    if (k < 0.15) path += '.' + pick(r, EXTS)
    else if (k < 0.25) path += '/index.html'
    else if (k < 0.35) path += '/'
    if (r() < 0.35) path += `?${pick(r, PARAMS)}=${Math.floor(r() * 100)}&${pick(r, PARAMS)}=x`
    if (r() < 0.1) path += '/caf%c3%a9'
    if (r() < 0.05) path += '/straße'
    if (r() < 0.03) path += '#top'
    urls.push('https://www.example.com' + path)
  }
  // Flat strings, as a crawler reading URLs from a file or a response has them.
  return JSON.parse(JSON.stringify(urls))
}

/** A group of `n` rules with distinct literal prefixes, and URLs that hit some of them. */
export function scalingRobots(n, seed = 3) {
  const r = rng(seed)
  const lines = ['User-agent: *', 'Disallow: /*?sessionid=', 'Disallow: /*.pdf$']
  for (let i = 2; i < n; i++) {
    const w = pick(r, WORDS)
    lines.push(r() < 0.8 ? `Disallow: /${w}/${i}/` : `Allow: /${w}/${i}/*.html$`)
  }
  return lines.join('\n')
}
