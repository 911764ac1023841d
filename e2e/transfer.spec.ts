import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chatgptConversation, pngWith, v2Card } from '../tests/support/foreignFiles'
import { expect, test } from './fixtures'
import { ConversationsPage } from './pages/conversations.page'

test('imports a ChatGPT export and a character card from the window, then exports the conversation as Markdown', async ({
  app,
  page,
  server,
  graph,
}) => {
  await app.open()
  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Import and export…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import and export' })
  await expect(dialog).toContainText('Nothing in imports/ yet.')

  // A ChatGPT export, picked in the file chooser: sent into imports/, then imported with a report.
  await dialog.getByLabel('Choose a file').setInputFiles({
    name: 'conversations.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify([chatgptConversation()])),
  })
  const files = dialog.getByRole('list', { name: 'Files in imports/' })
  await expect(files).toContainText('conversations.json')
  await expect(dialog.getByLabel('What conversations.json is')).toHaveValue('chatgpt')
  await dialog.getByRole('button', { name: 'Import conversations.json' }).click()
  const report = dialog.getByRole('status')
  await expect(report).toContainText('Imported 4 turns in 1 conversations.')
  await expect(report).toContainText('Trip to Kyoto: 1 pictures or files not imported')

  // A character card inside a PNG becomes a persona.
  await dialog.getByLabel('Choose a file').setInputFiles({
    name: 'seraphina.png',
    mimeType: 'image/png',
    buffer: pngWith({ chara: Buffer.from(JSON.stringify(v2Card)).toString('base64') }),
  })
  await expect(dialog.getByLabel('What seraphina.png is')).toHaveValue('card')
  await dialog.getByRole('button', { name: 'Import seraphina.png' }).click()
  await expect(report).toContainText('Imported Seraphina as a persona, with 2 greetings.')
  await expect(report).toContainText('Its lorebook came too')

  // A card saved as JSON is guessed as a card by what it holds; chosen as a chat log, it is refused in plain words.
  await dialog.getByLabel('Choose a file').setInputFiles({
    name: 'lumi.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...v2Card, data: { ...v2Card.data, name: 'Lumi' } }, null, 2)),
  })
  const kind = dialog.getByLabel('What lumi.json is')
  await expect(kind).toHaveValue('card')
  await kind.selectOption('chat_log')
  await dialog.getByRole('button', { name: 'Import lumi.json' }).click()
  await expect(page.locator('.toast')).toContainText(
    'lumi.json: This file looks like a SillyTavern character card, not a chat log. Choose "Character card" to import it as a persona.',
  )
  await kind.selectOption('card')
  await dialog.getByRole('button', { name: 'Import lumi.json' }).click()
  await expect(report).toContainText('Imported Lumi as a persona, with 2 greetings.')
  await dialog.getByRole('button', { name: 'Close' }).click()

  // The imported conversation opens like any other and exports as Markdown.
  const conversations = new ConversationsPage(page)
  await expect(conversations.row('Trip to Kyoto')).toContainText('4 turns')
  await conversations.open('Trip to Kyoto')
  // The canvas shares the width with the transcript: fitted, it shows every card.
  await expect(page.locator('.react-flow__node').first()).toBeVisible()
  await graph.fitView()
  await expect(page.locator('.react-flow__node')).toHaveCount(4)
  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Import and export…' }).click()
  await dialog.getByRole('button', { name: 'Export as Markdown' }).click()
  await expect(report).toContainText('as Markdown:')
  const file = (await report.locator('li').first().textContent())!
  expect(file).toMatch(/^exports\/Trip to Kyoto-\d{8}-\d{6}\.md$/)
  const markdown = readFileSync(join(server.home, file), 'utf8')
  expect(markdown).toMatch(/^# Trip to Kyoto\n/)
  expect(markdown).toContain('> Where should I go in Kyoto?')
})
