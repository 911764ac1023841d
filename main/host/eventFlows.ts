import type { EventName } from '@shared/contract'
import type { GraphService } from '../graph/graphService'
import type { EventFlows } from './wireSession'

type Flows = ReturnType<EventFlows>

/** The flows an event's data names itself: a flow (id and name), a `flow_id`, a deleted flow's id. */
export function flowsNamedInEvent(event: EventName, data: unknown): Flows {
  const d = (data ?? {}) as { flow?: { id: string; name: string }; flow_id?: string; id?: string }
  if (d.flow) return { ids: [d.flow.id], names: [d.flow.name] }
  if (typeof d.flow_id === 'string') return { ids: [d.flow_id], names: [] }
  if (event === 'flow_deleted' && typeof d.id === 'string') return { ids: [d.id], names: [] }
  return null
}

/**
 * With the graph at hand: also the flows a node belongs to (a node's update or its streaming
 * reply), and flow names beside ids, so `subscribe {flow_id: "main"}` hears them by name.
 */
export function graphEventFlows(graph: GraphService): EventFlows {
  const named = (ids: string[]): Flows => ({
    ids,
    names: ids.flatMap((id) => {
      const flow = graph.findFlow(id)
      return flow ? [flow.name] : []
    }),
  })
  return (event, data) => {
    const found = flowsNamedInEvent(event, data)
    if (found) return found.names.length > 0 ? found : named(found.ids)
    const d = (data ?? {}) as { node?: { id: string }; node_id?: string }
    const nodeId = d.node?.id ?? d.node_id
    return typeof nodeId === 'string' ? named(graph.flowsOfNode(nodeId)) : null
  }
}
