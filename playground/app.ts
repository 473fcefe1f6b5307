// The robots.txt playground page: an editor, crawlers and URLs in; verdicts, the deciding line,
// the explain trace, lint markers, the crawlers × URLs matrix and a diff out. Everything runs here,
// on the package's own engine: the verdicts are `Matcher.checkMany`'s, the trace is `explain`'s
// (src/cli/explain.ts, the CLI's), the markers are `lint`'s (src/engine/lint.ts), the diff is
// `diffRobots`'; a crawler preset (picked, or its name typed in any case) is checked with every
// token it obeys, as in the CLI; `token:NAME` typed checks the product token alone. The
// whole state lives in the URL fragment; nothing is sent anywhere (the Worker's live fetch, when
// served by examples/worker, is the one request, and only on demand).

import { lint, lintCounts, type Finding } from '../src/engine/lint.js'
import { explain, type Explanation } from '../src/cli/explain.js'
import { concatBytes, utf8 } from '../src/engine/bytes.js'
import { crawlers, crawlerTokens, findCrawler } from '../src/engine/crawlers.js'
import { diffRobots, type RobotsDiff } from '../src/engine/diff.js'
import { DEFAULT_MAX_BYTES, parseRobots, type Robots } from '../src/engine/robots.js'

/** Crawlers offered in the picker, by name; each is checked with all of its tokens. */
const CRAWLERS = crawlers.map((c) => c.name)
const DEFAULT_AGENTS = ['Googlebot', 'Googlebot-Image', 'Bingbot', 'GPTBot', 'ClaudeBot']
/** Rows of the matrix and the diff drawn; all are computed, the rest are counted. */
const MAX_ROWS = 500
/** The fragment is left alone past this many characters (a 500 KiB file does not fit in a link). */
const MAX_FRAGMENT = 1_000_000

const EXAMPLES: Record<string, { robots: string; urls: string }> = {
  shop: {
    robots: `# A shop\nUser-agent: *\nDisallow: /cart/\nDisallow: /checkout\nDisallow: /search\nDisallow: /*?sessionid=\nDisallow: /*.json$\nAllow: /search/about\nCrawl-delay: 5\n\nUser-agent: Googlebot\nUser-agent: Googlebot-News\nDisallow: /private/\nAllow: /private/press/\nAllow: /*.pdf$\nDisallow: /drafts/\nAllow: /drafts/index.html\n\nSitemap: https://example.com/sitemap.xml\n`,
    urls: 'https://example.com/\nhttps://example.com/cart/1\nhttps://example.com/search?q=shoes\nhttps://example.com/search/about\nhttps://example.com/private/report.pdf\nhttps://example.com/private/press/launch\nhttps://example.com/drafts/\nhttps://example.com/p/42?sessionid=abc\nhttps://example.com/api/items.json',
  },
  ai: {
    robots: `User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nUser-agent: Google-Extended\nUser-agent: Applebot-Extended\nDisallow: /\n\nUser-agent: *\nAllow: /\nContent-Signal: search=yes, ai-train=no\n`,
    urls: 'https://example.com/\nhttps://example.com/articles/2026/robots',
  },
  quirks: {
    robots: `\ufeffuser-agent: googlebot\ndissallow: /typo-still-counts\nDisallow: /dir/\nAllow: /dir/index.html\nDisallow /no-colon\nDisallow: /%7Euser\n\nUser-agent: *\nDisallow: /\n`,
    urls: 'https://example.com/typo-still-counts\nhttps://example.com/dir/\nhttps://example.com/dir/page\nhttps://example.com/no-colon\nhttps://example.com/~user',
  },
}

