import type { StateCreator } from 'zustand'
import type { App } from './app'
import { sceneSpeaker } from './sceneSpeaker'
import { streamPainter } from './streamPainter'
import type { ChatSlice } from './chatState'

export const chatSlice: StateCreator<App, [], [], ChatSlice> = (set, get) => {
  const painter = streamPainter((deltas) => {
    set((s) => {
      const nodes = { ...s.nodes }
      for (const [id, text] of deltas) {
        const node = nodes[id]
        if (node) nodes[id] = { ...node, response: node.response + text }
      }
      return { nodes }
    })
  })

  /** The new node on screen and selected, so the next prompt continues from it. */
  async function land(sent: { node_id: string } | null): Promise<string | null> {
    if (!sent) return null
    await get().ensureNode(sent.node_id)
    get().select(sent.node_id)
    return sent.node_id
  }

  return {
    replyStatus: {},

    async send(prompt, position) {
      const { flowId, invoke, asRoot } = get()
      // A new root only when the user said so in the composer (or nothing is selected).
      const selectedId = asRoot ? null : get().selectedId
      if (!flowId) return null
      if (asRoot) set({ asRoot: false })
      // In a group scene, the member the composer shows answers (the pick lasts one message).
      const speaker = sceneSpeaker(get(), prompt)
      // Pictures dropped or pasted since the last send go out with this prompt (the world feature).
      const images = get().takeAttachedImages()
      const sent = await invoke('chat_send', {
        flow_id: flowId,
        prompt,
        ...(selectedId ? { parent_id: selectedId } : {}),
        ...(images.length > 0 ? { images } : {}),
        ...(speaker ? { persona_id: speaker } : {}),
        position,
      })
      if (sent) set({ speakerPick: null })
      return land(sent)
    },

    async nextSpeaker(position) {
      const { flowId, invoke, selectedId } = get()
      if (!flowId || !selectedId) return null
      const speaker = sceneSpeaker(get(), '')
      const sent = await invoke('chat_next_speaker', {
        flow_id: flowId,
        parent_id: selectedId,
        ...(speaker ? { persona_id: speaker } : {}),
        position,
      })
      if (sent) set({ speakerPick: null })
      return land(sent)
    },

    async branch(nodeId, prompt, position) {
      const { flowId, flow, invoke } = get()
      if (!flowId) return null
      const parents = flow?.connections.filter((c) => c.to === nodeId).map((c) => c.from) ?? []
      return land(
        await invoke('chat_send', { flow_id: flowId, prompt, parent_ids: parents, position, version_of: nodeId }),
      )
    },

    async retry(nodeId, position, personaId) {
      const { flowId, invoke } = get()
      if (!flowId) return null
      return land(
        await invoke('chat_retry', {
          flow_id: flowId,
          node_id: nodeId,
          position,
          ...(personaId ? { persona_id: personaId } : {}),
        }),
      )
    },

    async stopReply(nodeId) {
      await get().invoke('chat_stop', { node_id: nodeId })
    },

    async continueReply(nodeId) {
      const { flowId, invoke } = get()
      if (flowId) await invoke('chat_continue', { flow_id: flowId, node_id: nodeId })
    },

    setReplyStatus(nodeId, status) {
      set((s) => ({ replyStatus: { ...s.replyStatus, [nodeId]: status } }))
    },

    appendStream: painter.push,
    discardStream: painter.discard,

    async ensureNode(id) {
      if (get().nodes[id]) return
      const node = await get().invoke('get_node', { id })
      if (node) get().upsertNode(node)
    },
  }
}
