import { randomUUID } from 'node:crypto'
import { EXTERNAL_FLOW_NAME, type graphMethods } from '@shared/contract'
import type { HandlerModule } from '../kernel/router'
import type { JobService } from '../kernel/jobs/jobService'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import { AppError } from '@shared/errors'
import { uiLanguage } from '../kernel/language'
import type { GraphService } from './graphService'
import { listTags, searchNodes } from './search'

export function graphHandlers(
  graph: GraphService,
  settings: SettingsService,
  jobs: JobService,
  personas: PersonaService,
): HandlerModule<typeof graphMethods> {
  return {
    create_flow: (i) => graph.createFlow(i),
    list_flows: () => graph.listFlows(),
    get_flow: (i) => {
      const ref = (i.id ?? i.name)!
      const found = graph.findFlow(ref)
      if (!found) throw new AppError('not_found', `no flow with the id or name "${ref}"`)
      return graph.getFlow(found.id)
    },
    chat_target: (i) => {
      // One row looked up; every persona is listed only for the error.
      if (!personas.find(i.persona_id)) {
        const names =
          personas
            .list()
            .map((p) => `${p.name} (${p.id})`)
            .join(', ') || 'none yet'
        throw new AppError('not_found', `no persona ${i.persona_id}; the personas are: ${names}`)
      }
      if (i.flow_id) return { flow_id: i.flow_id, parent_id: graph.lastMember(i.flow_id) }
      return graph.personaFlowTail(EXTERNAL_FLOW_NAME, i.persona_id)
    },
    load_flow: (i) => graph.loadFlow(i.id),
    open_flow: (i) => graph.openView(i.id, i.view, i.focus_id),
    load_flow_page: (i) => graph.flowPage(i.id, i.before, i.limit),
    update_flow: (i) => {
      if (i.persona_id) personas.get(i.persona_id) // refuses an unknown persona before anything changes
      return graph.updateFlow(i)
    },
    delete_flow: (i) => graph.deleteFlow(i.id),
    trash_flow: (i) => graph.trashFlow(i.id),
    restore_flow: (i) => graph.restoreFlow(i.id),
    create_node: (i) => graph.createNode(i),
    get_node: (i) => graph.getNode(i.id),
    get_nodes: (i) => graph.nodes(i.ids),
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
    add_node_to_flow: (i) => graph.addToFlow(i),
    name_branch: (i) => graph.nameBranch(i),
    rebuild_flow: (i) => graph.rebuildFlow(i),
    build_summaries: (i) => {
      if (i.flow_id) graph.getFlow(i.flow_id)
      if (i.node_id) {
        graph.getNode(i.node_id)
        if (i.flow_id && !graph.isMember(i.flow_id, i.node_id))
          throw new AppError('not_found', `node ${i.node_id} is not in flow ${i.flow_id}`)
      }
      const language = uiLanguage(settings.get().language)
      const batch = `summaries-${randomUUID()}`
      const label = language === 'ja' ? '要約とタグ' : 'Summaries and tags'
      const queued = jobs.enqueueBatch(
        batch,
        label,
        (i.node_id ? [i.node_id] : graph.store.staleNodeIds(i.flow_id)).map((id) => ({
          kind: 'graph.summarize',
          payload: { node_id: id, language, ...(i.node_id ? { force: true } : {}) },
          dedupeKey: `summarize:${id}`,
        })),
      )
      return { batch, queued }
    },
    graph_undo: (i) => graph.undo(i.flow_id),
    graph_redo: (i) => graph.redo(i.flow_id),
    get_undo_state: (i) => graph.undoState(i.flow_id),
  }
}