interface State {
  mode: 'single' | 'diff'
  robots: string
  robotsNew: string
  agents: string[]
  custom: string
  urls: string
  /** The selected cell: URL index and agent. */
  focus: { url: number; agent: string } | null
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T
const robotsArea = $<HTMLTextAreaElement>('robots')
const newArea = $<HTMLTextAreaElement>('robots-new')
const urlsArea = $<HTMLTextAreaElement>('urls')
const customInput = $<HTMLInputElement>('custom-agents')
const statusEl = $('status')

let state: State = {
  mode: 'single', robots: EXAMPLES.shop!.robots, robotsNew: EXAMPLES.shop!.robots.replace('Disallow: /drafts/\n', ''),
  agents: [...DEFAULT_AGENTS], custom: '', urls: EXAMPLES.shop!.urls, focus: null,
}

// ── computing ───────────────────────────────────────────────────────────────────────────────────

interface Computed {
  robots: Robots
  /** The columns: crawler names, then the other user-agents as typed. */
  agents: string[]
  /** What each column is checked as: a crawler's tokens, or the user-agent typed. */
  agentArgs: (string | readonly string[])[]
  urls: string[]
  /** Per agent: checkMany's line per URL (negative when disallowed). */
  verdicts: Int32Array[]
  ms: number
}

let parsedFor: { text: string; robots: Robots } | null = null
let computed: Computed | null = null

/** The picked crawlers, then each other user-agent typed (one naming a picked crawler is left out). */
function selectedAgents(): string[] {
  const custom = state.custom.split(',').map((a) => a.trim()).filter((a) => /^[A-Za-z_-]/.test(a))
  const seen = new Set(state.agents.map((a) => a.toLowerCase()))
  return [...state.agents, ...custom.filter((a) => !seen.has(a.toLowerCase()) && (seen.add(a.toLowerCase()), true))]
}

/** What a column is checked as: `token:NAME` is the token alone; a preset's name (any case) its tokens; else the user-agent typed. */
function agentArgument(word: string): string | readonly string[] {
  if (/^token:/i.test(word)) return word.slice('token:'.length) || word
  return findCrawler(word)?.tokens ?? word
}

function urlList(): string[] {
  const urls = state.urls.split('\n').map((u) => (u.endsWith('\r') ? u.slice(0, -1) : u))
  while (urls.length > 0 && urls[urls.length - 1] === '') urls.pop()
  return urls
}

/** Parses (when the text changed), compiles one matcher per crawler and checks every URL in batches. */
function compute(): Computed {
  const t0 = performance.now()
  if (parsedFor === null || parsedFor.text !== state.robots) parsedFor = { text: state.robots, robots: parseRobots(state.robots) }
  const robots = parsedFor.robots
  const agents = selectedAgents()
  const presets = new Set(state.agents)
  const agentArgs = agents.map((a) => (presets.has(a) && CRAWLERS.includes(a) ? crawlerTokens(a) : agentArgument(a)))
  const urls = urlList()
  const verdicts = agentArgs.map((a) => robots.matcher(a).checkMany(urls))
  return { robots, agents, agentArgs, urls, verdicts, ms: performance.now() - t0 }
}

// ── rendering ───────────────────────────────────────────────────────────────────────────────────

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v)
  e.append(...children)
  return e
}

/** The CLI's reason, a clause, as a sentence of the page. */
function sentence(clause: string): string {
  return clause.charAt(0).toUpperCase() + clause.slice(1) + '.'
}

function verdictText(v: number): string {
  return v < 0 ? `disallowed, line ${-v}` : v > 0 ? `allowed, line ${v}` : 'allowed, no rule'
}

function renderMatrix(c: Computed): void {
  const table = $('matrix')
  table.replaceChildren(table.querySelector('caption')!)
  const head = el('tr', {}, el('th', { scope: 'col' }, 'URL'), ...c.agents.map((a, k) => {
    const arg = c.agentArgs[k]!
    // A preset standing for several tokens names them under its name, as the CLI does.
    const tokens = typeof arg !== 'string' && arg.length > 1 ? [el('span', { class: 'tokens' }, `(${arg.join(', ')})`)] : []
    return el('th', { scope: 'col', 'data-agent': a, title: typeof arg === 'string' ? `Checked as the token ${arg}` : `Checked with the tokens ${arg.join(', ')}` }, a, ...tokens)
  }))
  table.append(el('thead', {}, head))
  const body = el('tbody')
  const rows = Math.min(c.urls.length, MAX_ROWS)
  for (let i = 0; i < rows; i++) {
    const tr = el('tr', { 'data-url': String(i) }, el('td', { class: 'url', title: c.urls[i]! }, c.urls[i]!))
    c.agents.forEach((agent, k) => {
      const v = c.verdicts[k]![i]!
      const focused = state.focus !== null && state.focus.url === i && state.focus.agent === agent
      const button = el('button', { type: 'button', 'aria-pressed': String(focused), 'data-agent': agent, 'data-line': String(Math.abs(v)), 'aria-label': `${agent}: ${verdictText(v)} for ${c.urls[i]}`, title: v === 0 ? 'Allowed: no rule matches' : `${v < 0 ? 'Disallowed' : 'Allowed'} by line ${Math.abs(v)} (the deciding line)` },
        v < 0 ? `✗ ${-v}` : `✓${v > 0 ? ` ${v}` : ''}`)
      button.addEventListener('click', () => {
        state.focus = { url: i, agent }
        update({ recompute: false })
      })
      tr.append(el('td', { class: v < 0 ? 'disallowed' : 'allowed', 'data-agent': agent }, button))
    })
    body.append(tr)
  }
  table.append(body)
}

