import type { Connection, Flow, FlowMember } from '@shared/contract'
import { LRUCache } from 'lru-cache'
import { ChangeLogReader } from './changeLog'
import { activePath } from './dag'
import type { GraphStore } from './graphStore'

/** The nodes of a path, as a set: what `has` and `size` ask of it. */
export interface PathMembers extends Iterable<string> {
  has(id: string): boolean
  readonly size: number
}

/** The nodes of a path in order, oldest first, as arrays read them. */
export interface PathOrder {
  readonly length: number
  at(index: number): string | undefined
  slice(start?: number, end?: number): string[]
}

/** What is above one node of a flow: what its prompt's context and its memory path are made of. */
export interface NodeAncestry {
  flowId: string
  /** Every connection into the node and into its ancestors (made when asked: a turn needs it only below a merge). */
  readonly edges: readonly Connection[]
  /** The node's active path, oldest first: each node after its parents (ties by time), the node itself last. */
  order: PathOrder
  /** The same nodes as a set. */
  members: PathMembers
  /** Path nodes this ancestry added to what it shares with its parent's: what keeping it costs. */
  owned: number
}

/**
 * A path's nodes and edges, shared by the ancestries of a chain of turns: a turn below a kept
 * node extends its parent's arrays in place (each ancestry sees only its own length of them)
 * rather than copying 20,000 ids, a set and the edges for every prompt. A second child of the
 * same node (a retry, a branch) finds the arrays already extended and copies its part once.
 */
class SharedPath {
  readonly order: string[] = []
  readonly position = new Map<string, number>()
  readonly edges: Connection[] = []

  view(length: number, edgeCount: number, flowId: string, owned: number): NodeAncestry {
    const { order: ids, position, edges: allEdges } = this
    let edges: readonly Connection[] | null = null
    const order = pathPrefix(ids, length)
    const members: PathMembers = {
      has: (id) => (position.get(id) ?? length) < length,
      size: length,
      *[Symbol.iterator]() {
        for (let i = 0; i < length; i++) yield ids[i]!
      },
    }
    return {
      flowId,
      get edges() {
        return (edges ??= allEdges.slice(0, edgeCount))
      },
      order,
      members,
      owned,
    }
  }

  /** Ends this path where a view of `length` nodes and `edgeCount` edges does: nothing shares what is after. */
  endsAt(length: number, edgeCount: number): boolean {
    return this.order.length === length && this.edges.length === edgeCount
  }

  push(nodeId: string, edges: readonly Connection[]): void {
    this.position.set(nodeId, this.order.length)
    this.order.push(nodeId)
    this.edges.push(...edges)
  }
}

/** The first `length` nodes of a path, read in place. */
export function pathPrefix(order: PathOrder, length: number): PathOrder {
  const clamp = (i: number) => (i < 0 ? Math.max(0, length + i) : Math.min(i, length))
  return {
    length,
    at: (index) => {
      const i = index < 0 ? length + index : index
      return i >= 0 && i < length ? order.at(i) : undefined
    },
    slice: (start = 0, end = length) => order.slice(clamp(start), clamp(end)),
  }
}

interface Kept {
  ancestry: NodeAncestry
  path: SharedPath
  edgeCount: number
}

