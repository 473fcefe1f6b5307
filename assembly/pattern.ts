// What a rule's pattern is, before anything matches it (RFC 9309 2.2.3; Google's
// RobotsMatchStrategy::Matches): whether it can match at all, where its '$' anchor is and how long
// its literal prefix runs; and the pattern an allow's index.html rule adds. The table writer's
// classification and the streamed check's direct match both start here, so they cannot read a
// pattern differently.

import { SLASH, STAR } from './bytes';

/** Set by readPattern: the end of the pattern without its trailing '$' (the pattern's length when it has none). */
export let patternBody: u32 = 0;
/** Set by readPattern: the pattern ends with '$', which anchors it at the end of the path. */
export let patternAnchored = false;
/** Set by readPattern: the length of the literal prefix, the bytes before the first '*' (patternBody when none). */
export let patternLiteral: u32 = 0;

/**
 * Reads the non-empty pattern p[0, n) into the globals above; false when it can never match: every
 * path starts with '/', so a pattern must start with '/' or '*'.
 */
export function readPattern(p: usize, n: u32): bool {
  const c0 = <u32>load<u8>(p);
  if (c0 != SLASH && c0 != STAR) return false;
  patternAnchored = load<u8>(p + n - 1) == 0x24;
  patternBody = patternAnchored ? n - 1 : n;
  let star: u32 = 0;
  while (star < patternBody && load<u8>(p + star) != STAR) star++;
  patternLiteral = star;
  return true;
}

const INDEX_HTM = "/index.htm";

/**
 * Google's RobotsMatcher::HandleAllow, the index.html rule: an allow of ".../index.htm..." also
 * allows ".../" exactly. Writes that pattern (".../$") at `dst` and returns its length, or returns
 * 0 when the allow p[0, n) has no such rule.
 */
export function indexHtmlRule(p: usize, n: u32, dst: usize): u32 {
  let slash = <i32>n - 1;
  while (slash >= 0 && load<u8>(p + slash) != SLASH) slash--;
  if (slash < 0 || n - <u32>slash < <u32>INDEX_HTM.length) return 0;
  for (let i = 0; i < INDEX_HTM.length; i++) {
    if (<u32>load<u8>(p + slash + i) != <u32>INDEX_HTM.charCodeAt(i)) return 0;
  }
  memory.copy(dst, p, <usize>slash + 1);
  store<u8>(dst + slash + 1, 0x24);
  return <u32>slash + 2;
}
