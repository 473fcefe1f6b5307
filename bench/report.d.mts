// Types of report.mjs for its unit test.
import type { Results, Section } from './results.mjs'

export interface SpeedFigure {
  id?: string
  kind?: string
  /** The chart's label for the measure. */
  short: string
  /** The table's label for the measure. */
  what?: string
  meaning?: string
  against: string
  ours?: number | null
  theirs?: number | null
  unit?: string
  /** How many times faster, as the bench recorded it; null when not measured. */
  ratio: number | null
  error?: string
}
export interface HeadlineFigures {
  date: string | null
  machine: string | null
  runtime: string | null
  exactness: { library: string; cases: string; agreement: { right: number; total: number } | null; error?: string }[]
  speed: SpeedFigure[]
  runtimes: { runtime: string; single: number | null; batch: number | null; bytes: number | null }[]
  runtimesRun: { date: string; machine: string } | null
  notMeasured: { section: string; why: string }[]
  meanings: string[]
}
export declare class ReportError extends Error {
  status: number
}
export declare const EXIT: { MISSING: number; UNREADABLE: number }
export declare const START: string
export declare const END: string
export declare const SECTIONS_START: string
export declare const SECTIONS_END: string
export declare const SECTIONS: Record<string, { heading: string; reproduce: string; about: string }>
export declare const MEANINGS: Record<string, { name: string; reproduce: [string, string?][]; means: string }>
export declare function format(value: unknown, unit?: string, digits?: number, style?: string): string
export declare function sectionTable(section: Section): string[]
export declare function sectionMarkdown(section: Section, noted?: Set<string>): string[]
export declare function loadResults(path: string): Results
export declare function checkShape(data: unknown, where?: string): void
export declare function headlineFigures(results: Results): HeadlineFigures
export declare function headlineMarkdown(figures: HeadlineFigures): string
export declare function chartSvg(figures: Pick<HeadlineFigures, 'speed' | 'date' | 'runtime'>): string
export declare function notesMarkdown(notes: string, results: Results): { md: string; noted: Set<string> }
export declare function resultsMarkdown(results: Results, notes?: string): string
export declare function runtimesMarkdown(results: Results): string | null
export declare function sectionsMarkdown(results: Results): string
export declare function replaceBlock(text: string, content: string, start?: string, end?: string): string
export declare function replaceHeadline(text: string, content: string): string
export declare function drawPages(root: string): { pages: Record<string, string>; figures: HeadlineFigures }
export declare function writeReport(root: string): HeadlineFigures
