import type { StateCreator } from 'zustand'
import type { Story } from '@shared/contract'
import type { Client } from '../bridge'
import type { App, AppStore } from './app'
import type { StorySlice } from './storyState'

export const storySlice =
  (_client: Client): StateCreator<App, [], [], StorySlice> =>
  (set, get) => {
    /** The canvas follows the story: its flow open and the node where play stands selected. */
    async function show(story: Story): Promise<void> {
      if (get().flowId !== story.flow_id) await get().openFlow(story.flow_id)
      // The story is read in the transcript: a graph-only layout gives way to it.
      if (get().readingLayout === 'graph') get().setReadingLayout('transcript')
      if (story.current_node_id && get().selectedId !== story.current_node_id) {
        await get().ensureNode(story.current_node_id)
        get().select(story.current_node_id)
      }
      if (story.current_node_id) get().focusNode(story.current_node_id)
    }
    return {
      stories: [],
      story: null,
      storyFiles: [],
      storySummary: null,
      storyExternal: {},
      sheetSeq: 0,

      async loadStories() {
        const list = await get().invoke('story_list', {})
        if (list) set({ stories: list })
      },

      async openStory(id) {
        const got = await get().invoke('story_get', { story_id: id })
        if (!got) return
        set({ story: got.story, storyFiles: got.files, storySummary: got.summary, storyExternal: {}, panel: 'story' })
        localStorage.setItem('loomverse.lastFlow', got.story.flow_id)
        await show(got.story)
      },

      closeStory() {
        set((s) => ({
          story: null,
          storyFiles: [],
          storySummary: null,
          storyExternal: {},
          panel: s.panel === 'story' ? null : s.panel,
        }))
      },

      async sendStoryTurn(prompt) {
        const story = get().story
        if (!story) return null
        const onCanvas = get().flowId === story.flow_id
        const parentId = (onCanvas ? get().selectedId : null) ?? story.current_node_id
        const sent = await get().invoke('story_send', {
          story_id: story.id,
          flow_id: story.flow_id,
          prompt,
          ...(parentId ? { parent_id: parentId } : {}),
        })
        if (!sent) return null
        if (get().flowId === story.flow_id) {
          await get().ensureNode(sent.node_id)
          get().select(sent.node_id)
        }
        return sent.node_id
      },

      async refreshStory() {
        const open = get().story
        if (!open) return
        const got = await get().invoke('story_get', { story_id: open.id })
        if (got) set({ story: got.story, storyFiles: got.files, storySummary: got.summary })
      },

      async initStory(input) {
        const story = await get().invoke('story_init', input)
        if (!story) return null
        await get().loadStories()
        await get().openStory(story.id)
        return story
      },

      async forkStory(input) {
        const story = await get().invoke('story_fork', input)
        if (!story) return null
        await get().loadStories()
        await get().openStory(story.id)
        return story
      },

      async moveStory(call) {
        const open = get().story
        if (!open) return
        const story =
          call.method === 'story_load'
            ? await get().invoke('story_load', { story_id: open.id, save_id: call.saveId })
            : await get().invoke(call.method, { story_id: open.id })
        if (!story) return
        set({ story })
        await show(story)
      },

      clearExternal(path) {
        set((s) => {
          const { [path]: _, ...rest } = s.storyExternal
          return { storyExternal: rest }
        })
      },
    }
  }

/**
 * Story events; the canvas's selection telling the story where play stands; and the story panel
 * bound to its story's conversation: when another conversation takes the canvas, the panel
 * follows it to that conversation's story, or closes.
 */
export function wireStoryEvents(client: Client, store: AppStore): void {
  client.on('story_updated', ({ story }) => {
    const s = store.getState()
    if (s.stories.some((x) => x.id === story.id))
      store.setState({ stories: s.stories.map((x) => (x.id === story.id ? story : x)) })
    else void s.loadStories()
    if (s.story?.id !== story.id) return
    store.setState({ story })
    // A new summary, a new sheet: what the panel shows is read again.
    void s.refreshStory()
  })
  client.on('story_file_changed', ({ story_id, path, hash, source }) => {
    const s = store.getState()
    if (s.story?.id !== story_id) return
    if (source === 'external') store.setState({ storyExternal: { ...s.storyExternal, [path]: hash } })
    void s.refreshStory()
  })
  client.on('story_sheet_changed', ({ story_id }) => {
    if (store.getState().story?.id === story_id) store.setState((s) => ({ sheetSeq: s.sheetSeq + 1 }))
  })
  store.subscribe((s, prev) => {
    if (s.flowId === prev.flowId || !s.story || s.flowId === s.story.flow_id) return
    const other = s.flowId ? s.stories.find((x) => x.flow_id === s.flowId) : undefined
    if (other) void s.openStory(other.id)
    else s.closeStory()
  })
  store.subscribe((s, prev) => {
    const story = s.story
    if (!story || s.selectedId === prev.selectedId || !s.selectedId) return
    if (s.flowId !== story.flow_id || s.selectedId === story.current_node_id) return
    // Only a node that has its reply: a prompt still streaming becomes where play stands when it lands.
    if (s.nodes[s.selectedId]?.status === 'streaming') return
    void s.invoke('story_set_position', { story_id: story.id, node_id: s.selectedId }).then((moved) => {
      if (moved && store.getState().story?.id === moved.id) store.setState({ story: moved })
    })
  })
}
