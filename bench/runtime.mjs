// `<runtime> bench/runtime.mjs` (Deno: `deno run -A`): bench/runtime-core.mjs on this runtime,
// printed as one JSON line with the runtime, machine and date. bench/run.mjs --runtime runs it.
import { cpus } from 'node:os'
import { measureRow } from './runtime-core.mjs'

const row = measureRow(Number(process.env.BENCH_ROUNDS ?? 7))
const runtime = typeof Deno !== 'undefined' ? `Deno ${Deno.version.deno}` : typeof Bun !== 'undefined' ? `Bun ${Bun.version}` : `Node ${process.versions.node}`
console.log(JSON.stringify({ runtime, ...row, date: new Date().toISOString().slice(0, 10), machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores` }))
