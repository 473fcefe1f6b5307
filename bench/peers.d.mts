// Types of peers.mjs for the tests.
export interface Peer {
  /** Names its rows in bench/results.json. */
  id: string
  name: string
  exact?: boolean
  make(body: string, bytes: Uint8Array): ((url: string, agent: string) => boolean) | Promise<(url: string, agent: string) => boolean>
}
export declare const PEERS: Peer[]
export declare function labelledBodies(shared: string): { bytes: Uint8Array; body: string; cases: { agent: string | string[]; url: string; allowed: boolean }[] }[]
export declare function ours(parseRobots: (body: string | Uint8Array) => { isAllowed(url: string, agent: string | string[]): boolean }, name: string): Peer
export declare function exactness(peer: Peer, bodies: ReturnType<typeof labelledBodies>): Promise<{ right: number; total: number }>
