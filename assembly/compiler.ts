// The compiler (RFC 9309 2.2.1-2.2.2; Google's RobotsMatcher group handling): selects the rules that
// decide for the caller's agents straight from the body, pulling directives from the scanner one at
// a time, and hands them to the table writer. The rules of the groups that name an agent decide;
// when no group does, those of the global (*) groups.
//
//   compile(body, len, agents, agentsLen, work, cap): table length, or 0 when the `cap` bytes of
//       work area at `work` are too few (compileNeeded() then says how many; call again with them).
//       agents: the caller's product tokens, lower-case, each of a-z - _ only, '\n'-separated.
//   compileList(refs, count, patBytes, origBytes, work, cap): the same from rules the host selected
//       itself (bodies too large to scan in memory): `count` refs (REF_* in src/engine/layout.ts),
//       patterns already normalized; patBytes and origBytes are the sums of their lengths.
//   compiledTable(): where the last table starts, inside the work area, valid until the next call.
//
// The work area holds the selected refs (growing up) and normalized patterns (growing down), then
// the table writer's arrays and the table, all sized from the actual rule counts and pattern bytes.
// Invariants: nothing is written outside [work, work + cap); a selection that does not fit sets
// `overflow`, keeps counting, and asks for the exact size.

import {
  KIND_ALLOW, KIND_DISALLOW, KIND_MASK, KIND_OTHER, KIND_USER_AGENT, NAMED_BIT_SHIFT, NAMED_HASH_BASIS, NAMED_HASH_PRIME,
  NAMED_SECOND, NAMED_WORDS, REF_BITS, REF_F_ALLOW, REF_F_GLOBAL,
  REF_F_HAS_ORIG, REF_F_SPECIFIC, REF_LINE, REF_ORIG_LEN, REF_ORIG_PTR, REF_PAT_LEN, REF_PAT_PTR, REF_SIZE,
  SCAN_F_ESCAPE, SCAN_F_GLOBAL,
} from '../src/engine/layout';
import { escapedLength, escapeInto } from './bytes';
import { currentKeyEnd, currentKeyStart, currentKindFlags, currentLine, currentValueEnd, currentValueStart, keyIs, nextLine, scanBody, scanStart } from './scanner';
import { buildTable, builtTable, workNeed } from './table';

let cAgents: usize = 0;
let cAgentsLen: u32 = 0;
// The group being read: its user-agent run has begun, it has rules, it is global, it names an agent.
let gIn = false;
let gHasRules = false;
let gGlobal = false;
let gNamed = false;
let anyNamed = false;
// The signature of every product token the user-agent lines read so far name (layout.ts NAMED_*).
const NAMED = memory.data(NAMED_WORDS * 4, 16);
let refsTop: usize = 0;
let escBottom: usize = 0;
let overflow = false;
// Counts and byte totals of the rules selected so far: of named groups, of global groups.
let specCount: u32 = 0;
let specPat: u32 = 0;
let specOrig: u32 = 0;
let globCount: u32 = 0;
let globPat: u32 = 0;
let globOrig: u32 = 0;
let escTotal: u32 = 0;
let needed: u32 = 0;

export function compiledTable(): usize {
  return builtTable();
}

export function compileNeeded(): u32 {
  return needed;
}

/**
 * Word `word` (< NAMED_WORDS) of the named-token signature of the last compile's body (layout.ts
 * NAMED_*): every user-agent line's token sets its bits, whichever agents the compile was for.
 */
export function namedSignature(word: u32): u32 {
  return word < <u32>NAMED_WORDS ? load<u32>(NAMED + (<usize>word << 2)) : 0;
}

// No division: a bit is the hash's top bits (layout.ts NAMED_*), and a UA line sets two.
@inline function setNamedBit(h: u32): void {
  const bit = h >>> <u32>NAMED_BIT_SHIFT;
  const at = NAMED + (<usize>(bit >> 5) << 2);
  store<u32>(at, load<u32>(at) | (<u32>1 << (bit & 31)));
}

