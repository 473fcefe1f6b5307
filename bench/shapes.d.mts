// Types of shapes.mjs for the tests that import it.
export declare const CAP: number
export declare function hostileShapes(cap?: number): Record<string, string>
export declare const LINES_OF_NOTHING: string[]
export declare function accessors(parseRobots: (body: string | Uint8Array) => unknown): Record<string, (body: string) => unknown>
export declare const SHAPE_IDS: Record<string, string>
