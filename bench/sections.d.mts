// Types of sections.mjs for its tests.
import type { Row, Section } from './results.mjs'

export declare function perUrlSection(args: { rows: { id: string; label: string; ours: number; theirs: number; throughput?: [number, number] }[]; memory?: { count: number; oursPerMatcher: number; theirsPerInstance: number; oursPerRuleByte: number }; notMeasured?: { id: string; label: string; why: string }[] }): Section
export declare function peersSection(peers: { id: string; name: string; ours: number | null; ns: number | null; ratio: number | null; exact: { right: number; total: number } | null }[]): Section
export declare function goalsSection(goals: Row[]): Section
export declare function runtimeRow(name: string, r: { runtime: string; single: number; encode: number; batch: number; lines: number; robotsParser: number }): Row
export declare function runtimesSection(rows: Row[]): Section
export declare function workerdColdSection(r: Record<string, unknown>): Section
