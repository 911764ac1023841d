import i18next from 'i18next'
import type { StateCreator } from 'zustand'
import type { Flow, FlowGraph, FlowMember, FlowPage, FlowPatch, FlowView, Node } from '@shared/contract'
import { withListed } from '@shared/flowList'
import { applyFlowPatch as patchedFlow } from '@shared/flowPatch'
import type { App } from './app'
import { sceneSpeaker } from './sceneSpeaker'
import { mergesAmong, patchGraph, sameMember } from './flowPatching'
import { FLOW_PAGE_SIZE, withPage } from './flowPages'
import { nodeContent } from './nodeContent'
import type { GraphSlice, UndoState } from './graphState'

const noUndo: UndoState = { can_undo: false, can_redo: false, undo_label: null, redo_label: null }

export const graphSlice: StateCreator<App, [], [], GraphSlice> = (set, get) => {
  async function refreshUndo() {
    const flowId = get().flowId
    if (!flowId) return
    const state = await get().invoke('get_undo_state', { flow_id: flowId })
    if (state && get().flowId === flowId) set({ undo: state })
  }
  /** A reload of the open flow under way, and the patches heard meanwhile (applied after it, in order). */
  let reloading: { flowId: string; heard: FlowPatch[] } | null = null
  /**
   * A big flow's rest being read in pages, and the patches applied meanwhile: applied again at
   * the end, since a page read before one of them would otherwise undo it.
   */
  let paging: { flowId: string; heard: FlowPatch[] } | null = null
  /** Opens asked for so far: an open answered after a later one was asked for is dropped. */
  let opening = 0
  const content = nodeContent({
    has: (id) => get().nodes[id] !== undefined,
    fetch: (ids) => get().invoke('get_nodes', { ids }),
    take(found) {
      // Only this flow's cards: the answer may come after another flow opened.
      const mine = found.filter((n) => get().members[n.id])
      if (mine.length === 0) return
      for (const n of mine) get().discardStream(n.id)
      set((s) => {
        const nodes = { ...s.nodes }
        for (const n of mine) nodes[n.id] = n
        return { nodes }
      })
    },
  })

  /** The open flow as a window shows it first (whole when small), the rest read after it in pages. */
  async function readView(flowId: string, at?: string): Promise<FlowView | null> {
    paging = null
    content.reset()
    return get().invoke('open_flow', { id: flowId, view: viewAround(), ...(at ? { focus_id: at } : {}) })
  }

  async function readRest(flowId: string, view: FlowView): Promise<void> {
    if (view.complete) {
      set({ flowLoading: null })
      return
    }
    const mine = { flowId, heard: [] as FlowPatch[] }
    paging = mine
    let loaded = view.flow.nodes.length
    set({ flowLoading: { loaded, total: view.total } })
    for (let before: number | null = null; ;) {
      const page: FlowPage | null = await get().invoke('load_flow_page', { id: flowId, before, limit: FLOW_PAGE_SIZE })
      if (paging !== mine || get().flowId !== flowId || !get().flow) return
      if (!page) break // the error is on screen; what was read stays shown
      loaded += page.members.length
      showShape(withPage(get().flow!, page))
      set({ flowLoading: { loaded: Math.min(loaded, view.total), total: view.total } })
      if (page.next === null) break
      before = page.next
    }
    paging = null
    let flow = get().flow!
    for (const patch of mine.heard) flow = patchedFlow(flow, patch)
    showShape(flow)
    set({ flowLoading: null })
  }

  /**
   * The cards' content as the host read it. A streaming reply's text there holds every piece sent
   * before the read (the host answers with what its stream has sent): pieces heard meanwhile and
   * still waiting for the next frame are in it already, and would otherwise come twice.
   */
  function readWhole(graph: FlowGraph): Record<string, Node> {
    const nodes = contentOf(graph)
    for (const id in nodes) get().discardStream(id)
    return nodes
  }

  /** A new shape of the open flow, its cards' content and selection kept. */
  function showShape(flow: Flow) {
    const selectedId = get().selectedId
    set({
      flow,
      ...shape(flow, get().members),
      activeIds: selectedId && flow.nodes.some((m) => m.id === selectedId) ? pathTo(flow, selectedId) : new Set(),
    })
  }

  async function reloadFlow(flowId: string) {
    if (reloading?.flowId === flowId) return
    const current = { flowId, heard: [] as FlowPatch[] }
    reloading = current
    const graph = await readView(flowId, get().selectedId ?? undefined)
    if (reloading === current) reloading = null
    if (!graph || get().flowId !== flowId) return
    // The cards as read: events may have been missed for them too.
    set({ nodes: readWhole(graph) })
    get().applyFlow(graph.flow)
    set({ flowVersion: graph.version })
    for (const patch of current.heard) get().applyFlowPatch(patch)
    await readRest(flowId, graph)
  }

  function withFlow<T>(fn: (flowId: string) => Promise<T>): Promise<T | null> {
    const flowId = get().flowId
    return flowId ? fn(flowId) : Promise.resolve(null)
  }

  return {
    flows: [],
    flowId: null,
    flow: null,
    flowVersion: null,
    nodes: {},
    flowLoading: null,
    selectedId: null,
    activeIds: new Set(),
    members: {},
    parentIds: new Set(),
    merges: {},
    undo: noUndo,
    context: null,
    positions: {},
    focus: null,
    expandedIds: new Set(),

    wantContent: content.want,

    toggleExpanded(id) {
      const next = new Set(get().expandedIds)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      set({ expandedIds: next })
    },

    setLayoutPositions(positions) {
      set({ positions })
    },

    focusNode(id) {
      get().select(id)
      set((s) => ({ focus: { id, seq: (s.focus?.seq ?? 0) + 1 } }))
    },

    async loadFlows() {
      const flows = await get().invoke('list_flows', {})
      if (flows) set({ flows })
    },

    async openFlow(id, at) {
      const mine = ++opening
      if (id === null) {
        paging = null
        set({
          flowLoading: null,
          flowId: null,
          flow: null,
          flowVersion: null,
          nodes: {},
          members: {},
          parentIds: new Set(),
          merges: {},
          selectedId: null,
          activeIds: new Set(),
          undo: noUndo,
          context: null,
        })
        return
      }
      const graph = await readView(id, at)
      if (!graph || mine !== opening) return
      const nodes = readWhole(graph)
      set({
        flowId: id,
        flow: graph.flow,
        flowVersion: graph.version,
        ...shape(graph.flow, {}),
        nodes,
        positions: {},
        selectedId: null,
        activeIds: new Set(),
        context: null,
        speakerPick: null,
      })
      // Open on the newest turn: where a returning user most likely left off.
      if (graph.focus_id) get().focusNode(graph.focus_id)
      localStorage.setItem('loomverse.lastFlow', id)
      void readRest(id, graph)
      await refreshUndo()
    },

    async createFlow(placeholder) {
      // With the persona used (or made) last, if it still exists.
      const personaId = get().nextPersonaId
      const known = personaId && get().personas.some((p) => p.id === personaId)
      const flow = await get().invoke('create_flow', {
        name: placeholder,
        name_from_prompt: true,
        ...(known ? { persona_id: personaId } : {}),
      })
      if (!flow) return
      await get().loadFlows()
      await get().openFlow(flow.id)
    },

    async renameFlow(id, name) {
      // Shown at once; the host's answer (and its flow_updated) confirms or puts it back.
      set((s) => ({ flows: s.flows.map((f) => (f.id === id ? { ...f, name, name_source: 'user' as const } : f)) }))
      const saved = await get().invoke('update_flow', { id, name })
      await get().loadFlows()
      return saved !== null
    },

    async setFlowPinned(id, pinned) {
      if (await get().invoke('update_flow', { id, pinned })) await get().loadFlows()
    },

    async deleteFlow(id) {
      const { flows, flowId } = get()
      const at = flows.findIndex((f) => f.id === id)
      const name = flows[at]?.name ?? ''
      // Decided before the call: the host's flow_deleted may arrive first and close it.
      const wasOpen = flowId === id
      if (!(await get().invoke('trash_flow', { id }))) return
      const rest = get().flows.filter((f) => f.id !== id)
      set({ flows: rest })
      // The one that took its place in the list, else the one above it.
      if (wasOpen) await get().openFlow((rest[at] ?? rest[at - 1])?.id ?? null)
      get().toast('info', i18next.t('conversations.deleted', { name }), {
        label: i18next.t('conversations.undo'),
        run: () => void get().restoreFlow(id),
      })
    },

    async restoreFlow(id) {
      if (!(await get().invoke('restore_flow', { id }))) return
      await get().loadFlows()
      await get().openFlow(id)
    },

    select(id) {
      const flow = get().flow
      // Choosing a node is choosing where the next prompt goes: a pending "new root" is dropped.
      set({ selectedId: id, activeIds: id && flow ? pathTo(flow, id) : new Set(), ...(id ? { asRoot: false } : {}) })
    },

    async connect(sourceId, targetId) {
      await withFlow((flowId) =>
        get().invoke('connect_nodes', { flow_id: flowId, source_id: sourceId, target_id: targetId }),
      )
    },

    async reconnect(edge, next) {
      await withFlow((flowId) =>
        get().invoke('reconnect_nodes', {
          flow_id: flowId,
          source_id: edge.source,
          target_id: edge.target,
          new_source_id: next.source,
          new_target_id: next.target,
        }),
      )
    },

    async disconnect(sourceId, targetId) {
      await withFlow((flowId) =>
        get().invoke('disconnect_nodes', { flow_id: flowId, source_id: sourceId, target_id: targetId }),
      )
    },

    async deleteNode(id, mode) {
      const done = await withFlow((flowId) => get().invoke('delete_node', { flow_id: flowId, id, mode }))
      if (done && done.deleted_node_ids.includes(get().selectedId ?? '')) get().select(null)
    },

    async setPinned(id, pinned) {
      await withFlow((flowId) => get().invoke('set_pinned', { flow_id: flowId, node_id: id, pinned }))
    },

    async setPositions(positions) {
      if (positions.length > 0)
        await withFlow((flowId) => get().invoke('set_positions', { flow_id: flowId, positions }))
    },

    async undoEdit() {
      const state = await withFlow((flowId) => get().invoke('graph_undo', { flow_id: flowId }))
      if (state) set({ undo: state })
    },

    async redoEdit() {
      const state = await withFlow((flowId) => get().invoke('graph_redo', { flow_id: flowId }))
      if (state) set({ undo: state })
    },

    async previewContext(prompt) {
      const selected = get().selectedId
      // In a group scene, the context of the member who would answer.
      const speaker = sceneSpeaker(get(), prompt)
      const context = await withFlow((flowId) =>
        get().invoke('build_context', {
          flow_id: flowId,
          prompt,
          parent_ids: selected ? [selected] : [],
          ...(speaker ? { persona_id: speaker } : {}),
        }),
      )
      set({ context })
    },

    applyFlow(flow) {
      if (flow.id !== get().flowId) return
      const members = new Set(flow.nodes.map((m) => m.id))
      const nodes = Object.fromEntries(Object.entries(get().nodes).filter(([id]) => members.has(id)))
      const selectedId = get().selectedId
      const stillThere = selectedId !== null && members.has(selectedId)
      set({
        flow,
        ...shape(flow, get().members),
        nodes,
        selectedId: stillThere ? selectedId : null,
        activeIds: stillThere ? pathTo(flow, selectedId) : new Set(),
      })
      void refreshUndo()
    },

    applyFlowPatch(patch) {
      set((s) => ({ flows: withListed(s.flows, patch.flow_id, patch.summary) }))
      const s = get()
      if (patch.flow_id !== s.flowId || !s.flow) return
      if (reloading?.flowId === patch.flow_id) {
        reloading.heard.push(patch)
        return
      }
      // Already held (a reload read past it): every part of a patch is a current state.
      if (s.flowVersion !== null && patch.version <= s.flowVersion) return
      if (patch.whole || patch.previous !== s.flowVersion) {
        void reloadFlow(patch.flow_id)
        return
      }
      const { flow, members, nodes, parentIds, merges, selectedId, activeIds } = s
      set({
        ...patchGraph({ flow, members, nodes, parentIds, merges, selectedId, activeIds }, patch, pathTo),
        flowVersion: patch.version,
      })
      if (paging?.flowId === patch.flow_id) paging.heard.push(patch)
      void refreshUndo()
    },

    upsertNode(node, flowId) {
      if (flowId && flowId !== get().flowId) return
      get().discardStream(node.id)
      set((s) => ({ nodes: { ...s.nodes, [node.id]: node } }))
    },
  }
}

