import { defineConfig } from '@playwright/test'

// `npm run smoke:packaged`: the packaged app under Playwright's Electron driver. It skips with
// a message when dist/ holds no packaged app (as on machines that cannot download Electron).
export default defineConfig({
  testDir: 'e2e',
  testMatch: 'packaged.smoke.ts',
  workers: 1,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: 'list',
  outputDir: 'test-results/packaged',
})
