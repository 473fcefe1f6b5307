// Run counts and seeds for property tests. CI runs fixed seeds (reproducible); `npm run fuzz` sets
// FUZZ=1 for a random seed (printed, and fast-check prints it again on failure) and PROPERTY_RUNS
// for longer runs.
const scale = Number(process.env.PROPERTY_RUNS ?? 100_000) / 100_000
const fuzzSeed = process.env.FUZZ ? Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) : null
if (fuzzSeed !== null) console.log(`fuzz: seed ${fuzzSeed} (set FUZZ_SEED=${fuzzSeed} to replay)`)

/** fast-check options: `base` runs at the default scale, the fixed seed unless fuzzing. */
export function fuzzOptions(base: number, seed = 0): { numRuns: number; seed: number } {
  return { numRuns: Math.max(1, Math.round(base * scale)), seed: fuzzSeed ?? seed }
}
