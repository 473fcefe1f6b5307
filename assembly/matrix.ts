// The matrix pass (RFC 9309 2.2.1-2.2.3; Google's RobotsMatcher for many agents at once): the
// verdict of every agent on every URL from one scan of the body, no table built. Owns the records
// of that scan (layout.ts MREC_*) between matrixScan and the matrixCheck calls that read them.
//
//   matrixScan(body, len, tokens, count, agents, work, cap): reads the body once, with the
//       compiler's group logic, and writes the named mask and the records (layout.ts) at `work`:
//       a group record for each group that is global or names an agent, then the rules of that
//       group that can match, with their patterns normalized. `tokens`: `count` MTOKEN_* entries,
//       one per agent and naming token, then the tokens' bytes. Returns the end of the records,
//       or 0 when the `cap` bytes at `work` are too few (matrixNeeded() then says how many; call
//       again with them).
//   matrixCheck(ends, bytes, count, stride, out, best): URL i = bytes[ends[i-1], ends[i]); writes
//       agent a's verdict on it as an i32 at out + 4 * (a * stride + i): the deciding line when
//       allowed, minus it when disallowed (0: no rule matched), as Matcher.checkMany gives it.
//       `best`: 16 bytes per agent and 16 more. The body, tokens and work area of the last
//       matrixScan must be as it left them.
//
// Invariants: an agent's rules are those of the groups naming one of its tokens, else those of the
// global groups (the compiler's groupLine decides which group a line stands in); each URL's path
// is found by url.ts and a rule matches it exactly when the matcher's patternMatches says so (the
// pattern read once by the scan: its literal prefix compared first, then matchWild), and the best
// rules are ranked as stream.ts ranks them (a longer pattern first, then the lower line; an allow
// wins a tie; the empty pattern disallows nothing), so every verdict and line equal the streamed
// check's, and so a compiled table's, for the same body, agent and URL (test/matrix.test.ts holds
// them to the labels and to the reference). The pass costs rules x URLs, hardly more per agent: a
// rule is matched once per URL, then counted for the agents its group names and for the global
// groups.

import {
  KIND_ALLOW, KIND_DISALLOW, KIND_MASK, KIND_OTHER, KIND_USER_AGENT, MGROUP_ALLOWS, MGROUP_DISALLOWS, MGROUP_LINE, MGROUP_MASK,
  MREC_BITS, MREC_F_ALLOW, MREC_F_ANCHORED, MREC_F_GLOBAL, MREC_F_GROUP, MREC_F_LAST, MREC_F_NAMES, MREC_LAST_SHIFT, MRULE_BODY, MRULE_KEY, MRULE_KEY_MASK,
  MRULE_LEN, MRULE_LINE, MRULE_LITERAL, MRULE_PAT, MRULE_SIZE, MTOKEN_AGENT, MTOKEN_HASH, MTOKEN_LEN, MTOKEN_SIZE, MTOKEN_START, SCAN_F_ESCAPE, SCAN_F_GLOBAL,
} from '../src/engine/layout';
import { escapedLength, escapeInto, sameBytes, SLASH, STAR } from './bytes';
import { groupGlobal, groupLine, groupOpen, sameToken, startGroups, startsGroup, uaHash, uaToken } from './compiler';
import { beginPath, matchWild } from './matcher';
import { indexHtmlRule, patternAnchored, patternBody, patternLiteral, readPattern } from './pattern';
import { currentKindFlags, currentLine, currentValueEnd, currentValueStart, nextLine, scanBody, scanStart } from './scanner';
import { locatePath, path, pathLength } from './url';

// The best allow and disallow of an agent (and of the global groups, after the agents) for the URL
// being checked: priority (pattern length + 1; 0 none), then line.
const B_ALLOW_PRIO = 0;
const B_ALLOW_LINE = 4;
const B_DIS_PRIO = 8;
const B_DIS_LINE = 12;
const B_SIZE: u32 = 16;

// The last scan's shape, for matrixCheck.
let agentCount: u32 = 0;
let words: u32 = 0;
let namedMask: usize = 0;
let recStart: usize = 0;
let recEnd: usize = 0;
// Agents some group names (u32 each) and how many: the only ones with bests of their own.
let namedList: usize = 0;
let namedCount: u32 = 0;
let needed: u32 = 0;

// The caller's tokens by hash: `slots` u32 entries (a power of two), token index + 1 or 0. A
// token of several agents has an entry for each, all in the probe run of its hash.
let tokenBase: usize = 0;
let hashTable: usize = 0;
let hashMask: u32 = 0;

/** After matrixScan returned 0: the bytes of work area it needs. */
export function matrixNeeded(): u32 {
  return needed;
}

/** Where the last matrixScan's records start (after its named mask). */
export function matrixFirstRecord(): usize {
  return recStart;
}

