// Every labelled case of `bodies` through every way of asking: Robots.check, Matcher.checkMany,
// isAllowedMany and checkLines (one matcher per agent, as a crawler keeps them). Shared by the
// runtime checks (check.mjs) and the browser page (test/browser/page.js); no platform API.
//   bodies: [{ id, body: Uint8Array, cases: [{ agent, url, allowed, line }] }]
export function checkEveryWay(parseRobots, bodies) {
  const enc = new TextEncoder()
  const wrong = []
  let cases = 0
  for (const b of bodies) {
    const robots = parseRobots(b.body)
    const byAgent = new Map()
    for (const c of b.cases) {
      cases++
      const v = robots.check(c.url, c.agent)
      if (v.allowed !== c.allowed || v.line !== c.line) wrong.push(`${b.id} check ${c.url}`)
      const key = JSON.stringify(c.agent)
      if (!byAgent.has(key)) byAgent.set(key, [])
      byAgent.get(key).push(c)
    }
    for (const [key, cs] of byAgent) {
      const m = robots.matcher(JSON.parse(key))
      const urls = cs.map((c) => c.url)
      const many = m.checkMany(urls)
      const allowed = m.isAllowedMany(urls)
      cs.forEach((c, i) => {
        if (Math.abs(many[i]) !== c.line || (many[i] >= 0) !== c.allowed || (allowed[i] === 1) !== c.allowed) wrong.push(`${b.id} batch ${c.url}`)
      })
      // A URL holding a line break cannot be a line of its own.
      const lineable = cs.filter((c) => !/[\r\n]/.test(c.url))
      const lines = m.checkLines(enc.encode(lineable.map((c) => c.url + '\n').join('')))
      lineable.forEach((c, i) => {
        if (Math.abs(lines[i]) !== c.line || (lines[i] >= 0) !== c.allowed) wrong.push(`${b.id} lines ${c.url}`)
      })
    }
  }
  return { cases, wrong }
}
