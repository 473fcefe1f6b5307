// robots.wasm: the ABI. This file only gathers the exports of the stages; each stage opens with what
// it owns and its invariants:
//
//   scanner.ts   body -> lines, one at a time (RFC 9309 2.2; Google's ParseRobotsTxt and ParseKeyAndValue)
//   compiler.ts  lines -> the rules that decide for an agent (RFC 9309 2.2.1-2.2.2; Google's RobotsMatcher)
//   stream.ts    lines + one path -> verdict, each applying rule matched as it is read (no table)
//   matrix.ts    lines + many agents x many paths -> verdicts, from one scan (no table)
//   compact.ts   lines -> the compact body a site keeps (the same scan, fewer bytes)
//   pattern.ts   a pattern -> whether it can match, its anchor and literal prefix (shared by table.ts and matcher.ts)
//   table.ts     rules -> the compiled table (RFC 9309 2.2.3; Google's RobotsMatchStrategy::Matches and HandleAllow)
//   url.ts       URL -> normalized path; UTF-16 -> UTF-8 (our URL normalization, then Google's GetPathParamsQuery)
//   matcher.ts   path + table -> verdict (RFC 9309 2.2.2-2.2.3; Google's RobotsMatcher)
//   verdicts.ts  URL lines + verdicts -> the CLI's output lines
//   bytes.ts     byte helpers shared by the stages
//
// Every binary layout that crosses the boundary (table, rule record, scan record, compileList's
// refs) is defined once, in src/engine/layout.ts, which the host compiles too.
//
// ─── ABI ────────────────────────────────────────────────────────────────────────────────────────
// src/engine/abi.ts types these exports; src/engine/wasm.ts is the only host file that calls them.
// All pointers and lengths are byte offsets/counts in the exported `memory`; integers are
// little-endian. Runtime is "stub": this module never allocates. Below `heapBase()` it keeps only
// static data (the matcher's per-path probe cache); memory above it is the host's, carved into
// three regions of its choosing:
//
//   table    the compiled rules of one Matcher, written by the host, read-only here. Becomes
//            current with `useTable`; stays current until the next `useTable`.
//   input    URL bytes (UTF-8) written by the host before each `check`/`checkMany` call; for a batch
//            also the `ends` array (u32) and the `out` array, written here.
//   scratch  owned by this module during a call; the host only guarantees its size: at least
//            3 * (longest URL in the call) + 8 bytes for the normalized path (9 * for a URL
//            line, which may be ill-formed UTF-8: a lone byte becomes %EF%BF%BD), followed by
//            4 * maxPatLen (table header) + 4 bytes for the string-search fallback table.
//            Slack: 16-byte vector loads may read up to 15 bytes past the end of a URL, a path or a
//            pattern in the table, and stores may write up to 15 bytes past the normalized path
//            or a URL transcoded into a batch's stage; the host keeps at least 64 bytes of memory
//            after scratch and after every URL it writes, and the input area follows the table,
//            so these stay in bounds. Bytes read past an end are masked off and never change a
//            result.
//
// The host may grow `memory` between calls (never during one); that detaches every host view of
// the buffer, so the host rebuilds its views after growing. Nothing here keeps a pointer across
// calls except the table and scratch bases set by `useTable`/`useScratch`, the body being scanned
// between `scanStart` and the `scan` call that returns 0, and the table `compile` returned (valid
// until the next `compile`/`compileList`, whose work area the host passes explicitly).
//
//   heapBase(): usize                 first byte the host may use (end of static data).
//   useTable(table: usize): void      the table at `table` (4-aligned) is the current rule set.
//   useScratch(scratch: usize): void  scratch base (4-aligned).
//   check(url: usize, len: u32): i32  verdict for one URL (raw bytes, not yet normalized):
//                                     (deciding rule index + 1) << 1 | allowed; 0 in the upper bits
//                                     when no rule matched.
//   checkMany(ends, bytes, count, out)    URL i is bytes[ends[i-1] .. ends[i]) (ends[-1] = 0, u32
//                                         each); writes check()'s number for URL i as i32 at out + 4i.
//   allowedMany(ends, bytes, count, out)  the same, one byte per URL at out + i: 1 allowed, 0 not.
//   checkMany16 / allowedMany16(ends, units, count, out, stage)
//                                     the same over UTF-16 code units (u16 each; ends in units),
//                                     each URL transcoded to UTF-8 as TextEncoder would (a lone
//                                     surrogate -> U+FFFD) into `stage`: 3 bytes per unit of the
//                                     longest URL, plus slack.
//   checkLines / allowedLines(data, len, out): u32
//                                     URLs as UTF-8 lines of data[0, len) ('\n'; a '\r' before it
//                                     dropped; a last line without '\n' counts); the verdicts as
//                                     checkMany / allowedMany write them, each that of the line
//                                     decoded as TextDecoder would; returns the line count.
//   lineBounds(data, len, base, out): u32   the starts and text ends (+ base) of the lines the line
//                                     exports see in data[0, len), see url.ts.
//   verdictLines(data, len, code, marks, out, stage): u32   see verdicts.ts.
//   checkVerdictLines, verdictLinesSeen, verdictDisallowed, verdictControls, verdictSuspects   see verdicts.ts.
//   unitEndsToByteEnds(ends, bytes, count)  see url.ts.
//   utf16ToUtf8(units, from, to, dst): u32   UTF-16 code units [from, to) at `units` as UTF-8 at
//                                     `dst`, as TextEncoder writes them; the byte count. Reads up
//                                     to 15 bytes past the units, writes up to 15 past the bytes.
//   scanStart(body, len), scan(out, cap), scanLineCount()   see scanner.ts.
//   scanResume(body, len, pos, line), scanPosition()         see scanner.ts.
//   compile, compileList, compiledTable, compileNeeded       see compiler.ts.
//   namedSignature(word)                                      see compiler.ts (layout.ts NAMED_*).
//   crawlDelay, crawlDelayEnd                                 see compiler.ts.
//   streamCheck, streamRuleStart/End/Allow                    see stream.ts.
//   matrixScan, matrixCheck, matrixNeeded, matrixFirstRecord  see matrix.ts (layouts: layout.ts MTOKEN_*, MREC_*).
//   compactFinish, expandCompact                             see compact.ts.

export { allowedLines, allowedMany, allowedMany16, check, checkLines, checkMany, checkMany16, useTable } from './matcher';
export { lineBounds, unitEndsToByteEnds, useScratch, utf16ToUtf8 } from './url';
export { scan, scanLineCount, scanPosition, scanResume, scanStart } from './scanner';
export { checkVerdictLines, verdictControls, verdictDisallowed, verdictLines, verdictLinesSeen, verdictSuspects } from './verdicts';
export { streamCheck, streamRuleAllow, streamRuleEnd, streamRuleStart } from './stream';
export { compactFinish, expandCompact } from './compact';
export { matrixCheck, matrixFirstRecord, matrixNeeded, matrixScan } from './matrix';
export { compile, compiledTable, compileList, compileNeeded, crawlDelay, crawlDelayEnd, namedSignature } from './compiler';

export function heapBase(): usize {
  return (__heap_base + 15) & ~(15 as usize);
}
