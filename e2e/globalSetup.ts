import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/** e2e drives the built app, as a user runs it: build once before the first test. */
export default function globalSetup(): void {
  if (process.env.LOOMVERSE_E2E_SKIP_BUILD && existsSync('out/main/cli.js')) return
  execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
