// The survey's summary (types.ts SurveySummary), kept as rows pass: per group of rows (all of
// them, and each month, year or source when asked) the outcomes, the failures by cause, each
// crawler's classes split by whose rules decide, preference adoption and lint findings; and a
// sample of origins, to count distinct sites and compare the same sites across groups.
//
// Invariants: every crawler count is over `ok` rows only (a row without rules read has no class,
// so a failure is never counted as blocking); memory depends on the crawler list, the number of
// groups (at most MAX_GROUPS), categories and lint codes (capped), and the sample (at most
// MAX_ORIGINS origins), never on the number of rows. Keys that come from files live in Maps.

import type { SurveyPlan } from './plan.js'
import type { SurveyChange, SurveyCrawlerTotals, SurveyGroup, SurveyOutcome, SurveyRow, SurveySummary } from './types.js'

/** Distinct preference categories counted; later ones are counted under OTHER. */
const MAX_CATEGORIES = 32
/** Distinct failure causes counted; later ones are counted under OTHER. */
const MAX_FAILURES = 64
/** Groups kept; the rows of later keys are counted under OTHER. */
const MAX_GROUPS = 1000
/** Origins kept in the sample; past it, the sample halves (see OriginSample). */
const MAX_ORIGINS = 100_000
export const OTHER = '(other)'
export const UNDATED = 'undated'
export const TOTAL = 'all'

/** One group's counts, as they grow. */
class GroupCounts {
  records = 0
  readonly outcomes: Record<SurveyOutcome, number> = { 'ok': 0, 'allow-all': 0, 'disallow-all': 0, 'error': 0 }
  readonly failures = new Map<string, { status: number | null; code: string | null; records: number }>()
  readonly crawlers: SurveyCrawlerTotals[]
  readonly preferences = new Map<string, { no: number; yes: number }>()
  withPreferences = 0
  readonly lint = new Map<string, number>()
  withLintErrors = 0

  constructor(plan: SurveyPlan) {
    this.crawlers = plan.crawlers.map((c) => ({ name: c.name, sets: c.sets, blockedByName: 0, blockedByStar: 0, partialByName: 0, partialByStar: 0, allowed: 0, named: 0 }))
  }

  add(row: SurveyRow): void {
    this.records++
    this.outcomes[row.outcome]++
    if (row.outcome === 'disallow-all') this.#failure(row)
    if (row.outcome !== 'ok') return
    // Crawlers of one selection share their preferences object: each is read once.
    let told: Map<string, { no: boolean; yes: boolean }> | null = null
    let lastPrefs: Readonly<Record<string, boolean | null>> | null = null
    const crawlers = row.crawlers
    for (let i = 0; i < crawlers.length; i++) {
      const c = crawlers[i]!
      const t = this.crawlers[i]
      if (t === undefined) break
      const byName = c.by === 'name'
      if (byName) t.named++
      if (c.class === 'blocked') byName ? t.blockedByName++ : t.blockedByStar++
      else if (c.class === 'partial') byName ? t.partialByName++ : t.partialByStar++
      else t.allowed++
      if (c.preferences === lastPrefs) continue
      lastPrefs = c.preferences
      for (const category in c.preferences) {
        told ??= new Map()
        const allowed = c.preferences[category]
        const key = told.has(category) || this.preferences.has(category) || this.preferences.size + told.size < MAX_CATEGORIES ? category : OTHER
        const seen = told.get(key) ?? { no: false, yes: false }
        if (allowed === false) seen.no = true
        if (allowed === true) seen.yes = true
        told.set(key, seen)
      }
    }
    if (told !== null) {
      this.withPreferences++
      for (const [category, seen] of told) {
        const p = this.preferences.get(category) ?? { no: 0, yes: 0 }
        if (seen.no) p.no++
        if (seen.yes) p.yes++
        this.preferences.set(category, p)
      }
    }
    for (const code of row.lintCodes) this.lint.set(code, (this.lint.get(code) ?? 0) + 1)
    if (row.lintErrors > 0) this.withLintErrors++
  }

