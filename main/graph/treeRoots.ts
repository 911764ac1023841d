import { LRUCache } from 'lru-cache'
import { ChangeLogReader } from './changeLog'
import type { GraphStore } from './graphStore'

/**
 * Flows whose roots are kept: the open conversations and the ones a persona's memories came
 * from (a pack's finds can come from a hundred). A flow's entry holds the nodes looked up and
 * their ancestors (~100 bytes a node; their root lists are shared along a line).
 */
const KEPT_FLOWS = 512

/**
 * Each node's tree roots in a flow: the nodes without parents it descends from (itself when it
 * has none; several below a merge; a first node's other version has the original's). Two nodes share an ancestor exactly when their roots meet,
 * which is how memory tells another conversation (no root in common) from another branch of
 * this one (memory/pack/reach.ts) without reading either tree.
 *
 * A node's roots are its parents' roots together, kept per flow. Invariant: a node is kept
 * only when all its ancestors are, so a connection into a node that is not kept changes no
 * kept answer — a new turn, a retry, a new conversation cost one indexed lookup. A connection
 * into a kept node added, removed or moved (re-parenting, merging, a deleted node's edges, an
 * undo), as the `connection_changes` log says, drops its flow's kept roots; they are read again
 * when next asked, upwards from the nodes asked about only. A version's original and what is
 * above it are not kept but watched (KeptFlow): a connection into them drops the flow as well.
 */
/** What is kept of one flow: roots by node, and the nodes they were read from besides those. */
interface KeptFlow {
  roots: Map<string, readonly string[]>
  /**
   * A version's originals and everything above them, read to answer the version (firstNodeRoots)
   * but not kept as answers of their own: a connection into one of them drops the flow too.
   */
  watched: Set<string>
}

export class TreeRoots {
  private readonly kept = new LRUCache<string, KeptFlow>({ max: KEPT_FLOWS })
  private readonly changes: ChangeLogReader
  /** The versions whose originals' roots are being read (`flow\nnode`): met again, one lies above itself. */
  private readonly following = new Set<string>()

  constructor(private readonly store: GraphStore) {
    this.changes = new ChangeLogReader(store, 'connection_changes')
  }

  /** The roots of each node in the flow (a node not in the flow has no parents there: itself). */
  of(flowId: string, nodeIds: Iterable<string>): Map<string, readonly string[]> {
    // Inside a transaction the log may hold rows that are rolled back: read without keeping.
    const keep = !this.store.db.inTransaction
    if (keep) this.catchUp()
    const kept = keep ? this.kept.get(flowId) : undefined
    const flow = kept ?? { roots: new Map<string, readonly string[]>(), watched: new Set<string>() }
    const out = this.read(flowId, nodeIds, flow, kept !== undefined)
    if (keep && flow.roots.size > 0 && !this.kept.has(flowId)) this.kept.set(flowId, flow)
    return out
  }

  /**
   * The roots of `nodeIds`, each answer put in `flow.roots`; `whole`: every ancestor of a node
   * there is there too (a flow kept), so a node whose parents are there is answered from them.
   */
  private read(
    flowId: string,
    nodeIds: Iterable<string>,
    flow: KeptFlow,
    whole: boolean,
  ): Map<string, readonly string[]> {
    const memo = flow.roots
    const out = new Map<string, readonly string[]>()
    const missing: string[] = []
    for (const id of nodeIds) {
      if (out.has(id)) continue
      // Nothing kept of the flow: no parent can be, read upwards at once.
      const roots = memo.get(id) ?? (whole ? this.fromParents(flowId, id, flow) : null)
      if (roots) out.set(id, roots)
      else missing.push(id)
    }
    if (missing.length > 0) {
      // One read of everything above the nodes whose parents are not kept either.
      const parents = new Map<string, string[]>()
      for (const e of this.store.edgesAbove(flowId, missing)) {
        const list = parents.get(e.to)
        if (list) list.push(e.from)
        else parents.set(e.to, [e.from])
      }
      for (const id of missing)
        out.set(
          id,
          resolve(id, parents, memo, (root) => this.firstNodeRoots(flowId, root, flow.watched)),
        )
    }
    return out
  }

  /** A node whose parents are all kept (or who has none): its roots, kept; null otherwise. */
  private fromParents(flowId: string, nodeId: string, flow: KeptFlow): readonly string[] | null {
    const memo = flow.roots
    const parents = this.store.parentIds(flowId, nodeId)
    const above = parents.map((p) => memo.get(p))
    if (above.some((r) => r === undefined)) return null
    const roots =
      parents.length === 0
        ? this.firstNodeRoots(flowId, nodeId, flow.watched)
        : union(above as Array<readonly string[]>)
    memo.set(nodeId, roots)
    return roots
  }

  /**
   * A node without parents starts its tree, unless it is another version of a first node
   * (Regenerate, an edited prompt: root_alternatives): then its tree is that node's. A version
   * the user connected above its original (or a chain of versions that comes back to itself)
   * would be its own ancestor: it starts its tree, rather than the lookup never ending.
   *
   * The original's roots are read apart, never kept as answers: read while following, the version
   * met again counts as a root, which holds for this reading only (kept, that cut answer stood for
   * the version, and for what is below it, everywhere after). What they were read from goes into
   * `watched`, so a connection into any of it drops the version's kept answer.
   */
  private firstNodeRoots(flowId: string, nodeId: string, watched: Set<string>): readonly string[] {
    const of = this.store.alternativeOf(flowId, nodeId)
    const key = `${flowId}\n${nodeId}`
    if (of === null || this.following.has(key)) return [nodeId]
    this.following.add(key)
    try {
      const apart: KeptFlow = { roots: new Map(), watched }
      const roots = this.read(flowId, [of], apart, false).get(of)!
      for (const id of apart.roots.keys()) watched.add(id)
      return roots
    } finally {
      this.following.delete(key)
    }
  }

  private catchUp(): void {
    const changes = this.changes.next()
    if (changes === null) return this.kept.clear()
    for (const c of changes) {
      const flow = this.kept.peek(c.flow_id)
      if (flow && (flow.roots.has(c.node_id) || flow.watched.has(c.node_id))) this.kept.delete(c.flow_id)
    }
  }
}

/** The node's roots from `parents` (everything above it), keeping every node on the way. */
function resolve(
  start: string,
  parents: ReadonlyMap<string, readonly string[]>,
  memo: Map<string, readonly string[]>,
  firstNodeRoots: (id: string) => readonly string[],
): readonly string[] {
  // Depth first without recursion: a conversation can be tens of thousands of turns deep.
  const stack = [start]
  while (stack.length > 0) {
    const id = stack.at(-1)!
    if (memo.has(id)) {
      stack.pop()
      continue
    }
    const ps = parents.get(id) ?? []
    const waiting = ps.filter((p) => !memo.has(p))
    if (waiting.length > 0) {
      stack.push(...waiting)
      continue
    }
    memo.set(id, ps.length === 0 ? firstNodeRoots(id) : union(ps.map((p) => memo.get(p)!)))
    stack.pop()
  }
  return memo.get(start)!
}

/** The roots of several parents, sorted and once each; one parent's list is shared, not copied. */
function union(lists: ReadonlyArray<readonly string[]>): readonly string[] {
  if (lists.length === 1) return lists[0]!
  return [...new Set(lists.flat())].sort()
}
