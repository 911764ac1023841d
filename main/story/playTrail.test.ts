import { describe, expect, it } from 'vitest'
import type { Node, Story } from '@shared/contract'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'

// Where play stands when the graph deletes that node (issue 37, finding 4): the story stands
// at the nearest ancestor still there, so undo and the next turn work.
const start = useLlmCore({ memoryWorker: null, jobWorker: null })

async function play(h: LlmHarness, story: Story, prompt: string): Promise<string> {
  h.fake.script({ promptIncludes: prompt, times: 1, reply: `after ${prompt}` })
  const now = await h.call<{ story: Story }>('story_get', { story_id: story.id })
  const done = h.next('chat_status', (d) => d.state === 'done' || d.state === 'failed')
  const { node_id } = await h.call<{ node_id: string }>('chat_send', {
    flow_id: story.flow_id,
    prompt,
    parent_id: now.story.current_node_id!,
  })
  expect(await done).toMatchObject({ node_id, state: 'done' })
  return node_id
}

const standing = async (h: LlmHarness, story: Story) =>
  (await h.call<{ story: Story }>('story_get', { story_id: story.id })).story.current_node_id

describe('a story whose current node is deleted', () => {
  it('stands at the deleted node’s parent; undo and the next turn work from there', async () => {
    const h = await start()
    const story = await h.call<Story>('story_init', { name: 'Gone', template: 'blank', language: 'en' })
    const opening = story.current_node_id!
    const first = await play(h, story, 'one')
    const second = await play(h, story, 'two')
    expect(await standing(h, story)).toBe(second)

    const moved = h.next('story_updated', (d) => d.story.id === story.id && d.story.current_node_id === first)
    await h.call('delete_node', { flow_id: story.flow_id, id: second })
    expect((await moved).story.redo_node_id).toBeNull() // announced to windows
    expect(await standing(h, story)).toBe(first)

    expect((await h.call<Story>('story_undo', { story_id: story.id })).current_node_id).toBe(opening)
    await h.call('story_redo', { story_id: story.id })
    const third = await play(h, story, 'three')
    expect(await h.call<Node>('get_node', { id: third })).toMatchObject({ status: 'complete' })
    expect((await h.call<Story>('story_undo', { story_id: story.id })).current_node_id).toBe(first)
  }, 30_000)

  it('stands at the nearest surviving ancestor when a whole branch above it goes, even before windows hear of it', async () => {
    const h = await start()
    const story = await h.call<Story>('story_init', { name: 'Branch', template: 'blank', language: 'en' })
    const opening = story.current_node_id!
    const first = await play(h, story, 'one')
    await play(h, story, 'two')
    await play(h, story, 'three')
    // Asked in the same turn of the event loop as the delete: before the flow's announcement.
    const [, undone] = await Promise.all([
      h.call('delete_node', { flow_id: story.flow_id, id: first, mode: 'subtree' }),
      h.core.router.call('story_undo', { story_id: story.id }, { transport: 'internal' }),
    ])
    expect(undone).toMatchObject({ ok: false, error: { code: 'conflict', message: /where the story begins/ } })
    expect(await standing(h, story)).toBe(opening)
    const next = await play(h, story, 'again')
    expect((await h.call<Story>('story_undo', { story_id: story.id })).current_node_id).toBe(opening)
    expect(next).not.toBe(first)
  }, 30_000)
})
