import type { Flow } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { GraphService } from '../../main/graph/graphService'

/**
 * One random edit of a flow through the graph service, as the canvas, the transcript and the API
 * make them: a new turn, a retry (a sibling), an edit of its text, a connection (a merge), a
 * disconnection, a re-parent, a named branch, a pin, a move, a delete (reattaching or the whole
 * branch), a node shared from another flow, undo, redo, a rebuild. Early on mostly new turns, so
 * the other edits have something to work on. A refused edit (a cycle, nothing to undo) changes
 * nothing and is not an error.
 */
export function randomGraphEdit(graph: GraphService, next: () => number, flows: readonly string[], step: number): void {
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)]
  const f = pick(flows)!
  const flow = graph.store.flow(f)!
  const edits: Array<() => void> = [
    () => {
      const parent = pick(flow.nodes)
      graph.createNode({ flow_id: f, prompt: `turn ${step}`, parent_ids: parent ? [parent.id] : [] })
    },
    () => {
      const n = pick(flow.nodes)
      if (n) graph.createBranch({ flow_id: f, node_id: n.id, prompt: `retry ${step}` })
    },
    () => {
      const n = pick(flow.nodes)
      if (n) graph.updateNode({ id: n.id, flow_id: f, prompt: `edited ${step}` })
    },
    () => {
      const [a, b] = [pick(flow.nodes), pick(flow.nodes)]
      if (a && b) graph.connect({ flow_id: f, source_id: a.id, target_id: b.id })
    },
    () => {
      const c = pick(flow.connections)
      if (c) graph.disconnect({ flow_id: f, source_id: c.from, target_id: c.to })
    },
    () => {
      const [c, n] = [pick(flow.connections), pick(flow.nodes)]
      if (c && n)
        graph.reconnect({ flow_id: f, source_id: c.from, target_id: c.to, new_source_id: n.id, new_target_id: c.to })
    },
    () => {
      const c = pick(flow.connections)
      if (c) graph.nameBranch({ flow_id: f, source_id: c.from, target_id: c.to, name: next() < 0.7 ? 'side' : null })
    },
    () => {
      const n = pick(flow.nodes)
      if (n) graph.setPinned({ flow_id: f, node_id: n.id, pinned: !n.pinned })
    },
    () => {
      const n = pick(flow.nodes)
      const position = next() < 0.8 ? { x: Math.round(next() * 900), y: Math.round(next() * 900) } : null
      if (n) graph.setPositions({ flow_id: f, positions: [{ id: n.id, position }] })
    },
    () => {
      const n = pick(flow.nodes)
      if (n) graph.deleteNode({ id: n.id, flow_id: f, mode: next() < 0.5 ? 'reattach' : 'subtree' })
    },
    () => {
      const other = flows.find((id) => id !== f)
      const otherFlow: Flow | null = other ? graph.getFlow(other) : null
      const [n, parent] = [pick(otherFlow?.nodes ?? []), pick(flow.nodes)]
      if (n && !graph.isMember(f, n.id))
        graph.addToFlow({ flow_id: f, node_id: n.id, parent_ids: parent ? [parent.id] : [] })
    },
    () => graph.undo(f),
    () => graph.redo(f),
    () => {
      const kept = flow.nodes.filter(() => next() < 0.8).map((n) => n.id)
      if (kept.length > 0 && next() < 0.3) graph.rebuildFlow({ flow_id: f, node_ids: kept })
    },
  ]
  const edit = step < 30 || next() < 0.3 ? edits[0]! : pick(edits)!
  try {
    edit()
  } catch (e) {
    if (!(e instanceof AppError)) throw e
  }
}
