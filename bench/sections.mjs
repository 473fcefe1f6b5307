// The sections of bench/results.json that bench/run.mjs measures itself, built from its phases'
// measurements: pure functions, no timing, so the tests feed them fixed values. Each row's id is
// written here once and is what bench/report.mjs finds it by (bench/results.mjs has the shape).
// The per-site, worst-shape and --threads sections are built beside their phases (per-site.mjs,
// hostile.mjs, cli-threads.mjs).
import { peerRow, row } from './results.mjs'

const RP = 'robots-parser 3.0.1'

/**
 * The per-URL and per-file table: `rows` as bench/run.mjs's compare() and phases make them
 * ({ id, label, ours, theirs, throughput? } in ns), then the memory row; `notMeasured` lists the
 * rows a run without the corpus could not measure ([{ id, label, why }]).
 */
export function perUrlSection({ rows, memory, notMeasured = [] }) {
  const out = rows.map((r) => peerRow(r.id, r.label, 'ns', r.ours, r.theirs, RP, r.throughput ? { cells: { throughput: r.throughput } } : {}))
  if (memory) {
    out.push(peerRow('per-url.memory', `memory retained per compiled matcher / parsed instance (${memory.count.toLocaleString('en')} of them)`, 'B', memory.oursPerMatcher, memory.theirsPerInstance, RP,
      { cells: { perRuleByte: memory.oursPerRuleByte, count: memory.count } }))
  }
  const section = {
    id: 'per-url', title: 'phase',
    columns: [{ key: 'ours', label: 'robotstxt-wasm' }, { key: 'theirs', label: 'robots-parser' }, { key: 'ratio', label: 'ratio', bold: true }, { key: 'throughput', label: 'throughput (robotstxt-wasm vs robots-parser)', unit: 'MB/s' }],
    rows: out,
  }
  if (notMeasured.length > 0) section.notMeasured = notMeasured
  return section
}

/** Scaling: [{ id, label, ns, ratio }] with the ratio to the smallest of its kind. */
export function scalingSection(lines) {
  return {
    id: 'scaling', title: 'scaling (Matcher.isAllowed, per URL)',
    columns: [{ key: 'ours', label: 'time' }, { key: 'vsSmallest', label: 'vs smallest', unit: 'x', digits: 2 }],
    rows: lines.map((l) => row(l.id, l.label, 'ns', l.ns, { cells: { vsSmallest: l.ratio } })),
  }
}

/** Where the time goes: [{ id, label, ns }]. */
export function whereSection(lines) {
  return {
    id: 'where-time-goes', title: 'where the time goes: host work alone, wasm work alone, and real-file checks taken apart',
    columns: [{ key: 'ours', label: 'time' }],
    rows: lines.map((l) => row(l.id, l.label, 'ns', l.ns)),
  }
}

/** The synthetic URLs against one rule that never matches: [{ id, label, ours, bare, theirs, ceiling }]. */
export function ruleFreeSection(lines) {
  return {
    id: 'rule-free', title: 'synthetic URLs, per URL',
    columns: [
      { key: 'ours', label: '20-rule group' }, { key: 'bare', label: 'one rule that never matches' }, { key: 'theirs', label: 'robots-parser' },
      { key: 'ratio', label: 'ratio' }, { key: 'ceiling', label: 'ratio if the 20 rules cost nothing', unit: 'x' },
    ],
    rows: lines.map((l) => peerRow(l.id, l.label, 'ns', l.ours, l.theirs, RP, { cells: { bare: l.bare, ceiling: l.ceiling } })),
  }
}

/** The CLI's `check --urls` over 10M URLs: { urls, ms, perSecond, peakMiB, peakMiB1M }. */
export function cliCheckSection(cli) {
  return {
    id: 'cli-check', title: 'CLI `check ROBOTS AGENT --urls FILE > FILE` (synthetic robots.txt and URLs, a fresh process)',
    columns: [{ key: 'ours', label: 'time' }, { key: 'perSecond', label: 'URLs/s', unit: 'M/s' }, { key: 'peak', label: 'peak RSS', unit: 'MiB' }, { key: 'peak1M', label: 'peak RSS of 1,000,000 URLs', unit: 'MiB' }],
    rows: [row('cli.check-urls', `${cli.urls.toLocaleString('en')} URLs`, 's', cli.ms / 1000, { cells: { urls: cli.urls, perSecond: cli.perSecond, peak: cli.peakMiB, peak1M: cli.peakMiB1M } })],
  }
}

/** The arena at its cap (bench/eviction.mjs): { room, cold, allUsed, visits, bound, evictions }. */
export function evictionSection(e) {
  return {
    id: 'eviction', title: 'the table arena at its cap (bench/eviction.mjs, a process of its own; a site of 40 rules, about 3 KB of table)',
    columns: [{ key: 'ours', label: 'CPU per compile' }, { key: 'evictions', label: 'evictions in the run', unit: 'count' }, { key: 'visits', label: 'blocks visited', unit: 'count' }, { key: 'bound', label: 'bound', unit: 'count' }],
    rows: [
      row('eviction.room', 'room in the arena', 'µs', e.room),
      row('eviction.cold', 'at the cap, the least recently used table evicted', 'µs', e.cold, { cells: { evictions: e.evictions } }),
      row('eviction.all-used', 'at the cap, every table in use: the clock gives up at its bound and the table stays in JS memory', 'µs', e.allUsed, { cells: { visits: e.visits, bound: e.bound } }),
    ],
  }
}

