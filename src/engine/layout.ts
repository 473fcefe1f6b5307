// Every binary layout that crosses the boundary between the wasm engine and its host, defined once.
// Both sides compile this very file: the AssemblyScript modules in assembly/ import it, and so does
// the TypeScript host (wasm.ts, table.ts, scanner.ts, parse.ts). It is written in the subset of TypeScript that
// AssemblyScript also accepts (plain integer constants), so a field can never mean one offset on
// one side and another on the other; test/layout.test.ts checks that the built wasm agrees.
//
// Offsets are in bytes from the start of their record; integers are little-endian.

// ─── Compiled table (written by assembly/table.ts, read by assembly/matcher.ts and src/engine/table.ts)
// Header: u32 fields. The *_OFF fields are byte offsets from the table's start. The rules follow
// the header (at TABLE_HEADER_SIZE): an offset for them would cost every table 4 bytes.
export const TABLE_N_RULES = 0
export const TABLE_N_ALWAYS = 4
export const TABLE_POOL_OFF = 8
export const TABLE_MAX_PAT = 12
/**
 * Offset of the keys of a small sorted part (SORTED_SCAN_MAX rules at most): a u32 per sorted rule,
 * the first four bytes of its literal as one big-endian number, zero-padded; padded with 0xffffffff
 * to a multiple of four. 0 when the part is indexed instead.
 */
export const TABLE_KEYS_OFF = 16
/** Index after the always part's SUFFIX groups. */
export const TABLE_SUFFIX_END = 20
/** Bit (b & 31) set for the filter byte b of each SUFFIX group. */
export const TABLE_SUFFIX_BLOOM = 24
/**
 * Offset of the index of a sorted part larger than SORTED_SCAN_MAX rules, or 0: TABLE_INDEX_ENTRIES
 * u32 counts of sorted rules, so that the rules whose literal's second byte maps to slot s (see
 * INDEX_FIRST_BYTE) are [entry s, entry s + 1).
 */
export const TABLE_INDEX_OFF = 28
/**
 * Offset of the wide keys of an indexed sorted part, or 0: WIDE_KEY_SIZE bytes per sorted rule, the
 * literal's bytes 1-12 (byte 0 is always '/'), zero-padded, as big-endian numbers: bytes 1-8 as a
 * u64 at WIDE_KEY_HI, bytes 9-12 as a u32 at WIDE_KEY_LO.
 */
export const TABLE_WIDE_OFF = 32
export const TABLE_HEADER_SIZE = 36
/**
 * Slots of the index: a second byte c in [INDEX_FIRST_BYTE, INDEX_LAST_BYTE] has slot
 * c - INDEX_FIRST_BYTE + 1; bytes below share slot 0 and bytes above the last slot, 95. Normalized
 * paths and patterns escape every byte >= 0x80 and rarely hold a space or a control byte, so those
 * two slots stay nearly empty and the index costs 388 bytes, not 1 KiB for all 256.
 */
export const INDEX_FIRST_BYTE = 0x21
export const INDEX_LAST_BYTE = 0x7e
/** Entries of that index: one per slot and the end. */
export const TABLE_INDEX_ENTRIES = 97
/** Sorted parts up to this many rules have no index: the matcher filters them whole by their keys. */
export const SORTED_SCAN_MAX = 64
export const WIDE_KEY_HI = 0
export const WIDE_KEY_LO = 8
export const WIDE_KEY_SIZE = 12
/** Literal bytes before those a wide key holds, and the first after them. */
export const WIDE_KEY_FROM = 1
export const WIDE_KEY_END = 13

// Rule record.
/** u32: pattern bytes at pool + this (escaped, RFC 9309 2.2.2; Google's MaybeEscapePattern). */
export const RULE_PAT_OFF = 0
/** u32: line number in the robots.txt. */
export const RULE_LINE = 4
/** u32: sorted part, index + 1 of the next candidate rule (0 = end); always part, the filter byte. */
export const RULE_LINK = 8
/** u16: priority (every '*' and a final '$' count). */
export const RULE_PAT_LEN = 12
/** u16: length of the literal prefix (up to the first '*' or final '$'). */
export const RULE_LIT_LEN = 14
/** u8: RULE_F_* bits and the type in bits 1-3. */
export const RULE_FLAGS = 16
/** u8: always part only, how many rules after this one share its group. */
export const RULE_SKIP = 17
/** u16: SUFFIX/CONTAINS/WILD, offset of the first segment after the stars. */
export const RULE_SEG_OFF = 18
export const RULE_SIZE = 20