@inline function align(p: usize): usize {
  return (p + 7) & ~(7 as usize);
}

export function compile(body: usize, len: u32, agents: usize, agentsLen: u32, work: usize, cap: u32): u32 {
  startGroups(agents, agentsLen);
  refsTop = align(work);
  escBottom = (work + <usize>cap) & ~(7 as usize);
  overflow = false;
  specCount = 0; specPat = 0; specOrig = 0;
  globCount = 0; globPat = 0; globOrig = 0;
  escTotal = 0;
  scanStart(body, len);
  while (nextLine()) {
    const kf = currentKindFlags();
    const kind = kf & KIND_MASK;
    if (kind <= <u32>KIND_OTHER) selectDirective(kind, kf, currentValueStart(), currentValueEnd());
  }
  const n = anyNamed ? specCount : globCount;
  const pat = anyNamed ? specPat : globPat;
  const orig = anyNamed ? specOrig : globOrig;
  if (overflow) {
    needed = (specCount + globCount) * <u32>REF_SIZE + escTotal + workNeed(n, pat, orig) + 128;
    return 0;
  }
  const arena = align(refsTop);
  const size = buildTable(align(work), refsTop, anyNamed ? REF_F_SPECIFIC : REF_F_GLOBAL, n, pat, orig, arena, escBottom);
  if (size == 0) needed = <u32>(arena - work) + escTotal + workNeed(n, pat, orig) + 128;
  return size;
}

export function compileList(refs: usize, count: u32, patBytes: u32, origBytes: u32, work: usize, cap: u32): u32 {
  const arena = align(work);
  const size = buildTable(refs, refs + <usize>count * REF_SIZE, 0, count, patBytes, origBytes, arena, (work + <usize>cap) & ~(7 as usize));
  if (size == 0) needed = <u32>(arena - work) + workNeed(count, patBytes, origBytes) + 128;
  return size;
}

// A user-agent line begins a new group unless it continues the user-agent run of a group with no rules yet.
@inline export function startsGroup(kind: u32): bool {
  return kind == KIND_USER_AGENT && (!gIn || gHasRules);
}

// RFC 9309 2.2.1; Google's RobotsMatcher::HandleUserAgent: the state machine over groups, one
// directive at a time. The one place that decides which group a line stands in and whether that
// group names the caller's agents or is global; both selections (rules, Crawl-delay) follow it.
export function groupLine(kind: u32, flags: u32, vs: u32, ve: u32): void {
  if (kind == KIND_USER_AGENT) {
    if (startsGroup(kind)) { gIn = true; gHasRules = false; gGlobal = false; gNamed = false; }
    if (flags & SCAN_F_GLOBAL) gGlobal = true;
    else if (tokenNamesAgent(scanBody() + vs, ve - vs)) { gNamed = true; anyNamed = true; }
  } else if ((kind == KIND_ALLOW || kind == KIND_DISALLOW) && gIn) gHasRules = true;
}

export function startGroups(agents: usize, agentsLen: u32): void {
  cAgents = agents;
  cAgentsLen = agentsLen;
  gIn = false; gHasRules = false; gGlobal = false; gNamed = false; anyNamed = false;
  memory.fill(NAMED, 0, NAMED_WORDS * 4);
}

// ─── Crawl-delay ─────────────────────────────────────────────────────────────────────────────────
// Not part of RFC 9309 and ignored by Google; Bing and Yandex honour it. The value that counts is
// the first valid one (digits, optionally a '.' and more digits) in the groups naming the agents,
// or, when no group names them, in the global groups. A group's names are only all known at its
// end (a user-agent line may follow a Crawl-delay line in the same run), so each group's first
// valid value is held until the group ends.

let delayPending: i32 = -1;
let delayPendingEnd: u32 = 0;
let delayNamed: i32 = -1;
let delayNamedEnd: u32 = 0;
let delayGlobal: i32 = -1;
let delayGlobalEnd: u32 = 0;
let delayEnd: u32 = 0;

