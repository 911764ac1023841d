import { expect, test } from './fixtures'
import { ConversationsPage } from './pages/conversations.page'

test('branch, re-parent, merge, refuse a cycle, undo and redo — all by hand on the canvas', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  await graph.startConversation('今日は東京で桜を見ました', 'What did you think of it?', 'Tell me more about the trip')
  await graph.fitView()
  await expect(graph.card(3)).toBeVisible()
  expect(await graph.edges()).toEqual(['1→2', '2→3'])

  // Retry #2: a sibling with the same parent and prompt; the original stays.
  await graph.menu(2, 'Retry (new branch)')
  await expect(graph.card(4)).toContainText('What did you think of it?')
  await expect(graph.card(2)).toBeVisible()
  expect(await graph.edges()).toEqual(['1→2', '1→4', '2→3'])

  // Drag the parent end of 2→3 onto #4: #3 now continues the retried branch.
  await graph.fitView()
  await graph.reparent(2, 3, 4)
  await expect.poll(() => graph.edges()).toEqual(['1→2', '1→4', '4→3'])

  // Drag from #2's handle to #3: a merge, #3 has two parents.
  await graph.fitView()
  await graph.connect(2, 3)
  await expect.poll(() => graph.edges()).toEqual(['1→2', '1→4', '2→3', '4→3'])
  // The merge says what it joins; the canvas reads its turns and connections by number, in words.
  await expect(graph.card(3).getByTestId('node-merge')).toHaveText('joins #2 + #4')
  await expect(
    page.getByRole('group', { name: 'Turn #3' }).or(page.locator('[aria-label="Turn #3"]')).first(),
  ).toBeVisible()
  await expect(page.locator('[aria-label="From #2 to #3"]').first()).toBeAttached()
  await expect(page.getByRole('button', { name: 'Zoom in' })).toBeVisible()

  // #3 → #1 would loop: refused with a clear message, nothing changes.
  await graph.connect(3, 1)
  await expect(page.locator('.toast-error')).toContainText('loop back on itself')
  expect(await graph.edges()).toEqual(['1→2', '1→4', '2→3', '4→3'])

  // Undo the merge, then the re-parent; redo brings the re-parent back.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('Control+z')
  await expect.poll(() => graph.edges()).toEqual(['1→2', '1→4', '4→3'])
  await page.keyboard.press('Control+z')
  await expect.poll(() => graph.edges()).toEqual(['1→2', '1→4', '2→3'])
  await page.keyboard.press('Control+Shift+z')
  await expect.poll(() => graph.edges()).toEqual(['1→2', '1→4', '4→3'])
})

test('search finds a Japanese keyword and jumps to its node; the inspector shows what would be sent', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  await graph.startConversation('今日は東京で桜を見ました', '明日は京都へ行きます', 'お土産は何がいいですか')

  await page.getByRole('button', { name: 'Search' }).click()
  for (const keyword of ['東京で桜', '桜']) {
    await page.getByLabel('Keywords').fill(keyword)
    await page.getByLabel('Keywords').press('Enter')
    const result = page.locator('.search-results').getByRole('link')
    await expect(result).toHaveCount(1)
    await expect(result.locator('mark')).toHaveText(keyword)
  }
  await page.locator('.search-results').getByRole('link').click()
  await expect(graph.card(1)).toBeVisible()
  await expect(page.getByText('Continues from #1')).toBeVisible()

  // From #3, the inspector lists #3 in full, #1 and #2 as summaries, and the prompt.
  await graph.fitView()
  await graph.card(3).click()
  await page.getByRole('button', { name: 'Context' }).click()
  await page.getByLabel('Prompt').fill('おすすめを教えて')
  const inspector = page.getByRole('region', { name: 'Context inspector' })
  await expect(inspector.locator('[data-kind=parent]')).toContainText('お土産は何がいいですか')
  await expect(inspector.locator('[data-kind=ancestor_summary]')).toHaveCount(2)
  await expect(inspector.locator('[data-kind=prompt]')).toContainText('おすすめを教えて')
  await expect(inspector.getByTestId('context-total')).toContainText('of 8000 tokens')
})

test('deleting a node with children asks, reattaches them, and undo brings it back', async ({ app, page, graph }) => {
  await app.open()
  await graph.startConversation('one', 'two', 'three')
  await graph.fitView()
  await graph.menu(2, 'Delete')
  await page.getByRole('dialog').getByRole('button', { name: 'Delete only this node' }).click()
  await expect.poll(() => graph.edges()).toEqual(['1→3'])
  await expect(graph.card(2)).toHaveCount(0)
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect.poll(() => graph.edges()).toEqual(['1→2', '2→3'])
  await expect(graph.card(2)).toContainText('two')
})

