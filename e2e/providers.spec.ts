import { expect, startServer, test } from './fixtures'
import { GraphPage } from './pages/graph.page'

test('first run without a provider: onboarding, set one up in the settings, chat, then a bad key is shown clearly', async ({
  page,
  llm,
}) => {
  // No provider in the environment: the user sets everything up in the UI.
  const server = await startServer({
    env: { OPENAI_BASE_URL: '', OPENAI_API_KEY: '', LOOMVERSE_DEFAULT_MODEL: 'openai:gpt-4o-mini' },
  })
  const graph = new GraphPage(page, server.wsUrl)
  try {
    await page.goto(server.url)
    const onboarding = page.getByRole('dialog', { name: 'Welcome to Loomverse' })
    await expect(onboarding).toContainText('Ollama')
    await onboarding.getByRole('button', { name: 'Set up a provider' }).click()

    const dialog = page.getByRole('dialog', { name: 'AI providers' })
    const openai = dialog.getByRole('region', { name: 'OpenAI-compatible' })
    await openai.getByLabel('Address (base URL)').fill(`${llm.url}/v1`)
    await openai.getByLabel('API key').fill('sk-test')
    await openai.getByRole('button', { name: 'Save' }).click()
    await expect(openai.getByRole('status')).toContainText('Connected')
    await expect(openai.getByLabel('API key')).toHaveValue('') // the key never comes back to the page
    await expect(openai.getByLabel('API key')).toHaveAttribute('placeholder', /ends in test/)
    await dialog.getByRole('button', { name: 'Close' }).click()

    await graph.newFlow()
    llm.script({
      provider: 'openai',
      reply: 'Hello from the fake model',
      chunks: ['Hello ', 'from ', 'the ', 'fake ', 'model'],
      chunkDelayMs: 30,
      times: 1,
    })
    await graph.send('hi')
    await expect(graph.card(1).getByTestId('node-response')).toHaveText('Hello from the fake model')

    // A wrong key: the test says so, and the next reply shows it next to the node.
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('button', { name: 'AI providers…' }).click()
    await openai.getByLabel('API key').fill('sk-wrong')
    await openai.getByRole('button', { name: 'Save' }).click()
    await expect(openai.getByRole('alert')).toHaveText('invalid API key for OpenAI')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await graph.send('still there?')
    await expect(graph.card(2).getByTestId('node-error')).toHaveText('invalid API key for OpenAI')
  } finally {
    await server.stop()
  }
})
