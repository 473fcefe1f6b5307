// The exports of robots.wasm as the host sees them (the ABI is documented at the top of
// assembly/index.ts). Binary layouts are not here: both sides read them from layout.ts.

/** Exports of build/robots.wasm. Pointers and lengths are byte offsets/counts in `memory`. */
export interface WasmExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number }
  /** First byte the host may use (16-aligned). */
  heapBase(): number
  /** Makes the table at `table` (4-aligned) the current rule set. */
  useTable(table: number): void
  /** Scratch base (4-aligned); size: 3 * longest URL + 8 + 4 * maxPatLen + 4 bytes. */
  useScratch(scratch: number): void
  /** One URL's bytes: `(rule index + 1) << 1 | allowed`. */
  check(url: number, len: number): number
  /** URL i = bytes[ends[i-1], ends[i]); writes check()'s number as i32 at out + 4i. */
  checkMany(ends: number, bytes: number, count: number, out: number): void
  /** Same, one byte per URL at out + i: 1 allowed, 0 disallowed. */
  allowedMany(ends: number, bytes: number, count: number, out: number): void
  /**
   * checkMany over UTF-16: URL i = units[ends[i-1], ends[i]) in code units (u16 each), transcoded
   * to UTF-8 at `stage` (3 bytes per unit of the longest URL, plus slack) before it is checked.
   */
  checkMany16(ends: number, units: number, count: number, out: number, stage: number): void
  /** allowedMany over UTF-16, as checkMany16. */
  allowedMany16(ends: number, units: number, count: number, out: number, stage: number): void
  /**
   * URLs as UTF-8 lines of data[0, len) ('\n', a '\r' before it dropped, a last line without '\n'
   * counted); check()'s number per line as i32 at out + 4i. Returns the number of lines.
   */
  checkLines(data: number, len: number, out: number): number
  /** checkLines with one byte per line at out + i: 1 allowed, 0 disallowed. */
  allowedLines(data: number, len: number, out: number): number
  /** The lines the line exports see in data[0, len): their starts and text ends (a '\r' before '\n' dropped), plus base, at out (LINE_* in layout.ts); returns their number. */
  lineBounds(data: number, len: number, base: number, out: number): number
  /**
   * The CLI's output for URL lines data[0, len), every line with `code` (the line when allowed,
   * ~line when disallowed) and a mark (u8 at marks + i, VERDICT_* in layout.ts; marks 0: none);
   * writes the text lines at `out` (each URL as read) and returns their byte count.
   */
  verdictLines(data: number, len: number, code: number, marks: number, out: number): number
  /** verdictLines with each line's code computed against the current table. */
  checkVerdictLines(data: number, len: number, marks: number, out: number): number
  /** Lines the last verdictLines/checkVerdictLines call wrote. */
  verdictLinesSeen(): number
  /** How many of them were disallowed (lines marked rejected not counted). */
  verdictDisallowed(): number
  /** How many of them echo a URL to escape: a character a terminal acts on (C0, DEL, C1, bidi controls), or ill-formed UTF-8. */
  verdictControls(): number
  /** How many of them (not marked rejected) are not plainly a URL or a path: the host judges those. */
  verdictSuspects(): number
  /**
   * UTF-16 code units [from, to) at `units` as UTF-8 at `dst`, as TextEncoder writes them (a lone
   * surrogate -> U+FFFD); the byte count. Reads up to 15 bytes past the units, writes up to 15
   * past the bytes.
   */
  utf16ToUtf8(units: number, from: number, to: number, dst: number): number
  /** Rewrites `count` string ends given in UTF-16 units as UTF-8 byte offsets into `bytes`. */
  unitEndsToByteEnds(ends: number, bytes: number, count: number): void
  /**
   * Selects and compiles the rules of `agents` ('\n'-separated tokens) from the body; the table
   * length, or 0 when `cap` bytes of work area are too few (then see compileNeeded).
   */
  compile(body: number, len: number, agents: number, agentsLen: number, work: number, cap: number): number
  /** Compiles `count` host-written refs (REF_* in layout.ts); same contract as compile. */
  compileList(refs: number, count: number, patBytes: number, origBytes: number, work: number, cap: number): number
  /** After compile/compileList returned 0: the work area bytes they need. */
  compileNeeded(): number
  /** Where the last compiled table starts. */
  compiledTable(): number
  /** Word `word` (< NAMED_WORDS) of the last compile's named-token signature (layout.ts NAMED_*). */
  namedSignature(word: number): number
  /**
   * The Crawl-delay value of `agents` (as for compile): its start in the body, or -1 when none
   * applies; its end from crawlDelayEnd().
   */
  crawlDelay(body: number, len: number, agents: number, agentsLen: number): number
  /** The end of the value the last crawlDelay call found. */
  crawlDelayEnd(): number
  /**
   * One URL decided straight from the body for `agents` (as for compile), no table built
   * (assembly/stream.ts): `line << 1 | allowed`, line 0 when no rule matched. `work`: 6 bytes per
   * byte of the longest rule value, plus slack. `compact` (0: none): where the coded compact body
   * is written in the same scan (body length, a byte per MAX_LINE_BYTES of it, 64 bytes); it is
   * ended by compactFinish().
   */
  streamCheck(body: number, len: number, agents: number, agentsLen: number, url: number, urlLen: number, work: number, compact: number): number
  /**
   * Ends the compact body the last streamCheck wrote: writes its trailer (layout.ts CODED_*) and
   * returns its length with it.
   */
  compactFinish(): number
  /**
   * Writes the plain compact body of the coded one at src[0, len) (no trailer) at `dst` (its plain
   * length and 64 bytes of room; 64 bytes of slack after src) and returns its length.
   */
  expandCompact(src: number, len: number, dst: number): number
  /** The deciding rule of the last streamCheck: its value's start and end in the body, its kind. */
  streamRuleStart(): number
  streamRuleEnd(): number
  streamRuleAllow(): number
  /**
   * The matrix pass's scan (assembly/matrix.ts): the body's groups and rules for `agents` agents,
   * whose naming tokens are `count` MTOKEN_* entries at `tokens` (one per agent and token); writes
   * the named mask and the records (layout.ts MREC_*) at `work` and returns their end, or 0 when
   * `cap` bytes are too few (then see matrixNeeded).
   */
  matrixScan(body: number, len: number, tokens: number, count: number, agents: number, work: number, cap: number): number
  /**
   * Every agent of the last matrixScan on URL i = bytes[ends[i-1], ends[i]): the signed line
   * (as Matcher.checkMany) as i32 at out + 4 * (agent * stride + i). `best`: 16 bytes per agent, plus 16.
   */
  matrixCheck(ends: number, bytes: number, count: number, stride: number, out: number, best: number): void
  /** After matrixScan returned 0: the work area bytes it needs. */
  matrixNeeded(): number
  /** Where the last matrixScan's records start. */
  matrixFirstRecord(): number
  /** Begins the line scanner on the body at [body, body + len). */
  scanStart(body: number, len: number): void
  /** Up to `cap` line records (SCAN_* in layout.ts) at `out`; 0 when the body is done. */
  scan(out: number, cap: number): number
  /** Lines seen so far. */
  scanLineCount(): number
  /** Continues a scan at byte `pos`, where line `line` + 1 begins (scanStart when `line` is 0). */
  scanResume(body: number, len: number, pos: number, line: number): void
  /** Where the scan's next line begins, or -1 when the body is done. */
  scanPosition(): number
}
