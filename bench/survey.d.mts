// Types of survey.mjs for the test of its CPU accounting.
export interface SurveyRun {
  rows: number
  seconds: number
  /** CPU microseconds per record, every thread of the process. */
  cpuPerRecord: number
  /** CPU microseconds per record of the calling thread; null without process.threadCpuUsage. */
  callerPerRecord: number | null
}
export interface SurveyBenchRow extends Omit<SurveyRun, 'rows'> { threads: number; records: number; perSecond: number }
export declare function timed(surveyRobots: (input: string, options?: object) => AsyncIterable<unknown>, file: string, options: object): Promise<SurveyRun>
export declare function surveyBench(log?: (line: string) => void): Promise<SurveyBenchRow[] | null>
