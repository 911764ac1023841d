import { readFileSync } from 'node:fs'
import { pngWith, v2Card } from '../tests/support/foreignFiles'
import { expect, replyRequests, test } from './fixtures'
import type { AppPage } from './pages/app.page'
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

/**
 * Imports a card through Settings → Import and export, as a user does, and answers the report's
 * text once it says the card's lorebook came too; the dialog is closed again.
 */
async function importCard(
  app: AppPage,
  file: { name: string; mimeType: string; buffer: Buffer },
  settingsOpen = false,
): Promise<string> {
  const page = app.page
  if (!settingsOpen) await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Import and export…' }).click()
  const transfer = page.getByRole('dialog', { name: 'Import and export' })
  await transfer.getByLabel('Choose a file').setInputFiles(file)
  await transfer.getByRole('button', { name: `Import ${file.name}` }).click()
  const status = transfer.getByRole('status')
  await expect(status).toContainText('Its lorebook came too')
  const report = await status.innerText()
  await transfer.getByRole('button', { name: 'Close' }).first().click()
  return report
}

test('a card’s lorebook comes with it, fires in a chat (seen in the inspector), is edited in the lorebook dialog, and goes out and back in with the card', async ({
  app,
  page,
  llm,
}) => {
  await app.open()
  await importCard(app, {
    name: 'seraphina.png',
    mimeType: 'image/png',
    buffer: pngWith({ chara: Buffer.from(JSON.stringify(card)).toString('base64') }),
  })

  // The conversation the card opened: a prompt that names the glade fires its entry.
  await new ConversationsPage(page).open('Seraphina')
  llm.script({ provider: 'openai', reply: 'The trees part for you.', times: 1 })
  await page.getByLabel('Prompt').fill('Where is the glade?')
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('transcript').getByText('The trees part for you.')).toBeVisible()
  const sent = replyRequests(llm).at(-1)!.body as {
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
  await personas.getByRole('button', { name: 'Card and lorebooks' }).click()
  await page.getByRole('menuitem', { name: 'Export card (PNG)' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('Seraphina.png')
  const exported = readFileSync((await file.path())!)
  await personas.getByRole('button', { name: 'Close' }).last().click()

  await importCard(app, { name: 'exported.png', mimeType: 'image/png', buffer: exported })

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

test('the lorebook dialog from the More menu sets an entry’s advanced options and the book’s settings, the persona editor keeps a default note and a picture, and a CHARX card goes out and back in', async ({
  app,
  page,
  llm,
}) => {
  await app.open()
  // {{user}} reads the name in settings, as a card's greeting shows.
  await app.settingsButton('Settings').click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await settings.getByLabel('Your name').fill('Mina')
  await settings.getByLabel('Your name').press('Enter')
  const greeting = { ...card, data: { ...card.data, first_mes: '*{{char}} bows to {{user}}.*' } }
  const name = 'seraphina.json'
  await importCard(app, { name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(greeting)) }, true)
  await new ConversationsPage(page).open('Seraphina')
  // The greeting with its names is the first of the two; the graph's card shows it too.
  await expect(page.getByText('Seraphina bows to Mina.').first()).toBeVisible()

  // More → Lorebooks: the river entry goes in only as a user message two deep, case-sensitively.
  await page.getByTestId('header-more').click()
  await page.getByRole('menuitem', { name: 'Lorebooks and Author’s Note' }).click()
  const books = page.getByRole('dialog', { name: 'Lorebooks' })
  await books
    .getByRole('navigation', { name: 'Lorebooks' })
    .getByRole('button', { name: /Glade lore/ })
    .click()
  await books.getByRole('list', { name: 'Entries' }).getByRole('button', { name: 'River' }).click()
  const entry = books.getByRole('form', { name: 'Entry' })
  await entry.getByLabel('Goes').selectOption('at_depth')
  await entry.getByLabel('Depth', { exact: true }).fill('2')
  await entry.getByLabel('As', { exact: true }).selectOption('user')
  await entry.getByText('Advanced').click()
  await entry.getByLabel('Case-sensitive').selectOption('yes')
  await entry.getByLabel('Sticky (turns)').fill('2')
  await entry.getByLabel('Does not fire other entries').check()
  await entry.getByLabel('Only for personas').fill('Seraphina')
  await entry.getByRole('button', { name: 'Save' }).click()
  // Book settings: three messages scanned.
  await books.getByText('Book settings').click()
  const bookSettings = books.getByRole('form', { name: 'Book settings' })
  await bookSettings.getByLabel('Scan depth (messages)').fill('3')
  await bookSettings.getByRole('button', { name: 'Save settings' }).click()
  // Also in every conversation, through the attachments.
  await books.getByLabel('Every conversation').click()
  await expect(books.getByLabel('Every conversation')).toBeChecked()
  await books.getByRole('button', { name: 'Close' }).last().click()

  llm.script({ provider: 'openai', reply: 'The water is cold.', times: 1 })
  await page.getByLabel('Prompt').fill('Shall we cross the river?')
  await page.keyboard.press('Control+Enter')
  await expect(page.getByTestId('transcript').getByText('The water is cold.')).toBeVisible()
  const sent = replyRequests(llm).at(-1)!.body as {
    messages: Array<{ role: string; content: string }>
  }
  expect(sent.messages.find((m) => m.content === 'The river runs north.')?.role, JSON.stringify(sent.messages)).toBe(
    'user',
  )
  expect(sent.messages[0]!.content).not.toContain('The river runs north.')

  // The persona editor: a default Author's Note, a picture, the lorebooks, and a CHARX card.
  const personas = await openPersonas(page)
  await personas.getByRole('list', { name: 'Personas' }).getByRole('button', { name: 'Seraphina' }).click()
  await personas.getByText('Default Author’s Note').click()
  const note = personas.getByRole('form', { name: 'Default Author’s Note' })
  await note.getByLabel('Author’s Note text').fill('Speak softly.')
  await note.getByRole('button', { name: 'Save note' }).click()
  await expect(note.getByRole('button', { name: 'Saved' })).toBeVisible()
  await personas.getByLabel('Choose a picture…').setInputFiles({
    name: 'portrait.png',
    mimeType: 'image/png',
    buffer: pngWith({}),
  })
  await expect(personas.getByRole('img', { name: 'Picture of Seraphina' })).toBeVisible()
  const download = page.waitForEvent('download')
  await personas.getByRole('button', { name: 'Card and lorebooks' }).click()
  await page.getByRole('menuitem', { name: 'Export card (CHARX)' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('Seraphina.charx')
  const exported = readFileSync((await file.path())!)
  await personas.getByRole('button', { name: 'Card and lorebooks' }).click()
  await page.getByRole('menuitem', { name: 'Lorebooks…' }).click()
  await expect(books).toBeVisible()
  await books.getByRole('button', { name: 'Close' }).last().click()

  const report = await importCard(app, { name: 'exported.charx', mimeType: 'application/zip', buffer: exported })
  expect(report).toContain('Its picture is the persona’s picture now.')

  // The book came back with the river entry's advanced options.
  await page.getByTestId('header-more').click()
  await page.getByRole('menuitem', { name: 'Lorebooks and Author’s Note' }).click()
  const nav = books.getByRole('navigation', { name: 'Lorebooks' })
  await nav
    .getByRole('button', { name: /Glade lore/ })
    .last()
    .click()
  await books.getByRole('list', { name: 'Entries' }).getByRole('button', { name: 'River' }).click()
  await expect(entry.getByLabel('Goes')).toHaveValue('at_depth')
  await expect(entry.getByLabel('Depth', { exact: true })).toHaveValue('2')
  await entry.getByText('Advanced').click()
  await expect(entry.getByLabel('Case-sensitive')).toHaveValue('yes')
  await expect(entry.getByLabel('Sticky (turns)')).toHaveValue('2')
  await expect(entry.getByLabel('Does not fire other entries')).toBeChecked()
})