export const RULE_F_ALLOW = 1
export const RULE_TYPE_SHIFT = 1
export const RULE_TYPE_MASK = 7
/** The pattern ends in '$'. */
export const RULE_F_ANCHORED = 16
/** The text as written follows the pattern in the pool: u16 length, then the bytes. */
export const RULE_F_HAS_ORIG = 32
/** Always part, CONTAINS only: the segment starts with the group's filter byte. */
export const RULE_F_AT_FILTER = 64

// Rule types (RULE_FLAGS >> RULE_TYPE_SHIFT & RULE_TYPE_MASK).
/** Matches when the literal prefix does (also "/a*", "/a*$", ""). */
export const TYPE_LITERAL = 0
/** "/a$": the path is exactly the literal prefix. */
export const TYPE_EXACT = 1
/** Anything else with '*': the general segment matcher. */
export const TYPE_WILD = 2
/** "/a*x$" (one literal segment after the stars): the path ends with it. */
export const TYPE_SUFFIX = 3
/** "/a*x" (one literal segment after the stars): found once. */
export const TYPE_CONTAINS = 4

// ─── Scan record: one per line of the body, u32 fields (assembly/scanner.ts writes them; the
// host's Builder in parse.ts reads them, and scanBodyTs in scanner.ts, its TypeScript twin, writes the same).
export const SCAN_LINE = 0
/** The line's kind (KIND_*) in the low byte, SCAN_F_* flags above it. */
export const SCAN_KIND = 4
/** The raw line: from its first byte to its break, before any cut. */
export const SCAN_LINE_START = 8
export const SCAN_LINE_END = 12
/** Directives: the key and the value (trimmed, comment removed). Other lines: KEY = VAL start =
 *  the trimmed text's start, VAL end = its end. */
export const SCAN_KEY_START = 16
export const SCAN_KEY_END = 20
export const SCAN_VAL_START = 24
export const SCAN_VAL_END = 28
export const SCAN_RECORD_SIZE = 32

export const KIND_MASK = 0xff
export const KIND_USER_AGENT = 0
export const KIND_ALLOW = 1
export const KIND_DISALLOW = 2
export const KIND_SITEMAP = 3
/** Any other key (crawl-delay, host, unknown ones). */
export const KIND_OTHER = 4
/** Nothing left after trimming and comment removal, and no comment. */
export const KIND_EMPTY = 5
/** Only a comment. */
export const KIND_COMMENT = 6
/** Text without a usable key and value. */
export const KIND_INVALID = 7

/** The key is an accepted misspelling ("useragent", "dissallow", "site-map", ...). */
export const SCAN_F_TYPO = 256
/** Key and value were separated by whitespace, not a colon. */
export const SCAN_F_NO_COLON = 512
/** The line was longer than MAX_LINE_BYTES; the rest was ignored. */
export const SCAN_F_TOO_LONG = 1024
/** The line has a '#' comment. */
export const SCAN_F_COMMENT = 2048
/** A user-agent line whose value is the global '*'. */
export const SCAN_F_GLOBAL = 4096
/** An allow/disallow value with '%' or a byte >= 0x80: it may need escaping. */
export const SCAN_F_ESCAPE = 8192

/** Google's ParseRobotsTxt (kMaxLineLen - 1): bytes of a line that are read; the rest is ignored. */
export const MAX_LINE_BYTES = 16663

// ─── The trailer after a coded compact body (assembly/compact.ts compactFinish writes it; the host
// keeps the two together and reads the length before it loads the body back).
/** u32: the length of the plain compact body the coded one expands to. */
export const CODED_PLAIN_LENGTH = 0
export const CODED_TRAILER = 4

// ─── The named-token signature (assembly/compiler.ts writes it during a compile's scan; the host's
// matcher cache, src/engine/agent-cache.ts, reads it): a 128-bit Bloom filter of the product tokens
// the user-agent lines name (each line's leading A-Z a-z - _, lower-cased). A token sets two bits:
// h >>> NAMED_BIT_SHIFT (the top seven bits of h) for h the FNV-1a of its bytes (the basis, then per
// byte XOR and multiply by the prime, mod 2^32), and the same for the FNV-1a of its bytes followed
// by NAMED_SECOND. Bit b is bit (b & 31) of u32 word (b >> 5). A token with either bit clear names
// no group of the body, so an agent made only of such tokens gets the global groups, as every other
// such agent does.
export const NAMED_HASH_BASIS = 2166136261
export const NAMED_HASH_PRIME = 16777619
/** The byte after the token for its second bit (no token holds it). */
export const NAMED_SECOND = 0xff
export const NAMED_BIT_SHIFT = 25
export const NAMED_WORDS = 4

