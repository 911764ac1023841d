import { expect, test } from './fixtures'
import { MemoryPage } from './pages/memory.page'
import { bindNewPersona, openPersonas } from './pages/persona.steps'

test('create a persona, bind the conversation to it, and it speaks with its own text and model', async ({
  app,
  page,
  llm,
  graph,
}) => {
  await app.open()
  await graph.newFlow()

  await page.getByRole('button', { name: 'Personas…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Personas' })
  await dialog.getByLabel('Name').fill('Mio')
  await dialog.getByLabel('Persona', { exact: true }).fill('A librarian in Kyoto who loves tea.')
  await dialog.getByLabel('Chat', { exact: true }).fill('gpt4o')
  await dialog.getByRole('button', { name: 'Create persona' }).click()
  await expect(page.locator('.toast-error')).toContainText('chat_model: write provider:model')
  await dialog.getByLabel('Chat', { exact: true }).fill('openai:gpt-4o')
  await dialog.getByRole('button', { name: 'Create persona' }).click()
  await expect(dialog.getByRole('button', { name: 'Mio' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Close' }).click()

  await page.getByLabel('Persona', { exact: true }).selectOption({ label: 'Mio' })
  await graph.send('Any tea recommendations?')
  await expect(graph.card(1).getByTestId('node-response')).toContainText('echo')
  // The reply's request, not the newest: memory's jobs on the exchange (the lightweight model)
  // may reach the server before this line runs.
  type Sent = { model: string; messages: Array<{ role: string; content: string }> }
  const sent = llm.requests
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) => r.body as Sent)
    .find((b) => b.messages.at(-1)?.content === 'Any tea recommendations?')!
  expect(sent.model).toBe('gpt-4o')
  expect(sent.messages[0]!.content).toContain('You are Mio.\n\nA librarian in Kyoto who loves tea.')
})

test('a new conversation starts with the persona made or used last, and the picker works before any conversation', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  const picker = page.getByLabel('Persona', { exact: true })
  await expect(picker).toBeEnabled() // no conversation yet, and it still chooses

  await page.getByRole('button', { name: 'Personas…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Personas' })
  await dialog.getByLabel('Name').fill('Mio')
  await dialog.getByLabel('Persona', { exact: true }).fill('A librarian in Kyoto.')
  await dialog.getByRole('button', { name: 'Create persona' }).click()
  await expect(dialog.getByRole('button', { name: 'Mio' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Close' }).click()

  // The persona just made is the one the first conversation starts with.
  await graph.newFlow()
  await expect(picker.locator('option:checked')).toHaveText('Mio')

  // Choosing nobody for this one makes the next start with nobody too.
  await picker.selectOption({ label: 'No persona' })
  await graph.newFlow()
  await expect(picker.locator('option:checked')).toHaveText('No persona')
})

test('memory search: a new persona in an English window finds memories by meaning with the built-in model; words only or a provider model can be chosen', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  await graph.newFlow()
  const dialog = await openPersonas(page)
  const search = dialog.getByLabel('Memory search')
  await expect(search.locator('option:checked')).toHaveText('Built-in English sentence model (offline)')
  await expect(dialog.getByTestId('memory-search-hint')).toContainText('Reads English only')
  await dialog.getByRole('button', { name: 'Close' }).click()

  // Made with the default: the model runs in the memory worker, no provider asked.
  await bindNewPersona(page, { name: 'Mio', persona: 'A librarian in Kyoto.' })
  await graph.send('I have been going to kickboxing classes.')
  await expect(graph.card(1).getByTestId('node-response')).toContainText('echo')
  const memory = new MemoryPage(page)
  await memory.open()
  await expect(memory.panel.getByTestId('memory-vectors')).toHaveText('Sentence model: every memory embedded', {
    timeout: 30_000,
  })

  // Words only: a change says the memory is read again, and is kept.
  await openPersonas(page)
  await dialog.getByRole('button', { name: 'Mio' }).click()
  await search.selectOption({ label: 'Words and spelling, with English word meanings' })
  await expect(dialog.getByTestId('memory-search-hint')).toContainText("reads this persona's memory again")
  await dialog.getByRole('button', { name: 'Save' }).click()
  await dialog.getByRole('button', { name: 'Close' }).click()
  await openPersonas(page)
  await expect(search.locator('option:checked')).toHaveText('Words and spelling, with English word meanings')
  await expect(dialog.getByLabel('Embedding model', { exact: true })).toHaveCount(0)

  // A provider's model is named in a field of its own.
  await search.selectOption({ label: "A provider's embedding model" })
  await dialog.getByLabel('Embedding model', { exact: true }).fill('openai:text-embedding-3-small')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await dialog.getByRole('button', { name: 'Close' }).click()
  await openPersonas(page)
  await expect(search.locator('option:checked')).toHaveText("A provider's embedding model")
  await expect(dialog.getByLabel('Embedding model', { exact: true })).toHaveValue('openai:text-embedding-3-small')
})

test('a persona searched by words is offered the built-in sentence model in the memory panel; "Not now" is remembered', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  await graph.newFlow()
  const dialog = await openPersonas(page)
  for (const name of ['Ren', 'Sora']) {
    await dialog.getByRole('button', { name: '+ New persona' }).click()
    await dialog.getByLabel('Name').fill(name)
    await dialog.getByLabel('Memory search').selectOption({ label: 'Words and spelling, with English word meanings' })
    await dialog.getByRole('button', { name: 'Create persona' }).click()
    await expect(dialog.getByRole('button', { name })).toBeVisible()
  }
  await dialog.getByRole('button', { name: 'Close' }).click()

  const memory = new MemoryPage(page)
  await memory.open()
  const choose = memory.panel.getByLabel('Memory of', { exact: true })
  await choose.selectOption({ label: 'Ren' })
  const offer = memory.panel.getByTestId('meaning-offer')
  await expect(offer).toContainText("Ren's memory is searched by words and the meanings of single words")
  await offer.getByRole('button', { name: 'Search by meaning too' }).click()
  await expect(offer).toHaveCount(0)
  await expect(memory.panel.getByTestId('memory-vectors')).toContainText('Sentence model')

  await choose.selectOption({ label: 'Sora' })
  await offer.getByRole('button', { name: 'Not now' }).click()
  await expect(offer).toHaveCount(0)
  await page.reload()
  await memory.open()
  await choose.selectOption({ label: 'Sora' })
  await expect(memory.panel.getByTestId('memory-status')).toBeVisible()
  await expect(offer).toHaveCount(0)
  await openPersonas(page)
  await dialog.getByRole('button', { name: 'Sora' }).click()
  await expect(dialog.getByLabel('Memory search').locator('option:checked')).toHaveText(
    'Words and spelling, with English word meanings',
  )
})
