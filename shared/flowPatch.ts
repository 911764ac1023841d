import type { Connection, Flow, FlowMember, FlowPatch } from './contract'

/** A member's index in the flow by node id (undefined: not a member). */
export type IndexOf = (nodeId: string) => number | undefined

/**
 * The flow after a `flow_changed` patch, in the order the host reads a flow (members by index,
 * connections by their source's index, then their target's): the same flow `load_flow` would
 * answer. Unchanged members and connections keep their identity; the work is one pass over the
 * arrays to copy them, plus a binary search per changed connection. `indexOf` answers from what
 * the caller keeps (the renderer's members by id) rather than from a map made here for the call.
 */
export function applyFlowPatch(flow: Flow, patch: FlowPatch, indexOf?: IndexOf): Flow {
  const { members, removed, targets } = patch
  const nodes = removed.length > 0 || members.length > 0 ? patchMembers(flow.nodes, members, removed) : flow.nodes
  const at = indexOf ?? indexLookup(nodes)
  const connections =
    targets.length > 0 || removed.length > 0 ? patchConnections(flow.connections, patch, at) : flow.connections
  return { ...patch.flow, nodes, connections }
}

function patchMembers(
  before: readonly FlowMember[],
  changed: readonly FlowMember[],
  removed: readonly string[],
): FlowMember[] {
  const gone = new Set(removed)
  const fresh = new Map(changed.map((m) => [m.id, m]))
  const nodes: FlowMember[] = []
  for (const m of before) {
    if (gone.has(m.id)) continue
    const now = fresh.get(m.id)
    if (now) fresh.delete(m.id)
    nodes.push(now ?? m)
  }
  if (fresh.size === 0) return nodes
  // New members nearly always have the highest indexes (a turn): appended, sorted only if not.
  const last = nodes.at(-1)?.index ?? 0
  const added = [...fresh.values()].sort((a, b) => a.index - b.index)
  nodes.push(...added)
  return added[0]!.index > last ? nodes : nodes.sort((a, b) => a.index - b.index)
}

function patchConnections(before: readonly Connection[], patch: FlowPatch, indexOf: IndexOf): Connection[] {
  const into = new Set(patch.targets)
  const gone = new Set(patch.removed)
  const connections = before.filter((c) => !into.has(c.to) && !gone.has(c.from) && !gone.has(c.to))
  const key = (c: Connection): [number, number] => [
    indexOf(c.from) ?? Number.MAX_SAFE_INTEGER,
    indexOf(c.to) ?? Number.MAX_SAFE_INTEGER,
  ]
  for (const c of patch.connections) {
    const [from, to] = key(c)
    let lo = 0
    let hi = connections.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const [f, t] = key(connections[mid]!)
      if (f < from || (f === from && t < to)) lo = mid + 1
      else hi = mid
    }
    connections.splice(lo, 0, c)
  }
  return connections
}

function indexLookup(nodes: readonly FlowMember[]): IndexOf {
  let map: Map<string, number> | null = null
  return (id) => (map ??= new Map(nodes.map((m) => [m.id, m.index]))).get(id)
}