function renderExplain(c: Computed): void {
  const box = $('explain')
  const f = state.focus
  const k = f === null || f.url >= c.urls.length ? -1 : c.agents.indexOf(f.agent)
  if (f === null || k < 0) {
    box.replaceChildren()
    highlight(robotsArea, 0)
    return
  }
  const e: Explanation = explain(c.robots, c.agentArgs[k]!, c.urls[f.url]!)
  highlight(robotsArea, e.line)
  const named = e.tokens.map((t) => `"${t}"`).join(' or ')
  const groups = e.group === 'specific'
    ? `a User-agent line names ${named}, so the * groups do not apply`
    : e.group === 'global' ? `no group names ${named}: the * groups apply` : 'no group applies: everything is allowed'
  const agentLines = el('ul', {}, ...e.agentLines.map((l) => el('li', {}, `line ${l.line}: `, el('code', {}, l.text), l.names ? ' ← names it' : '')))
  const matches = e.matches.length === 0
    ? el('p', {}, 'No rule of these groups matches the path.')
    : el('ul', {}, ...e.matches.map((m) => el('li', { class: e.decidingRule?.line === m.line ? 'decides' : '' },
      `line ${m.line}: `, el('code', {}, m.text), ` priority ${m.priority}${m.indexHtml !== undefined ? ` (as ${m.indexHtml}, Google's index.html rule)` : ''}${e.decidingRule?.line === m.line ? ' ← decides' : ''}`)))
  box.replaceChildren(
    el('h2', {}, `${f.agent} → ${c.urls[f.url]}: ${e.allowed ? 'allowed' : 'disallowed'}${e.line > 0 ? ` by line ${e.line}` : ''}`),
    el('p', {}, 'Path matched: ', el('code', {}, e.path), '. Groups: ', groups, '.'),
    agentLines, matches,
    el('p', { 'data-testid': 'reason' }, sentence(e.reason)),
  )
}

/** Lint markers in the gutter and the list under the editor. */
function renderLint(findings: Finding[]): void {
  const gutter = document.querySelector('#editor-old .gutter') as HTMLElement
  for (const m of gutter.querySelectorAll('.mark')) m.remove()
  const list = $('lint-list')
  list.replaceChildren()
  const counts = { error: 0, warning: 0, info: 0 }
  const lh = lineHeight(robotsArea)
  for (const f of findings) {
    counts[f.severity]++
    if (f.line !== null) {
      // Positioned through the CSSOM: the page's CSP allows no inline style attributes.
      const mark = el('span', { class: `mark ${f.severity}`, title: `${f.severity}: ${f.message}`, 'data-line': String(f.line) })
      mark.style.top = `${6 + (f.line - 1) * lh}px`
      gutter.append(mark)
    }
    const go = el('button', { type: 'button' }, f.line === null ? 'file' : `line ${f.line}`)
    go.addEventListener('click', () => f.line !== null && goToLine(robotsArea, f.line))
    list.append(el('li', { class: f.severity, 'data-line': String(f.line ?? 0) }, go, `: ${f.severity}: ${f.message}`))
  }
  $('lint-summary').textContent = `Lint: ${lintCounts({ errors: counts.error, warnings: counts.warning, infos: counts.info })}`
}

/** `labels`: each column's name by the agent diffRobots reports it under (a crawler's first token). */
function renderDiff(d: RobotsDiff | null, labels: ReadonlyMap<string, string>): void {
  const wrap = $('diff-wrap')
  wrap.hidden = d === null
  const table = $('diff')
  table.replaceChildren(table.querySelector('caption')!)
  if (d === null) return
  table.append(el('thead', {}, el('tr', {}, ...['Crawler', 'URL', 'Old', 'New'].map((h) => el('th', { scope: 'col' }, h)))))
  const body = el('tbody')
  for (const ch of d.changes.slice(0, MAX_ROWS)) {
    const side = (v: { allowed: boolean; line: number }) => el('td', { class: v.allowed ? 'allowed' : 'disallowed' }, `${v.allowed ? 'allowed' : 'disallowed'}${v.line > 0 ? `, line ${v.line}` : ''}`)
    body.append(el('tr', {}, el('td', {}, labels.get(ch.agent) ?? ch.agent), el('td', { class: 'url' }, ch.url), side(ch.old), side(ch.new)))
  }
  if (d.changes.length === 0) body.append(el('tr', {}, el('td', { colspan: '4' }, 'No verdict changes.')))
  table.append(body)
}

// ── the editor: line numbers, the highlighted line, markers that follow the scroll ──────────────

function lineHeight(area: HTMLTextAreaElement): number {
  return parseFloat(getComputedStyle(area).lineHeight) || 20
}

function renderGutter(area: HTMLTextAreaElement): void {
  const gutter = area.parentElement!.querySelector('.gutter') as HTMLElement
  let lines = 1
  for (let i = area.value.indexOf('\n'); i >= 0; i = area.value.indexOf('\n', i + 1)) lines++
  if (Number(gutter.dataset.lines) === lines) return
  gutter.dataset.lines = String(lines)
  const marks = [...gutter.querySelectorAll('.mark')]
  let text = ''
  for (let i = 1; i <= lines; i++) text += i + '\n'
  gutter.textContent = text
  gutter.append(...marks)
}

/**
 * Sizes a text box to its lines, so none hides below the edge until scrolled, up to `max` pixels
 * (past that it scrolls). Counts the border and a horizontal scrollbar, which long lines bring.
 */
function fit(area: HTMLTextAreaElement, max: number): void {
  if (area.offsetParent === null) return // hidden: nothing to measure; fitted when shown
  const chrome = area.offsetHeight - area.clientHeight
  // Overflowing: grow (a box at its cap stays as it is, with no relayout of a large file).
  if (area.scrollHeight > area.clientHeight) {
    area.style.height = `${Math.min(area.scrollHeight + chrome, max)}px`
    return
  }
  // It fits, and may now be too tall: measure the content from the natural height.
  area.style.height = 'auto'
  area.style.height = `${Math.min(area.scrollHeight + (area.offsetHeight - area.clientHeight), max)}px`
}

const fitEditor = (area: HTMLTextAreaElement) => fit(area, Math.max(360, innerHeight * 0.75))
const fitUrls = () => fit(urlsArea, Math.max(160, innerHeight * 0.5))

function highlight(area: HTMLTextAreaElement, line: number): void {
  const hl = area.parentElement!.querySelector('.hl') as HTMLElement
  hl.hidden = line <= 0
  hl.dataset.line = String(line)
  if (line > 0) hl.style.top = `${6 + (line - 1) * lineHeight(area)}px`
  syncScroll(area)
}

function syncScroll(area: HTMLTextAreaElement): void {
  const box = area.parentElement!
  const shift = `translateY(${-area.scrollTop}px)`
  ;(box.querySelector('.layer .hl') as HTMLElement).style.transform = shift
  const gutter = box.querySelector('.gutter') as HTMLElement
  gutter.scrollTop = area.scrollTop
}

function goToLine(area: HTMLTextAreaElement, line: number): void {
  let at = 0
  for (let i = 1; i < line && at >= 0; i++) at = area.value.indexOf('\n', at) + 1
  area.focus()
  area.setSelectionRange(at, at)
  area.scrollTop = Math.max(0, (line - 5) * lineHeight(area))
  syncScroll(area)
}

// ── the permalink: the state, deflated, in the fragment ─────────────────────────────────────────

async function encodeState(s: State): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(s))
  if (typeof CompressionStream === 'function') {
    const packed = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer())
    return 'z' + base64url(packed)
  }
  return 'j' + base64url(json)
}

/**
 * The most a permalink's state may inflate to: two bodies at the 500 KiB cut and a long URL list,
 * JSON-escaped, with room to spare. A link is anyone's text, and deflate packs a thousand bytes
 * into one: unbounded, a crafted link of a megabyte would inflate to a gigabyte in the tab.
 */
const MAX_STATE_BYTES = 8 << 20

/** `bytes` inflated (deflate-raw), or null past `max` bytes: the rest is never inflated. */
async function inflateWithin(bytes: Uint8Array, max: number): Promise<Uint8Array | null> {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader()
  const parts: Uint8Array[] = []
  let n = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    n += value.length
    if (n > max) {
      await reader.cancel()
      return null
    }
    parts.push(value)
  }
  return concatBytes(parts, n)
}