test('Build summaries tags every node in the background and the cards update live', async ({
  app,
  page,
  llm,
  graph,
}) => {
  await app.open()
  await graph.startConversation('京都のおすすめは？', '紅葉の時期は？')
  await expect(graph.card(2).getByTestId('node-response')).toContainText('echo')
  llm.script({ provider: 'openai', reply: 'Summary: Travel questions about Kyoto.\nTags: kyoto, travel, autumn' })

  await page.getByRole('button', { name: 'Build summaries' }).click()
  await expect(page.locator('.toast')).toContainText('Summarising 2 nodes')
  await graph.fitView()
  for (const index of [1, 2]) await expect(graph.card(index)).toContainText('#kyoto', { timeout: 15_000 })
  // The summary shows on the card: a badge holding its words, and the words when expanded.
  await expect(graph.card(1).getByTestId('node-summary-badge')).toHaveAttribute(
    'title',
    'Travel questions about Kyoto.',
  )
  await expect(page.getByTestId('jobs')).toContainText('No background jobs')

  await page.getByRole('button', { name: 'Build summaries' }).click()
  await expect(page.locator('.toast').last()).toContainText('Every summary is up to date')
})

test('a conversation’s own system prompt and budget shape its context; what was sent stays inspectable', async ({
  app,
  page,
  graph,
  llm,
}) => {
  // The reply waits, so the inspector opens before anything was sent: it must catch up.
  llm.script({
    provider: 'openai',
    reply: 'Kiyomizu-dera at dawn.',
    delayMs: 1500,
    promptIncludes: 'おすすめ',
    times: 1,
  })
  await app.open()
  await graph.newFlow()
  const dialog = await new ConversationsPage(page).openSettings()
  await dialog.getByLabel('System prompt').fill('You are a Kyoto tour guide.')
  await dialog.getByLabel('Context budget (tokens)').fill('12')
  await expect(dialog.getByRole('alert')).toContainText('256')
  await dialog.getByLabel('Context budget (tokens)').fill('3000')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toHaveCount(0)

  await graph.send('おすすめは？')
  await page.getByRole('button', { name: 'Context' }).click()
  const inspector = page.getByRole('region', { name: 'Context inspector' })
  await expect(inspector.getByTestId('context-total')).toContainText('of 3000 tokens')
  await expect(inspector.locator('[data-kind=system]')).toContainText('You are a Kyoto tour guide.')
  await inspector.getByRole('tab', { name: 'Sent with #1' }).click()
  await expect(inspector.locator('[data-kind=prompt]')).toContainText('おすすめは？')
  await expect(page.locator('.conv-node.selected')).toContainText('Kiyomizu-dera at dawn.')
})

test('the composer says where the next prompt goes, switches to a new root only when asked, and flags a prompt over the budget', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  await graph.startConversation('first', 'second')
  const target = page.getByTestId('composer-target')
  await expect(target).toHaveText('Continues from #2')

  // Clicking empty canvas leaves the target as it was.
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } })
  await expect(target).toHaveText('Continues from #2')

  // A new root is the user's explicit choice, and only for the next prompt.
  await page.getByRole('button', { name: 'Start a new root instead' }).click()
  await expect(target).toHaveText('Starts a new conversation root')
  await graph.send('a fresh start')
  expect(await graph.edges()).toEqual(['1→2']) // #3 has no parent: a new root
  await expect(target).toHaveText('Continues from #3')

  // A prompt longer than the conversation's budget is flagged before it is sent.
  const settings = await new ConversationsPage(page).openSettings()
  await settings.getByLabel('Context budget (tokens)').fill('300')
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect(settings).toHaveCount(0)
  await page.getByLabel('Prompt', { exact: true }).fill('word '.repeat(800))
  await expect(page.locator('form.composer').getByRole('alert')).toContainText(
    /tokens over the conversation’s budget of 300/,
  )
  await page.getByLabel('Prompt', { exact: true }).fill('short again')
  await expect(page.locator('form.composer').getByRole('alert')).toHaveCount(0)
})

test('a 200,000-character prompt is sent once, the box empties as soon as its turn exists, and the app keeps answering', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  await graph.startConversation('a short start')
  // Words that differ, as a pasted document's do (one word repeated is a best case for every index).
  const words = Array.from({ length: 40_000 }, (_, i) => `w${(i * 7919) % 100_003}`)
  const huge = words.join(' ').slice(0, 200_000)
  const box = page.getByLabel('Prompt', { exact: true })
  await box.fill(huge)
  await page.keyboard.press('Control+Enter')
  await expect(box).toHaveValue('')
  await expect(graph.card(2)).toBeVisible()
  // A second Send has nothing to send: one turn, not two.
  await page.keyboard.press('Control+Enter')
  await expect(graph.card(2).getByTestId('node-response')).not.toBeEmpty()
  await expect(graph.card(3)).toHaveCount(0)
  expect(await graph.edges()).toEqual(['1→2'])
  // The window still answers at once: a new conversation opens.
  await graph.newFlow()
})
