// The compact body: what a site keeps once it has been read. Each line is rewritten to the fewest
// bytes that scan to the same record (scanner.ts): an empty line to nothing, a comment to "#", an
// invalid line to "x", a directive to its key as written, ':' (or ' ' where the colon was
// missing), its value as written and "#" if it had a comment; a line over MAX_LINE_BYTES is kept
// as it is. Lines are joined by '\n' with none after the last, and a BOM is dropped.
//
// Invariant: scanning the compact body gives, line for line, the same number, kind, flags, key
// and value as the original (only offsets differ), so every view derived from the scan (rules,
// groups, the per-line report, sitemaps, directives, Crawl-delay, verdicts and lines) is the same
// (test/compact.test.ts checks them all on every labelled body). It is never longer than the
// original: every byte written stands for at least one byte of it.

import { KIND_COMMENT, KIND_INVALID, KIND_MASK, KIND_OTHER, SCAN_F_COMMENT, SCAN_F_NO_COLON, SCAN_F_TOO_LONG } from '../src/engine/layout';
import { copyRun } from './bytes';
import { currentKeyEnd, currentKeyStart, currentKindFlags, currentLine, currentLineEnd, currentLineStart, currentValueEnd, currentValueStart, scanBody } from './scanner';

let out: usize = 0;
let at: usize = 0;

/** Starts a compact body at `dst`: room for the scanned body's length plus 16 bytes of slack. */
export function compactStart(dst: usize): void {
  out = dst;
  at = dst;
}

/** Its length so far. */
export function compactLength(): u32 {
  return <u32>(at - out);
}

/** Appends the current line of the scanner. */
export function compactLine(): void {
  if (currentLine() > 1) store<u8>(at++, 0x0a);
  const kf = currentKindFlags();
  const body = scanBody();
  if (kf & SCAN_F_TOO_LONG) {
    at = append(at, body + currentLineStart(), currentLineEnd() - currentLineStart());
    return;
  }
  const kind = kf & KIND_MASK;
  if (kind <= <u32>KIND_OTHER) {
    at = append(at, body + currentKeyStart(), currentKeyEnd() - currentKeyStart());
    store<u8>(at++, kf & SCAN_F_NO_COLON ? 0x20 : 0x3a);
    at = append(at, body + currentValueStart(), currentValueEnd() - currentValueStart());
    if (kf & SCAN_F_COMMENT) store<u8>(at++, 0x23);
  } else if (kind == KIND_INVALID) {
    store<u8>(at++, 0x78);
    if (kf & SCAN_F_COMMENT) store<u8>(at++, 0x23);
  } else if (kind == KIND_COMMENT) store<u8>(at++, 0x23);
}

@inline function append(dst: usize, src: usize, n: u32): usize {
  copyRun(dst, src, n);
  return dst + n;
}
