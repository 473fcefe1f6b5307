// The shared corpus as a crawler meets it, one site at a time, for bench/per-site.mjs and its memory
// child: each file's bytes, the string every string-taking library is given, and its labelled links.
// Invariant: the string is the first 512,000 bytes decoded by TextDecoder (BOM dropped, bad bytes
// replaced), the body the labels were computed on (Google's 500 KiB limit applies first), and the
// one bench/per-site.py decodes the same way; the bytes are the whole file, which the package cuts itself.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const CUT = 512_000

/**
 * [{ file, host, robotsUrl, bytes, text, links: [{ agent, url, allowed }], first }] from
 * `corpus`/cases.jsonl and `corpus`/robots; links keep only cases with one agent (a string), since
 * the other libraries take one. `first` is the first link on the site's own origin, for a first check
 * that every library answers (robots-parser answers nothing for another origin).
 */
export function loadSites(corpus) {
  const dec = new TextDecoder()
  const sites = []
  for (const line of readFileSync(join(corpus, 'cases.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const rec = JSON.parse(line)
    // A plain Uint8Array, as fetch's arrayBuffer() gives, not a Buffer.
    const bytes = new Uint8Array(readFileSync(join(corpus, 'robots', rec.file)))
    const host = rec.file.replace(/\.txt$/, '')
    const origin = `https://${host}/`
    const links = rec.cases.filter((c) => typeof c.agent === 'string').map(({ agent, url, allowed }) => ({ agent, url, allowed }))
    const first = links.find((c) => c.url.startsWith(origin))?.url ?? origin
    sites.push({ file: rec.file, host, robotsUrl: `${origin}robots.txt`, bytes, text: dec.decode(bytes.subarray(0, CUT)), links, first })
  }
  return sites
}
