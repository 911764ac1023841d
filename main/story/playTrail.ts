import type { GraphService } from '../graph/graphService'

/** Ancestors remembered per story, nearest first: deleting more turns than this above play is rare. */
const TRAIL = 64

/**
 * Where play stands can be deleted from under a story: a node or a whole branch deleted on
 * the canvas, a turn undone away. Once deleted, the graph no longer knows the node's parents,
 * so each story remembers the nearest ancestors of where it stands — when it moves, and when
 * its flow changes (the flow's announcement) — and falls back to the nearest that survives.
 * Kept in memory: a restart between a delete and the fallback (a few milliseconds) finds no
 * trail, and the story stands at its flow's newest node instead.
 */
export class PlayTrail {
  /** Per story: where play stands, then its parent, grandparent … (first parents, as undo goes). */
  private readonly trails = new Map<string, string[]>()

  constructor(private readonly graph: GraphService) {}

  /** Play stands at `nodeId`, a member of the flow: remember its ancestors. */
  remember(storyId: string, flowId: string, nodeId: string): void {
    const old = this.trails.get(storyId)
    if (old?.[0] === nodeId) return
    // A turn further (the usual move) or an undo costs one lookup, not a walk.
    if (old && old[1] === nodeId) this.trails.set(storyId, old.slice(1))
    else if (old && this.graph.parentsOf(flowId, nodeId)[0] === old[0])
      this.trails.set(storyId, [nodeId, ...old.slice(0, TRAIL - 1)])
    else this.walk(storyId, flowId, nodeId)
  }

  /** The flow's shape changed (a re-parent, a delete): walk the ancestors afresh. */
  walk(storyId: string, flowId: string, nodeId: string): void {
    const trail = [nodeId]
    for (let at = nodeId; trail.length < TRAIL;) {
      const up = this.graph.parentsOf(flowId, at)[0]
      if (up === undefined || trail.includes(up)) break
      trail.push(up)
      at = up
    }
    this.trails.set(storyId, trail)
  }

  /** The nearest remembered ancestor still in the flow, else the flow's newest node; null for an empty flow. */
  survivor(storyId: string, flowId: string): string | null {
    const kept = this.trails.get(storyId)?.find((id) => this.graph.isMember(flowId, id))
    return kept ?? this.graph.lastMember(flowId)
  }

  forget(storyId: string): void {
    this.trails.delete(storyId)
  }
}
