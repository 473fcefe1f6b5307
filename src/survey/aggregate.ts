// The survey's totals, kept as rows pass: outcomes, each crawler's classes, preference adoption and
// lint findings. Its size depends on the crawler list and the distinct lint codes and preference
// categories (a file can invent categories, so they are capped), never on the number of rows.
// Keys that come from files live in Maps, never on plain objects.

import type { SurveyPlan } from './plan.js'
import type { SurveyOutcome, SurveyRow } from './types.js'

/** Distinct preference categories counted; later ones are counted under OTHER. */
const MAX_CATEGORIES = 32
export const OTHER_CATEGORY = '(other)'

export interface CrawlerTotals {
  name: string
  sets: readonly string[]
  blocked: number
  partial: number
  allowed: number
  /** Rows where a group names the crawler. */
  named: number
}

export interface SurveyTotals {
  /** Rows by outcome. */
  outcomes: Record<SurveyOutcome, number>
  /** Rows that are not errors: the denominator of every share. */
  read: number
  crawlers: CrawlerTotals[]
  /** Per preference category: rows where some crawler is told no / yes. */
  preferences: Map<string, { no: number; yes: number }>
  /** Rows stating any Content-Signal or Content-Usage preference. */
  withPreferences: number
  /** Per lint code (error or warning): rows with that finding. */
  lint: Map<string, number>
  /** Rows with a lint error. */
  withLintErrors: number
}

export class SurveyAggregate {
  readonly totals: SurveyTotals

  constructor(plan: SurveyPlan) {
    this.totals = {
      outcomes: { 'ok': 0, 'allow-all': 0, 'disallow-all': 0, 'error': 0 },
      read: 0,
      crawlers: plan.crawlers.map((c) => ({ name: c.name, sets: c.sets, blocked: 0, partial: 0, allowed: 0, named: 0 })),
      preferences: new Map(),
      withPreferences: 0,
      lint: new Map(),
      withLintErrors: 0,
    }
  }

  add(row: SurveyRow): void {
    const t = this.totals
    t.outcomes[row.outcome]++
    if (row.outcome === 'error') return
    t.read++
    const told = new Map<string, { no: boolean; yes: boolean }>()
    row.crawlers.forEach((c, i) => {
      const ct = t.crawlers[i]
      if (ct === undefined) return
      ct[c.class]++
      if (c.named) ct.named++
      for (const [category, allowed] of Object.entries(c.preferences)) {
        const key = t.preferences.has(category) || t.preferences.size < MAX_CATEGORIES ? category : OTHER_CATEGORY
        const seen = told.get(key) ?? { no: false, yes: false }
        if (allowed === false) seen.no = true
        if (allowed === true) seen.yes = true
        told.set(key, seen)
      }
    })
    if (told.size > 0) t.withPreferences++
    for (const [category, seen] of told) {
      const p = t.preferences.get(category) ?? { no: 0, yes: 0 }
      if (seen.no) p.no++
      if (seen.yes) p.yes++
      t.preferences.set(category, p)
    }
    for (const code of row.lintCodes) t.lint.set(code, (t.lint.get(code) ?? 0) + 1)
    if (row.lintErrors > 0) t.withLintErrors++
  }
}