  /** A disallow-all row's cause: its status (429, 5xx), else the failure's code (the row's error column). */
  #failure(row: SurveyRow): void {
    let key = row.status !== null ? `status ${row.status}` : `code ${row.error ?? ''}`
    if (!this.failures.has(key) && this.failures.size >= MAX_FAILURES - 1) key = OTHER
    const f = this.failures.get(key) ?? (key === OTHER ? { status: null, code: OTHER, records: 0 } : { status: row.status, code: row.status === null ? row.error : null, records: 0 })
    f.records++
    this.failures.set(key, f)
  }

  /** The group as handed out: fresh objects, lists sorted most first. */
  group(key: string, origins: number): SurveyGroup {
    const byCount = <T extends { records: number }>(a: T, b: T, ka: string, kb: string): number => b.records - a.records || (ka < kb ? -1 : ka > kb ? 1 : 0)
    return {
      key,
      records: this.records,
      origins,
      outcomes: { ...this.outcomes },
      ok: this.outcomes.ok,
      failures: [...this.failures.values()].sort(failureOrder).map((f) => ({ ...f })),
      crawlers: this.crawlers.map((c) => ({ ...c })),
      withPreferences: this.withPreferences,
      preferences: [...this.preferences].sort((a, b) => categoryOrder(a[0], b[0])).map(([category, p]) => ({ category, no: p.no, yes: p.yes })),
      withLintErrors: this.withLintErrors,
      lint: [...this.lint].map(([code, records]) => ({ code, records })).sort((a, b) => byCount(a, b, a.code, b.code)),
    }
  }
}

type Failure = SurveyGroup['failures'][number]
/** Most first; then statuses (ascending) before codes (by name). */
const failureOrder = (a: Failure, b: Failure): number =>
  b.records - a.records || Number(a.status === null) - Number(b.status === null) || (a.status ?? 0) - (b.status ?? 0) || ((a.code ?? '') < (b.code ?? '') ? -1 : (a.code ?? '') > (b.code ?? '') ? 1 : 0)

const categoryOrder = (a: string, b: string): number => (a === OTHER ? 1 : b === OTHER ? -1 : a < b ? -1 : a > b ? 1 : 0)

/**
 * A sample of the origins, chosen by a hash of the origin (so the same origins in every group and
 * every run), with each one's state per group: the crawlers' class and `by` in the group's last
 * `ok` row of it (null when it had none). Every origin is kept until MAX_ORIGINS; then the sample
 * keeps the half whose hash is lower, as often as needed: 1 in `rate` origins.
 */
class OriginSample {
  #shift = 0
  /** Origin → [group, state, group, state, ...]. */
  readonly #seen = new Map<string, (number | string | null)[]>()

  get rate(): number {
    return 2 ** this.#shift
  }

