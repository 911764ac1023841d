import { expect, replyRequests, test } from './fixtures'
import { expectAccessible } from './pages/accessible'
import { bindNewPersona, createPersona } from './pages/persona.steps'

type Sent = { model: string; messages: Array<{ role: string; content: string }> }

test('a group scene of two personas: each reply names its speaker, a name in the prompt chooses who answers, and the other goes on without a prompt', async ({
  app,
  graph,
  page,
  llm,
}) => {
  await app.open()
  await graph.newFlow()
  await bindNewPersona(page, { name: 'Alice', persona: 'Alice is a cartographer.' })
  await createPersona(page, { name: 'Bob', persona: 'Bob is a sailor.' })

  // The conversation becomes a scene: Bob joins Alice.
  await page.getByTestId('scene-button').click()
  const scene = page.getByRole('dialog', { name: 'Group scene' })
  await expect(scene.getByTestId('scene-member')).toHaveText([/Alice/])
  await scene.getByLabel('Persona to add').selectOption({ label: 'Bob' })
  await scene.getByRole('button', { name: 'Add' }).click()
  await expect(scene.getByLabel('Whoever is addressed')).toBeChecked()
  await expectAccessible(page, 'scene dialog')
  await scene.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByTestId('scene-button')).toContainText('2 members')

  const transcript = page.getByTestId('transcript')
  const speakers = transcript.getByTestId('speaker-name')
  const picker = page.getByLabel('Who speaks next')
  const chats = () =>
    replyRequests(llm).filter((r) => (r.body as Sent).model === 'gpt-4o')

  // Nobody named: the first member in turn answers.
  await expect(picker.locator('option:checked')).toHaveText('Alice (automatic)')
  llm.script({ provider: 'openai', model: 'gpt-4o', reply: 'Morning! The charts are ready.', times: 1 })
  await graph.send('Good morning, everyone.')
  await expect(transcript.getByText('Morning! The charts are ready.')).toBeVisible()
  await expect(speakers).toHaveText(['Alice'])

  // Bob, named in the prompt, answers; the composer said so before the message went.
  await page.getByLabel('Prompt').fill('Bob, is the ship ready?')
  await expect(picker.locator('option:checked')).toHaveText('Bob (automatic)')
  llm.script({ provider: 'openai', model: 'gpt-4o', reply: 'She is, and the tide is with us.', times: 1 })
  await page.keyboard.press('Control+Enter')
  await expect(transcript.getByText('She is, and the tide is with us.')).toBeVisible()
  await expect(speakers).toHaveText(['Alice', 'Bob'])
  await expectAccessible(page, 'scene transcript and composer')
  const toBob = chats().at(-1)!.body as Sent
  expect(toBob.messages[0]!.content).toContain('You are Bob.')
  expect(toBob.messages[0]!.content).not.toContain('Alice is a cartographer.')
  expect(toBob.messages).toContainEqual({ role: 'user', content: 'Alice: Morning! The charts are ready.' })

  // Alice goes on without a word from the user: a reply with no prompt, hers.
  llm.script({ provider: 'openai', model: 'gpt-4o', reply: 'Then we sail at dawn.', times: 1 })
  await page.getByRole('button', { name: 'Alice goes on' }).click()
  await expect(transcript.getByText('Then we sail at dawn.')).toBeVisible()
  await expect(speakers).toHaveText(['Alice', 'Bob', 'Alice'])
  await expect(transcript.getByTestId('transcript-prompt')).toHaveText([
    'Good morning, everyone.',
    'Bob, is the ship ready?',
  ])
  const toAlice = chats().at(-1)!.body as Sent
  expect(toAlice.messages.at(-1)).toEqual({ role: 'user', content: '(Alice speaks next.)' })
  expect(toAlice.messages).toContainEqual({ role: 'user', content: 'Bob: She is, and the tide is with us.' })

  // Picked by hand: Bob answers although the turn order would choose Alice's partner again.
  await picker.selectOption({ label: 'Bob' })
  llm.script({ provider: 'openai', model: 'gpt-4o', reply: 'Aye.', times: 1 })
  await graph.send('Alice, any last words?')
  await expect(transcript.getByText('Aye.', { exact: true })).toBeVisible()
  await expect(speakers).toHaveText(['Alice', 'Bob', 'Alice', 'Bob'])
  // The pick lasted one message: the order chooses again.
  await expect(picker.locator('option:checked')).toHaveText('Alice (automatic)')

  // The first turn answered again by the other member: an alternative of its own, Bob's.
  llm.script({ provider: 'openai', model: 'gpt-4o', reply: 'Morning. Wind from the west.', times: 1 })
  await transcript
    .getByTestId('transcript-turn')
    .first()
    .getByRole('button', { name: 'Answer as another member' })
    .click()
  await page.getByRole('menuitem', { name: 'Bob' }).click()
  await expect(transcript.getByText('Morning. Wind from the west.')).toBeVisible()
  await expect(speakers).toHaveText(['Bob'])
  await expect(transcript.getByTestId('alternative-position').first()).toHaveText('2 / 2')
})
