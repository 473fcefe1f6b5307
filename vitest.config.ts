import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

// Tests import src/ directly; the entry imports the .wasm as a base64 string, as esbuild's base64
// loader does for dist/.
const wasmBytes = {
  name: 'wasm-bytes',
  enforce: 'pre' as const,
  load(id: string) {
    if (!id.endsWith('.wasm')) return null
    const b64 = readFileSync(id).toString('base64')
    return `export default ${JSON.stringify(b64)}`
  },
}

export default defineConfig({
  plugins: [wasmBytes],
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/workers/**', 'node_modules/**'],
    globalSetup: ['test/helpers/system-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Off: the cache keys a module by its source read as text, and build/robots.wasm read as text
    // maps most binary edits to the same replacement characters, so a rebuilt engine could be
    // tested as the one before it (test/build.test.ts).
    fsModuleCache: false,
  },
})
