import { expect, test } from './fixtures'
import { EntityGraphPage } from './pages/entityGraph.page'
import { MemoryPage } from './pages/memory.page'
import { everyMemoryJobReply } from '../tests/support/memoryJobReply'
import { firstExchangeWith } from './pages/persona.steps'

/** The memory jobs run on the lightweight model; the reply itself comes from gpt-4o, so it stays an echo. */
const LIGHTWEIGHT = 'gpt-4o-mini'
const MESSAGE = 'My cat Pepper moved with me to Kyoto.'

/** Every episode job's answer, with the entities and relation the graph should draw. */
const EVERY_EPISODE_JOB = everyMemoryJobReply({
  entities: [
    { name: 'Pepper', type: 'person', aliases: [], role: 'subject' },
    { name: 'Kyoto', type: 'place', aliases: [], role: 'mention' },
  ],
  relations: [{ src: 'Pepper', rel: 'lives_in', dst: 'Kyoto' }],
})

test('entity graph: extracted entities drawn with their relation; search highlights; a node lists its memories', async ({
  app,
  page,
  graph,
  llm,
}) => {
  const memory = new MemoryPage(page)
  const entities = new EntityGraphPage(memory.panel)
  llm.script({ model: LIGHTWEIGHT, promptIncludes: 'Pepper', reply: EVERY_EPISODE_JOB })
  const mio = { name: 'Mio', persona: 'A librarian in Kyoto who loves tea.', lightweight: `openai:${LIGHTWEIGHT}` }
  await firstExchangeWith(app, graph, mio, MESSAGE)
  await memory.open()

  // The memory worker extracts the entities in the background; the list shows them when it is done.
  await memory.panel.getByRole('tab', { name: 'Entities', exact: true }).click()
  await expect(memory.panel.getByText('2 entities, 1 relations')).toBeVisible({ timeout: 20_000 })

  await entities.open()
  await expect(entities.node('Pepper')).toBeVisible()
  await expect(entities.node('Pepper')).toContainText('person')
  await expect(entities.node('Kyoto')).toContainText('place')
  await expect(entities.relation('lives_in')).toHaveCount(1)
  await expect(entities.relation('lives_in')).toHaveAttribute('title', 'Pepper → lives_in → Kyoto')
  await expect(entities.figure.locator('.react-flow__edge')).toHaveCount(1)
  // Read-only: nothing to connect from.
  await expect(entities.figure.locator('.react-flow__handle.connectable')).toHaveCount(0)
  // Under the cap, no "showing N of M" note.
  await expect(memory.panel.getByText(/^Showing \d+ of/)).toHaveCount(0)

  // The search box marks what it finds and dims the rest.
  await entities.search.fill('kyo')
  await expect(entities.node('Kyoto')).toHaveClass(/\bmatch\b/)
  await expect(entities.node('Pepper')).toHaveClass(/\bdim\b/)
  await entities.search.fill('')
  await expect(entities.node('Pepper')).not.toHaveClass(/\bdim\b/)

  // A node lists the memories about its entity, as the list's "N memories" does.
  await entities.clickNode('Pepper')
  await expect(memory.panel.getByRole('tab', { name: 'Memories', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(memory.panel.getByLabel('Entity', { exact: true }).locator('option:checked')).toHaveText('Pepper')
  await expect(memory.units(MESSAGE)).toHaveCount(1)
})
