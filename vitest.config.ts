import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'shared') } },
  test: {
    // Playwright owns *.spec.ts under e2e/.
    include: ['{main,preload,renderer,shared,scripts,tests}/**/*.test.ts'],
    environment: 'node',
  },
})
