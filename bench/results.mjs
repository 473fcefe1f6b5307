// bench/results.json: the record of the bench's runs, as data. `npm run bench` (bench/run.mjs and
// the phases it drives) records the run `bench`, `npm run bench:runtimes` the run `runtimes` and
// `npm run bench:crawl` the run `crawl`; each replaces its own run and keeps the others.
// bench/report.mjs draws bench/RESULTS.md, bench/RUNTIMES.md, the README headline, the generated
// parts of docs/benchmarks.md and docs/bench.svg from this file alone, finding rows by id.
//
// Shape (SCHEMA 1):
//   { schema, runs: { [name]: Run } }
//   Run      { command, date, machine, runtime, intro?, sections: Section[] }
//   Section  { id, title, intro?, columns, rows, after?, skipped? }
//            title is the table's first header cell; intro and after are paragraphs of method text;
//            skipped (a reason) stands for a section that was not measured, and then rows is empty.
//   Column   { key, label, unit?, digits?, style?, bold? }: key names a field of the row (ours,
//            theirs, ratio, peer) or one of its cells; unit and digits default to the row's.
//   Row      { id, label, unit, ours, theirs, peer, ratio, cells?, units?, digits?, error? }
//   Goal row (section `goals`) adds { goal, floor?, met, floorMet?, row? }: goal and floor are
//            { op: '>=' | '<=', value } in the row's unit, ours is the value measured, row the id
//            of the row it judges.
//
// Invariants: ids are unique in the file and never derived from a label, so a label may change
// freely; every value is a number in its unit (or a plain string for a text cell), never a
// formatted cell; `ratio` is the peer's value over ours (above 1 robotstxt-wasm is faster, or
// smaller); `met` and `floorMet` are computed here from the unrounded measurement.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { arch, cpus, platform, totalmem } from 'node:os'

export const SCHEMA = 1

/** The machine as every run names it. */
export function describeMachine() {
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${arch()}`
}

/** Today, as the runs date themselves (UTC). */
export const today = () => new Date().toISOString().slice(0, 10)

/** True when `value` satisfies `op bound`. */
export function judge(op, value, bound) {
  if (op === '>=') return value >= bound
  if (op === '<=') return value <= bound
  throw new TypeError(`a goal's op is '>=' or '<=', not ${JSON.stringify(op)}`)
}

/**
 * A row of the goals section: `measured` against `goal` ([op, value]) and, when the row has one,
 * the floor it must keep even while the goal is missed (`floor`: [op, value, why]).
 */
export function goalRow(id, { label, unit = 'x', digits = 2, measured, goal, floor, row }) {
  const out = { id, label, unit, digits, ours: measured, theirs: null, peer: null, ratio: null, goal: { op: goal[0], value: goal[1] }, met: judge(goal[0], measured, goal[1]) }
  if (floor !== undefined) {
    out.floor = { op: floor[0], value: floor[1], why: floor[2] }
    out.floorMet = judge(floor[0], measured, floor[1])
  }
  if (row !== undefined) out.row = row
  return out
}

/** A measured row: the fields every row has, then whatever else it carries (cells, units, digits). */
export function row(id, label, unit, ours, more = {}) {
  return { id, label, unit, ours, theirs: null, peer: null, ratio: null, ...more }
}

/**
 * A row against a peer: ratio is the peer's value over ours, from the unrounded values; none when
 * either is not above zero (a difference of noisy medians can be), where a ratio means nothing.
 */
export function peerRow(id, label, unit, ours, theirs, peer, more = {}) {
  return { id, label, unit, ours, theirs, peer, ratio: ours > 0 && theirs > 0 ? theirs / ours : null, ...more }
}

/** A section that was not measured, with the reason. */
export function skipped(id, title, reason) {
  return { id, title, columns: [], rows: [], skipped: reason }
}

/** The parsed file at `path`, or null when there is none; throws when it is not JSON. */
export function readResults(path) {
  if (!existsSync(path)) return null
  return JSON.parse(readFileSync(path, 'utf8'))
}

/**
 * Writes `run` as run `name` of the results file at `path`, keeping its other runs (a file that is
 * not readable results is replaced, and said so on stderr).
 */
export function recordRun(path, name, run) {
  let prior = null
  try {
    prior = readResults(path)
  } catch (error) {
    process.stderr.write(`bench: ${path} was not JSON (${error.message}); its other runs are lost\n`)
  }
  const runs = prior?.schema === SCHEMA && prior.runs !== null && typeof prior.runs === 'object' ? prior.runs : {}
  const out = { schema: SCHEMA, runs: { ...runs, [name]: run } }
  writeFileSync(path, JSON.stringify(out, null, 2) + '\n')
  return out
}