@inline function align8(p: usize): usize {
  return (p + 7) & ~(7 as usize);
}

// Sets, in the mask at `mask`, the bit of every agent that has the token a user-agent line's value
// v[0, n) names; false when it names none of the caller's tokens.
function nameAgents(v: usize, n: u32, mask: usize): bool {
  const t = uaToken(v, n);
  if (t == 0) return false;
  const h = uaHash;
  let named = false;
  for (let s = h & hashMask; ; s = (s + 1) & hashMask) {
    const k = load<u32>(hashTable + (<usize>s << 2));
    if (k == 0) return named;
    const tok = tokenBase + <usize>(k - 1) * MTOKEN_SIZE;
    if (load<u32>(tok, MTOKEN_HASH) == h && load<u32>(tok, MTOKEN_LEN) == t && sameToken(v, tokenBase + <usize>load<u32>(tok, MTOKEN_START), t)) {
      const a = load<u32>(tok, MTOKEN_AGENT);
      const at = mask + (<usize>(a >> 5) << 2);
      store<u32>(at, load<u32>(at) | (<u32>1 << (a & 31)));
      named = true;
    }
  }
  return named;
}

// Room the scan needs besides its records (counted as it goes) and its patterns: the named mask,
// the hash table and the named list.
@inline function fixedRoom(slots: u32): u32 {
  return (words << 2) + 8 + (slots << 2) + (agentCount << 2) + 16;
}

export function matrixScan(body: usize, len: u32, tokens: usize, count: u32, agents: u32, work: usize, cap: u32): usize {
  agentCount = agents;
  words = (agents + 31) >> 5;
  tokenBase = tokens;
  let slots: u32 = 8;
  while (slots < count * 2) slots <<= 1;
  hashMask = slots - 1;
  const limit = (work + <usize>cap) & ~(7 as usize);
  const fixed = fixedRoom(slots);
  // Counted whether or not they fit: what a second call needs.
  let total: u32 = fixed;
  if (<usize>fixed > limit - work) {
    needed = fixed + 4096;
    return 0;
  }
  namedMask = work;
  memory.fill(namedMask, 0, <usize>words << 2);
  recStart = align8(work + (<usize>words << 2));
  hashTable = limit - (<usize>slots << 2);
  namedList = hashTable - (<usize>agents << 2);
  memory.fill(hashTable, 0, <usize>slots << 2);
  for (let k: u32 = 0; k < count; k++) {
    let s = load<u32>(tokens + <usize>k * MTOKEN_SIZE, MTOKEN_HASH) & hashMask;
    while (load<u32>(hashTable + (<usize>s << 2)) != 0) s = (s + 1) & hashMask;
    store<u32>(hashTable + (<usize>s << 2), k + 1);
  }
  let top = recStart;
  let bottom = namedList & ~(7 as usize);
  let overflow = false;
  const groupSize: u32 = <u32>MGROUP_MASK + (words << 2);
  // The group being read: its record (0 until written; 1 once out of room) and whether it names an
  // agent. The mask of the agents it names is built where its record will go, at the top.
  let group: usize = 0;
  let names = false;
  startGroups(0, 0);
  scanStart(body, len);
  while (nextLine()) {
    const kf = currentKindFlags();
    const kind = kf & KIND_MASK;
    if (kind > <u32>KIND_OTHER) continue;
    const vs = currentValueStart();
    const ve = currentValueEnd();
    // A group that started had rules, and so its record if it needed one.
    if (startsGroup(kind)) {
      group = 0;
      names = false;
    }
    groupLine(kind, kf, vs, ve);
    if (kind == KIND_USER_AGENT) {
      if (kf & SCAN_F_GLOBAL) continue;
      // The mask is built where the group's record will go, at the top; past the room, the
      // agents are still named (in the named mask), so the size a second call needs is right.
      if (!names && !overflow) {
        if (top + <usize>groupSize + <usize>MRULE_SIZE > bottom) overflow = true;
        else memory.fill(top + <usize>MGROUP_MASK, 0, <usize>words << 2);
      }
      if (nameAgents(scanBody() + vs, ve - vs, overflow ? namedMask : top + <usize>MGROUP_MASK)) names = true;
      continue;
    }
    if (kind != KIND_ALLOW && kind != KIND_DISALLOW) continue;
    if (!groupOpen() || (!names && !groupGlobal())) continue;
    if (group == 0) {
      total += names ? groupSize : <u32>MGROUP_MASK;
      if (!overflow && top + <usize>groupSize > bottom) overflow = true;
      if (!overflow) {
        group = top;
        top = groupRecord(top, groupGlobal(), names ? groupSize : <u32>MGROUP_MASK, currentLine());
      } else group = 1;
    }
    const allow = kind == KIND_ALLOW;
    let p = scanBody() + vs;
    let n = ve - vs;
    // Lines that could match: counted for the survey's rule counts.
    if (n != 0 && group > 1) {
      const c = <u32>load<u8>(p);
      if (c == SLASH || c == STAR) {
        const at = group + (allow ? <usize>MGROUP_ALLOWS : <usize>MGROUP_DISALLOWS);
        store<u32>(at, load<u32>(at) + 1);
      }
    }
    const e = kf & SCAN_F_ESCAPE ? escapedLength(p, n) : 0;
    // The room of the escaped pattern (a value as written stays in the body) and of the index.html
    // rule's, each with 16 bytes of slack and 8 of alignment.
    const room = (e != 0 ? e + 24 : 0) + (allow ? (e != 0 ? e : n) + 25 : 0);
    total += <u32>MRULE_SIZE * (allow ? 2 : 1) + room;
    if (overflow || top + <usize>MRULE_SIZE * 2 + <usize>room > bottom) {
      overflow = true;
      continue;
    }
    if (e != 0) {
      bottom = (bottom - <usize>e - 16) & ~(7 as usize);
      escapeInto(bottom, p, n);
      p = bottom;
      n = e;
    }
    top = ruleRecord(top, allow ? MREC_F_ALLOW : 0, p, n);
    if (allow) {
      bottom = (bottom - <usize>n - 17) & ~(7 as usize);
      const d = indexHtmlRule(p, n, bottom);
      if (d != 0) top = ruleRecord(top, MREC_F_ALLOW, bottom, d);
    }
  }
  // Only the last group can have no rules (a user-agent line after it would have continued it);
  // when it names agents, they are named, and get no rules: its record says so.
  if (names && group == 0) {
    total += groupSize;
    if (!overflow && top + <usize>groupSize > bottom) overflow = true;
    if (!overflow) top = groupRecord(top, false, groupSize, currentLine() + 1);
  }
  if (overflow) {
    needed = total + 4096;
    return 0;
  }
  recEnd = top;
  listNamed();
  return recEnd;
}

