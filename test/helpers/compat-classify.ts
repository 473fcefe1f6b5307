// Classifies a disagreement between robots-parser and compat: the smallest sets of documented
// differences (switches of compat-rp-model.ts) that turn robots-parser's answer into compat's.
// Each switch is one category of the migration guide; its predicate is "the model with this switch
// (alone, or with the others of a smallest set) gives compat's answer".

import { SWITCHES, modelCheck, modelParse, type ModelVerdict, type Switch } from './compat-rp-model.js'

/** One robots.txt text, with the model's parses memoized per switch set. */
export class ModelBody {
  readonly #runs = new Map<string, ReturnType<typeof modelParse>>()

  constructor(readonly text: string) {}

  check(on: ReadonlySet<Switch>, url: string, ua: string | undefined): ModelVerdict | null {
    const key = SWITCHES.filter((s) => on.has(s)).join()
    let runs = this.#runs.get(key)
    if (runs === undefined) this.#runs.set(key, (runs = modelParse(this.text, on)))
    return modelCheck(runs, on, url, ua)
  }
}

/** The switch sets of `size` elements, in SWITCHES order. */
function* subsets(size: number, from = 0): Generator<Switch[]> {
  if (size === 0) {
    yield []
    return
  }
  for (let i = from; i <= SWITCHES.length - size; i++) {
    for (const rest of subsets(size - 1, i + 1)) yield [SWITCHES[i]!, ...rest]
  }
}

/**
 * The first smallest switch set (at most `maxSize` switches) under which the model gives `target`
 * (compat's answer): the verdict only, or the verdict and the matching line. null when none does,
 * which means an undocumented difference.
 */
export function explain(body: ModelBody, url: string, ua: string | undefined, target: ModelVerdict, withLine: boolean, maxSize = 3): Switch[] | null {
  for (let size = 1; size <= maxSize; size++) {
    for (const set of subsets(size)) {
      const v = body.check(new Set(set), url, ua)
      if (v !== null && v.allowed === target.allowed && (!withLine || v.line === target.line)) return set
    }
  }
  return null
}

/**
 * The 'url' category in detail: what about the URL text makes WHATWG parsing (robots-parser) and
 * Google's GetPathParamsQuery (compat) read different paths. The first feature present, in this order; null
 * when none is, which means an undocumented difference.
 */
export const URL_FEATURES = [
  ['nul', (u: string) => u.includes('\0')], // we end the path at a NUL; the parser escapes it as %00
  ['whitespace', (u: string) => /[\t\n\r]|^[\0-\x20]|[\0-\x20]$/.test(u)], // the parser removes tabs/newlines, trims ends
  ['relative', (u: string) => !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(u) && !u.startsWith('/')], // `a/b`: we drop `a`
  ['authority', (u: string) => authorityDiffers(u)], // `http:///a`, `http://u;x@h/p`: hosts read differently
  ['backslash', (u: string) => u.includes('\\')], // the parser reads `\` as `/` in http(s) URLs
  ['dotSegments', (u: string) => /\/(?:\.|%2e){1,2}(?=[/?#]|$)/i.test(u)], // the parser resolves `/./` and `/../`
  ['emptyQuery', (u: string) => u.split('#')[0]!.endsWith('?')], // the parser drops a `?` with nothing after it
  ['percentEncoding', (u: string) => /[ "<>`{}'\x7f]/.test(u)], // the parser escapes these, we keep them
] as const

export type UrlFeature = (typeof URL_FEATURES)[number][0]

function authorityDiffers(url: string): boolean {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:)?(\/*)([^/?#\\]*)/.exec(url)!
  const slashes = m[2]!.length
  // We look for the path after "://" (or a leading "//") and stop the host at '/', '?' or ';'; the
  // URL parser accepts any number of slashes and stops the host at '/', '?', '#' or '\'.
  return (m[1] !== undefined && slashes !== 2) || (m[1] === undefined && slashes > 2) || m[3]!.includes(';')
}

export function urlFeature(url: string): UrlFeature | null {
  for (const [name, test] of URL_FEATURES) if (test(url)) return name
  return null
}

/**
 * Category labels of one disagreement: its smallest explanation with 'url' refined by the URL's
 * feature ('url:?' when there is none); null when nothing explains it.
 */
export function classify(body: ModelBody, url: string, ua: string | undefined, target: ModelVerdict, withLine: boolean): string[] | null {
  const set = explain(body, url, ua, target, withLine, 4)
  if (set === null) return null
  return set.map((s) => (s === 'url' ? `url:${urlFeature(url) ?? '?'}` : s))
}
