import { readFileSync } from 'node:fs'
import { pngWith, v2Card } from '../tests/support/foreignFiles'
import { expect, test } from './fixtures'
import { ConversationsPage } from './pages/conversations.page'
import { openPersonas } from './pages/persona.steps'

const card = {
  ...v2Card,
  data: {
    ...v2Card.data,
    character_book: {
      name: 'Glade lore',
      entries: [
        {
          keys: ['glade'],
          content: 'The glade is hidden by old magic.',
          comment: 'Glade',
          insertion_order: 10,
          enabled: true,
        },
        { keys: ['river'], content: 'The river runs north.', comment: 'River', enabled: true },
      ],
    },
  },
}

test('a card’s lorebook comes with it, fires in a chat (seen in the inspector), is edited in the lorebook dialog, and goes out and back in with the card', async ({
  app,
  page,
  llm,
}) => {
  await app.open()
  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Import and export…' }).click()
  const transfer = page.getByRole('dialog', { name: 'Import and export' })
  await transfer.getByLabel('Choose a file').setInputFiles({
    name: 'seraphina.png',
    mimeType: 'image/png',
    buffer: pngWith({ chara: Buffer.from(JSON.stringify(card)).toString('base64') }),
  })
  await transfer.getByRole('button', { name: 'Import seraphina.png' }).click()
  await expect(transfer.getByRole('status')).toContainText('Its lorebook came too')
  await transfer.getByRole('button', { name: 'Close' }).first().click()

  // The conversation the card opened: a prompt that names the glade fires its entry.
  await new ConversationsPage(page).open('Seraphina')
  llm.script({ provider: 'openai', reply: 'The trees part for you.', times: 1 })
  await page.getByLabel('Prompt').fill('Where is the glade?')
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('transcript').getByText('The trees part for you.')).toBeVisible()
  const sent = llm.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as {
    messages: Array<{ content: string }>
  }
  expect(sent.messages[0]!.content).toContain('The glade is hidden by old magic.')
  expect(sent.messages[0]!.content).not.toContain('The river runs north.')

  await page.getByRole('button', { name: 'Context' }).click()
  const inspector = page.getByRole('region', { name: 'Context inspector' })
  await inspector.getByRole('tab', { name: /Sent with/ }).click()
  const lore = inspector.locator('[data-kind=lore]')
  await expect(lore).toHaveCount(1)
  await expect(lore).toContainText('The glade is hidden by old magic.')
  await expect(lore).toContainText('Glade lore · Glade: key “glade” in your prompt')

  // The entry, edited in the lorebook dialog, is what the next prompt would carry.
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await palette.getByRole('combobox').fill('Lorebooks')
  await page.keyboard.press('Enter')
  const books = page.getByRole('dialog', { name: 'Lorebooks' })
  await books
    .getByRole('navigation', { name: 'Lorebooks' })
    .getByRole('button', { name: /Glade lore/ })
    .click()
  const entry = books.getByRole('form', { name: 'Entry' })
  await expect(entry.getByLabel('Title')).toHaveValue('Glade')
  await expect(books.getByLabel('Conversations with Seraphina')).toBeChecked()
  await entry.getByLabel('Text').fill('The glade is guarded by a white stag.')
  await entry.getByRole('button', { name: 'Save' }).click()
  await expect(books.getByRole('list', { name: 'Entries' })).toContainText('Glade')
  await books.getByRole('button', { name: 'Close' }).last().click()

  await inspector.getByRole('tab', { name: 'Next message' }).click()
  await page.getByLabel('Prompt').fill('Back to the glade.')
  await expect(inspector.locator('[data-kind=lore]')).toContainText('The glade is guarded by a white stag.')

  // The persona exported as a card and imported back brings the same book, edit included.
  const personas = await openPersonas(page)
  await personas.getByRole('list', { name: 'Personas' }).getByRole('button', { name: 'Seraphina' }).click()
  const download = page.waitForEvent('download')
  await personas.getByRole('button', { name: 'Export card (PNG)' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('Seraphina.png')
  const exported = readFileSync((await file.path())!)
  await personas.getByRole('button', { name: 'Close' }).last().click()

  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Import and export…' }).click()
  await transfer
    .getByLabel('Choose a file')
    .setInputFiles({ name: 'exported.png', mimeType: 'image/png', buffer: exported })
  await transfer.getByRole('button', { name: 'Import exported.png' }).click()
  await expect(transfer.getByRole('status')).toContainText('Its lorebook came too')
  await transfer.getByRole('button', { name: 'Close' }).first().click()

  await page.keyboard.press('Control+k')
  await palette.getByRole('combobox').fill('Lorebooks')
  await page.keyboard.press('Enter')
  const nav = books.getByRole('navigation', { name: 'Lorebooks' })
  await expect(nav.getByRole('button', { name: /Glade lore/ })).toHaveCount(2)
  await nav
    .getByRole('button', { name: /Glade lore/ })
    .last()
    .click()
  await expect(entry.getByLabel('Title')).toHaveValue('Glade')
  await expect(entry.getByLabel('Keys', { exact: true })).toHaveValue('glade')
  await expect(entry.getByLabel('Text')).toHaveValue('The glade is guarded by a white stag.')
  await expect(books.getByRole('list', { name: 'Entries' })).toContainText('River')
})