/**
 * The other npm parsers: [{ id, name, ours, ns, ratio, exact }] (ours and ns in ns per check, null
 * for robotstxt-wasm's own row; exact { right, total } or null without the labels).
 */
export function peersSection(peers) {
  return {
    id: 'peers', title: 'library (synthetic workload, single checks)',
    columns: [
      { key: 'ours', label: 'robotstxt-wasm, same rounds' }, { key: 'theirs', label: 'time per check' }, { key: 'ratio', label: 'robotstxt-wasm is', style: 'faster' },
      { key: 'agree', label: 'Google\'s verdict on the labelled cases', unit: 'agreement' },
    ],
    rows: peers.map((p) => ({ id: p.id, label: p.name, unit: 'ns', ours: p.ours, theirs: p.ns, peer: p.ns === null ? null : p.name, ratio: p.ratio, cells: { agree: p.exact } })),
  }
}

/** What dist/ ships: [{ file, bytes, gzip }]. */
export function sizesSection(sizes) {
  return {
    id: 'sizes', title: 'file',
    columns: [{ key: 'ours', label: 'bytes' }, { key: 'gzip', label: 'gzip -9', unit: 'B' }],
    rows: sizes.map((s) => row(`size.${s.file.replace(/^dist\//, '').replaceAll('.', '-')}`, s.file, 'B', s.bytes, { cells: { gzip: s.gzip } })),
  }
}

/** A cold Worker in workerd (bench/workerd-cold.mjs): its rows, or { skipped }. */
export function workerdColdSection(r) {
  const title = 'Worker'
  if (r.skipped !== undefined) return { id: 'workerd-cold', title, columns: [], rows: [], skipped: r.skipped }
  return {
    id: 'workerd-cold', title,
    intro: [`A cold Worker in workerd ${r.version} (local): the CPU time of the workerd process (all threads) per request, median of ${r.rounds} rounds of ${r.batch} requests of each kind, interleaved; each new isolate comes from a Worker Loader, and a Worker's own clock cannot time it (it stands still between I/O).`],
    columns: [{ key: 'cold', label: 'a new isolate\'s first request', unit: 'ms' }, { key: 'warm', label: 'a warm isolate\'s request', unit: 'ms' }, { key: 'ours', label: 'new minus warm' }],
    rows: [
      row('workerd.with', 'one check of robotstxt-wasm per request', 'ms', r.coldWith - r.warmWith, { cells: { cold: r.coldWith, warm: r.warmWith } }),
      row('workerd.without', 'the same answer without the package', 'ms', r.coldWithout - r.warmWithout, { cells: { cold: r.coldWithout, warm: r.warmWithout } }),
      row('workerd.adds', 'what the package adds to a cold start (module evaluated, wasm compiled and instantiated, first check)', 'ms', r.adds),
    ],
  }
}

/** Every goal of the run, in the order measured. */
export function goalsSection(goals) {
  return { id: 'goals', title: 'goal', columns: [], rows: goals }
}

/** How bench/run.mjs --runtime loads the wasm on each runtime. */
export const RUNTIME_LOADS = {
  node: 'embedded bytes, compiled synchronously (`import`/`require`)', bun: 'embedded bytes, compiled synchronously (`bun` condition)',
  deno: '`import source` of dist/robots.wasm (`deno` condition)',
  chromium: 'embedded bytes, compiled synchronously (`browser` condition, bundled by esbuild)',
}

/**
 * A runtime's row (bench/runtime-core.mjs measureRow plus { runtime }), under `name` (node20, bun,
 * chromium...), all in ns per URL.
 */
export function runtimeRow(name, r) {
  return peerRow(`runtimes.${name}`, r.runtime, 'ns', r.single, r.robotsParser, RP, {
    digits: 0,
    cells: { how: RUNTIME_LOADS[name.startsWith('node') ? 'node' : name], encode: r.encode, batch: r.batch, lines: r.lines, ratioBatch: r.robotsParser / r.batch, ratioLines: r.robotsParser / r.lines },
  })
}

/** The runtimes table. */
export function runtimesSection(rows) {
  return {
    id: 'runtimes', title: 'runtime',
    columns: [
      { key: 'how', label: 'wasm loads as', unit: 'text' }, { key: 'ours', label: 'single `isAllowed`' }, { key: 'encode', label: 'of which encodeInto', digits: 0 },
      { key: 'batch', label: 'batch `isAllowedMany`', digits: 0 }, { key: 'lines', label: 'byte path `isAllowedLines`', digits: 0 }, { key: 'theirs', label: 'robots-parser' },
      { key: 'ratio', label: 'single', bold: true }, { key: 'ratioBatch', label: 'batch', unit: 'x', bold: true }, { key: 'ratioLines', label: 'byte path', unit: 'x', bold: true },
    ],
    rows,
  }
}
