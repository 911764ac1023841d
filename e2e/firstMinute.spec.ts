import type { Flow, Node } from '@shared/contract'
import { expect, llmEnv, startServer, test } from './fixtures'
import { say, words } from './pages/words'

// Issue #35's first minute, at both window sizes, in both languages and both themes: a link
// opens a conversation at a message, a 5,000-character reply is read whole, ‹ › switches
// alternatives, retry and edit work from the transcript, the graph and the transcript follow
// each other, Ctrl+K runs a command, a story's composer never sends into another conversation,
// and a reload after a host restart reconnects. The other specs walk each of these in depth
// in English at 1280x800; this one holds them at every size, language and theme.

const sizes = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const
const languages = ['en', 'ja'] as const
const themes = ['light', 'dark'] as const

const FIRST = 'The first sentence of a long answer about the old town.'
const LAST = 'And that is the very last sentence of the long answer.'

/** About 5,000 characters of Markdown, its first and last sentences known. */
function longReply(): string {
  const paragraphs = ['## The old town', FIRST]
  for (let i = 0; paragraphs.join('\n\n').length < 4_900; i++)
    paragraphs.push(`Paragraph ${i}: the lanes, the steps and the river banks each keep a season of their own.`)
  paragraphs.push(LAST)
  return paragraphs.join('\n\n')
}

for (const size of sizes)
  for (const language of languages)
    for (const theme of themes)
      test(`the first minute at ${size.width}x${size.height}, ${language}, ${theme}`, async ({
        page,
        app,
        graph,
        llm,
        server,
      }) => {
        const w = words(language)
        await page.setViewportSize(size)
        await app.open()
        const call = <T>(action: string, data: unknown) => graph.request(action, data) as Promise<T>
        const trip = await call<Flow>('create_flow', { name: 'Old town' })
        const first = await call<Node>('create_node', {
          flow_id: trip.id,
          prompt: 'Where should we go first?',
          response: 'The old town.',
        })
        const long = await call<Node>('create_node', {
          flow_id: trip.id,
          prompt: 'Tell me about it',
          response: longReply(),
          parent_ids: [first.id],
        })
        await call<Node>('create_node', {
          flow_id: trip.id,
          prompt: 'Tell me about it',
          response: 'A shorter answer.',
          parent_ids: [first.id],
        })
        await call('update_settings', { language, theme })

        // Opened by its link, at the long reply: that conversation, that message chosen.
        await page.goto(`${server.url}#flow=${trip.id}&node=${long.id}`)
        await expect.poll(() => app.theme()).toBe(theme)
        const log = page.getByRole('log', { name: w.transcript.log })
        const message = (index: number) =>
          log.getByRole('article', { name: say(w.transcript.userMessage, { index }), exact: true })
        const reply = (index: number) =>
          log.getByRole('article', { name: say(w.transcript.reply, { index }), exact: true })
        const alternatives = (index: number) =>
          page.getByRole('group', { name: say(w.transcript.alternatives, { index }) })
        await expect(page.locator('.conv-node.selected')).toHaveAttribute('data-index', '2')

        // Read whole: the first and the last sentence are there, nothing is clipped.
        const text = reply(2).getByTestId('transcript-response')
        await expect(text).toContainText(FIRST)
        await expect(text).toContainText(LAST)
        const clipped = await text.evaluate(
          (el) => el.scrollHeight > el.clientHeight + 1 || getComputedStyle(el).overflow === 'hidden',
        )
        expect(clipped).toBe(false)

        // ‹ › between the two answers to the same question.
        await expect(alternatives(2)).toContainText('1 / 2')
        await alternatives(2).getByRole('button', { name: w.transcript.next }).click()
        await expect(reply(3)).toContainText('A shorter answer.')
        await expect(page.locator('.conv-node.selected')).toHaveAttribute('data-index', '3')

        // Retry from the transcript: a third answer, shown in place.
        await reply(3).getByRole('button', { name: w.transcript.retry }).click()
        await expect(reply(4)).toContainText('echo: Tell me about it')
        await expect(alternatives(4)).toContainText('3 / 3')

        // Edit the first message: a new branch beside it, answered.
        await message(1).getByRole('button', { name: w.transcript.edit }).click()
        const dialog = page.getByRole('dialog', { name: w.graph.editPrompt })
        await dialog.getByLabel(w.graph.prompt).fill('Where should we go in spring?')
        await dialog.getByRole('button', { name: w.graph.createBranch }).click()
        await expect(reply(5)).toContainText('echo: Where should we go in spring?')

        // The graph and the transcript follow each other.
        await alternatives(5).getByRole('button', { name: w.transcript.previous }).click()
        await expect(reply(4)).toContainText('echo: Tell me about it')
        await page.locator('.conv-node[data-index="1"]').click()
        await expect(message(1)).toBeInViewport()
        await reply(4).getByText('echo: Tell me about it').click()
        await expect(page.locator('.conv-node.selected')).toHaveAttribute('data-index', '4')

        // Ctrl+K runs a command: the graph alone, then both again.
        const palette = page.getByRole('dialog', { name: w.shell.palette.title })
        const run = async (label: string) => {
          await page.keyboard.press('Control+k')
          await palette.getByRole('combobox').fill(label)
          await expect(palette.getByRole('option').first()).toHaveText(label)
          await page.keyboard.press('Enter')
          await expect(palette).toHaveCount(0)
        }
        await run(w.shell.cmd.view.graph)
        await expect(log).toHaveCount(0)
        await run(w.shell.cmd.view.both)
        await expect(log).toBeVisible()

        // A story's turn typed and left: another conversation chosen, it goes nowhere.
        await call('story_init', { name: 'Harbour', template: 'blank', language })
        await page.getByRole('button', { name: w.story.headerButton, exact: true }).click()
        await page
          .getByRole('dialog', { name: w.story.title })
          .getByRole('button', { name: say(w.story.openNamed, { name: 'Harbour' }) })
          .click()
        const storyInput = page.getByLabel(w.story.input)
        await storyInput.fill('I climb aboard the ship.')
        await page
          .locator('li[data-flow-id]')
          .filter({ has: page.locator('.conv-name', { hasText: 'Old town' }) })
          .locator('.conv-row-open')
          .click()
        await expect(storyInput).toHaveCount(0)
        await expect(page.getByLabel(w.graph.prompt, { exact: true })).toBeVisible()
        expect(llm.requests.some((r) => JSON.stringify(r.body).includes('I climb aboard'))).toBe(false)

        // The host restarts: the page reconnects by itself, and a reload finds everything again.
        const chosen = await page.locator('.conv-node.selected').getAttribute('data-index')
        await server.stop({ keepHome: true })
        await expect(app.connection).not.toHaveAttribute('class', /connection-connected/)
        const again = await startServer({ home: server.home, port: server.port, env: llmEnv(llm) })
        try {
          await expect(app.connection).toHaveAttribute('class', /connection-connected/)
          await page.reload()
          await expect(app.connection).toHaveAttribute('class', /connection-connected/)
          await expect(log).toBeVisible()
          await expect(page.locator('.conv-node.selected')).toHaveAttribute('data-index', chosen!)
        } finally {
          await again.stop()
        }
      })
