// Types of eviction.mjs for its test.
export interface EvictionRun {
  /** CPU µs per compile with room in the arena, at the cap evicting a cold table, and with every table in use. */
  room: number
  cold: number
  allUsed: number
  /** The most blocks one compile's eviction clock visited, and its bound (EVICT_VISITS). */
  visits: number
  bound: number
  evictions: number
}
export declare function evictionBench(log: (line: string) => void): Promise<EvictionRun>
