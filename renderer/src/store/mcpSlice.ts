import type { StateCreator } from 'zustand'
import type { McpToolCall } from '@shared/contract'
import type { Client } from '../bridge'
import type { App, AppStore } from './app'
import type { AttachedResource, McpSlice } from './mcpState'

/**
 * The message as it is sent: the typed text, then each attached resource as a tagged block,
 * its binary parts named with type and size so the model knows they exist.
 */
export function withResources(text: string, resources: readonly AttachedResource[]): string {
  const blocks = resources.map((r) => {
    const named = r.files.map(
      (f) => `[${f.uri}: ${f.mime}, ${f.bytes.toLocaleString('en')} bytes of binary, not included]`,
    )
    const body = [r.text, ...named].filter(Boolean).join('\n')
    return `<resource server="${r.server}" uri="${r.uri}" name="${r.name}">\n${body}\n</resource>`
  })
  return [text, ...blocks].filter(Boolean).join('\n\n')
}

export const mcpSlice =
  (_client: Client): StateCreator<App, [], [], McpSlice> =>
  (set, get) => ({
    mcpServers: null,
    mcpCalls: {},
    async loadMcpServers(start) {
      const list = await get().invoke('mcp_list_servers', start ? { start: true } : {})
      if (list) set({ mcpServers: list })
    },
    async loadMcpCalls(flowId) {
      const calls = await get().invoke('mcp_tool_calls', { flow_id: flowId })
      if (!calls || get().flowId !== flowId) return
      const byNode: Record<string, McpToolCall[]> = {}
      for (const c of calls) (byNode[c.node_id] ??= []).push(c)
      set({ mcpCalls: byNode })
    },
    async answerMcpCall(callId, answer) {
      await get().invoke('mcp_answer_call', { call_id: callId, answer })
    },
    attachedResources: [],
    attachResource: (resource) =>
      set((s) => ({
        attachedResources: [...s.attachedResources.filter((r) => r.uri !== resource.uri), resource],
      })),
    detachResource: (uri) => set((s) => ({ attachedResources: s.attachedResources.filter((r) => r.uri !== uri) })),
    mcpPrompts: [],
    async loadMcpPrompts() {
      const prompts = await get().invoke('mcp_list_prompts', {})
      if (prompts) set({ mcpPrompts: prompts })
    },
  })

/** Subscribes the store to MCP events; called once when the store is made. */
export function wireMcpEvents(client: Client, store: AppStore): void {
  client.on('mcp_servers_changed', (list) => store.setState({ mcpServers: list }))
  client.on('mcp_call_updated', (call) =>
    store.setState((s) => {
      if (!s.nodes[call.node_id]) return {}
      const list = s.mcpCalls[call.node_id] ?? []
      const at = list.findIndex((c) => c.id === call.id)
      const next = at < 0 ? [...list, call] : list.map((c, i) => (i === at ? call : c))
      return { mcpCalls: { ...s.mcpCalls, [call.node_id]: next } }
    }),
  )
  // Calls belong to nodes of the open flow: load them whenever another flow opens.
  store.subscribe((state, previous) => {
    if (state.flowId === previous.flowId) return
    store.setState({ mcpCalls: {} })
    if (state.flowId) void store.getState().loadMcpCalls(state.flowId)
  })
}