// Writes a group record at `at` (its mask, when it names agents, is there already) and returns the
// record's end; the named mask takes its agents.
function groupRecord(at: usize, global: bool, size: u32, line: u32): usize {
  const named = size > <u32>MGROUP_MASK;
  store<u32>(at, MREC_F_GROUP | (global ? MREC_F_GLOBAL : 0) | (named ? MREC_F_NAMES : 0), MREC_BITS);
  store<u32>(at, line, MGROUP_LINE);
  store<u32>(at, 0, MGROUP_ALLOWS);
  store<u32>(at, 0, MGROUP_DISALLOWS);
  if (named) {
    for (let w: u32 = 0; w < words; w++) {
      const m = namedMask + (<usize>w << 2);
      store<u32>(m, load<u32>(m) | load<u32>(at + <usize>MGROUP_MASK + (<usize>w << 2)));
    }
  }
  return at + <usize>size;
}

// Writes a rule record at `at` for the pattern p[0, n) (normalized) and returns its end; a
// pattern that can never match (RFC 9309 2.2.2: every path starts with '/') gets none.
function ruleRecord(at: usize, bits: u32, p: usize, n: u32): usize {
  let lit: u32 = 0;
  let body: u32 = 0;
  if (n != 0) {
    if (!readPattern(p, n)) return at;
    lit = patternLiteral;
    body = patternBody;
    if (patternAnchored) {
      bits |= MREC_F_ANCHORED;
      const last = body > 0 ? <u32>load<u8>(p + body - 1) : STAR;
      if (last != STAR) bits |= MREC_F_LAST | (last << MREC_LAST_SHIFT);
    }
  }
  const keyMask: u64 = lit >= 8 ? u64.MAX_VALUE : (<u64>1 << (<u64>lit << 3)) - 1;
  store<u32>(at, bits, MREC_BITS);
  store<u32>(at, <u32>p, MRULE_PAT);
  store<u32>(at, n, MRULE_LEN);
  store<u32>(at, currentLine(), MRULE_LINE);
  store<u64>(at, load<u64>(p) & keyMask, MRULE_KEY);
  store<u64>(at, keyMask, MRULE_KEY_MASK);
  store<u32>(at, lit, MRULE_LITERAL);
  store<u32>(at, body, MRULE_BODY);
  return at + <usize>MRULE_SIZE;
}

