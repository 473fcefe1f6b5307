// Hostile robots.txt shapes at the 500 KiB cap, each built to defeat one data structure of the
// host layer (agent lists, group lists, per-line objects, long lines, sitemap sets, other-key
// lines, usage preference lines, lines of nothing: empty, comment-only, CR-only). Used by
// `npm run bench` (bench/hostile.mjs, the "worst shapes" table) and by the hardening test.

export const CAP = 512_000

/** Repeats `unit(i)` for i = 0, 1, … until the body is just under `cap` bytes (ASCII units). */
function fill(unit, cap) {
  const parts = []
  let n = 0
  for (let i = 0; ; i++) {
    const u = unit(i)
    if (n + u.length > cap) break
    parts.push(u)
    n += u.length
  }
  return parts.join('')
}

/** i as letters only (a product token stops at the first character that is not a letter, - or _). */
function letters(i) {
  let s = ''
  do {
    s = String.fromCharCode(0x61 + (i % 26)) + s
    i = Math.floor(i / 26)
  } while (i > 0)
  return s
}

/** name -> body of about `cap` bytes. */
export function hostileShapes(cap = CAP) {
  return {
    'distinct user-agents, one group': fill((i) => `User-agent: b${letters(i)}\n`, cap),
    'many groups (an agent and a rule each)': fill((i) => `User-agent: b${letters(i)}\nDisallow: /p${i}\n`, cap),
    'many agents per group, many groups': fill((i) => (i % 50 === 49 ? `Disallow: /x${i}\n` : `User-agent: a${letters(i)}\n`), cap),
    'many rules, one group': 'User-agent: *\n' + fill((i) => `Disallow: /d${i}/*.x$\n`, cap - 14),
    'very long lines': 'User-agent: *\n' + fill((i) => `Disallow: /${'a'.repeat(20_000)}${i}\n`, cap - 14),
    'many sitemaps': fill((i) => `Sitemap: https://example.com/s${i}.xml\n`, cap),
    'crawl-delay and rules in many groups': fill((i) => (i % 3 === 0 ? `User-agent: g${letters(i)}\n` : i % 3 === 1 ? `Crawl-delay: ${i}\n` : `Disallow: /${i}\n`), cap),
    // Lines Google's matcher ignores, of the keys files write (directives, usagePreferences).
    'many other directives': 'User-agent: *\n' + fill((i) => `${[`Crawl-delay: ${i % 10}`, `Host: h${i}.example`, 'Content-Signal: search=yes, ai-train=no', `Clean-param: ref /p${i}/`][i % 4]}\n`, cap - 14),
    // Usage preferences every agent gets: a Content-Signal line between path-limited Content-Usage
    // rules, each path its own (a record with a path per rule).
    'many usage preferences': 'User-agent: *\n' + fill((i) => (i % 2 === 0 ? 'Content-Signal: search=yes, ai-train=no\n' : `Content-Usage: /p${i}/ train-ai=n\n`), cap - 14),
    'empty lines': '\n'.repeat(cap - 1),
    'comment-only lines': fill(() => '#\n', cap),
    'CR-only lines': '\r'.repeat(cap - 1),
  }
}

/**
 * Each shape's row id in bench/results.json (bench/hostile.mjs): a shape's name is for readers and
 * may change; its id may not.
 */
export const SHAPE_IDS = {
  'distinct user-agents, one group': 'distinct-agents',
  'many groups (an agent and a rule each)': 'many-groups',
  'many agents per group, many groups': 'many-agents-per-group',
  'many rules, one group': 'many-rules',
  'very long lines': 'long-lines',
  'many sitemaps': 'many-sitemaps',
  'crawl-delay and rules in many groups': 'crawl-delay-groups',
  'many other directives': 'other-directives',
  'many usage preferences': 'usage-preferences',
  'empty lines': 'empty-lines',
  'comment-only lines': 'comment-lines',
  'CR-only lines': 'cr-lines',
}

/** The shapes of lines of nothing (no key, no value): `lines` keeps an object for each, so its goal there is its own. */
export const LINES_OF_NOTHING = ['empty lines', 'comment-only lines', 'CR-only lines']

/** The accessors timed against `parseRobots(body).matcher('x')`, each on a fresh Robots. */
export function accessors(parseRobots) {
  return {
    sitemaps: (body) => parseRobots(body).sitemaps,
    lines: (body) => parseRobots(body).lines,
    'crawlDelay ×3': (body) => {
      const r = parseRobots(body)
      return [r.crawlDelay('x'), r.crawlDelay('bb'), r.crawlDelay('gd')]
    },
    isAllowed: (body) => parseRobots(body).isAllowed('/p/1', 'x'),
    check: (body) => parseRobots(body).check('/d1/a.x', ['gd', 'bb']),
    directives: (body) => parseRobots(body).directives,
    usagePreferences: (body) => parseRobots(body).usagePreferences('x'),
    // The per-line report without keeping it: a callback that keeps nothing.
    forEachLine: (body) => parseRobots(body).forEachLine(() => {}),
  }
}
