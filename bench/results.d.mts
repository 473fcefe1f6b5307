// Types of results.mjs (the shape of bench/results.json) for the tests.
export type Unit = 'ns' | 'µs' | 'ms' | 's' | 'B' | 'MiB' | 'MB/s' | 'x' | 'count' | 'checks' | '/s' | 'M/s' | 'agreement' | 'text'
export interface Bound { op: '>=' | '<='; value: number; why?: string }
export interface Row {
  id: string
  label: string
  unit: Unit | string
  ours: number | null
  theirs: number | null
  peer: string | null
  ratio: number | null
  cells?: Record<string, unknown>
  units?: Record<string, string>
  styles?: Record<string, string>
  digits?: number
  error?: string
  goal?: Bound
  floor?: Bound
  met?: boolean
  floorMet?: boolean
  row?: string
}
export interface Column { key: string; label: string; unit?: string; digits?: number; style?: string; bold?: boolean }
export interface Section {
  id: string
  title: string
  intro?: string[]
  columns: Column[]
  rows: Row[]
  after?: string[]
  skipped?: string
  notMeasured?: { id: string; label: string; why: string }[]
}
export interface Run { command: string; date: string; machine: string; runtime: string; intro?: string; sections: Section[] }
export interface Results { schema: number; runs: Record<string, Run> }
export declare const SCHEMA: number
export declare function describeMachine(): string
export declare function today(): string
export declare function judge(op: string, value: number, bound: number): boolean
export declare function goalRow(id: string, fields: { label: string; unit?: string; digits?: number; measured: number; goal: [string, number]; floor?: [string, number, string]; row?: string }): Row
export declare function row(id: string, label: string, unit: string, ours: number | null, more?: Partial<Row>): Row
export declare function peerRow(id: string, label: string, unit: string, ours: number, theirs: number, peer: string, more?: Partial<Row>): Row
export declare function skipped(id: string, title: string, reason: string): Section
export declare function readResults(path: string): Results | null
export declare function recordRun(path: string, name: string, run: Run): Results
