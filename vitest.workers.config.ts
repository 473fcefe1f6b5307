import { defineConfig } from 'vitest/config'
import { TOOL_ENV } from './test/workers/tool-env.js'

// Tests that run the package inside the real workerd runtime (through wrangler's API and CLI,
// see test/workers/). They use the built dist/ (npm run test:workers builds it first), as a Worker
// would; each test file starts and stops its own workerd.
export default defineConfig({
  test: {
    include: ['test/workers/**/*.test.ts'],
    setupFiles: ['test/workers/setup.ts'],
    env: TOOL_ENV,
    // Each file runs a workerd; one at a time keeps the load on a small machine predictable.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
