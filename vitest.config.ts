import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'shared') } },
  test: {
    // Playwright owns *.spec.ts under e2e/.
    include: ['{main,preload,renderer,shared,scripts,tests}/**/*.test.ts'],
    environment: 'node',
    // Worker entries bundled once per run (tests/support/sourceWorker picks them up).
    globalSetup: ['tests/support/builtTestWorkers.ts'],
    // Tests start TypeScript worker threads and real servers; on a busy 2-core machine that can
    // take seconds, so the 5 s default fails healthy tests. Waits are on events, never on time.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