// Whether the rule at `r` matches the current path, whose first 8 bytes are `head` (zero past its
// end): as the matcher's patternMatches decides, with the pattern read once by the scan.
@inline function ruleMatches(r: usize, head: u64, plen: u32, last: u32): bool {
  if (((head ^ load<u64>(r, MRULE_KEY)) & load<u64>(r, MRULE_KEY_MASK)) != 0) return false;
  const lit = load<u32>(r, MRULE_LITERAL);
  if (lit > plen) return false;
  const bits = load<u32>(r, MREC_BITS);
  // "...x$" matches only a path that ends with x: most paths fail here, before any search.
  if ((bits & MREC_F_LAST) != 0 && ((bits >> MREC_LAST_SHIFT) & 0xff) != last) return false;
  const p = <usize>load<u32>(r, MRULE_PAT);
  if (lit > 8 && !sameBytes(path() + 8, p + 8, lit - 8)) return false;
  const body = load<u32>(r, MRULE_BODY);
  const anchored = (bits & MREC_F_ANCHORED) != 0;
  if (lit == body) return !anchored || plen == lit;
  return matchWild(p, lit, body, anchored, lit);
}

// The named agents, from the named mask, into the named list.
function listNamed(): void {
  let k: u32 = 0;
  for (let w: u32 = 0; w < words; w++) {
    let bits = load<u32>(namedMask + (<usize>w << 2));
    while (bits != 0) {
      store<u32>(namedList + (<usize>k << 2), (w << 5) + ctz<u32>(bits));
      k++;
      bits &= bits - 1;
    }
  }
  namedCount = k;
}

// A matching rule replaces the best of its kind at `slot` when its priority is higher (records
// come in line order, so on a tie the earlier line stays, as stream.ts keeps it).
@inline function consider(slot: usize, allow: bool, prio: u32, line: u32): void {
  const at = slot + (allow ? <usize>B_ALLOW_PRIO : <usize>B_DIS_PRIO);
  if (prio > load<u32>(at)) {
    store<u32>(at, prio);
    store<u32>(at + <usize>(B_ALLOW_LINE - B_ALLOW_PRIO), line);
  }
}

// The verdict of the bests at `slot`: the deciding line, minus it when disallowed.
@inline function verdict(slot: usize): i32 {
  const allowPrio = load<u32>(slot, B_ALLOW_PRIO);
  const disPrio = load<u32>(slot, B_DIS_PRIO);
  if (disPrio > allowPrio) {
    const line = <i32>load<u32>(slot, B_DIS_LINE);
    return disPrio > 1 ? -line : line;
  }
  return allowPrio == 0 ? 0 : <i32>load<u32>(slot, B_ALLOW_LINE);
}

export function matrixCheck(ends: usize, bytes: usize, count: u32, stride: u32, out: usize, best: usize): void {
  const global = best + <usize>agentCount * B_SIZE;
  let start: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const end = load<u32>(ends + (<usize>i << 2));
    locatePath(bytes + start, end - start);
    start = end;
    beginPath();
    memory.fill(global, 0, B_SIZE);
    for (let k: u32 = 0; k < namedCount; k++) memory.fill(best + <usize>load<u32>(namedList + (<usize>k << 2)) * B_SIZE, 0, B_SIZE);
    // The path's first 8 bytes, zero past its end (paths hold no NUL, so a zero never matches).
    const plen = pathLength();
    const head: u64 = plen >= 8 ? load<u64>(path()) : load<u64>(path()) & ((<u64>1 << (<u64>plen << 3)) - 1);
    const last = <u32>load<u8>(path() + plen - 1);
    let inGlobal = false;
    let mask: usize = 0;
    for (let r = recStart; r < recEnd;) {
      const bits = load<u32>(r, MREC_BITS);
      if (bits & MREC_F_GROUP) {
        inGlobal = (bits & MREC_F_GLOBAL) != 0;
        mask = bits & MREC_F_NAMES ? r + <usize>MGROUP_MASK : 0;
        r += <usize>MGROUP_MASK + (mask != 0 ? <usize>words << 2 : 0);
        continue;
      }
      if (ruleMatches(r, head, plen, last)) {
        const n = load<u32>(r, MRULE_LEN);
        const allow = (bits & MREC_F_ALLOW) != 0;
        const line = load<u32>(r, MRULE_LINE);
        if (inGlobal) consider(global, allow, n + 1, line);
        if (mask != 0) {
          for (let w: u32 = 0; w < words; w++) {
            let m = load<u32>(mask + (<usize>w << 2));
            while (m != 0) {
              consider(best + <usize>((w << 5) + ctz<u32>(m)) * B_SIZE, allow, n + 1, line);
              m &= m - 1;
            }
          }
        }
      }
      r += <usize>MRULE_SIZE;
    }
    // Agents no group names get the global groups' verdict; the named ones their own.
    const g = verdict(global);
    for (let a: u32 = 0; a < agentCount; a++) store<i32>(out + ((<usize>a * stride + i) << 2), g);
    for (let k: u32 = 0; k < namedCount; k++) {
      const a = load<u32>(namedList + (<usize>k << 2));
      store<i32>(out + ((<usize>a * stride + i) << 2), verdict(best + <usize>a * B_SIZE));
    }
  }
}
