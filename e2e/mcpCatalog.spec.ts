import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { testServers } from '../tests/support/mcp/testServers'
import { expect, test } from './fixtures'

// Issue #39: what an MCP server offers besides tools. A resource of the reference everything
// server is attached to a message like a file and goes out with it; a prompt with an argument
// is a command in the Ctrl+K palette that asks for it, then fills the message box.

test('attaches an MCP resource to a message and runs an MCP prompt from the palette', async ({
  app,
  page,
  graph,
  llm,
  server,
}, testInfo) => {
  // The server as a user's mcp.json (copied from another app) would list it.
  writeFileSync(join(server.home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: testServers.everything } }))
  await app.open()
  await graph.newFlow()

  // Its command runs once confirmed in Settings → Tools (browser mode).
  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Tools (MCP servers)…' }).click()
  const tools = page.getByRole('dialog', { name: 'Tools (MCP servers)' })
  const row = tools.getByTestId('mcp-server').filter({ hasText: 'everything' })
  await row.getByRole('button', { name: 'Run…' }).click()
  await expect(row.getByTestId('mcp-status')).toHaveText('Connected')
  await tools.getByRole('button', { name: 'Close', exact: true }).last().click()

  await page.getByRole('button', { name: 'Attach from an MCP server…' }).click()
  const resources = page.getByRole('dialog', { name: 'Attach a resource from an MCP server' })
  await resources.getByRole('button', { name: 'Attach architecture.md' }).click()
  await expect(resources).toBeHidden()
  await expect(page.getByTestId('attached-resource')).toHaveText(/architecture\.md/)
  await page.screenshot({ path: testInfo.outputPath('attached.png') })

  llm.script({ provider: 'openai', times: 1, reply: 'I read the document.' })
  await page.getByLabel('Prompt', { exact: true }).fill('What does this say?')
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('transcript-response')).toHaveText('I read the document.')
  await expect(page.getByTestId('attached-resource')).toHaveCount(0)
  const sent = JSON.stringify(llm.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body)
  expect(sent).toContain('What does this say?')
  expect(sent).toContain('uri=\\"demo://resource/static/document/architecture.md\\"')

  await page.keyboard.press('Control+k')
  await page.getByRole('combobox', { name: 'Command palette' }).fill('Prompt: everything / args-prompt')
  await page.keyboard.press('Enter')
  const prompt = page.getByRole('dialog', { name: 'Prompt: args-prompt' })
  await prompt.getByLabel('city', { exact: true }).fill('Kyoto')
  await page.screenshot({ path: testInfo.outputPath('prompt.png') })
  await prompt.getByRole('button', { name: 'Put in the message box' }).click()
  await expect(page.getByLabel('Prompt', { exact: true })).toHaveValue(/Kyoto/)
})