// ─── The matrix pass (assembly/matrix.ts): many agents x many URLs from one scan of the body.
// The host writes an entry per agent and token that can name a group (lower-case a-z - _), then
// the tokens' bytes; a token of several agents has an entry for each.
/** u32: the token's FNV-1a (NAMED_HASH_*), as the pass hashes a user-agent line's token. */
export const MTOKEN_HASH = 0
/** u32: where the token's bytes start, from the first entry. */
export const MTOKEN_START = 4
export const MTOKEN_LEN = 8
/** u32: the agent whose token it is, from 0. */
export const MTOKEN_AGENT = 12
export const MTOKEN_SIZE = 16
// What matrixScan writes at the start of its work area, for matrixCheck and the host: the named
// mask (a bit per agent some group names, in `words` u32 words), then, from matrixFirstRecord()
// to the address matrixScan returned, records in file order: a group record before the rules of
// each group that is global or names an agent (and one for a group that names an agent and has
// no rules), a rule record per rule of those groups (and one after an allow for its index.html
// rule, on the same line). Every record starts with its MREC_F_* bits.
export const MREC_BITS = 0
export const MREC_F_GROUP = 1
/** A group record: the group is global (one of its user-agent lines is `*`). */
export const MREC_F_GLOBAL = 2
/** A group record: the group names an agent; its mask follows at MGROUP_MASK. */
export const MREC_F_NAMES = 4
/** A rule record: an allow. */
export const MREC_F_ALLOW = 8
/** A rule record: the pattern ends with '$' (RFC 9309 2.2.3). */
export const MREC_F_ANCHORED = 16
/**
 * A rule record: the pattern ends with '$' after a literal byte, which a matching path ends with;
 * the byte is at bits MREC_LAST_SHIFT to MREC_LAST_SHIFT + 7 of the record's bits.
 */
export const MREC_F_LAST = 32
export const MREC_LAST_SHIFT = 8
/** u32: the group's allow lines whose pattern can match (non-empty, starting with '/' or '*'). */
export const MGROUP_ALLOWS = 4
export const MGROUP_DISALLOWS = 8
/**
 * u32: the line of the group's first rule, or one past the last line for a group with none (only
 * the last group can have none): it tells groups apart across passes over the same body.
 */
export const MGROUP_LINE = 12
/** The agents the group names, a bit per agent in `words` u32 words (MREC_F_NAMES only). */
export const MGROUP_MASK = 16
/** u32: the address of the rule's pattern, normalized (RFC 9309 2.2.2), and its length. */
export const MRULE_PAT = 4
export const MRULE_LEN = 8
export const MRULE_LINE = 12
/**
 * u64: the first bytes of the pattern's literal prefix (up to 8, before any '*'), and a mask of
 * them: a path whose first bytes differ under the mask cannot match it.
 */
export const MRULE_KEY = 16
export const MRULE_KEY_MASK = 24
/** u32: the length of the literal prefix, and of the pattern without a final '$' (MREC_F_ANCHORED). */
export const MRULE_LITERAL = 32
export const MRULE_BODY = 36
export const MRULE_SIZE = 40

// ─── compileList's rule refs, written by the host (wasm.ts) for rules it selected itself.
export const REF_PAT_PTR = 0
export const REF_PAT_LEN = 4
export const REF_ORIG_PTR = 8
export const REF_ORIG_LEN = 12
export const REF_LINE = 16
/** REF_F_* bits. */
export const REF_BITS = 20
export const REF_SIZE = 24

export const REF_F_ALLOW = 1
export const REF_F_HAS_ORIG = 2
/** Compiler-internal: the rule stands in a group naming the agent / in a global group. */
export const REF_F_SPECIFIC = 4
export const REF_F_GLOBAL = 8

// ─── Verdict lines (assembly/verdicts.ts writes them for the CLI's `check --urls`): per input line,
// a code (i32: the matching line when allowed, ~line when disallowed) and a mark (u8, VERDICT_*).
/** The line's code stands. */
export const VERDICT_CODE = 0
/** The host rejected the line: `error<TAB>0<TAB>` and the URL echoed. */
export const VERDICT_ERROR = 1
/** The host rejected the line and its text is not echoed (longer than the CLI accepts). */
export const VERDICT_ERROR_SILENT = 2
/** The most bytes an output line adds to its URL: "disallowed\t" + 10 digits + "\t" + "\n". */
export const VERDICT_LINE_OVERHEAD = 23

// ─── Line bounds (assembly/url.ts lineBounds, read by src/engine/wasm.ts): per URL line, as the line
// exports split them, u32 fields.
export const LINE_START = 0
/** The end of the line's text: its '\n', or the '\r' before it, or the end of the data. */
export const LINE_END = 4
export const LINE_BOUNDS_SIZE = 8
