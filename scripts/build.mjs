// Bundles src/ into dist/ (run after `asc` has written build/robots.wasm):
//   dist/index.js, dist/index.cjs  Node and bundlers; the wasm bytes embedded (esbuild's binary loader)
//   dist/workerd.js + robots.wasm  Cloudflare Workers; the .wasm imported as a module
// Type declarations come from `tsc -p tsconfig.build.json` (dist/types/).
import { build } from 'esbuild'
import { copyFileSync, mkdirSync } from 'node:fs'

const common = { bundle: true, platform: 'neutral', target: 'es2022', legalComments: 'none', logLevel: 'warning' }

const wasmAsModule = {
  name: 'wasm-as-module',
  setup(b) {
    b.onResolve({ filter: /\.wasm$/ }, () => ({ path: './robots.wasm', external: true }))
  },
}

mkdirSync('dist', { recursive: true })
await Promise.all([
  build({ ...common, entryPoints: ['src/index.ts'], format: 'esm', outfile: 'dist/index.js', loader: { '.wasm': 'binary' } }),
  build({ ...common, entryPoints: ['src/index.ts'], format: 'cjs', outfile: 'dist/index.cjs', loader: { '.wasm': 'binary' } }),
  build({ ...common, entryPoints: ['src/workerd.ts'], format: 'esm', outfile: 'dist/workerd.js', plugins: [wasmAsModule] }),
])
copyFileSync('build/robots.wasm', 'dist/robots.wasm')
