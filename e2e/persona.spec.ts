import { expect, test } from './fixtures'

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
  const sent = llm.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as {
    model: string
    messages: Array<{ content: string }>
  }
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
  await picker.selectOption({ label: 'Nobody (plain assistant)' })
  await graph.newFlow()
  await expect(picker.locator('option:checked')).toHaveText('Nobody (plain assistant)')
})
