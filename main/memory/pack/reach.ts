import type { MemoryUnitReach, Persona } from '@shared/contract'
import type { GraphService } from '../../graph/graphService'
import type { PathMembership } from './packBuilder'
import type { MemoryStore } from '../store/store'

/**
 * How far a node's memory reaches (DESIGN.md, "Branch-aware memory that spans conversations"):
 * its own active path, and every conversation tree that shares no ancestor with it — another
 * conversation, an import, the local API's External conversation. The other branches of its own
 * tree (a sibling of an ancestor, or anything below one) stay out, so a retry or a story's route
 * never hears what happened on the road not taken; a merge's node reaches through every parent.
 *
 * Two nodes share an ancestor exactly when their trees' roots meet (graph/treeRoots.ts), so a
 * pack compares roots of the nodes its candidates came from with its own — never reading the
 * persona's conversations whole.
 *
 * Private: a conversation marked so (or every conversation of a persona marked so) is answered
 * from its own path alone, and what happened in it reaches no other conversation.
 */
export function reachOf(
  graph: GraphService,
  input: {
    /** Whether a node is on the active path (walked lazily by the caller). */
    onPath: (nodeId: string) => boolean
    /** The node being answered and its parents (a preview has only the parents; none outside any conversation). */
    nodeIds: readonly string[]
    /** The conversation, or its persona, remembers only itself. */
    private: boolean
  },
): PathMembership {
  const has = input.onPath
  if (input.private) return { has }
  let own: ReadonlySet<string> | null = null
  return {
    has,
    elsewhere(nodeIds) {
      own ??= rootsOf(graph, input.nodeIds)
      const mine = own
      const out = new Set<string>()
      for (const [id, tree] of graph.nodeTrees(nodeIds)) {
        if (tree.private) continue
        let shared = false
        for (const r of tree.roots) if (mine.has(r)) shared = true
        if (!shared) out.add(id)
      }
      return out
    },
  }
}

function rootsOf(graph: GraphService, nodeIds: readonly string[]): ReadonlySet<string> {
  const roots = new Set<string>()
  for (const tree of graph.nodeTrees(nodeIds).values()) for (const r of tree.roots) roots.add(r)
  return roots
}

const order = { none: 0, branch: 1, all: 2 } as const
type Sees = keyof typeof order

/**
 * Which conversations may remember a unit (the memory panel's answer, memory_unit_reach): the
 * same rule as a pack's, told per conversation of the persona. A conversation holding a turn
 * the unit came from remembers it on the branches through that turn; any other conversation
 * remembers it anywhere, unless either side is kept private.
 */
export function unitReach(graph: GraphService, persona: Persona, store: MemoryStore, unitId: number): MemoryUnitReach {
  const unit = store.requireUnit(unitId)
  const flows = graph.listFlows()
  const closed = graph.privateFlows()
  const isPrivate = (flowId: string) => persona.memory_private || closed.has(flowId)
  const mine = flows.filter((f) => f.persona_id === persona.id)
  const every = (sees: Sees) =>
    mine.map((f) => ({ flow_id: f.id, name: f.name, private: isPrivate(f.id), sees, node_ids: [] }))
  if (unit.is_global === 1) return { rule: 'global', conversations: every('all') }
  const evidence = store
    .prepare(
      `SELECT e.origin_node_id FROM unit_evidence ue JOIN units e ON e.id = ue.evidence_unit_id
       WHERE ue.unit_id = ? AND e.is_global = 0 AND e.origin_node_id IS NOT NULL`,
    )
    .pluck()
    .all(unitId) as string[]
  const origins = [...new Set([...(unit.origin_node_id ? [unit.origin_node_id] : []), ...evidence])]
  if (origins.length === 0) return { rule: 'not_from_a_conversation', conversations: every('all') }
  const trees = graph.nodeTrees(origins)
  if (origins.some((o) => !trees.has(o))) return { rule: 'gone', conversations: every('none') }
  const fromPrivate = persona.memory_private || origins.some((o) => trees.get(o)!.private)
  const home = new Set(origins.flatMap((o) => trees.get(o)!.flows))
  const byId = new Map(flows.map((f) => [f.id, f]))
  const listed = [...[...home].filter((id) => byId.has(id)), ...mine.map((f) => f.id).filter((id) => !home.has(id))]
  const conversations = listed.map((flowId) => {
    let sees: Sees = 'all'
    const nodeIds: string[] = []
    for (const o of origins) {
      const here: Sees = trees.get(o)!.flows.includes(flowId)
        ? 'branch'
        : isPrivate(flowId) || trees.get(o)!.private
          ? 'none'
          : 'all'
      if (here === 'branch') nodeIds.push(o)
      if (order[here] < order[sees]) sees = here
    }
    return { flow_id: flowId, name: byId.get(flowId)!.name, private: isPrivate(flowId), sees, node_ids: nodeIds }
  })
  return { rule: fromPrivate ? 'private' : 'shared', conversations }
}
