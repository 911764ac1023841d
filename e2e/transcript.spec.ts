import { expect, test } from './fixtures'
import { ConversationsPage } from './pages/conversations.page'
import { TranscriptPage } from './pages/transcript.page'

// The reading pane beside the graph (issue #35): the active path read as a chat transcript,
// alternatives switched with ‹ ›, actions on each turn, and the graph as its map.

/** A reply of about 5,000 characters in Markdown paragraphs, its first and last sentences known. */
function longReply(): { text: string; first: string; last: string } {
  const first = 'The first sentence of a long answer about the old capital.'
  const last = 'And that is the very last sentence of the long answer.'
  const paragraphs = [`## A long walk through Kyoto`, first]
  for (let i = 0; paragraphs.join('\n\n').length < 4_900; i++)
    paragraphs.push(
      `Paragraph ${i}: the temples, the gardens and the river banks each keep a season of their own, and a slow walk between them shows more than any list of sights.`,
    )
  paragraphs.push(last)
  return { text: paragraphs.join('\n\n'), first, last }
}

test('a 5,000-character reply streams into its turn in place and is read whole, as Markdown', async ({
  app,
  page,
  graph,
  llm,
}) => {
  const transcript = new TranscriptPage(page, graph)
  await app.open()
  await graph.newFlow()
  const reply = longReply()
  expect(reply.text.length).toBeGreaterThanOrEqual(5_000)
  const chunks = reply.text.match(/[\s\S]{1,120}/g)!
  llm.script({ provider: 'openai', reply: reply.text, chunks, chunkDelayMs: 40, times: 1 })

  await page.getByLabel('Prompt', { exact: true }).fill('Tell me about a long walk in Kyoto')
  await page.keyboard.press('Control+Enter')
  const answer = transcript.reply(1)
  // The words arrive in the turn while the reply is still being written…
  await expect(answer).toHaveAttribute('aria-busy', 'true')
  await expect(answer.getByTestId('transcript-response')).toContainText('Paragraph 0')
  await expect(answer).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 })
  // All of it arrived (a failure here shows what the turn holds instead)…
  await expect(answer.getByTestId('transcript-response')).toContainText(reply.last)
  // …and the view followed it: the end of the reply is on screen without scrolling.
  await expect(answer.getByText(reply.last)).toBeInViewport()
  await expect(transcript.message(1)).toContainText('Tell me about a long walk in Kyoto')

  // Whole: every character is there, nothing is clipped, and the Markdown is rendered.
  const text = await answer.getByTestId('transcript-response').innerText()
  expect(text.replace(/\s+/g, ' ').length).toBeGreaterThan(4_800)
  await expect(answer.getByRole('heading', { name: 'A long walk through Kyoto' })).toBeVisible()
  const clipped = await answer
    .getByTestId('transcript-response')
    .evaluate((el) => el.scrollHeight > el.clientHeight + 1 || getComputedStyle(el).overflow === 'hidden')
  expect(clipped).toBe(false)
  await answer.getByText(reply.first).scrollIntoViewIfNeeded()
  await expect(answer.getByText(reply.first)).toBeInViewport()
  // The turn in the transcript and the card in the graph are the same node.
  await expect(page.locator('.conv-node.selected')).toHaveAttribute('data-index', '1')
})

test('a reply that goes on streaming while the user reads another conversation is whole when they come back', async ({
  app,
  page,
  graph,
  llm,
}) => {
  const transcript = new TranscriptPage(page, graph)
  const list = new ConversationsPage(page)
  await app.open()
  await graph.startConversation('Describe the inn.')
  await expect(transcript.reply(1)).toContainText('echo: Describe the inn.')
  await graph.newFlow()
  // ~20 s of reply: the user is back long before its end, even on a busy machine.
  const words = Array.from({ length: 200 }, (_, i) => `word${i} `)
  const whole = words.join('').trim()
  llm.script({ provider: 'openai', reply: words.join(''), chunks: words, chunkDelayMs: 100, times: 1 })
  await graph.send('Count slowly')
  const response = transcript.reply(1).getByTestId('transcript-response')
  await expect(response).toContainText('word3')

  await list.open('Describe the inn.')
  await expect(transcript.reply(1)).toContainText('echo: Describe the inn.')
  await list.open('Count slowly')
  // Back while it streams: the reply so far from its first word, no piece missing or twice…
  await expect(transcript.reply(1)).toHaveAttribute('aria-busy', 'true')
  await expect(response).toContainText('word')
  const shown = (await response.innerText()).trim()
  expect(whole.startsWith(shown), `shown mid-reply: "${shown}"`).toBe(true)
  // …and the rest follows it.
  await expect(transcript.reply(1)).toHaveAttribute('aria-busy', 'false', { timeout: 45_000 })
  await expect(response).toHaveText(whole)
})

