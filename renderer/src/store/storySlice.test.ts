import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Flow, FlowGraph, Node, Story } from '@shared/contract'
import { fakeClient, memoryStorage } from '../../../tests/renderer/support/fakeClient'
import { createAppStore } from './index'

const ids = {
  storyFlow: '00000000-0000-4000-8000-00000000000a',
  otherFlow: '00000000-0000-4000-8000-00000000000b',
  secondStoryFlow: '00000000-0000-4000-8000-00000000000c',
  story: '00000000-0000-4000-8000-0000000000a1',
  secondStory: '00000000-0000-4000-8000-0000000000c1',
  opening: '00000000-0000-4000-8000-0000000001a1',
  otherNode: '00000000-0000-4000-8000-0000000001b1',
  secondOpening: '00000000-0000-4000-8000-0000000001c1',
  picture: '00000000-0000-4000-8000-0000000009f1',
}

function node(id: string, prompt: string): Node {
  return {
    id,
    timestamp: '2026-01-01T00:00:00+00:00',
    prompt,
    response: `reply to ${prompt}`,
    status: 'complete',
    error: null,
    metadata: { model: 'm', stats: {}, summary: { text: '', updated: false, last_built: null }, tags: [] },
  }
}

function graph(id: string, persona: string, nodeId: string): FlowGraph {
  const flow: Flow = {
    id,
    name: id,
    description: '',
    created: '2026-01-01T00:00:00Z',
    updated: '2026-01-01T00:00:00Z',
    persona_id: persona,
    system_prompt: '',
    token_budget: null,
    nodes: [{ index: 1, id: nodeId, position: null, pinned: false }],
    connections: [],
  }
  return { flow, nodes: [node(nodeId, nodeId)], version: 1 }
}

function story(id: string, flowId: string, at: string, name: string): Story {
  return {
    id,
    name,
    flow_id: flowId,
    persona_id: 'gm',
    language: 'en',
    template: 'blank',
    current_node_id: at,
    redo_node_id: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    settings: { summarizationTriggerMessages: 20, shortTermTurns: 6, models: {} },
    characters: [],
  }
}

/** Three conversations: a story's, a persona's own, and a second story's; the host answers like the real one. */
function storyClient() {
  const graphs: Record<string, FlowGraph> = {
    [ids.storyFlow]: graph(ids.storyFlow, 'gm', ids.opening),
    [ids.otherFlow]: graph(ids.otherFlow, 'sora', ids.otherNode),
    [ids.secondStoryFlow]: graph(ids.secondStoryFlow, 'gm2', ids.secondOpening),
  }
  const stories = [
    story(ids.story, ids.storyFlow, ids.opening, 'Mist'),
    story(ids.secondStory, ids.secondStoryFlow, ids.secondOpening, 'Harbour'),
  ]
  let made = 0
  return fakeClient((method, input) => {
    switch (method) {
      case 'open_flow': {
        const g = graphs[input.id as string]!
        return {
          ok: true,
          value: { ...g, focus_id: g.nodes.at(-1)?.id ?? null, complete: true, total: g.flow.nodes.length },
        }
      }
      case 'story_list':
        return { ok: true, value: stories }
      case 'story_get': {
        const found = stories.find((s) => s.id === input.story_id)!
        return { ok: true, value: { story: found, files: [], summary: null } }
      }
      case 'story_send':
      case 'chat_send':
        return { ok: true, value: { node_id: `00000000-0000-4000-8000-${String(++made).padStart(12, '0')}` } }
      case 'get_undo_state':
        return { ok: true, value: { can_undo: false, can_redo: false, undo_label: null, redo_label: null } }
      default:
        return undefined
    }
  })
}

beforeAll(() => {
  vi.stubGlobal('localStorage', memoryStorage())
})

async function openedStory() {
  const fake = storyClient()
  const store = createAppStore(fake.client)
  await store.getState().loadStories()
  await store.getState().openStory(ids.story)
  return { fake, store }
}

describe('the story panel bound to its story', () => {
  it('sends a turn into the story’s own conversation, without the graph composer’s pictures or its "new root"', async () => {
    const { fake, store } = await openedStory()
    store.setState({
      attachedImages: [{ itemId: ids.picture, mime: 'image/png', data_base64: 'AAAA', name: 'cat.png' }],
      asRoot: true,
    })

    await store.getState().sendStoryTurn('I open the door')

    const sent = fake.calls.filter((c) => c.method === 'story_send' || c.method === 'chat_send')
    expect(sent).toEqual([
      {
        method: 'story_send',
        input: { story_id: ids.story, flow_id: ids.storyFlow, prompt: 'I open the door', parent_id: ids.opening },
      },
    ])
    // The picture stays in the graph's composer, for the graph's next prompt.
    expect(store.getState().attachedImages).toHaveLength(1)
  })

  it('closes when a conversation that is not a story takes the canvas; a turn then goes nowhere', async () => {
    const { fake, store } = await openedStory()
    expect(store.getState().panel).toBe('story')

    await store.getState().openFlow(ids.otherFlow)

    expect(store.getState()).toMatchObject({ story: null, panel: null })
    expect(await store.getState().sendStoryTurn('typed after the switch')).toBeNull()
    expect(fake.calls.some((c) => c.method === 'story_send' || c.method === 'chat_send')).toBe(false)
  })

  it('follows the canvas to another story’s conversation, and sends there', async () => {
    const { fake, store } = await openedStory()

    await store.getState().openFlow(ids.secondStoryFlow)
    await vi.waitFor(() => expect(store.getState().story?.id).toBe(ids.secondStory))
    expect(store.getState().panel).toBe('story')

    await store.getState().sendStoryTurn('I walk to the pier')
    expect(fake.calls.filter((c) => c.method === 'story_send').map((c) => c.input)).toEqual([
      {
        story_id: ids.secondStory,
        flow_id: ids.secondStoryFlow,
        prompt: 'I walk to the pier',
        parent_id: ids.secondOpening,
      },
    ])
  })

  it('closes when the story’s conversation is closed (deleted)', async () => {
    const { store } = await openedStory()
    await store.getState().openFlow(null)
    expect(store.getState()).toMatchObject({ story: null, panel: null })
  })
})