function contentOf(graph: FlowGraph): Record<string, Node> {
  const nodes: Record<string, Node> = {}
  for (const n of graph.nodes) nodes[n.id] = n
  return nodes
}

/** Members by id, reusing unchanged ones so only the cards that changed re-render. */
function shape(flow: Flow, previous: Record<string, FlowMember>) {
  const members: Record<string, FlowMember> = {}
  for (const m of flow.nodes) {
    const old = previous[m.id]
    members[m.id] = old && sameMember(old, m) ? old : m
  }
  const merges = mergesAmong(flow.connections, members)
  return { members, parentIds: new Set(flow.connections.map((c) => c.from)), merges }
}

/** Root → node through every parent (a merge pulls in both branches). */
export function pathTo(flow: Flow, id: string): Set<string> {
  const parents = new Map<string, string[]>()
  for (const c of flow.connections) parents.set(c.to, [...(parents.get(c.to) ?? []), c.from])
  const seen = new Set<string>([id])
  const stack = [id]
  while (stack.length > 0) {
    for (const p of parents.get(stack.pop()!) ?? []) {
      if (!seen.has(p)) {
        seen.add(p)
        stack.push(p)
      }
    }
  }
  return seen
}

/**
 * The part of the canvas a flow opens on, in flow units, around its newest turn: the window's
 * size at the smallest zoom the canvas opens at (a narrow canvas beside the transcript), which
 * holds whatever part of the window the canvas takes.
 */
function viewAround(): { width: number; height: number } {
  const OPEN_ZOOM_MIN = 0.4
  const width = typeof window === 'undefined' ? 1400 : window.innerWidth
  const height = typeof window === 'undefined' ? 900 : window.innerHeight
  return { width: Math.max(width, 1) / OPEN_ZOOM_MIN, height: Math.max(height, 1) / OPEN_ZOOM_MIN }
}
