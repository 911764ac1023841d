import { expect, test } from './fixtures'
import { MemoryPage } from './pages/memory.page'
import { firstExchangeWith } from './pages/persona.steps'

const mio = { name: 'Mio', persona: 'A librarian in Kyoto who loves tea.' }

test('memory inspector: episodes listed, edited into a new version, archived; why a reply remembered', async ({
  app,
  page,
  graph,
}) => {
  const memory = new MemoryPage(page)
  // The first exchange is recorded as an episode; the panel shows it as it arrives.
  await firstExchangeWith(app, graph, mio, 'I adopted a cat named Pepper today.')
  await memory.open()
  await expect(memory.units('cat named Pepper')).toHaveCount(1)
  await expect(memory.panel.getByTestId('memory-status')).toContainText('jobs:')

  await graph.send('Which pet did I adopt?')
  await expect(graph.card(2).getByTestId('node-response')).toContainText('echo')
  await expect(memory.units('Which pet did I adopt?')).toHaveCount(1)

  // Edit the first episode: a new version, the old text still readable.
  await memory.openUnit('cat named Pepper')
  await expect(memory.detail.getByTestId('memory-unit-text')).toContainText('User: I adopted a cat named Pepper today.')
  // Where it came from, in words: not the stored code ("chat").
  await expect(memory.detail).toContainText('A chat turn')
  const before = await memory.versions.count()
  await memory.edit('What the user said', 'I adopted a black cat named Pepper today.', 'more detail')
  await expect(memory.versions).toHaveCount(before + 1)
  await expect(memory.detail.getByTestId('memory-unit-text')).toContainText('black cat named Pepper')
  const newest = memory.versions.first()
  await expect(newest).toContainText(`v${before + 1}`)
  await expect(newest).toContainText('more detail')
  const oldest = memory.versions.last()
  await oldest.getByText('Text at this version').click()
  await expect(oldest).toContainText('I adopted a cat named Pepper today.')
  await memory.backToList()
  await expect(memory.units('black cat named Pepper')).toHaveCount(1)

  // Archive the second: it leaves the default list, and "Any state" still has it.
  await memory.openUnit('Which pet did I adopt?')
  await memory.action('Archive')
  await expect(memory.detail.getByRole('button', { name: 'Unarchive' })).toBeVisible()
  await memory.backToList()
  await expect(memory.units('Which pet did I adopt?')).toHaveCount(0)
  await expect(memory.units('black cat named Pepper')).toHaveCount(1)
  await memory.panel.getByLabel('State', { exact: true }).selectOption({ label: 'Any state' })
  await expect(memory.units('Which pet did I adopt?')).toContainText('Archived')

  // "Why remembered?" on #2: the pack injected with its reply holds the first exchange, with its reason.
  await graph.menu(2, 'Why remembered?')
  await expect(memory.panel.getByRole('tab', { name: 'Why remembered' })).toHaveAttribute('aria-selected', 'true')
  await expect(memory.panel.getByTestId('memory-pack')).toHaveCount(1)
  const item = memory.packItems.filter({ hasText: 'cat named Pepper' })
  await expect(item).toHaveCount(1)
  await expect(item.locator('.memory-why-reason')).toContainText(/Why: .*(words in common|similar wording) \(#\d+/)
  await expect(item).toContainText(/\d+ tokens?/)
})

test('asked to remember something, the persona keeps it pinned and says so; Undo, or asking it to forget, takes it back', async ({
  app,
  page,
  graph,
}) => {
  const memory = new MemoryPage(page)
  await firstExchangeWith(app, graph, mio, 'Hello!')
  // The panel is open first: a notice's Undo is clicked while the notice is still up.
  await memory.open()
  const fact = memory.units('my cat is called Mochi').filter({ hasNotText: 'Remember that' })
  const notice = (text: string) => page.locator('.toast').filter({ hasText: text })

  await graph.send('Remember that my cat is called Mochi.')
  const kept = notice('Mio will remember: “my cat is called Mochi”')
  await expect(kept).toBeVisible()
  await expect(fact).toHaveCount(1)
  await kept.getByRole('button', { name: 'Undo' }).click()
  await expect(notice('Mio forgot: “my cat is called Mochi”')).toBeVisible()
  await expect(fact).toHaveCount(0)
  // The turn itself is still remembered as a turn.
  await expect(memory.units('Remember that my cat is called Mochi.')).toHaveCount(1)

  // Asked again: a fact of its own beside the turn that said it, pinned, its source in words.
  await graph.send('Remember that my cat is called Mochi.')
  await expect(fact).toHaveCount(1)
  await memory.openUnit('user: my cat is called Mochi')
  await expect(memory.detail.getByRole('button', { name: 'Unpin' })).toBeVisible()
  await expect(memory.detail).toContainText('You asked it to remember')
  await memory.backToList()

  // Asked to forget: it says so, and Undo brings it back.
  await graph.send('Please forget about my cat.')
  const forgot = notice('Mio forgot: “my cat is called Mochi”').filter({
    has: page.getByRole('button', { name: 'Undo' }),
  })
  await expect(forgot).toBeVisible()
  await expect(fact).toHaveCount(0)
  await forgot.getByRole('button', { name: 'Undo' }).click()
  await expect(fact).toHaveCount(1)
})
