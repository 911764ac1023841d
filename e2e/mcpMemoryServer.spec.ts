import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import type { AppPage } from './pages/app.page'

// Issue #39: a persona's memory for the user's other agents over Streamable HTTP, from a running
// `loomverse serve`. The user makes a token per agent in Settings → Connected programs; only one
// made to notify is offered notify.

/** Makes a token in Connected programs (the dialog left open) and returns it. */
async function makeToken(page: Page, app: AppPage, name: string, notify: boolean): Promise<string> {
  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Connected programs…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connected programs' })
  await dialog.getByRole('textbox', { name: 'Program' }).fill(name)
  if (notify) await dialog.getByRole('checkbox', { name: /may also notify personas through MCP/ }).check()
  await dialog.getByRole('button', { name: 'Create token' }).click()
  await expect(dialog.getByRole('status')).toContainText(name)
  return (await dialog.getByLabel('New token').textContent())!
}

async function toolsFor(port: number, token: string): Promise<string[]> {
  const client = new Client({ name: 'agent', version: '1' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  )
  try {
    return (await client.listTools()).tools.map((t) => t.name)
  } finally {
    await client.close()
  }
}

test('an agent reads memory over /api/mcp with a token from Connected programs, and may notify only with a token made to', async ({
  app,
  page,
  server,
}, testInfo) => {
  await app.open()
  const reader = await makeToken(page, app, 'Cursor', false)
  await page.keyboard.press('Escape')
  const writer = await makeToken(page, app, 'Claude Desktop', true)

  const dialog = page.getByRole('dialog', { name: 'Connected programs' })
  await expect(dialog.getByRole('row', { name: /Cursor/ })).toContainText('reads')
  await expect(dialog.getByRole('row', { name: /Claude Desktop/ })).toContainText('reads, notifies')
  await page.screenshot({ path: testInfo.outputPath('programs-light-en.png') })

  expect(await toolsFor(server.port, reader)).not.toContain('notify')
  expect(await toolsFor(server.port, writer)).toContain('notify')
  expect(await toolsFor(server.port, writer)).toContain('memory_search')

  await page.keyboard.press('Escape')
  await app.settingsButton('Settings').click()
  await app.chooseSetting('Theme', 'dark')
  await app.chooseSetting('Language', 'ja')
  await page.keyboard.press('Escape')
  await app.settingsButton('設定').click()
  await page.getByRole('button', { name: '連携プログラム…' }).click()
  await expect(page.getByRole('dialog', { name: '連携プログラム' })).toContainText('読み取り・通知')
  await page.screenshot({ path: testInfo.outputPath('programs-dark-ja.png') })
})
