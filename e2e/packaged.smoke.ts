import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { startFakeLlm } from '../tests/support/fakeLlm'
import { llmEnv } from '../tests/support/serveProcess'
import { GraphPage } from './pages/graph.page'
import { MemoryPage } from './pages/memory.page'
import { openPersonas } from './pages/persona.steps'

// The packaged app (npm run dist -- --dir) started as a user would: it opens its database from
// inside the asar, answers a chat from the fake LLM, and leaves a screenshot. Run with
// `npm run smoke:packaged`; release CI runs it on Windows, macOS and Linux. Playwright drives
// Electron through --inspect, so build the app under test with the nodeCliInspect fuse on:
// `npm run dist -- --dir -c.electronFuses.enableNodeCliInspectArguments=true` (installers keep it off).

/** The packaged executable electron-builder left in dist/ for this system, if any. */
function packagedExecutable(): string | null {
  const dist = resolve('dist')
  if (!existsSync(dist)) return null
  const candidates =
    process.platform === 'darwin'
      ? readdirSync(dist)
          .filter((d) => d.startsWith('mac'))
          .map((d) => join(dist, d, 'Loomverse.app', 'Contents', 'MacOS', 'Loomverse'))
      : process.platform === 'win32'
        ? readdirSync(dist)
            .filter((d) => d.startsWith('win') && d.endsWith('unpacked'))
            .map((d) => join(dist, d, 'Loomverse.exe'))
        : readdirSync(dist)
            .filter((d) => d.startsWith('linux') && d.endsWith('unpacked'))
            .map((d) => join(dist, d, 'loomverse'))
  return candidates.find((file) => existsSync(file)) ?? null
}

const executablePath = packagedExecutable()

// eslint-disable-next-line no-empty-pattern
test('the packaged app starts, opens its database and answers a chat', async ({}, testInfo) => {
  test.skip(
    !executablePath,
    'No packaged app in dist/: run `npm run dist -- --dir -c.electronFuses.enableNodeCliInspectArguments=true` where Electron can be downloaded.',
  )
  const home = mkdtempSync(join(tmpdir(), 'loomverse-smoke-'))
  const llm = await startFakeLlm()
  const app = await electron.launch({
    executablePath: executablePath!,
    env: { ...process.env, ...llmEnv(llm), LOOMVERSE_HOME: home, LOOMVERSE_UPDATES: '0' },
  })
  try {
    const page = await app.firstWindow()
    await expect(page.locator('header.app-header')).toBeVisible({ timeout: 60_000 })
    const graph = new GraphPage(page, '')
    await graph.newFlow()
    llm.script({ provider: 'openai', reply: 'Hello from the fake model', times: 1 })
    await graph.send('Say hello')
    await expect(graph.card(1).getByTestId('node-response')).toContainText('Hello from the fake model')
    // The reply was stored: better-sqlite3 and vec0 loaded from app.asar.unpacked into the data home.
    expect(readdirSync(home)).not.toHaveLength(0)

    // The built-in sentence model (what a persona made in an English window searches memory
    // with) loads its WebAssembly and weights from inside app.asar, in the memory worker.
    const dialog = await openPersonas(page)
    await dialog.getByLabel('Name').fill('Mio')
    await dialog.getByLabel('Memory search').selectOption({ label: 'Built-in English sentence model (offline)' })
    await dialog.getByRole('button', { name: 'Create persona' }).click()
    await expect(dialog.getByRole('button', { name: 'Mio' })).toBeVisible()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await page.getByLabel('Persona', { exact: true }).selectOption({ label: 'Mio' })
    await graph.send('I have been going to kickboxing classes.')
    await expect(graph.card(2).getByTestId('node-response')).not.toBeEmpty()
    const memory = new MemoryPage(page)
    await memory.open()
    await expect(memory.panel.getByTestId('memory-vectors')).toHaveText('Sentence model: every memory embedded', {
      timeout: 120_000,
    })
    await page.screenshot({ path: testInfo.outputPath('packaged.png') })
  } finally {
    await app.close()
    await llm.close()
    rmSync(home, { recursive: true, force: true })
  }
})
