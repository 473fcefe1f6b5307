// Types of report.mjs for its unit test.
export interface Table {
  header: string[]
  rows: string[][]
}
/** A speed figure: robotstxt-wasm against one library, as the bench's cells give it. */
export interface SpeedFigure {
  /** The chart's label for the measure. */
  short: string
  /** The table's label for the measure. */
  what?: string
  ours?: string | null
  theirs?: string
  against: string
  /** How many times faster, as the bench wrote it; null when the cell holds none. */
  ratio: number | null
}
export interface HeadlineFigures {
  date: string | null
  machine: string | null
  node: string | null
  exactness: { library: string; cases: string; agreement: string }[]
  perSite: SpeedFigure[]
  perUrl: SpeedFigure[]
  runtimes: { runtime: string; single: string; batch: string; bytes: string }[]
  runtimesNote: string[] | null
}
export declare const START: string
export declare const END: string
export declare function parseTables(markdown: string): Table[]
export declare function headlineFigures(results: string, runtimes?: string): HeadlineFigures
export declare function headlineMarkdown(figures: HeadlineFigures): string
export declare function chartSvg(figures: HeadlineFigures): string
export declare function replaceHeadline(text: string, content: string): string
export declare function writeHeadline(root: string): HeadlineFigures