/** Nodes whose ancestry is kept: the turns being answered and previewed in the open flows. */
const KEPT = 16
/**
 * And at most this many path nodes of their own in all of them: a path that extends its parent's
 * in place owns one node; one read or copied owns all of its own (~60 bytes a node). Sixteen
 * copied paths of a 10,000-turn conversation held ~10 MB (bench/graph/hostMemory.ts). A path
 * longer than this is read from the database every time (~5 ms per thousand turns).
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
  private readonly kept = new LRUCache<string, Kept>({
    max: KEPT,
    maxSize: KEPT_PATH_NODES,
    sizeCalculation: (k) => Math.max(1, k.ancestry.owned),
  })
  private readonly changes: ChangeLogReader

  constructor(private readonly store: GraphStore) {
    this.changes = new ChangeLogReader(store, 'connection_changes')
  }

  of(flowId: string, nodeId: string): NodeAncestry {
    // Inside a transaction the log may hold rows that are rolled back: read without keeping.
    if (this.store.db.inTransaction) return this.read(flowId, nodeId).ancestry
    this.catchUp()
    const key = keyOf(flowId, nodeId)
    const hit = this.kept.get(key)
    if (hit) return hit.ancestry
    const fresh = this.belowKept(flowId, nodeId) ?? this.read(flowId, nodeId)
    this.kept.set(key, fresh)
    return fresh.ancestry
  }

  /** A node whose only parent is kept: the parent's ancestry and one edge. */
  private belowKept(flowId: string, nodeId: string): Kept | null {
    const parents = this.store.parentIds(flowId, nodeId)
    if (parents.length !== 1) return null
    const parent = this.kept.get(keyOf(flowId, parents[0]!))
    if (!parent) return null
    // The parent is every other member's descendant, so it is last of them in any order of the
    // path; the node comes after it alone.
    const length = parent.ancestry.order.length
    const edge = { from: parents[0]!, to: nodeId }
    let path = parent.path
    let owned = 1
    if (!path.endsAt(length, parent.edgeCount)) {
      // The parent's path goes on to another child already: this branch copies its part.
      const copy = new SharedPath()
      const edges = parent.ancestry.edges
      parent.ancestry.order.slice().forEach((id) => copy.push(id, []))
      copy.edges.push(...edges)
      path = copy
      owned = length + 1
    }
    path.push(nodeId, [edge])
    const edgeCount = parent.edgeCount + 1
    return { ancestry: path.view(length + 1, edgeCount, flowId, owned), path, edgeCount }
  }

  private read(flowId: string, nodeId: string): Kept {
    const edges = this.store.edgesAbove(flowId, [nodeId])
    return keptPath(flowId, chainIn(edges, nodeId)?.order ?? this.ordered(edges, nodeId), edges)
  }

  /**
   * Reads a flow whole, as opening it in a window does, and keeps the path above its newest
   * leaf (the turn a user goes on from) out of the connections just read, when no merge is on
   * it: the first prompt after the app starts then finds it kept, where reading 20,000
   * ancestors from the database cost about half a second. (Below a merge, ordering the path
   * costs more than the open should: the first prompt reads it.) The log is caught up before
   * the read, so a write by another connection after it is seen at the next look.
   */
  readFlowKeepingNewest(flowId: string, readFlow: () => Flow | null): Flow | null {
    if (this.store.db.inTransaction) return readFlow()
    this.catchUp()
    const flow = readFlow()
    if (!flow || flow.nodes.length === 0) return flow
    const withChildren = new Set<string>()
    for (const c of flow.connections) withChildren.add(c.from)
    let newest: FlowMember | null = null
    for (const m of flow.nodes) if (!withChildren.has(m.id) && (!newest || m.index > newest.index)) newest = m
    const key = keyOf(flowId, newest!.id)
    if (this.kept.has(key)) return flow
    const chain = chainIn(flow.connections, newest!.id)
    if (chain) {
      this.kept.set(key, keptPath(flowId, chain.order, chain.edges))
    }
    return flow
  }

  /**
   * A node just written below one parent: when the parent's ancestry is kept, the node's is kept
   * too (one lookup), so a conversation fed turn by turn through create_node — a program on the
   * local API, a script — stays as warm as one fed by chat.
   */
  keepBelow(flowId: string, nodeId: string): void {
    if (this.store.db.inTransaction) return
    this.catchUp()
    const key = keyOf(flowId, nodeId)
    if (this.kept.has(key)) return
    const below = this.belowKept(flowId, nodeId)
    if (below) this.kept.set(key, below)
  }

  /** The ancestors and the node in the order the conversation happened (through merges). */
  private ordered(edges: readonly Connection[], nodeId: string): string[] {
    const ids = new Set([nodeId])
    for (const e of edges) ids.add(e.from)
    const times = this.store.timestampsOf([...ids])
    return activePath(edges, nodeId, (id) => times.get(id) ?? '')
  }

  private catchUp(): void {
    if (this.kept.size === 0) {
      this.changes.skip()
      return
    }
    const changes = this.changes.next()
    if (changes === null) this.kept.clear()
    else if (changes.length > 0) {
      const stale = [...this.kept.entries()].filter(([, { ancestry }]) =>
        changes.some((c) => c.flow_id === ancestry.flowId && ancestry.members.has(c.node_id)),
      )
      for (const [key] of stale) this.kept.delete(key)
    }
  }
}

/**
 * The path above a node, oldest first, with its connections, out of connections that hold them
 * (a flow's, or those above the node); null when a merge (a node with two parents) is on it.
 * Most conversations are chains: their 20,000 ancestors need no timestamps read and no sort.
 */
function chainIn(connections: readonly Connection[], nodeId: string): { order: string[]; edges: Connection[] } | null {
  const parentOf = new Map<string, string>()
  const merges = new Set<string>()
  for (const c of connections) {
    if (parentOf.has(c.to)) merges.add(c.to)
    else parentOf.set(c.to, c.from)
  }
  const up = [nodeId]
  const edges: Connection[] = []
  for (let at = nodeId; ;) {
    if (merges.has(at)) return null
    const parent = parentOf.get(at)
    if (parent === undefined) break
    edges.push({ from: parent, to: at })
    up.push(parent)
    at = parent
  }
  return { order: up.reverse(), edges }
}

/** A path read whole (not extending a kept one): it owns every node on it. */
function keptPath(flowId: string, order: readonly string[], edges: readonly Connection[]): Kept {
  const path = new SharedPath()
  for (const id of order) path.push(id, [])
  path.edges.push(...edges)
  return { ancestry: path.view(order.length, edges.length, flowId, order.length), path, edgeCount: edges.length }
}

function keyOf(flowId: string, nodeId: string): string {
  return `${flowId}/${nodeId}`
}
