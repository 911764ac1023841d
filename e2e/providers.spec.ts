import { expect, replyRequests, startServer, test } from './fixtures'
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
    await expect(openai.getByRole('alert')).toHaveText(
      /^invalid API key for http:\/\/127\.0\.0\.1:\d+\/v1 \(OpenAI-compatible\)$/,
    )
    await dialog.getByRole('button', { name: 'Close' }).click()
    await graph.send('still there?')
    await expect(graph.card(2).getByTestId('node-error')).toHaveText(
      /^invalid API key for http:\/\/127\.0\.0\.1:\d+\/v1 \(OpenAI-compatible\)$/,
    )
  } finally {
    await server.stop()
  }
})

test('the chat model is chosen from what the provider lists, and the address and failures are explained', async ({
  page,
  llm,
}) => {
  // No provider and no model anywhere: only what the user sets up.
  const server = await startServer({ env: { OPENAI_BASE_URL: '', OPENAI_API_KEY: '', LOOMVERSE_DEFAULT_MODEL: '' } })
  const graph = new GraphPage(page, server.wsUrl)
  try {
    await page.goto(server.url)
    await page
      .getByRole('dialog', { name: 'Welcome to Loomverse' })
      .getByRole('button', { name: 'Set up a provider' })
      .click()
    const dialog = page.getByRole('dialog', { name: 'AI providers' })
    const openai = dialog.getByRole('region', { name: 'OpenAI-compatible' })
    const address = openai.getByLabel('Address (base URL)')
    // The focus starts at the first provider's address, the dialog's top in view; not at the
    // defaults below the cards, which were there before the cards came and scrolled the title away.
    await expect(address).toBeFocused()

    // An address without its scheme is explained in the field; nothing can be sent with it.
    await address.fill(llm.url.replace(/^http:\/\//, '') + '/v1')
    await expect(openai.getByRole('alert')).toContainText('starts with http:// or https://')
    await expect(openai.getByRole('button', { name: 'Test connection' })).toBeDisabled()

    // What is typed is tested before it is saved; a server that is not there is named as typed.
    await address.fill('http://127.0.0.1:9/v1')
    await openai.getByLabel('API key').fill('sk-test')
    await openai.getByRole('button', { name: 'Test connection' }).click()
    await expect(openai.getByRole('alert')).toHaveText('could not reach http://127.0.0.1:9/v1 (OpenAI-compatible)')
    await expect(openai.getByTestId('provider-state')).toHaveText('connection failed')
    await address.fill(`${llm.url}/v1`)
    await openai.getByRole('button', { name: 'Test connection' }).click()
    await expect(openai.getByRole('status')).toContainText('Connected: 5 models')

    // Saved: the first model becomes the default, shown; the user picks another from the list.
    await openai.getByRole('button', { name: 'Save' }).click()
    // (the list starts with a picture model, which is passed over)
    await expect(openai.getByTestId('in-use-chat')).toHaveText(/^in use: openai:gpt-4o(-mini)?$/)
    const chatModel = openai.getByLabel('Model for replies')
    await chatModel.fill('gpt-4o-mini')
    await openai.getByRole('button', { name: 'Use' }).first().click()
    await expect(openai.getByTestId('in-use-chat')).toHaveText('in use: openai:gpt-4o-mini')
    await dialog.getByRole('button', { name: 'Close' }).click()

    await graph.newFlow()
    llm.script({ provider: 'openai', model: 'gpt-4o-mini', reply: 'Answered by the model you chose', times: 1 })
    await graph.send('which model?')
    await expect(graph.card(1).getByTestId('node-response')).toHaveText('Answered by the model you chose')
    await expect(graph.card(1)).toContainText('openai:gpt-4o-mini')
    expect(replyRequests(llm).map((r) => r.model)).toEqual(['gpt-4o-mini'])
  } finally {
    await server.stop()
  }
})
