import type { Handlers } from '../host/router'
import type { SettingsService } from '../settings/settingsService'
import { buildContext, type ContextLanguage } from './context'
import type { GraphService } from './graphService'
import { listTags, searchNodes } from './search'

type GraphMethod =
  | 'create_flow'
  | 'list_flows'
  | 'get_flow'
  | 'load_flow'
  | 'update_flow'
  | 'delete_flow'
  | 'create_node'
  | 'get_node'
  | 'update_node'
  | 'delete_node'
  | 'create_branch'
  | 'connect_nodes'
  | 'disconnect_nodes'
  | 'reconnect_nodes'
  | 'set_positions'
  | 'set_pinned'
  | 'search_nodes'
  | 'list_tags'
  | 'build_context'
  | 'graph_undo'
  | 'graph_redo'
  | 'get_undo_state'

export function graphHandlers(graph: GraphService, settings: SettingsService): Pick<Handlers, GraphMethod> {
  return {
    create_flow: (i) => graph.createFlow(i),
    list_flows: () => graph.listFlows(),
    get_flow: (i) => graph.getFlow(i.id),
    load_flow: (i) => graph.loadFlow(i.id),
    update_flow: (i) => graph.updateFlow(i),
    delete_flow: (i) => graph.deleteFlow(i.id),
    create_node: (i) => graph.createNode(i),
    get_node: (i) => graph.getNode(i.id),
    update_node: (i) => graph.updateNode(i),
    delete_node: (i) => graph.deleteNode(i),
    create_branch: (i) => graph.createBranch(i),
    connect_nodes: (i) => graph.connect(i),
    disconnect_nodes: (i) => graph.disconnect(i),
    reconnect_nodes: (i) => graph.reconnect(i),
    set_positions: (i) => graph.setPositions(i),
    set_pinned: (i) => graph.setPinned(i),
    search_nodes: (i) => ({ nodes: searchNodes(graph.store, i) }),
    list_tags: (i) => listTags(graph.store, i.flow_id),
    build_context: (i) => {
      const flow = graph.getFlow(i.flow_id)
      const prefs = settings.get()
      return buildContext({
        flow,
        node: (id) => graph.getNode(id),
        parentIds: i.parent_ids ?? [],
        prompt: i.prompt,
        budget: flow.token_budget ?? prefs.context_budget,
        language: contextLanguage(prefs.language),
      })
    },
    graph_undo: (i) => graph.undo(i.flow_id),
    graph_redo: (i) => graph.redo(i.flow_id),
    get_undo_state: (i) => graph.undoState(i.flow_id),
  }
}

/** The model is addressed in the UI's language; `auto` follows the machine's locale. */
function contextLanguage(setting: 'auto' | 'ja' | 'en'): ContextLanguage {
  if (setting !== 'auto') return setting
  return Intl.DateTimeFormat().resolvedOptions().locale.toLowerCase().startsWith('ja') ? 'ja' : 'en'
}
