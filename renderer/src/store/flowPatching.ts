import type { Connection, Flow, FlowMember, FlowPatch, Node } from '@shared/contract'
import { applyFlowPatch } from '@shared/flowPatch'

/** What of the graph slice a patch of the open flow changes. */
export interface PatchedGraph {
  flow: Flow
  members: Record<string, FlowMember>
  nodes: Record<string, Node>
  parentIds: ReadonlySet<string>
  merges: Readonly<Record<string, string>>
  selectedId: string | null
  activeIds: ReadonlySet<string>
}

/**
 * The open flow after one `flow_changed`, changed in place of being rebuilt: only the members,
 * connections, merges and cards the patch names are touched (the collections are copied once,
 * as an immutable store must); the active path is walked again only when the patch touched it.
 */
export function patchGraph(
  before: PatchedGraph,
  patch: FlowPatch,
  pathTo: (flow: Flow, id: string) => ReadonlySet<string>,
): PatchedGraph {
  const members = { ...before.members }
  for (const id of patch.removed) delete members[id]
  for (const m of patch.members) {
    const old = members[m.id]
    members[m.id] = old && sameMember(old, m) ? old : m
  }
  const flow = applyFlowPatch(before.flow, patch, (id) => members[id]?.index)

  let nodes = before.nodes
  if (patch.removed.some((id) => nodes[id])) {
    nodes = { ...nodes }
    for (const id of patch.removed) delete nodes[id]
  }

  const { parentIds, merges } = patchLinks(before, flow, patch, members)

  const gone = new Set(patch.removed)
  const selectedId = before.selectedId !== null && !gone.has(before.selectedId) ? before.selectedId : null
  const touchedPath =
    selectedId !== null &&
    (patch.targets.some((id) => before.activeIds.has(id)) || patch.removed.some((id) => before.activeIds.has(id)))
  const activeIds = selectedId === null ? new Set<string>() : touchedPath ? pathTo(flow, selectedId) : before.activeIds
  return { flow, members, nodes, parentIds, merges, selectedId, activeIds }
}

/** The same index, pin and place: the card's member is kept, so it does not render again. */
export function sameMember(a: FlowMember, b: FlowMember): boolean {
  return (
    a.index === b.index && a.pinned === b.pinned && a.position?.x === b.position?.x && a.position?.y === b.position?.y
  )
}

/** Which nodes have children, and what each merge joins, for the connections the patch changed. */
function patchLinks(
  before: PatchedGraph,
  flow: Flow,
  patch: FlowPatch,
  members: Record<string, FlowMember>,
): { parentIds: ReadonlySet<string>; merges: Readonly<Record<string, string>> } {
  if (patch.targets.length === 0 && patch.removed.length === 0)
    return { parentIds: before.parentIds, merges: before.merges }
  const into = new Set(patch.targets)
  const gone = new Set(patch.removed)
  // Sources that lost a connection may have no child left: only they are looked up again.
  const lost = before.flow.connections
    .filter((c) => into.has(c.to) || gone.has(c.from) || gone.has(c.to))
    .map((c) => c.from)
  const parentIds = new Set(before.parentIds)
  for (const id of gone) parentIds.delete(id)
  const stillParent = lost.length > 0 ? new Set(flow.connections.map((c) => c.from)) : null
  for (const id of lost) if (!stillParent!.has(id)) parentIds.delete(id)
  for (const c of patch.connections) parentIds.add(c.from)

  const merges = { ...before.merges }
  for (const id of [...into, ...gone]) delete merges[id]
  Object.assign(merges, mergesAmong(patch.connections, members))
  return { parentIds, merges }
}

/**
 * What each node with more than one parent among these connections joins, by its parents'
 * indexes ("#2 + #5"): a string equal from one update to the next, so unchanged cards stay as
 * they were.
 */
export function mergesAmong(
  connections: readonly Connection[],
  members: Readonly<Record<string, FlowMember>>,
): Record<string, string> {
  const parentsOf = new Map<string, number[]>()
  for (const c of connections) {
    const index = members[c.from]?.index
    if (index === undefined) continue
    const list = parentsOf.get(c.to)
    if (list) list.push(index)
    else parentsOf.set(c.to, [index])
  }
  const merges: Record<string, string> = {}
  for (const [id, list] of parentsOf)
    if (list.length > 1)
      merges[id] = list
        .sort((a, b) => a - b)
        .map((i) => `#${i}`)
        .join(' + ')
  return merges
}
