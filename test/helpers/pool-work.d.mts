// Types of pool-work.mjs for test/pool.test.ts.
import type { Work } from '../../src/threads/pool.js'

export interface Square { n: number; square: number; main: boolean }
export declare const SQUARES: Work<{ failOn?: number; exitOn?: number }, number, Square>
export declare const BYTES: Work<null, Uint8Array, { sum: number; out: Uint8Array }>
export declare const ASKS: Work<null, number, number>
export declare const BROKEN: Work<null, number, number>