test('→ on the last alternative of the last reply generates another, as a swipe does', async ({
  app,
  page,
  graph,
  llm,
}) => {
  const transcript = new TranscriptPage(page, graph)
  await app.open()
  await graph.startConversation('Describe the inn.')
  await expect(transcript.reply(1)).toContainText('echo: Describe the inn.')
  llm.script({ provider: 'openai', reply: 'Smoke and laughter fill the inn.', times: 1 })
  await transcript.alternatives(1).getByRole('button', { name: 'New alternative (generate another reply)' }).click()
  await expect(transcript.reply(2)).toContainText('Smoke and laughter fill the inn.')
  await expect(transcript.alternatives(2)).toContainText('2 / 2')
  // ‹ back to the first is an ordinary switch; → from it returns without generating.
  await transcript.alternatives(2).getByRole('button', { name: 'Previous alternative' }).click()
  await expect(transcript.reply(1)).toContainText('echo: Describe the inn.')
  await transcript.alternatives(1).getByRole('button', { name: 'Next alternative' }).click()
  await expect(transcript.reply(2)).toContainText('Smoke and laughter')
  expect(await graph.edges()).toEqual([])
})

test('retry and edit from the transcript make new branches, and ‹ › switches between them', async ({
  app,
  page,
  graph,
  llm,
}) => {
  const transcript = new TranscriptPage(page, graph)
  await app.open()
  await graph.startConversation('Where should we go first?', 'And after that?')
  await expect(transcript.reply(2)).toContainText('echo: And after that?')
  // The last reply offers → even alone: past its last alternative it makes a new one (a swipe).
  await expect(transcript.alternatives(2)).toContainText('1 / 1')
  await expect(transcript.alternatives(1)).toHaveCount(0)

  // Retry #2 from its turn: a sibling with its own reply, shown in place as "2 / 2".
  llm.script({ provider: 'openai', reply: 'A second thought: the bamboo grove.', times: 1 })
  await transcript.reply(2).getByRole('button', { name: 'Retry' }).click()
  await expect(transcript.reply(3)).toContainText('A second thought: the bamboo grove.')
  expect(await graph.edges()).toEqual(['1→2', '1→3'])
  await expect(transcript.alternatives(3)).toContainText('2 / 2')
  await expect(transcript.reply(2)).toHaveCount(0)
  expect(await transcript.shownIndexes()).toEqual([1, 3])

  // ‹ goes back to the first reply, and the graph's selection goes with it; › returns.
  await transcript.alternatives(3).getByRole('button', { name: 'Previous alternative' }).click()
  await expect(transcript.reply(2)).toContainText('echo: And after that?')
  await expect(transcript.alternatives(2)).toContainText('1 / 2')
  await expect(transcript.alternatives(2).getByRole('button', { name: 'Previous alternative' })).toBeDisabled()
  await expect(page.locator('.conv-node.selected')).toHaveAttribute('data-index', '2')
  await expect(page.getByTestId('composer-target')).toHaveText('Continues from #2')
  await transcript.alternatives(2).getByRole('button', { name: 'Next alternative' }).click()
  await expect(transcript.reply(3)).toContainText('the bamboo grove')

  // Edit the first message: a new root beside the old one, answered; the old path is one ‹ away.
  await transcript.message(1).getByRole('button', { name: 'Edit message' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit prompt' })
  await dialog.getByLabel('Prompt').fill('Where should we go in spring?')
  await dialog.getByRole('button', { name: 'Create branch' }).click()
  await expect(transcript.message(4)).toContainText('Where should we go in spring?')
  await expect(transcript.reply(4)).toContainText('echo: Where should we go in spring?')
  expect(await transcript.shownIndexes()).toEqual([4])
  await expect(transcript.alternatives(4)).toContainText('2 / 2')
  expect(await graph.edges()).toEqual(['1→2', '1→3']) // #4 has no parent: a root of its own
  await transcript.alternatives(4).getByRole('button', { name: 'Previous alternative' }).click()
  // Back on the first root, read down to the newest leaf below it: the retried reply.
  expect(await transcript.shownIndexes()).toEqual([1, 3])

  // Branch from here: the next message goes under #1, and the transcript says so.
  await transcript.reply(1).getByRole('button', { name: 'Branch from here' }).click()
  await expect(page.getByTestId('composer-target')).toHaveText('Continues from #1')
  await expect(page.getByRole('status').filter({ hasText: 'branches off after #1' })).toBeVisible()
  await expect(page.getByLabel('Prompt', { exact: true })).toBeFocused()
})

test('the graph and the transcript follow each other; the layout is a choice that is kept', async ({
  app,
  page,
  graph,
}) => {
  const transcript = new TranscriptPage(page, graph)
  await app.open()
  await graph.startConversation('Turn one: where it all began')
  const ids = await transcript.addTurns(19, (i) => ({
    prompt: `Turn ${i + 2}: what next?`,
    response: `Reply ${i + 2}.\n\nA few lines of an answer, so that twenty turns make a transcript longer than the window.`,
  }))
  // The path read on to the newest turn that arrived under it, and the view stayed at the end.
  await expect(transcript.reply(20)).toContainText('Reply 20.')
  await transcript.settled()
  await expect(transcript.reply(20)).toBeInViewport()

  // Choosing #1 in the graph scrolls the transcript to it.
  await graph.fitView()
  await graph.card(1).click()
  await transcript.settled()
  await expect(transcript.message(1)).toBeInViewport()
  await expect(transcript.reply(20)).not.toBeInViewport()
  // Scrolled up: "Jump to latest" brings the newest turn back.
  await page.getByRole('button', { name: 'Jump to latest' }).click()
  await transcript.settled()
  await expect(transcript.reply(20)).toBeInViewport()
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0)

  // Clicking a message selects its node in the graph (which centres on it); the transcript stays put.
  const message = transcript.reply(19).getByText('Reply 19.')
  await message.scrollIntoViewIfNeeded()
  await transcript.settled()
  const scrolledTo = await transcript.log.evaluate((el) => el.scrollTop)
  await message.click()
  await expect(page.locator('.conv-node.selected')).toHaveAttribute('data-index', '19')
  await expect(graph.card(19)).toBeInViewport()
  await transcript.settled()
  expect(await transcript.log.evaluate((el) => el.scrollTop)).toBe(scrolledTo)

  // A side branch from #2 arrives off the path: the path stays where it is.
  await graph.request('create_node', {
    flow_id: (await graph.currentFlow()).id,
    prompt: 'A side road from turn two',
    response: 'The side road leads to the river.',
    parent_ids: [ids[0]],
  })
  await graph.fitView()
  await expect(graph.card(21)).toBeVisible()
  await expect(transcript.reply(20)).toContainText('Reply 20.')

  // Choosing a node on another branch in the graph moves the path to it.
  await graph.card(21).click()
  await expect(transcript.reply(21)).toContainText('The side road leads to the river.')
  await expect(transcript.alternatives(21)).toContainText('2 / 2')
  await expect(transcript.turn(20)).toHaveCount(0)
  expect((await transcript.shownIndexes()).at(-1)).toBe(21)

  // Transcript only: the graph is gone; "Show in graph" brings it back beside the transcript.
  await transcript.view('Transcript')
  await expect(page.locator('section.graph-canvas')).toBeHidden()
  await transcript.reply(21).getByRole('button', { name: 'Show in graph' }).click()
  await expect(page.locator('section.graph-canvas')).toBeVisible()
  await expect(graph.card(21)).toBeInViewport()

  // The splitter moves by keyboard; the view and the split survive a reload.
  const before = Number(await transcript.splitter.getAttribute('aria-valuenow'))
  await transcript.splitter.focus()
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  const after = Number(await transcript.splitter.getAttribute('aria-valuenow'))
  expect(after).toBeLessThan(before)
  await transcript.view('Graph')
  await expect(transcript.log).toHaveCount(0)
  await expect(page.getByLabel('Prompt', { exact: true })).toBeVisible() // the composer goes with the graph
  await page.reload()
  await expect(page.locator('section.graph-canvas')).toBeVisible()
  await expect(transcript.log).toHaveCount(0)
  await transcript.view('Both')
  await expect(transcript.splitter).toHaveAttribute('aria-valuenow', String(after))
})

test('the map: Tidy layout never lets an expanded card overlap the next, and the toolbar sits off the canvas', async ({
  app,
  page,
  graph,
  llm,
}) => {
  await app.open()
  const long = Array.from({ length: 24 }, (_, i) => `Line ${i} of a reply long enough to need a tall card.`)
  llm.script({ provider: 'openai', reply: long.join('\n\n'), times: 1 })
  await graph.startConversation('Tell me something long', 'And then?')
  await new TranscriptPage(page, graph).view('Graph')
  await graph.fitView()
  await graph.card(1).getByRole('button', { name: 'Show all' }).click()
  await expect(graph.card(1)).toContainText('Line 23 of a reply')
  await page.getByRole('toolbar', { name: 'Graph tools' }).getByRole('button', { name: 'Tidy layout' }).click()
  await expect
    .poll(async () => {
      // Until the view has settled on the new layout a card may be out of view (not rendered).
      const one = await graph.card(1).boundingBox()
      const two = await graph.card(2).boundingBox()
      return one && two ? two.y - (one.y + one.height) : Number.NEGATIVE_INFINITY
    })
    .toBeGreaterThan(0)
  // The toolbar is a strip above the canvas: no card can sit under it.
  const toolbar = (await page.getByRole('toolbar', { name: 'Graph tools' }).boundingBox())!
  const pane = (await page.locator('.react-flow__pane').boundingBox())!
  expect(pane.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height - 1)
})
