import type { Connection } from '@shared/contract'
import { LRUCache } from 'lru-cache'
import { ChangeLogReader } from './changeLog'
import { activePath } from './dag'
import type { GraphStore } from './graphStore'

/** What is above one node of a flow: what its prompt's context and its memory path are made of. */
export interface NodeAncestry {
  flowId: string
  /** Every connection into the node and into its ancestors. */
  edges: readonly Connection[]
  /** The node's active path, oldest first: each node after its parents (ties by time), the node itself last. */
  order: readonly string[]
  /** The same nodes as a set. */
  members: ReadonlySet<string>
}

/** Nodes whose ancestry is kept: the turns being answered and previewed in the open flows. */
const KEPT = 16
/**
 * And at most this many path nodes in all of them. Each kept path is arrays and a set of its own
 * (~60 bytes a node), so sixteen paths of a 10,000-turn conversation held ~10 MB, 1 KB a turn
 * (bench/graph/hostMemory.ts); a turn needs only its parent's. A path longer than this is read
 * from the database every time (~5 ms per thousand turns).
 */
const KEPT_PATH_NODES = 40_000

/**
 * The ancestry of the newest nodes, kept. Every prompt reads what is above its parent, and in a
 * conversation of thousands of turns walking the path in the database took milliseconds per
 * thousand turns (14 ms at 3,000); the next turn's path is its parent's plus one edge, so a new
 * turn below a kept node costs one indexed lookup.
 *
 * Kept paths are forgotten when a connection into any node on them is added, removed or moved,
 * as the `connection_changes` log says (changeLog.ts: another connection's writes are seen
 * too); a new turn's edge goes into a new node, which is on no kept path.
 */
export class Ancestry {
  private readonly kept = new LRUCache<string, NodeAncestry>({
    max: KEPT,
    maxSize: KEPT_PATH_NODES,
    sizeCalculation: (a) => a.order.length,
  })
  private readonly changes: ChangeLogReader

  constructor(private readonly store: GraphStore) {
    this.changes = new ChangeLogReader(store, 'connection_changes')
  }

  of(flowId: string, nodeId: string): NodeAncestry {
    // Inside a transaction the log may hold rows that are rolled back: read without keeping.
    if (this.store.db.inTransaction) return this.read(flowId, nodeId)
    this.catchUp()
    const key = keyOf(flowId, nodeId)
    const hit = this.kept.get(key)
    if (hit) return hit
    const fresh = this.belowKept(flowId, nodeId) ?? this.read(flowId, nodeId)
    this.kept.set(key, fresh)
    return fresh
  }

  /** A node whose only parent is kept: the parent's ancestry and one edge. */
  private belowKept(flowId: string, nodeId: string): NodeAncestry | null {
    const parents = this.store.parentIds(flowId, nodeId)
    if (parents.length !== 1) return null
    const parent = this.kept.get(keyOf(flowId, parents[0]!))
    if (!parent) return null
    // The parent is every other member's descendant, so it is last of them in any order of the
    // path; the node comes after it alone.
    return {
      flowId,
      edges: [...parent.edges, { from: parents[0]!, to: nodeId }],
      order: [...parent.order, nodeId],
      members: new Set(parent.members).add(nodeId),
    }
  }

  private read(flowId: string, nodeId: string): NodeAncestry {
    const edges = this.store.edgesAbove(flowId, [nodeId])
    const members = new Set([nodeId])
    for (const e of edges) members.add(e.from)
    const times = this.store.timestampsOf([...members])
    const order = activePath(edges, nodeId, (id) => times.get(id) ?? '')
    return { flowId, edges, order, members }
  }

  private catchUp(): void {
    const changes = this.changes.next()
    if (changes === null) this.kept.clear()
    else if (changes.length > 0) {
      const stale = [...this.kept.entries()].filter(([, kept]) =>
        changes.some((c) => c.flow_id === kept.flowId && kept.members.has(c.node_id)),
      )
      for (const [key] of stale) this.kept.delete(key)
    }
  }
}

function keyOf(flowId: string, nodeId: string): string {
  return `${flowId}/${nodeId}`
}
