// Types of test.mjs for the test that imports it.
export declare const MIN_TEST_NODE: readonly [number, number]
export declare function needsNewerNode(version: string): boolean
