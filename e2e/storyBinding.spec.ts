import { pngBytes } from '../tests/support/world/pngBytes'
import { expect, test } from './fixtures'
import { ConversationsPage } from './pages/conversations.page'
import { WorldPage } from './pages/world.page'

// Issue #35's first bug: the story panel stayed open on another conversation, and a turn typed
// there went into that persona's conversation and memory, with a picture attached earlier in the
// graph's composer. The panel now belongs to its story's conversation.

test('the story panel cannot send into another conversation, nor take the graph composer’s picture', async ({
  app,
  page,
  graph,
  llm,
}) => {
  await app.open()
  await graph.startConversation('Hello Sora')
  const chats = () => llm.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => JSON.stringify(r.body))

  // A picture waits in the graph's composer for the graph's next prompt.
  const world = new WorldPage(page)
  await world.dropFile('red.png', 'image/png', pngBytes(8, 8))
  const attached = page.getByRole('list', { name: 'Images attached to your next message' })
  await expect(attached.getByRole('img')).toHaveCount(1)

  await page.getByRole('button', { name: 'Stories' }).click()
  const picker = page.getByRole('dialog', { name: 'Stories' })
  await picker.getByLabel('Name').fill('Harbour')
  await picker.getByLabel('Template', { exact: true }).selectOption('blank')
  await picker.getByLabel('Template language').selectOption('en')
  await picker.getByRole('button', { name: 'Create story' }).click()
  const panel = page.getByRole('region', { name: 'Story Harbour' })
  const input = page.getByLabel('What you do or say')

  // Words typed for the story, then another conversation chosen: the panel goes with its story.
  await input.fill('I climb aboard the ship.')
  await new ConversationsPage(page).open('Hello Sora')
  await expect(panel).toBeHidden()
  await expect(input).toBeHidden() // the composer takes this conversation's prompts again
  await expect(page.getByRole('button', { name: 'Story: Harbour' })).toHaveCount(0)
  await expect(graph.card(1)).toBeVisible()
  await expect(page.locator('.react-flow__node')).toHaveCount(1)
  expect(chats().some((body) => body.includes('I climb aboard'))).toBe(false)

  // Back in the story, its turn goes into its own conversation, without the graph's picture.
  await page.getByRole('button', { name: 'Stories' }).click()
  await picker.getByRole('button', { name: 'Open Harbour' }).click()
  await expect(input).toHaveValue('') // nothing typed for it survived the switch, to be sent by mistake
  // Written once the story is back on screen, as a user reads where it stands first: on a busy full
  // run a Ctrl+Enter pressed while it was still being read sent nothing.
  await expect(page.getByRole('region', { name: 'The story' })).toContainText('Write the scene the story begins with.')
  llm.script({ promptIncludes: 'I climb aboard the ship.', times: 1, reply: 'The deck sways under your feet.' })
  await input.fill('I climb aboard the ship.')
  await input.press('Control+Enter')
  await expect(page.getByRole('region', { name: 'The story' })).toContainText('The deck sways under your feet.')
  const turn = chats().find((body) => body.includes('I climb aboard the ship.'))!
  expect(turn).toContain('game master')
  expect(turn).not.toContain('Hello Sora')
  expect(turn).not.toContain('data:image/png')
  // The picture is still waiting for the graph's next prompt.
  await new ConversationsPage(page).open('Hello Sora')
  await expect(attached.getByRole('img')).toHaveCount(1)
})
