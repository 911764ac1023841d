import { expect, replyRequests, test } from './fixtures'
import { GraphPage } from './pages/graph.page'

test('a reply streams into the new node, and Stop keeps what arrived', async ({ app, llm, graph }) => {
  await app.open()
  await graph.newFlow()

  const words = Array.from({ length: 12 }, (_, i) => `word${i} `)
  llm.script({ provider: 'openai', reply: words.join(''), chunks: words, chunkDelayMs: 60, times: 1 })
  await graph.send('Tell me a story')
  const reply = graph.card(1).getByTestId('node-response')
  await expect(reply).toContainText('word0')
  await expect(reply).toContainText('word11', { timeout: 10_000 })
  await expect(graph.card(1)).not.toContainText('replying…')
  await expect(graph.card(1)).toContainText('gpt-4o-mini')

  const slow = Array.from({ length: 60 }, (_, i) => `slow${i} `)
  llm.script({ provider: 'openai', reply: slow.join(''), chunks: slow, chunkDelayMs: 100, times: 1 })
  await graph.send('And another, long one')
  await expect(graph.card(2).getByTestId('node-response')).toContainText('slow1')
  await graph.card(2).getByRole('button', { name: 'Stop' }).click()
  await expect(graph.card(2)).toContainText('incomplete')
  await expect(graph.card(2).getByRole('button', { name: 'Continue' })).toBeVisible()
  const kept = await graph.card(2).getByTestId('node-response').innerText()
  expect(kept).toContain('slow1')
  expect(kept).not.toContain('slow59')

  // The context sent with the second prompt carried the first turn in full.
  const second = replyRequests(llm).at(-1)!.body as {
    messages: Array<{ content: string }>
  }
  expect(second.messages.map((m) => m.content)).toContain('Tell me a story')
})

test.describe('with a key the provider refuses', () => {
  test.use({ serverEnv: { OPENAI_API_KEY: 'sk-wrong' } })

  test('a provider that refuses the key shows why on the node, in the language the UI has now', async ({
    app,
    graph,
    page,
  }) => {
    await app.open()
    await graph.newFlow()
    await graph.send('hello?')
    await expect(graph.card(1).getByTestId('node-error')).toHaveText(
      /^invalid API key for http:\/\/127\.0\.0\.1:\d+\/v1 \(OpenAI-compatible\)$/,
    )
    await expect(graph.card(1).getByRole('button', { name: 'Try again' })).toBeVisible()
    // Switching the language words the failure already shown anew.
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('dialog').getByLabel('Language').selectOption('ja')
    await expect(graph.card(1).getByTestId('node-error')).toHaveText(
      /^http:\/\/127\.0\.0\.1:\d+\/v1（OpenAI 互換）の API キーが正しくありません$/,
    )
  })
})

test('a second tab sees the new node and its streaming reply live', async ({
  app,
  page,
  context,
  server,
  llm,
  graph,
}) => {
  await app.open()
  await graph.newFlow()
  const other = await context.newPage()
  await other.goto(server.url)
  await expect(other.getByTestId('connection')).toHaveText('Connected')
  const otherGraph = new GraphPage(other, server.wsUrl)

  const words = Array.from({ length: 10 }, (_, i) => `live${i} `)
  llm.script({ provider: 'openai', reply: words.join(''), chunks: words, chunkDelayMs: 50, times: 1 })
  await graph.send('Tell both tabs')
  await expect(otherGraph.card(1)).toContainText('Tell both tabs')
  await expect(otherGraph.card(1).getByTestId('node-response')).toContainText('live9')
  await expect(page.getByTestId('conv-node')).toHaveCount(1)
})

test('a reply reads as Markdown: a GFM table, highlighted code, and links that open outside the app', async ({
  app,
  llm,
  graph,
  page,
}) => {
  await app.open()
  await graph.newFlow()
  const reply = [
    'Here are the trains:',
    '',
    '| Line | Minutes |',
    '| --- | --- |',
    '| Nozomi | 135 |',
    '',
    '```js',
    'const fastest = "Nozomi"',
    '```',
    '',
    'See [the timetable](https://example.org/timetable).',
  ].join('\n')
  llm.script({ provider: 'openai', reply, times: 1 })
  await graph.send('Trains to Kyoto?')
  const response = graph.card(1).getByTestId('node-response')
  await expect(response.getByRole('table')).toContainText('Nozomi')
  await expect(response.getByRole('cell', { name: '135' })).toBeVisible()
  await expect(response.locator('code .hljs-keyword')).toHaveText('const')
  const link = response.getByRole('link', { name: 'the timetable' })
  // A new window is what Electron's window-open handler sends to the system browser.
  await expect(link).toHaveAttribute('target', '_blank')
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
  await expect(page).not.toHaveURL(/example\.org/)
})
