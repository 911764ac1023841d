import { defineConfig } from '@playwright/test'

// Debian's Chromium, never a downloaded browser. LOOMVERSE_CHROMIUM overrides the path.
const executablePath = process.env.LOOMVERSE_CHROMIUM ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/globalSetup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        // This machine's network is closed: keep Chromium from dialling out in the background.
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
})
