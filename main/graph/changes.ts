import type { Connection, Position } from '@shared/contract'
import type { GraphStore, NodeSnapshot } from './graphStore'
import type { Change } from './undo'

/**
 * Records the primitive changes of one graph edit as it makes them, each with its inverse,
 * so the whole edit can be undone and redone. Every mutation of a flow's shape goes through here.
 */
export class ChangeRecorder {
  readonly changes: Change[] = []
  /** Nodes whose content or presence changed, for the events sent afterwards. */
  readonly touched = new Set<string>()
  /** Nodes that joined the flow (new, or shared from another): windows learn their content with them. */
  readonly joined = new Set<string>()

  constructor(
    private readonly store: GraphStore,
    readonly flowId: string,
  ) {}

  private run(change: Change, touches: string[] = []): void {
    change.apply()
    this.changes.push(change)
    for (const id of touches) this.touched.add(id)
  }

  /** A node into this flow; `alternativeOf`: the first node it is another version of (root_alternatives). */
  addNode(
    node: { id: string; timestamp: string; prompt: string; response: string; model: string },
    tags: string[],
    position: Position | null,
    alternativeOf?: string,
  ): void {
    const { store, flowId } = this
    let index: number | undefined
    this.run(
      {
        apply: () => {
          if (!store.hasNode(node.id)) {
            store.insertNode(node)
            store.setTags(node.id, tags)
          }
          index = store.addMember(flowId, node.id, position, index)
          if (alternativeOf) store.setAlternative(flowId, node.id, alternativeOf)
        },
        revert: () => removeFromFlow(store, flowId, node.id),
      },
      [node.id],
    )
    this.joined.add(node.id)
  }

  /** Takes a node out of this flow (and deletes it if no other flow holds it), with its edges. */
  removeNode(nodeId: string): void {
    const { store, flowId } = this
    const snapshot: NodeSnapshot = store.snapshot(nodeId)
    const edges: Connection[] = store.connections(flowId).filter((c) => c.from === nodeId || c.to === nodeId)
    const alternativeOf = store.alternativeOf(flowId, nodeId)
    this.run(
      {
        apply: () => {
          for (const e of edges) store.removeEdge(flowId, e.from, e.to)
          removeFromFlow(store, flowId, nodeId)
        },
        revert: () => {
          store.restore(snapshot, flowId)
          if (alternativeOf) store.setAlternative(flowId, nodeId, alternativeOf)
          for (const e of edges) store.addEdge(flowId, e.from, e.to, e.label ?? null)
        },
      },
      [nodeId],
    )
  }

  /** Makes a node of this flow another version of the first node `of` (root_alternatives). */
  setAlternative(nodeId: string, of: string): void {
    const { store, flowId } = this
    const before = store.alternativeOf(flowId, nodeId)
    if (before === of) return
    const put = (value: string | null) =>
      value === null ? store.clearAlternative(flowId, nodeId) : store.setAlternative(flowId, nodeId, value)
    this.run({ apply: () => put(of), revert: () => put(before) })
  }

  addEdge(from: string, to: string): void {
    const { store, flowId } = this
    if (store.hasEdge(flowId, from, to)) return
    this.run({ apply: () => store.addEdge(flowId, from, to), revert: () => store.removeEdge(flowId, from, to) })
  }

  removeEdge(from: string, to: string): void {
    const { store, flowId } = this
    if (!store.hasEdge(flowId, from, to)) return
    const label = store.edgeLabel(flowId, from, to)
    this.run({ apply: () => store.removeEdge(flowId, from, to), revert: () => store.addEdge(flowId, from, to, label) })
  }

  /** Names (or, with null, unnames) the branch that starts at this connection. */
  setEdgeLabel(from: string, to: string, label: string | null): void {
    const { store, flowId } = this
    const before = store.edgeLabel(flowId, from, to)
    if (before === label) return
    this.run({
      apply: () => store.setEdgeLabel(flowId, from, to, label),
      revert: () => store.setEdgeLabel(flowId, from, to, before),
    })
  }

  setText(
    nodeId: string,
    before: { prompt: string; response: string },
    after: { prompt?: string; response?: string },
  ): void {
    const { store } = this
    this.run({ apply: () => store.updateNodeText(nodeId, after), revert: () => store.updateNodeText(nodeId, before) }, [
      nodeId,
    ])
  }

  /**
   * Marks summaries stale. Undo and redo mark them again rather than putting the old flag
   * back: a summary may have been rebuilt for the newer text in between, and one built for
   * text the node no longer has must not go into a context as if it were fresh.
   */
  markStale(nodeIds: string[]): void {
    const { store } = this
    const mark = () => store.markStale(nodeIds)
    this.run({ apply: mark, revert: mark }, nodeIds)
  }

  setTags(nodeId: string, before: string[], after: string[]): void {
    // Unchanged values record nothing, so saving an untouched editor leaves no empty undo step.
    if (before.join('\n') === after.join('\n')) return
    const { store } = this
    this.run({ apply: () => store.setTags(nodeId, after), revert: () => store.setTags(nodeId, before) }, [nodeId])
  }

  setPosition(nodeId: string, after: Position | null): void {
    const { store, flowId } = this
    const before = store.position(flowId, nodeId)
    if (before?.x === after?.x && before?.y === after?.y) return
    this.run({
      apply: () => store.setPosition(flowId, nodeId, after),
      revert: () => store.setPosition(flowId, nodeId, before),
    })
  }

  setPinned(nodeId: string, pinned: boolean): void {
    const { store, flowId } = this
    const before = store.isPinned(flowId, nodeId)
    if (before === pinned) return
    this.run({
      apply: () => store.setPinned(flowId, nodeId, pinned),
      revert: () => store.setPinned(flowId, nodeId, before),
    })
  }
}

function removeFromFlow(store: GraphStore, flowId: string, nodeId: string): void {
  store.removeMember(flowId, nodeId)
  if (store.flowsOf(nodeId).length === 0) store.deleteNode(nodeId)
}