/** The end of the value the last crawlDelay() call found. */
export function crawlDelayEnd(): u32 {
  return delayEnd;
}

// The group being read ends: its first valid value counts for its kind when none has before.
function endDelayGroup(): void {
  if (delayPending < 0) return;
  if (gNamed && delayNamed < 0) { delayNamed = delayPending; delayNamedEnd = delayPendingEnd; }
  if (gGlobal && delayGlobal < 0) { delayGlobal = delayPending; delayGlobalEnd = delayPendingEnd; }
  delayPending = -1;
}

// Digits, optionally followed by '.' and digits: the values the host reads as a number of seconds.
function isDelayValue(v: usize, n: u32): bool {
  let i: u32 = 0;
  while (i < n && <u32>load<u8>(v + i) - 0x30 < 10) i++;
  if (i == 0) return false;
  if (i == n) return true;
  if (load<u8>(v + i) != 0x2e) return false;
  const frac = ++i;
  while (i < n && <u32>load<u8>(v + i) - 0x30 < 10) i++;
  return i == n && i > frac;
}

// The key at [k, k + n) is "crawl-delay", ignoring ASCII case (as the scanner compares keys; a
// key holds no line break, the one other byte that folds to '-').
const DELAY_KEY = 'crawl-delay';
@inline function isDelayKey(k: usize, n: u32): bool {
  return n == <u32>DELAY_KEY.length && keyIs(k, n, DELAY_KEY);
}

/**
 * The Crawl-delay value of `agents` in the body: its start (the end from crawlDelayEnd()), or -1
 * when there is none. One pass, nothing written.
 */
export function crawlDelay(body: usize, len: u32, agents: usize, agentsLen: u32): i32 {
  startGroups(agents, agentsLen);
  delayPending = -1; delayNamed = -1; delayGlobal = -1;
  scanStart(body, len);
  while (nextLine()) {
    const kf = currentKindFlags();
    const kind = kf & KIND_MASK;
    if (kind > <u32>KIND_OTHER) continue;
    if (startsGroup(kind)) {
      endDelayGroup();
      // The first named group with a value decides; nothing later can come before it.
      if (delayNamed >= 0) break;
    }
    const vs = currentValueStart();
    const ve = currentValueEnd();
    groupLine(kind, kf, vs, ve);
    if (kind == KIND_OTHER && gIn && delayPending < 0 && isDelayKey(scanBody() + currentKeyStart(), currentKeyEnd() - currentKeyStart())
      && isDelayValue(scanBody() + vs, ve - vs)) {
      delayPending = <i32>vs;
      delayPendingEnd = ve;
    }
  }
  if (gIn) endDelayGroup();
  if (anyNamed) { delayEnd = delayNamedEnd; return delayNamed; }
  delayEnd = delayGlobalEnd;
  return delayGlobal;
}

// Whom the rule on the current line (after groupLine has read it) applies to: REF_F_SPECIFIC when
// its group names one of the caller's agents (also when the group is global too), REF_F_GLOBAL
// when the group is only global, 0 when neither or when the line is no rule. The one decision both
// the table's selection and stream.ts's direct match follow.
export function ruleScope(kind: u32): u32 {
  if (kind != KIND_ALLOW && kind != KIND_DISALLOW) return 0;
  if (!gIn) return 0; // before any user-agent line: applies to nobody
  return gNamed ? REF_F_SPECIFIC : gGlobal ? REF_F_GLOBAL : 0;
}

/** The line groupLine read last stands in a group (a user-agent line has begun one). */
@inline export function groupOpen(): bool {
  return gIn;
}

/** The group of the line groupLine read last is global (one of its user-agent lines is `*`). */
@inline export function groupGlobal(): bool {
  return gGlobal;
}

