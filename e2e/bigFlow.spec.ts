import { expect, test } from './fixtures'
import { viewSettled } from './pages/viewport'

// Past the minimap's size (1,500 cards) the canvas hands React Flow only the cards around the
// view (canvasWindow.ts). What a user does on such a canvas must work as on a small one.

const COLUMNS = 40
const CARDS = 1600

test('a flow of 1,601 cards: the newest shows, a card drags and stays, Fit View shows every card and a long connection', async ({
  app,
  page,
  graph,
}) => {
  test.setTimeout(120_000)
  await app.open()
  await graph.startConversation('The first card')
  // The canvas alone, wide enough for Fit View to take in the whole grid.
  await page.getByRole('button', { name: 'Graph', exact: true }).click()
  const flowId = (await graph.currentFlow()).id
  // 1,600 more cards in a grid (overlapping a little, so that Fit View takes them in at the
  // window's size), sent down one socket without waiting for each answer.
  const cards = Array.from({ length: CARDS }, (_, i) => ({
    flow_id: flowId,
    prompt: `Card ${i}`,
    position: { x: 1000 + (i % COLUMNS) * 200, y: 1000 + Math.floor(i / COLUMNS) * 120 },
  }))
  const made = await graph.requestMany('create_node', cards)
  expect(made).toBe(CARDS)
  const flow = await graph.currentFlow()
  const first = flow.nodes.find((n) => n.index === 1)!.id
  const newest = flow.nodes.find((n) => n.index === CARDS + 1)!.id
  await graph.request('connect_nodes', { flow_id: flowId, source_id: first, target_id: newest })

  // Opened again at a link to the newest card, far from the first: the canvas goes there.
  await page.reload()
  await expect(graph.card(1)).toBeVisible()
  await page.evaluate((hash) => (window.location.hash = hash), `#flow=${flowId}&node=${newest}`)
  await expect(graph.card(CARDS + 1)).toBeInViewport()
  // It opened around that card and read the rest after it, saying so meanwhile.
  await expect(page.locator('.canvas-loading')).toHaveCount(0, { timeout: 30_000 })
  await viewSettled(page)

  // A card dragged moves, and the place it was dropped is kept.
  const positionOf = async (id: string) => {
    const f = (await graph.request('get_flow', { id: flowId })) as {
      nodes: Array<{ id: string; position: { x: number; y: number } | null }>
    }
    return f.nodes.find((n) => n.id === id)!.position!
  }
  const before = await positionOf(newest)
  const box = (await graph.card(CARDS + 1).boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + 20)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width / 2 - i * 12, box.y + 20 - i * 6)
  await page.mouse.up()
  await expect.poll(async () => (await positionOf(newest)).x, { timeout: 15_000 }).toBeLessThan(before.x - 60)
  expect((await positionOf(newest)).y).toBeLessThan(before.y - 30)

  // Fit View takes in every card, the first and the newest at opposite corners, and the long
  // connection between them, though neither end was near the view before.
  await graph.fitView()
  await expect(graph.card(1)).toBeInViewport()
  await expect(graph.card(CARDS + 1)).toBeInViewport()
  await expect(page.locator(`.react-flow__edge[data-id="${first}->${newest}"]`)).toHaveCount(1)
  // Cards far from where it opened show their text once in view (asked for as they came).
  await expect(graph.card(6).getByTestId('node-prompt')).toHaveText('Card 4')
  await expect(graph.card(CARDS - 40).getByTestId('node-prompt')).toHaveText(`Card ${CARDS - 42}`)
})
