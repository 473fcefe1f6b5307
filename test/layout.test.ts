// The binary layouts shared by the wasm and the host (src/engine/layout.ts) cannot drift: the
// AssemblyScript stages declare none of their own and use no bare offsets, and what the wasm writes
// reads back correctly through the host's names (a compiled table field by field, a scan record
// field by field).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { utf8 } from '../src/engine/bytes.js'
import * as L from '../src/engine/layout.js'
import type { LineSink } from '../src/engine/scanner.js'
import { getEngine } from '../src/engine/wasm.js'
import { keptBytes } from './helpers/tables.js'
import { compileAgents, scanLines } from '../src/engine/wasm-body.js'
import '../src/index.js'

const ASSEMBLY = join(import.meta.dirname, '..', 'assembly')
const sources = readdirSync(ASSEMBLY).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(join(ASSEMBLY, f), 'utf8')] as const)

describe('layout: one definition, both sides', () => {
  test('no AssemblyScript stage redeclares a shared layout name', () => {
    const shared = Object.keys(L)
    for (const [file, text] of sources) {
      for (const name of shared) expect(`${file}: ${new RegExp(`\\b(const|let|var)\\s+${name}\\b`).test(text)}`).toBe(`${file}: false`)
    }
  })
  test('no load or store in assembly/ takes a bare numeric offset (1-3 address bytes inside a %HH triple or a UTF-8 sequence)', () => {
    const bare = /\b(load|store)<\w+>\(([^()]|\([^()]*\))*,\s*(\d+)\s*\)/g
    for (const [file, text] of sources) {
      for (const m of text.matchAll(bare)) {
        const line = text.slice(0, m.index).split('\n').length
        // store<T>(ptr, value) has two arguments: a number there is a value, not an offset.
        const args = m[0].slice(m[0].indexOf('(') + 1, -1).split(',').length
        if (m[1] === 'store' && args < 3) continue
        expect(`${file}:${line} ${m[0]}`).toMatch(/, [123]\)$/)
      }
    }
  })
  test('a compiled table reads back field by field through the host names', () => {
    const body = 'User-agent: *\nDisallow: /private/\nAllow: /*.pdf$\nDisallow: /*?q=\nAllow: /a/index.html\n'
    const table = keptBytes(compileAgents(getEngine(), utf8(body), ['bot']))
    const v = new DataView(table.buffer, table.byteOffset, table.byteLength)
    const u32 = (at: number) => v.getUint32(at, true)
    const n = u32(L.TABLE_N_RULES)
    expect(n).toBe(5) // four rules and the index.html rule's derived "/a/$"
    expect(u32(L.TABLE_KEYS_OFF)).toBe(L.TABLE_HEADER_SIZE + n * L.RULE_SIZE)
    expect(u32(L.TABLE_MAX_PAT)).toBe('/a/index.html'.length)
    const pool = u32(L.TABLE_POOL_OFF)
    const rules = []
    for (let i = 0; i < n; i++) {
      const at = L.TABLE_HEADER_SIZE + i * L.RULE_SIZE
      const off = pool + u32(at + L.RULE_PAT_OFF)
      const len = v.getUint16(at + L.RULE_PAT_LEN, true)
      const flags = v.getUint8(at + L.RULE_FLAGS)
      rules.push({
        line: u32(at + L.RULE_LINE),
        pattern: new TextDecoder().decode(table.subarray(off, off + len)),
        lit: v.getUint16(at + L.RULE_LIT_LEN, true),
        allow: (flags & L.RULE_F_ALLOW) !== 0,
        type: (flags >> L.RULE_TYPE_SHIFT) & L.RULE_TYPE_MASK,
        anchored: (flags & L.RULE_F_ANCHORED) !== 0,
      })
    }
    const byLine = rules.sort((a, b) => a.line - b.line || a.pattern.length - b.pattern.length)
    expect(byLine).toEqual([
      { line: 2, pattern: '/private/', lit: 9, allow: false, type: L.TYPE_LITERAL, anchored: false },
      { line: 3, pattern: '/*.pdf$', lit: 1, allow: true, type: L.TYPE_SUFFIX, anchored: true },
      { line: 4, pattern: '/*?q=', lit: 1, allow: false, type: L.TYPE_CONTAINS, anchored: false },
      { line: 5, pattern: '/a/$', lit: 3, allow: true, type: L.TYPE_EXACT, anchored: true },
      { line: 5, pattern: '/a/index.html', lit: 13, allow: true, type: L.TYPE_LITERAL, anchored: false },
    ])
  })
  test('a sorted part over SORTED_SCAN_MAX rules gets the index by second byte and wide keys instead of keys; a smaller one keys only', () => {
    const words = ['a', 'about', 'b', 'blog', 'c', 'cart', 'z', '~', '\u00e9t\u00e9', ' x', '\x7f', '\x01', '!', 'abcdefghijklmnopq']
    const lines = ['User-agent: *', 'Disallow: /', 'Disallow: /*.pdf$']
    for (let i = 0; lines.length < L.SORTED_SCAN_MAX + 40; i++) lines.push(`Disallow: /${words[i % words.length]}/${i}`)
    const read = (body: string) => {
      const table = keptBytes(compileAgents(getEngine(), utf8(body), ['bot']))
      const v = new DataView(table.buffer, table.byteOffset, table.byteLength)
      return { table, v, u32: (at: number) => v.getUint32(at, true) }
    }
    const small = read(lines.slice(0, 30).join('\n'))
    expect([small.u32(L.TABLE_INDEX_OFF), small.u32(L.TABLE_WIDE_OFF)]).toEqual([0, 0])
    expect(small.u32(L.TABLE_KEYS_OFF)).toBeGreaterThan(0)
    const { table, v, u32 } = read(lines.join('\n'))
    const index = u32(L.TABLE_INDEX_OFF)
    const wide = u32(L.TABLE_WIDE_OFF)
    expect(u32(L.TABLE_KEYS_OFF)).toBe(0)
    expect([index % 4, wide]).toEqual([0, index + 4 * L.TABLE_INDEX_ENTRIES])
    expect(wide).toBeGreaterThanOrEqual(index + 4 * L.TABLE_INDEX_ENTRIES)
    const nAlways = u32(L.TABLE_N_ALWAYS)
    const nSorted = u32(L.TABLE_N_RULES) - nAlways
    expect(nSorted).toBeGreaterThan(L.SORTED_SCAN_MAX)
    expect(u32(L.TABLE_POOL_OFF)).toBeGreaterThanOrEqual(wide + L.WIDE_KEY_SIZE * nSorted)
    // The literal of each sorted rule, in table order, read through the rule records.
    const literals = Array.from({ length: nSorted }, (_, j) => {
      const at = L.TABLE_HEADER_SIZE + (nAlways + j) * L.RULE_SIZE
      const off = u32(L.TABLE_POOL_OFF) + u32(at + L.RULE_PAT_OFF)
      return table.subarray(off, off + v.getUint16(at + L.RULE_LIT_LEN, true))
    })
    const slot = (c: number) => (c < L.INDEX_FIRST_BYTE ? 0 : Math.min(c, L.INDEX_LAST_BYTE + 1) - L.INDEX_FIRST_BYTE + 1)
    expect(slot(L.INDEX_LAST_BYTE + 1) + 2).toBe(L.TABLE_INDEX_ENTRIES)
    for (let s = 0; s < L.TABLE_INDEX_ENTRIES; s++) {
      expect([s, u32(index + 4 * s)]).toEqual([s, literals.filter((lit) => slot(lit[1]!) < s).length])
    }
    const word = (lit: Uint8Array, from: number, n: number) => {
      let w = 0n
      for (let i = from; i < from + n; i++) w = (w << 8n) | BigInt(lit[i] ?? 0)
      return w
    }
    literals.forEach((lit, j) => {
      const at = wide + j * L.WIDE_KEY_SIZE
      const got = [v.getBigUint64(at + L.WIDE_KEY_HI, true), BigInt(v.getUint32(at + L.WIDE_KEY_LO, true))]
      expect([j, ...got]).toEqual([j, word(lit, L.WIDE_KEY_FROM, 8), word(lit, L.WIDE_KEY_FROM + 8, L.WIDE_KEY_END - L.WIDE_KEY_FROM - 8)])
    })
  })
  test('a scan record reads back field by field through the host names', () => {
    const body = utf8('\uFEFFUser agent: Foo # c\n\n# only\n?? ??? ?\nDisallow: /%e9\r\n' + 'x'.repeat(20_000))
    const got: number[][] = []
    const sink: LineSink = { line: (...fields) => void got.push(fields) }
    scanLines(getEngine(), body, sink)
    const F = L
    expect(got).toEqual([
      [1, F.KIND_USER_AGENT | F.SCAN_F_TYPO | F.SCAN_F_COMMENT, 3, 22, 3, 13, 15, 18],
      [2, F.KIND_EMPTY, 23, 23, 23, 23, 23, 23],
      [3, F.KIND_COMMENT | F.SCAN_F_COMMENT, 24, 30, 24, 24, 24, 24],
      [4, F.KIND_INVALID, 31, 39, 31, 31, 31, 39],
      [5, F.KIND_DISALLOW | F.SCAN_F_ESCAPE, 40, 54, 40, 48, 50, 54],
      [6, F.KIND_INVALID | F.SCAN_F_TOO_LONG, 56, 56 + 20_000, 56, 56, 56, 56 + F.MAX_LINE_BYTES],
    ])
  })
})
