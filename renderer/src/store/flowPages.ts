import { FLOW_PAGE_MAX, type Connection, type Flow, type FlowPage } from '@shared/contract'

/**
 * Members read per `load_flow_page` call once a big flow's first part is shown. Each page applied
 * rebuilds the canvas's view of the flow (its cost grows with what is held), so pages are as
 * large as the host allows: five for 50,000 cards.
 */
export const FLOW_PAGE_SIZE = FLOW_PAGE_MAX

/**
 * The flow with a page of members added. A page holds every connection into its members as
 * they now are, so those replace whatever was held into them. The result is in the order the
 * host reads a flow (members by index, connections by their ends' indexes), which patches
 * heard meanwhile rely on (shared/flowPatch.ts).
 */
export function withPage(flow: Flow, page: FlowPage): Flow {
  const members = new Map(flow.nodes.map((m) => [m.id, m]))
  for (const m of page.members) members.set(m.id, m)
  const nodes = [...members.values()].sort((a, b) => a.index - b.index)
  const into = new Set(page.members.map((m) => m.id))
  const connections = flow.connections.filter((c) => !into.has(c.to)).concat(page.connections)
  const at = new Map(nodes.map((m) => [m.id, m.index]))
  const index = (id: string) => at.get(id) ?? Number.MAX_SAFE_INTEGER
  connections.sort((a: Connection, b: Connection) => index(a.from) - index(b.from) || index(a.to) - index(b.to))
  return { ...flow, nodes, connections }
}
