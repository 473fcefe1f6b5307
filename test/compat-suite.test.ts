// robots-parser's own test suite, run against robotstxt-wasm/compat the way its maintainers run it:
// their file (test/Robots.js, shipped in the robots-parser npm package, a devDependency) is read
// from node_modules at test time and run as mocha runs it (`describe`/`it`, chai's `expect`), with
// its `require('../index')` answered by the built `robotstxt-wasm/compat` (dist/compat.cjs, what
// `require('robotstxt-wasm/compat')` gives). Nothing of theirs is copied into this repository.
//
// The three isExplicitlyDisallowed tests are on robots-parser's main branch only (commits f07168c
// and bc137a4, October 2024, after 3.0.1). While the installed package does not ship them, their
// inputs and expected answers run as data below (facts, not code: robots-parser is MIT licensed,
// (c) Sam Clarke, https://github.com/samclarke/robots-parser).
//
// A test robots-parser passes and compat fails for a documented difference of semantics runs as
// an expected failure (`test.fails`): if compat ever passes it, this file fails, so the migration
// guide cannot go stale.

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { compileFunction } from 'node:vm'
import { chai, describe, expect, test } from 'vitest'
import { DIST, ensureDist } from './helpers/dist.js'

const require = createRequire(import.meta.url)

ensureDist()
const compat = require(join(DIST, 'compat.cjs')) as (url: unknown, contents: unknown) => Record<string, (...a: unknown[]) => unknown>

/**
 * Their tests compat fails on purpose, by name, with the section of docs/migrating-from-robots-parser.md
 * that lists the difference.
 */
const DIFFERENCES: Record<string, string> = {
  'should handle lone high / low surrogates': 'Lone surrogates: Google matches the U+FFFD both sides become',
}

const SUITE = require.resolve('robots-parser/test/Robots.js')
const VERSION = (require('robots-parser/package.json') as { version: string }).version
const source = readFileSync(SUITE, 'utf8')
const names: string[] = []

/**
 * Runs their file with mocha's globals as vitest's and `require('../index')` as `parser`; each test
 * name is passed to `register`, which declares it.
 */
function runTheirSuite(parser: unknown, register: (name: string, fn: () => void) => void): void {
  const requireShim = (id: string): unknown => {
    if (id === '../index') return parser
    if (id === 'chai') return chai
    throw new Error(`robots-parser's suite requires ${id}, which this harness does not provide`)
  }
  const run = compileFunction(source, ['require', 'describe', 'it'], { filename: SUITE })
  run(requireShim, describe, register)
}

describe(`robots-parser ${VERSION}'s test/Robots.js against robotstxt-wasm/compat`, () => {
  runTheirSuite(compat, (name, fn) => {
    names.push(name)
    if (name in DIFFERENCES) test.fails(`${name} (documented difference: ${DIFFERENCES[name]})`, fn)
    else test(name, fn)
  })
})

// The harness itself: robots-parser passes its own file when run this way.
describe(`robots-parser ${VERSION}'s test/Robots.js against robots-parser itself`, () => {
  runTheirSuite(require('robots-parser'), (name, fn) => test(name, fn))
})

/** robots-parser main's isExplicitlyDisallowed tests, as data: robots.txt URL, file, URL, agent, answer. */
const EXPLICIT: { name: string; robotsUrl: string; contents: string[]; url: string; ua: string; expected: boolean | undefined }[] = [
  {
    name: 'should not be disallowed when wildcard is used in explicit mode',
    robotsUrl: 'https://www.example.com/hello', contents: ['User-agent: *', 'Disallow: /'],
    url: 'https://www.example.com/hello', ua: 'SomeBot', expected: false,
  },
  {
    name: 'should be disallowed when user agent equal robots rule in explicit mode',
    robotsUrl: 'https://www.example.com/hello', contents: ['User-agent: SomeBot', 'Disallow: /'],
    url: 'https://www.example.com/hello', ua: 'SomeBot', expected: true,
  },
  {
    name: 'should return undefined when given an invalid URL in explicit mode',
    robotsUrl: 'http://example.com', contents: ['User-agent: SomeBot', 'Disallow: /'],
    url: 'https://www.example.com/hello', ua: 'SomeBot', expected: undefined,
  },
]

describe('robots-parser main\'s isExplicitlyDisallowed tests against robotstxt-wasm/compat', () => {
  const shipped = source.includes('isExplicitlyDisallowed')
  for (const c of EXPLICIT) {
    // Once an installed release ships them, they run above as their own code.
    test.skipIf(shipped)(c.name, () => {
      const robots = compat(c.robotsUrl, c.contents.join('\n'))
      expect(robots.isExplicitlyDisallowed!(c.url, c.ua)).toBe(c.expected)
    })
  }
})

describe('the suite itself', () => {
  test('every test of their file ran, and each expected failure names one of them', () => {
    // 3.0.1 ships 41 tests; with main's three isExplicitlyDisallowed tests that is 44.
    expect(names.length).toBeGreaterThanOrEqual(41)
    expect(new Set(names).size).toBe(names.length)
    for (const name of Object.keys(DIFFERENCES)) expect(names).toContain(name)
  })
})
