// Types of survey.mjs for its tests.
export interface SurveyRun {
  /** Response records (rows), as the command's table counts them. */
  rows: number
  seconds: number
  /** CPU microseconds per record, every thread of the process. */
  cpuPerRecord: number
  /** CPU microseconds per record of the calling thread; null without process.threadCpuUsage. */
  callerPerRecord: number | null
}
export interface SurveyBenchRow extends Omit<SurveyRun, 'rows'> { threads: number; records: number; perSecond: number }
export declare function commonCrawlWarc(file: string, corpusDir: string, records?: number): Promise<number>
export declare function timedCli(file: string, args: readonly string[]): Promise<SurveyRun>
export declare function surveyCeiling(one: SurveyBenchRow): number
export declare function surveyBench(log?: (line: string) => void): Promise<SurveyBenchRow[] | null>