async function decodeState(fragment: string): Promise<State | null> {
  try {
    const bytes = unbase64url(fragment.slice(1))
    const json = fragment[0] === 'z' ? await inflateWithin(bytes, MAX_STATE_BYTES) : bytes
    if (json === null) return null
    const s = JSON.parse(new TextDecoder().decode(json)) as Partial<State>
    if (typeof s.robots !== 'string' || typeof s.urls !== 'string' || !Array.isArray(s.agents)) return null
    return {
      mode: s.mode === 'diff' ? 'diff' : 'single', robots: s.robots, robotsNew: typeof s.robotsNew === 'string' ? s.robotsNew : s.robots,
      agents: s.agents.filter((a): a is string => typeof a === 'string'), custom: typeof s.custom === 'string' ? s.custom : '',
      urls: s.urls, focus: s.focus && typeof s.focus.url === 'number' && typeof s.focus.agent === 'string' ? s.focus : null,
    }
  } catch {
    return null
  }
}

function base64url(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

function unbase64url(s: string): Uint8Array {
  return Uint8Array.from(atob(s.replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0))
}

let linkTimer: ReturnType<typeof setTimeout> | undefined
function saveLink(): void {
  clearTimeout(linkTimer)
  linkTimer = setTimeout(async () => {
    const fragment = await encodeState(state)
    if (fragment.length > MAX_FRAGMENT) {
      statusEl.dataset.link = 'too-large'
      return
    }
    history.replaceState(null, '', '#' + fragment)
    statusEl.dataset.link = 'saved'
  }, 250)
}

// ── wiring ──────────────────────────────────────────────────────────────────────────────────────

let lintTimer: ReturnType<typeof setTimeout> | undefined
let frame = 0

/** Recomputes (unless only the focus moved) and redraws, once per animation frame. */
function update({ recompute = true, relint = false } = {}): void {
  cancelAnimationFrame(frame)
  frame = requestAnimationFrame(() => {
    if (recompute || computed === null) computed = compute()
    const c = computed
    const checks = c.agents.length * c.urls.length
    statusEl.textContent = `Recomputed ${checks.toLocaleString('en')} checks (${c.urls.length.toLocaleString('en')} URLs × ${c.agents.length} crawlers) in ${c.ms.toFixed(1)} ms.`
    ;(window as unknown as { __playgroundTiming: unknown }).__playgroundTiming = { ms: c.ms, checks, urls: c.urls.length, agents: c.agents.length }
    renderMatrix(c)
    renderExplain(c)
    const labels = new Map(c.agentArgs.map((a, k) => [typeof a === 'string' ? a : a[0]!, c.agents[k]!]))
    renderDiff(state.mode === 'diff' ? diffRobots(state.robots, state.robotsNew, { agents: c.agentArgs, ...(c.urls.length > 0 ? { urls: c.urls } : {}) }) : null, labels)
    saveLink()
  })
  if (relint) {
    // Lint reads the whole file: after a pause in typing, not on every key of a 500 KiB file.
    clearTimeout(lintTimer)
    lintTimer = setTimeout(runLint, state.robots.length > 50_000 ? 300 : 0)
  }
}

function runLint(): void {
  const robots = parsedFor?.text === state.robots ? parsedFor.robots : parseRobots(state.robots)
  const bytes = utf8(state.robots)
  const body = bytes.subarray(0, DEFAULT_MAX_BYTES)
  renderLint(lint({ robots, body, size: bytes.length, truncated: bytes.length > DEFAULT_MAX_BYTES }).findings)
}

function renderAgents(): void {
  const box = $('agents')
  box.replaceChildren(...crawlers.map(({ name, tokens, operator }) => {
    const input = el('input', { type: 'checkbox', value: name })
    input.checked = state.agents.includes(name)
    input.addEventListener('change', () => {
      state.agents = CRAWLERS.filter((n) => (n === name ? input.checked : state.agents.includes(n)))
      update()
    })
    // A crawler that falls back to other groups shows them: its column is checked with all.
    const also = tokens.length > 1 ? [el('span', { class: 'also' }, ` → ${tokens.slice(1).join(', ')}`)] : []
    return el('label', { title: `${operator}: obeys User-agent ${tokens.join(', then ')}` }, input, ` ${name}`, ...also)
  }))
}

function applyState(): void {
  robotsArea.value = state.robots
  newArea.value = state.robotsNew
  urlsArea.value = state.urls
  customInput.value = state.custom
  for (const r of document.querySelectorAll<HTMLInputElement>('input[name=mode]')) r.checked = r.value === state.mode
  $('new-box').hidden = state.mode !== 'diff'
  renderAgents()
  renderGutter(robotsArea)
  renderGutter(newArea)
  fitEditor(robotsArea)
  fitEditor(newArea)
  fitUrls()
  update({ relint: true })
}

function setRobots(text: string): void {
  state.robots = text
  state.focus = null
  applyState()
}

robotsArea.addEventListener('input', () => {
  state.robots = robotsArea.value
  renderGutter(robotsArea)
  fitEditor(robotsArea)
  update({ relint: true })
})
newArea.addEventListener('input', () => {
  state.robotsNew = newArea.value
  renderGutter(newArea)
  fitEditor(newArea)
  update()
})
urlsArea.addEventListener('input', () => {
  state.urls = urlsArea.value
  fitUrls()
  update()
})
addEventListener('resize', () => {
  fitEditor(robotsArea)
  fitEditor(newArea)
  fitUrls()
})
customInput.addEventListener('input', () => {
  state.custom = customInput.value
  update()
})
for (const area of [robotsArea, newArea]) area.addEventListener('scroll', () => syncScroll(area))
for (const r of document.querySelectorAll<HTMLInputElement>('input[name=mode]')) {
  r.addEventListener('change', () => {
    state.mode = r.value === 'diff' ? 'diff' : 'single'
    $('new-box').hidden = state.mode !== 'diff'
    $('robots-label').textContent = state.mode === 'diff' ? 'Old version' : 'robots.txt'
    renderGutter(newArea)
    fitEditor(newArea)
    update()
  })
}
$<HTMLSelectElement>('example').addEventListener('change', (ev) => {
  const ex = EXAMPLES[(ev.target as HTMLSelectElement).value]
  if (ex === undefined) return
  state.urls = ex.urls
  state.robotsNew = ex.robots
  setRobots(ex.robots)
})
$<HTMLInputElement>('open-file').addEventListener('change', async (ev) => {
  const file = (ev.target as HTMLInputElement).files?.[0]
  if (file !== undefined) setRobots(await file.text())
})
robotsArea.addEventListener('dragover', (ev) => ev.preventDefault())
robotsArea.addEventListener('drop', async (ev) => {
  const file = ev.dataTransfer?.files[0]
  if (file === undefined) return
  ev.preventDefault()
  setRobots(await file.text())
})
$('copy-link').addEventListener('click', async () => {
  clearTimeout(linkTimer)
  const fragment = await encodeState(state)
  if (fragment.length > MAX_FRAGMENT) {
    statusEl.textContent = 'This file is too large to share as a link (the link would pass 1 MB).'
    return
  }
  history.replaceState(null, '', '#' + fragment)
  try {
    await navigator.clipboard.writeText(location.href)
    statusEl.textContent = 'Link copied: it reproduces this page, file included.'
  } catch {
    statusEl.textContent = 'The address bar now holds a link that reproduces this page.'
  }
})

// Live fetch exists only when the example Worker serves the page (a browser alone cannot read
// another site's robots.txt: CORS). Without a site, /api/live says whether it can: {"live": true}
// from the Worker, {"live": false} from `robotstxt playground`.
async function offerLiveFetch(): Promise<void> {
  try {
    const probe = await fetch('api/live')
    if (!probe.ok || ((await probe.json()) as { live?: unknown }).live !== true) return
  } catch {
    return
  }
  const form = $<HTMLFormElement>('live')
  form.hidden = false
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault()
    const out = $('live-status')
    out.textContent = 'Fetching…'
    const res = await fetch(`api/live?site=${encodeURIComponent($<HTMLInputElement>('live-site').value)}`)
    const r = await res.json() as { error?: string; origin: string; status: number | null; outcome: string; body: string }
    if (r.error !== undefined) {
      out.textContent = r.error
      return
    }
    out.textContent = `robots.txt: ${r.status ?? 'no response'} ${r.outcome} (${r.origin}/robots.txt)`
    setRobots(r.body)
  })
}

async function start(): Promise<void> {
  if (location.hash.length > 1) {
    const restored = await decodeState(location.hash.slice(1))
    if (restored !== null) state = restored
  }
  applyState()
  void offerLiveFetch()
}
void start()
