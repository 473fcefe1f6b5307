// Types of cli-threads.mjs for the tests of its bound.
export declare function twoCoreCeiling(wall: number, cpu: number, cores?: number): number
