import type { Page } from '@playwright/test'
import type { FakeLlm } from '../tests/support/fakeLlm'
import { expect, test } from './fixtures'
import type { GraphPage } from './pages/graph.page'
import { ConversationsPage } from './pages/conversations.page'
import { MemoryPage } from './pages/memory.page'
import { bindNewPersona } from './pages/persona.steps'

// Memory that spans a persona's conversations: what is told in one conversation is remembered
// in the next, what is told on another branch of the same conversation is not, and a private
// conversation keeps its memories to itself.

type Sent = { model: string; messages: Array<{ role: string; content: string }> }

/** The system message of the reply to `prompt`, as the chat model received it. */
function systemSentWith(llm: FakeLlm, prompt: string): string {
  const sent = llm.requests
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) => r.body as Sent)
    .find((b) => b.model === 'gpt-4o' && b.messages.at(-1)?.content === prompt)
  if (!sent) throw new Error(`no reply to "${prompt}" reached the chat model`)
  return sent.messages[0]!.content
}

/** Sends a prompt and waits for its reply (the fake echoes) in the newest card. */
async function say(page: Page, graph: GraphPage, index: number, prompt: string): Promise<void> {
  await graph.send(prompt)
  await expect(graph.card(index).getByTestId('node-response')).toContainText('echo')
}

/** A new conversation with Mio speaking. */
async function newConversationWithMio(page: Page, graph: GraphPage): Promise<void> {
  await graph.newFlow()
  const picker = page.getByLabel('Persona', { exact: true })
  await picker.selectOption({ label: 'Mio' })
  await expect(picker.locator('option:checked')).toHaveText('Mio')
}

/** Opens the open conversation's settings; `edit` fills them in before saving. */
async function conversationSettings(page: Page, edit: (dialog: ReturnType<Page['getByRole']>) => Promise<void>) {
  const dialog = await new ConversationsPage(page).openSettings()
  await edit(dialog)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toHaveCount(0)
}

test('a fact told in one conversation reaches the next; one told on a sibling branch does not; a private conversation keeps to itself', async ({
  app,
  page,
  graph,
  llm,
}) => {
  const memory = new MemoryPage(page)
  await app.open()
  await graph.newFlow()
  await bindNewPersona(page, { name: 'Mio', persona: 'A librarian in Kyoto who loves tea.' })
  await conversationSettings(page, (d) => d.getByLabel('Name').fill('Pets'))

  // "Pets": an opening, the cat on one branch, the dog on its sibling.
  await say(page, graph, 1, 'Hello, I have news about my pets.')
  await say(page, graph, 2, 'My cat is called Mochi.')
  await graph.fitView()
  await graph.card(1).click()
  await say(page, graph, 3, 'My dog is called Biscuit.')
  // Continuing the dog's branch: the cat was told on its sibling, so it is not remembered here.
  await say(page, graph, 4, 'What are my pets called?')
  const onDogBranch = systemSentWith(llm, 'What are my pets called?')
  expect(onDogBranch).toContain('Biscuit')
  expect(onDogBranch).not.toContain('Mochi')

  // A new conversation with Mio: the inspector shows the cat among what would be sent…
  await newConversationWithMio(page, graph)
  await page.getByRole('button', { name: 'Context' }).click()
  await page.getByLabel('Prompt').fill('What is my cat called?')
  const inspector = page.getByRole('region', { name: 'Context inspector' })
  await expect(inspector.locator('[data-kind=memory]')).toContainText('My cat is called Mochi.')
  // …and the chat model receives it.
  await say(page, graph, 1, 'What is my cat called?')
  expect(systemSentWith(llm, 'What is my cat called?')).toContain('My cat is called Mochi.')

  // "Why remembered?" names the conversation the memory came from and opens it at its turn.
  await graph.menu(1, 'Why remembered?')
  const item = memory.packItems.filter({ hasText: 'Mochi' })
  await expect(item.locator('.memory-why-reason')).toContainText('from another conversation')
  await item.getByRole('button', { name: 'Open in “Pets”' }).click()
  await expect(page.locator('.conv-node.selected [data-testid=node-prompt]')).toHaveText('My cat is called Mochi.')

  // A private conversation: its own turns only, and nothing of it elsewhere.
  await newConversationWithMio(page, graph)
  await conversationSettings(page, async (d) => {
    await d.getByLabel('Name').fill('Diary')
    await d.getByLabel('This conversation remembers only itself').check()
  })
  await say(page, graph, 1, 'My favourite café is called Blue Door.')
  await say(page, graph, 2, 'And my cat, what is it called again?')
  const inDiary = systemSentWith(llm, 'And my cat, what is it called again?')
  expect(inDiary).toContain('Blue Door')
  expect(inDiary).not.toContain('Mochi')

  await newConversationWithMio(page, graph)
  await say(page, graph, 1, 'What is my favourite café called?')
  const afterDiary = systemSentWith(llm, 'What is my favourite café called?')
  expect(afterDiary).not.toContain('Blue Door')

  // The memory panel tells which conversations may remember each memory.
  await memory.open()
  await memory.tab('Memories')
  await memory.openUnit('Blue Door')
  const reach = memory.detail.getByTestId('memory-reach')
  await expect(reach).toContainText('that conversation remembers only itself')
  const rows = reach.getByTestId('memory-reach-conversation')
  await expect(rows.filter({ hasText: 'Diary' })).toHaveAttribute('data-sees', 'branch')
  await expect(rows.filter({ hasText: 'Pets' })).toHaveAttribute('data-sees', 'none')
  await memory.backToList()
  await memory.openUnit('My cat is called Mochi.')
  await expect(rows.filter({ hasText: 'Pets' })).toHaveAttribute('data-sees', 'branch')
  await expect(rows.filter({ hasText: 'Diary' })).toHaveAttribute('data-sees', 'none')
  await expect(rows.filter({ hasText: 'Diary' })).toContainText('remembers only itself')
  await expect(rows.and(page.locator('[data-sees=all]'))).toHaveCount(2)
})