  add(origin: string, group: number, state: string | null): void {
    if (origin === '' || !this.#keeps(hash32(origin))) return
    let obs = this.#seen.get(origin)
    if (obs === undefined) {
      obs = []
      this.#seen.set(origin, obs)
      if (this.#seen.size > MAX_ORIGINS) this.#halve()
    }
    for (let i = 0; i < obs.length; i += 2) {
      if (obs[i] !== group) continue
      if (state !== null) obs[i + 1] = state
      return
    }
    obs.push(group, state)
  }

  #keeps(h: number): boolean {
    return this.#shift === 0 || h >>> (32 - this.#shift) === 0
  }

  #halve(): void {
    while (this.#seen.size > MAX_ORIGINS && this.#shift < 31) {
      this.#shift++
      for (const origin of this.#seen.keys()) if (!this.#keeps(hash32(origin))) this.#seen.delete(origin)
    }
  }

  /** Origins seen per group (index), and in all. */
  counts(groups: number): { perGroup: number[]; all: number } {
    const perGroup = new Array<number>(groups).fill(0)
    for (const obs of this.#seen.values()) for (let i = 0; i < obs.length; i += 2) perGroup[obs[i] as number]!++
    return { perGroup, all: this.#seen.size }
  }

  /** Per crawler, how the states of origins `ok` in both groups differ. */
  compare(from: number, to: number, crawlers: readonly string[]): { origins: number; crawlers: SurveyChange['crawlers'] } {
    const out = crawlers.map((name) => ({ name, changed: 0, restricted: 0, lifted: 0 }))
    let origins = 0
    for (const obs of this.#seen.values()) {
      let a: string | null = null
      let b: string | null = null
      for (let i = 0; i < obs.length; i += 2) {
        if (obs[i] === from) a = obs[i + 1] as string | null
        else if (obs[i] === to) b = obs[i + 1] as string | null
      }
      if (a === null || b === null) continue
      origins++
      for (let k = 0; k < out.length; k++) {
        const x = a.charCodeAt(k)
        const y = b.charCodeAt(k)
        if (x === y) continue
        out[k]!.changed++
        const wasRestricted = classOf(x) !== ALLOWED
        const isRestricted = classOf(y) !== ALLOWED
        if (!wasRestricted && isRestricted) out[k]!.restricted++
        else if (wasRestricted && !isRestricted) out[k]!.lifted++
      }
    }
    return { origins, crawlers: out }
  }
}

// A crawler's state in one character: class (0 allowed, 1 partial, 2 blocked) x 2 + (1 when by name).
const ALLOWED = 0
const CLASS_CODE = { allowed: 0, partial: 1, blocked: 2 } as const
const classOf = (code: number): number => code >> 1

/** The crawlers' states of an `ok` row, one character each. */
function stateOf(row: SurveyRow): string {
  let s = ''
  for (const c of row.crawlers) s += String.fromCharCode(CLASS_CODE[c.class ?? 'allowed'] * 2 + (c.by === 'name' ? 1 : 0))
  return s
}

/** FNV-1a over the UTF-16 code units, then murmur3's finalizer: its top bits choose the sample. */
function hash32(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** The summary of rows added one by one. */
export class SurveyAggregate {
  readonly #plan: SurveyPlan
  readonly #total: GroupCounts
  readonly #groups = new Map<string, { index: number; counts: GroupCounts }>()
  readonly #sample = new OriginSample()

  constructor(plan: SurveyPlan) {
    this.#plan = plan
    this.#total = new GroupCounts(plan)
  }

  add(row: SurveyRow): void {
    this.#total.add(row)
    let index = 0
    const key = this.#keyOf(row)
    if (key !== null) {
      let g = this.#groups.get(key)
      if (g === undefined) {
        const k = this.#groups.size < MAX_GROUPS - 1 || key === OTHER ? key : OTHER
        g = this.#groups.get(k)
        if (g === undefined) {
          g = { index: this.#groups.size, counts: new GroupCounts(this.#plan) }
          this.#groups.set(k, g)
        }
      }
      g.counts.add(row)
      index = g.index
    }
    // The states are compared only between groups: without a grouping, the sample only counts origins.
    this.#sample.add(row.origin, index, row.outcome === 'ok' && this.#plan.by !== null ? stateOf(row) : null)
  }

  #keyOf(row: SurveyRow): string | null {
    switch (this.#plan.by) {
      case 'month': return row.captured?.slice(0, 7) ?? UNDATED
      case 'year': return row.captured?.slice(0, 4) ?? UNDATED
      case 'source': return row.source
      default: return null
    }
  }

  /** The summary of the rows added so far. */
  summary(skippedFiles: number): SurveySummary {
    const rate = this.#sample.rate
    const counts = this.#sample.counts(Math.max(1, this.#groups.size))
    const ordered = [...this.#groups].sort(this.#plan.by === 'source' ? sourceOrder : timeOrder)
    const groups = ordered.map(([key, g]) => g.counts.group(key, counts.perGroup[g.index]! * rate))
    const names = this.#plan.crawlers.map((c) => c.name)
    const snapshots = ordered.filter(([key]) => key !== UNDATED && key !== OTHER)
    const changes: SurveyChange[] = []
    for (let i = 1; i < snapshots.length; i++) {
      const [from, a] = snapshots[i - 1]!
      const [to, b] = snapshots[i]!
      changes.push({ from, to, ...this.#sample.compare(a.index, b.index, names) })
    }
    return { by: this.#plan.by, total: this.#total.group(TOTAL, counts.all * rate), groups, changes, originSample: rate, skippedFiles }
  }
}

type Entry = [string, { index: number }]
/** Undated and (other) last. */
const lastKey = (k: string): number => (k === OTHER ? 2 : k === UNDATED ? 1 : 0)
const timeOrder = ([a]: Entry, [b]: Entry): number => lastKey(a) - lastKey(b) || (a < b ? -1 : a > b ? 1 : 0)
const sourceOrder = ([a, x]: Entry, [b, y]: Entry): number => lastKey(a) - lastKey(b) || x.index - y.index
