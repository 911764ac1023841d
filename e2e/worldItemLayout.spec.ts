import { expect, test } from './fixtures'
import { WorldPage } from './pages/world.page'

test.use({
  serverEnv: {
    // Summaries use their own model name, so the test holds only the summary's answer.
    LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:summary-mini',
  },
})

const SUMMARY =
  'A travel diary of three days in Kyoto: temples at dawn, a long walk along the river, a tea house that ' +
  'closed early, and a list of the places still to see on the next visit, with the trains between them.'

test('an open document keeps its buttons where they are while its text and its summary come in', async ({
  app,
  page,
  llm,
}) => {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  llm.script({ provider: 'openai', model: 'summary-mini', until: held, reply: SUMMARY })
  await app.open()
  const world = new WorldPage(page)
  await world.show()
  await world.createItem({
    type: 'Document',
    name: 'Kyoto diary',
    description: 'Notes from the trip',
    text: 'Day one.',
  })

  const dialog = await world.open('Kyoto diary')
  const del = dialog.getByRole('button', { name: 'Delete', exact: true })
  const close = dialog.getByRole('button', { name: 'Close', exact: true })
  await expect(dialog.getByText('summarising…')).toBeVisible()
  await expect(dialog.getByTestId('document-text')).toHaveText('Day one.')
  const before = { del: await del.boundingBox(), close: await close.boundingBox() }

  release()
  const summary = dialog.getByTestId('item-auto-summary')
  await expect(summary).toContainText('A travel diary of three days in Kyoto', { timeout: 15_000 })
  expect(await del.boundingBox()).toEqual(before.del)
  expect(await close.boundingBox()).toEqual(before.close)

  // Two lines of it show; a click shows the rest, and says so to a screen reader.
  await expect(summary).toHaveAttribute('aria-expanded', 'false')
  await expect(summary).toHaveAttribute('title', `${SUMMARY}`)
  await summary.click()
  await expect(summary).toHaveAttribute('aria-expanded', 'true')
})
