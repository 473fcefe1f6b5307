// Loads labelled case files (format: ../shared/README.md).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface LabelledCase {
  agent: string | string[]
  url: string
  allowed: boolean
  line: number
}

export interface LabelledBody {
  id: string
  body: Uint8Array
  cases: LabelledCase[]
}

const here = dirname(fileURLToPath(import.meta.url))
export const FIXTURES = join(here, '..', 'fixtures')
/** The shared corpus beside the project (not copied: 25 MB of real files). */
export const CORPUS = join(here, '..', '..', '..', 'shared', 'corpus')

export function loadFixture(name: string): LabelledBody[] {
  return loadJsonl(join(FIXTURES, name), null)
}

export function corpusAvailable(): boolean {
  return existsSync(join(CORPUS, 'cases.jsonl')) && existsSync(join(CORPUS, 'robots'))
}

export function loadCorpus(): LabelledBody[] {
  return loadJsonl(join(CORPUS, 'cases.jsonl'), join(CORPUS, 'robots'))
}

function loadJsonl(path: string, robotsDir: string | null): LabelledBody[] {
  const out: LabelledBody[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const rec = JSON.parse(line) as { id: string; robots_b64?: string; file?: string; cases: LabelledCase[] }
    const body = rec.robots_b64 !== undefined
      ? new Uint8Array(Buffer.from(rec.robots_b64, 'base64'))
      : new Uint8Array(readFileSync(join(robotsDir!, rec.file!)))
    out.push({ id: rec.id, body, cases: rec.cases })
  }
  return out
}