/** Some group seen so far names one of the caller's agents: only such groups' rules then decide. */
@inline export function agentNamed(): bool {
  return anyNamed;
}

function selectDirective(kind: u32, flags: u32, vs: u32, ve: u32): void {
  groupLine(kind, flags, vs, ve);
  if (ruleScope(kind) == 0) return;
  const v = scanBody() + vs;
  const n = ve - vs;
  const escLen = flags & SCAN_F_ESCAPE ? escapedLength(v, n) : 0;
  if (gNamed) { specCount++; specPat += escLen != 0 ? escLen : n; specOrig += n; }
  else { globCount++; globPat += escLen != 0 ? escLen : n; globOrig += n; }
  escTotal += escLen;
  if (overflow || refsTop + <usize>REF_SIZE + <usize>escLen > escBottom) { overflow = true; return; }
  let patPtr = v;
  let patLen = n;
  let bits: u32 = (kind == KIND_ALLOW ? REF_F_ALLOW : 0) | (gNamed ? REF_F_SPECIFIC : REF_F_GLOBAL);
  if (escLen != 0) {
    escBottom -= escLen;
    escapeInto(escBottom, v, n);
    patPtr = escBottom;
    patLen = escLen;
    bits |= REF_F_HAS_ORIG;
  }
  const ref = refsTop;
  refsTop += <usize>REF_SIZE;
  store<u32>(ref, <u32>patPtr, REF_PAT_PTR);
  store<u32>(ref, patLen, REF_PAT_LEN);
  store<u32>(ref, <u32>v, REF_ORIG_PTR);
  store<u32>(ref, n, REF_ORIG_LEN);
  store<u32>(ref, currentLine(), REF_LINE);
  store<u32>(ref, bits, REF_BITS);
}

/** The FNV-1a hash (layout.ts NAMED_*) of the token uaToken measured last. */
export let uaHash: u32 = 0;

// The token of a user-agent value v[0, n): the length of its leading A-Z a-z - _ (Google's
// RobotsMatcher::ExtractUserAgent), with its lower-cased bytes' hash in uaHash.
@inline export function uaToken(v: usize, n: u32): u32 {
  let t: u32 = 0;
  let h: u32 = <u32>NAMED_HASH_BASIS;
  while (t < n) {
    const c = <u32>load<u8>(v + t);
    const letter = (c | 0x20) - 0x61 < 26;
    if (letter || c == 0x2d || c == 0x5f) {
      h = (h ^ (letter ? c | 0x20 : c)) * <u32>NAMED_HASH_PRIME;
      t++;
    } else break;
  }
  uaHash = h;
  return t;
}

// The token v[0, t) equals the lower-case token a[0, t), ignoring ASCII case on v's side.
@inline export function sameToken(v: usize, a: usize, t: u32): bool {
  let i: u32 = 0;
  for (; i < t; i++) {
    let c = <u32>load<u8>(v + i);
    if (c - 0x41 < 26) c += 0x20;
    if (c != <u32>load<u8>(a + i)) break;
  }
  return i == t;
}

// The token of a user-agent value (its leading A-Z a-z - _) equals one of the caller's tokens,
// ignoring ASCII case. The token's bits go into the named-token signature on the way.
function tokenNamesAgent(v: usize, n: u32): bool {
  const t = uaToken(v, n);
  if (t == 0) return false;
  const h = uaHash;
  setNamedBit(h);
  setNamedBit((h ^ <u32>NAMED_SECOND) * <u32>NAMED_HASH_PRIME);
  let a: u32 = 0;
  while (a < cAgentsLen) {
    let b = a;
    while (b < cAgentsLen && load<u8>(cAgents + b) != 0x0a) b++;
    if (b - a == t && sameToken(v, cAgents + a, t)) return true;
    a = b + 1;
  }
  return false;
}

// RFC 9309 2.2.2; Google's MaybeEscapePattern: the length of the escaped form of v[0, n), or 0 when escaping changes nothing
