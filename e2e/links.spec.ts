import type { Flow, Node } from '@shared/contract'
import { expect, test } from './fixtures'
import { ConversationsPage } from './pages/conversations.page'

// Links to a conversation at a message (issue #35): `#flow=…&node=…` opens it there, the address
// follows what is open, "Copy link" gives the whole address, and search results name their
// conversation and open it by its link.

test('a link opens its conversation at its message; the address follows the selection; search results name their conversation', async ({
  app,
  page,
  graph,
  server,
}) => {
  await app.open()
  const conversations = new ConversationsPage(page)
  const call = async <T>(action: string, data: unknown): Promise<T> =>
    ((await app.rawRequest(server.wsUrl, { id: 1, action, data })) as { data: T }).data
  const kyoto = await call<Flow>('create_flow', { name: 'Trip to Kyoto' })
  const nodes: Node[] = []
  for (const [prompt, response] of [
    ['Where should I stay?', 'Near Gion.'],
    ['What about the temples?', 'Kiyomizu-dera at dawn.'],
    ['And for dinner?', 'Pontocho alley.'],
  ])
    nodes.push(
      await call<Node>('create_node', {
        flow_id: kyoto.id,
        prompt,
        response,
        ...(nodes.length ? { parent_ids: [nodes.at(-1)!.id] } : {}),
      }),
    )
  const groceries = await call<Flow>('create_flow', { name: 'Groceries' })
  await call<Node>('create_node', { flow_id: groceries.id, prompt: 'Milk and eggs', response: 'Noted.' })

  // Opened by link: that conversation, that message selected.
  await page.goto(`${server.url}#flow=${kyoto.id}&node=${nodes[1]!.id}`)
  const selected = page.locator('.conv-node.selected [data-testid=node-prompt]')
  await expect(selected).toHaveText('What about the temples?')
  await expect(conversations.current).toHaveAttribute('data-flow-id', kyoto.id)
  expect(new URL(page.url()).search).toBe('') // the token left the address; the link stayed
  expect(new URL(page.url()).hash).toBe(`#flow=${kyoto.id}&node=${nodes[1]!.id}`)

  // The address follows the selection, replaced rather than one history entry per click.
  const entries = await page.evaluate(() => history.length)
  await graph.card(3).click()
  await expect(selected).toHaveText('And for dinner?')
  await expect.poll(() => new URL(page.url()).hash).toBe(`#flow=${kyoto.id}&node=${nodes[2]!.id}`)
  expect(await page.evaluate(() => history.length)).toBe(entries)

  // "Copy link" gives the whole address of a message, without the token.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await graph.menu(2, 'Copy link') // a card whose menu fits in view beside the transcript
  await expect(page.locator('.toast')).toContainText('Link copied')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toBe(`${server.origin}/#flow=${kyoto.id}&node=${nodes[1]!.id}`)
  const other = await page.context().newPage()
  await other.goto(copied)
  await expect(other.locator('.conv-node.selected [data-testid=node-prompt]')).toHaveText('What about the temples?')
  await other.close()

  // From another conversation, a search result names where it is from and opens it there.
  await conversations.open('Groceries')
  await expect(selected).toHaveText('Milk and eggs')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.getByLabel('Keywords').fill('Kiyomizu')
  await page.getByLabel('Keywords').press('Enter')
  const result = page.locator('.search-results').getByRole('link')
  await expect(result).toHaveCount(1)
  await expect(result).toContainText('Trip to Kyoto')
  await expect(result).toHaveAttribute('href', `#flow=${kyoto.id}&node=${nodes[1]!.id}`)
  await result.click()
  await expect(selected).toHaveText('What about the temples?')
  await expect(conversations.current).toHaveAttribute('data-flow-id', kyoto.id)

  // A link to a conversation that is not here says so and leaves the open one.
  await page.evaluate(() => (location.hash = '#flow=00000000-0000-4000-8000-000000000000'))
  await expect(page.getByRole('alert')).toContainText('That link’s conversation is not here')
  await expect(selected).toHaveText('What about the temples?')
  await expect.poll(() => new URL(page.url()).hash).toBe(`#flow=${kyoto.id}&node=${nodes[1]!.id}`)
})
