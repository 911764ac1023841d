import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { testServers } from '../tests/support/mcp/testServers'
import type { Page } from '@playwright/test'
import { expect, replyRequests, test } from './fixtures'
import type { AppPage } from './pages/app.page'
import type { GraphPage } from './pages/graph.page'
import { words } from './pages/words'

/** A new conversation, with one of the test servers listed in mcp.json as a user's file would list it. */
async function openWithServer(app: AppPage, graph: GraphPage, home: string, name: keyof typeof testServers) {
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { [name]: testServers[name] } }))
  await app.open()
  await graph.newFlow()
}

/** A server listed in mcp.json, run once confirmed in Settings → Tools (browser mode). */
async function runServer(page: Page, app: AppPage, name = 'everything'): Promise<void> {
  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Tools (MCP servers)…' }).click()
  const tools = page.getByRole('dialog', { name: 'Tools (MCP servers)' })
  const row = tools.getByTestId('mcp-server').filter({ hasText: name })
  await row.getByRole('button', { name: 'Run…' }).click()
  await expect(row.getByTestId('mcp-status')).toHaveText('Connected')
  await tools.getByRole('button', { name: 'Close', exact: true }).last().click()
}

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
  await openWithServer(app, graph, server.home, 'everything')
  await runServer(page, app)

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
  const sent = JSON.stringify(replyRequests(llm).at(-1)!.body)
  expect(sent).toContain('What does this say?')
  expect(sent).toContain('uri=\\"demo://resource/static/document/architecture.md\\"')

  await page.keyboard.press('Control+k')
  await page.getByRole('combobox', { name: 'Command palette' }).fill('Prompt: everything / args-prompt')
  // The servers' prompts load when the palette opens: Enter once theirs is the chosen entry.
  await expect(page.getByRole('option', { name: /everything \/ args-prompt/, selected: true })).toBeVisible()
  await page.keyboard.press('Enter')
  const prompt = page.getByRole('dialog', { name: 'Prompt: args-prompt' })
  await prompt.getByLabel('city', { exact: true }).fill('Kyoto')
  await page.screenshot({ path: testInfo.outputPath('prompt.png') })
  await prompt.getByRole('button', { name: 'Put in the message box' }).click()
  await expect(page.getByLabel('Prompt', { exact: true })).toHaveValue(/Kyoto/)
})

test('lists the MCP prompts when / starts the message box: filtered as you type, chosen with the arrows and Enter, closed with Escape', async ({
  app,
  page,
  graph,
  server,
}, testInfo) => {
  await openWithServer(app, graph, server.home, 'everything')
  const box = page.getByLabel('Prompt', { exact: true })
  const list = page.getByRole('listbox', { name: 'Prompts from MCP servers' })

  // No server running yet: a slash is only a slash.
  await box.fill('/')
  await expect(list).toBeHidden()

  await runServer(page, app)
  await box.fill('')
  await box.pressSequentially('/')
  const options = list.getByRole('option')
  await expect(options.filter({ hasText: '/simple-prompt' })).toHaveCount(1)
  await expect(options.filter({ hasText: '/args-prompt' })).toContainText('/args-prompt city [state]')
  await expect(options.first()).toHaveAttribute('aria-selected', 'true')
  await page.screenshot({ path: testInfo.outputPath('slash-light-en.png') })

  await box.press('Escape')
  await expect(list).toBeHidden()
  await expect(box).toHaveValue('/')

  // Typing filters; Enter uses a prompt without arguments at once.
  await box.pressSequentially('simp')
  await expect(options).toHaveCount(1)
  await box.press('Enter')
  await expect(box).toHaveValue('This is a simple prompt without arguments.')
  await expect(list).toBeHidden()

  // The arrows move to a prompt with arguments; Enter asks for them as the palette's command does.
  await box.fill('')
  await box.pressSequentially('/')
  await expect(options.first()).toHaveAttribute('aria-selected', 'true')
  const names = await options.locator('.slash-prompt-name').allInnerTexts()
  const args = names.findIndex((n) => n.startsWith('/args-prompt '))
  for (let i = 0; i < args; i++) await box.press('ArrowDown')
  await expect(options.filter({ hasText: '/args-prompt' })).toHaveAttribute('aria-selected', 'true')
  await box.press('Enter')
  const prompt = page.getByRole('dialog', { name: 'Prompt: args-prompt' })
  await prompt.getByLabel('city', { exact: true }).fill('Osaka')
  await prompt.getByRole('button', { name: 'Put in the message box' }).click()
  await expect(box).toHaveValue("What's weather in Osaka?")

  // The same list in the dark theme and Japanese.
  await app.settingsButton('Settings').click()
  await app.chooseSetting('Theme', 'dark')
  await app.chooseSetting('Language', 'ja')
  await page.keyboard.press('Escape')
  const ja = page.getByLabel(words('ja').graph.prompt, { exact: true })
  await ja.fill('')
  await ja.pressSequentially('/')
  const jaList = page.getByRole('listbox', { name: words('ja').mcp.prompts.title })
  await expect(jaList.getByRole('option').first()).toHaveAttribute('aria-selected', 'true')
  await page.screenshot({ path: testInfo.outputPath('slash-dark-ja.png') })
})

test('attaches binary MCP resources as files: a picture as a picture, a PDF named with type and size, one too big refused with its size', async ({
  app,
  page,
  graph,
  llm,
  server,
}, testInfo) => {
  await openWithServer(app, graph, server.home, 'unruly')
  await runServer(page, app, 'unruly')
  const attach = async (name: string) => {
    await page.getByRole('button', { name: 'Attach from an MCP server…' }).click()
    await page
      .getByRole('dialog', { name: 'Attach a resource from an MCP server' })
      .getByRole('button', { name: `Attach ${name}` })
      .click()
  }

  await attach('dot.png')
  await expect(page.getByRole('list', { name: 'Images attached to your next message' }).getByRole('img')).toHaveCount(1)
  await attach('report.pdf')
  await expect(page.getByTestId('attached-resource')).toHaveText(/report\.pdf\s*\(application\/pdf, 3\.0 KB\)/)
  await attach('big.bin')
  await expect(page.getByRole('alert').filter({ hasText: 'big.bin' })).toContainText('16.0 MiB')
  await page.keyboard.press('Escape')
  await page.screenshot({ path: testInfo.outputPath('binary-attached.png') })

  llm.script({ provider: 'openai', times: 1, reply: 'I see a dot and a report.' })
  await page.getByLabel('Prompt', { exact: true }).fill('What are these?')
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('transcript-response')).toHaveText('I see a dot and a report.')
  const sent = JSON.stringify(replyRequests(llm).at(-1)!.body)
  expect(sent).toContain('data:image/png;base64,iVBORw0KGgo')
  expect(sent).toContain('[unruly://report.pdf: application/pdf, 3,009 bytes of binary, not included]')
})
