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
  // Generous for a 2-core machine with other work running: a step waits for what the user
  // would see, never for a fixed time, so a slow machine only makes it slower, not wrong.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    // A click or fill that cannot happen fails in seconds, not at the test's timeout.
    actionTimeout: 15_000,
    headless: true,
    // Recording a trace snapshots the page on every action, which more than doubled the long
    // canvas specs' time with two workers on two cores. Opt in with LOOMVERSE_E2E_TRACE=1 to
    // debug; a failure still leaves a screenshot.
    trace: process.env.LOOMVERSE_E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
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
