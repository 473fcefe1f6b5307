// The suite tests the engine that was built last. Vitest's module cache keys a module by its text,
// and build/robots.wasm read as text turns most binary edits into the same replacement
// characters, so with that cache on, a rebuilt engine could be tested as its predecessor; the
// config turns the cache off (vitest.config.ts) and this test catches it coming back.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import embedded from '../build/robots.wasm'

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex')

test('the wasm the tests load is build/robots.wasm as it is on disk now', () => {
  const onDisk = readFileSync(join(import.meta.dirname, '..', 'build', 'robots.wasm'))
  expect(sha1(Buffer.from(embedded as unknown as string, 'base64'))).toBe(sha1(onDisk))
})
