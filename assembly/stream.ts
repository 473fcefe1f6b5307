// The direct decision (RFC 9309 2.2.2; Google's RobotsMatcher as it runs: every rule of the groups
// that apply is matched against the path while the body is read, no table built). A site's first
// check pays only for the scan: compiling a table costs more than one check saves, so the host
// streams a first check and compiles when an agent comes back.
//
//   streamCheck(body, len, agents, agentsLen, url, urlLen, work): the verdict for one URL, in
//       check()'s form but with the deciding LINE, not a table index: line << 1 | allowed (line 0:
//       no rule matched). streamRuleStart()/streamRuleEnd() then give the deciding rule's value as
//       written (body offsets) and streamRuleAllow() its kind.
//       `work` holds a normalized pattern: 3 bytes per byte of the longest rule value, plus slack.
//       `compact` (0: none) receives the coded compact body (compact.ts) in the same scan;
//       compactFinish() then ends it.
//
// Invariants: group selection is the compiler's (groupLine, ruleScope), pattern matching the
// matcher's (patternMatches over the path url.ts located), ranking the table's (a longer pattern
// first, then the lower line; an allow wins a tie; the empty pattern disallows nothing), and the
// index.html rule pattern.ts's, which the table writer adds too. So the verdict and line always equal those of a table
// compiled from the same body and agents (test/stream.test.ts holds them equal on every labelled
// case). Rules of groups naming an agent and of global groups are ranked apart: which set decides
// is only known at the end of the body.

import { KIND_ALLOW, KIND_MASK, KIND_OTHER, REF_F_SPECIFIC, SCAN_F_ESCAPE } from '../src/engine/layout';
import { escapedLength, escapeInto } from './bytes';
import { agentNamed, groupLine, ruleScope, startGroups } from './compiler';
import { compactLine, compactStart } from './compact';
import { beginPath, patternMatches } from './matcher';
import { indexHtmlRule } from './pattern';
import { currentKindFlags, currentLine, currentValueEnd, currentValueStart, nextLine, scanBody, scanStart } from './scanner';
import { locatePath } from './url';

// The best allow and disallow so far, for named groups [0] and global ones [1]: priority (pattern
// length + 1; 0 none), line, and the value's body offsets.
const BEST = memory.data(4 * 4 * 4, 16); // [scope][allow ? 0 : 1] x (prio, line, start, end), u32
const B_PRIO = 0;
const B_LINE = 4;
const B_START = 8;
const B_END = 12;
const B_SIZE: usize = 16;

let ruleStart: u32 = 0;
let ruleEnd: u32 = 0;
let ruleAllow = false;

export function streamRuleStart(): u32 { return ruleStart; }
export function streamRuleEnd(): u32 { return ruleEnd; }
export function streamRuleAllow(): bool { return ruleAllow; }

@inline function slot(scope: u32, allow: bool): usize {
  return BEST + (<usize>((scope == REF_F_SPECIFIC ? 0 : 2) + (allow ? 0 : 1)) * B_SIZE);
}

// Rank a matching rule: it replaces the best of its scope and kind when its priority is higher
// (lines arrive in order, so on a tie the earlier line stays, as the table's rank keeps it).
@inline function consider(scope: u32, allow: bool, prio: u32, vs: u32, ve: u32): void {
  const s = slot(scope, allow);
  if (prio > load<u32>(s, B_PRIO)) {
    store<u32>(s, prio, B_PRIO);
    store<u32>(s, currentLine(), B_LINE);
    store<u32>(s, vs, B_START);
    store<u32>(s, ve, B_END);
  }
}

export function streamCheck(body: usize, len: u32, agents: usize, agentsLen: u32, url: usize, urlLen: u32, work: usize, compact: usize): i32 {
  locatePath(url, urlLen);
  beginPath();
  memory.fill(BEST, 0, 4 * B_SIZE);
  startGroups(agents, agentsLen);
  scanStart(body, len);
  if (compact != 0) compactStart(compact);
  while (nextLine()) {
    if (compact != 0) compactLine();
    const kf = currentKindFlags();
    const kind = kf & KIND_MASK;
    if (kind > <u32>KIND_OTHER) continue;
    const vs = currentValueStart();
    const ve = currentValueEnd();
    groupLine(kind, kf, vs, ve);
    const scope = ruleScope(kind);
    if (scope == 0) continue;
    let p = scanBody() + vs;
    let n = ve - vs;
    if (kf & SCAN_F_ESCAPE) {
      const e = escapedLength(p, n);
      if (e != 0) {
        escapeInto(work, p, n);
        p = work;
        n = e;
      }
    }
    const allow = kind == KIND_ALLOW;
    if (patternMatches(p, n)) consider(scope, allow, n + 1, vs, ve);
    if (allow) {
      const d = indexHtmlRule(p, n, work + <usize>n + 16);
      if (d != 0 && patternMatches(work + <usize>n + 16, d)) consider(scope, true, d + 1, vs, ve);
    }
  }
  const allowBest = slot(agentNamed() ? REF_F_SPECIFIC : 0, true);
  const disBest = allowBest + B_SIZE;
  const allowPrio = load<u32>(allowBest, B_PRIO);
  const disPrio = load<u32>(disBest, B_PRIO);
  const best = disPrio > allowPrio ? disBest : allowBest;
  const allowed: i32 = disPrio > allowPrio && disPrio > 1 ? 0 : 1;
  if (load<u32>(best, B_PRIO) == 0) return allowed;
  ruleStart = load<u32>(best, B_START);
  ruleEnd = load<u32>(best, B_END);
  ruleAllow = best == allowBest;
  return <i32>(load<u32>(best, B_LINE) << 1) | allowed;
}
