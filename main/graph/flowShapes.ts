import type { Connection, Flow, FlowMember } from '@shared/contract'
import { LRUCache } from 'lru-cache'
import { ChangeLogReader } from './changeLog'
import { flowOf, sortConnections, type GraphStore } from './graphStore'

/** Flows kept: the ones being worked in (a window's, a chat's External flow, a story's). */
const KEPT = 4

interface KeptShape {
  members: readonly FlowMember[]
  /** Each member's index in the flow, by node id: what orders the connections (kept, not handed out). */
  indexOf: Map<string, number>
  connections: readonly Connection[]
}

/**
 * The nodes and connections of the flows handed out whole (the seed's clients subscribed to
 * `flow_updated`), brought up to date from the change logs (changeLog.ts: a write from the CLI
 * or the job worker is seen too) rather than read whole after every edit: reading a flow of
 * 5,000 nodes took ~11 ms of the main thread. A turn reads its new member and the connections
 * into it.
 *
 * What it hands out is never changed afterwards: an edit makes new arrays (a listener may keep
 * the flow an event carried).
 */
export class FlowShapes {
  private readonly kept = new LRUCache<string, KeptShape>({ max: KEPT })
  private readonly changes: Record<'members' | 'connections', ChangeLogReader>
  /** Counters the tests read. */
  readonly stats = { reads: 0, patches: 0 }

  constructor(private readonly store: GraphStore) {
    this.changes = {
      members: new ChangeLogReader(store, 'member_changes'),
      connections: new ChangeLogReader(store, 'connection_changes'),
    }
  }

  /** The flow as it now is, or null when it is gone. */
  flow(flowId: string): Flow | null {
    // Inside a transaction the logs may hold rows that are rolled back: read without keeping.
    if (this.store.db.inTransaction) return this.store.flow(flowId)
    this.catchUp()
    const row = this.store.flowRow(flowId)
    if (!row) {
      this.kept.delete(flowId)
      return null
    }
    let shape = this.kept.get(flowId)
    if (!shape) {
      this.stats.reads++
      const members = this.store.members(flowId)
      shape = { members, indexOf: indexes(members), connections: this.store.connections(flowId, members) }
      this.kept.set(flowId, shape)
    }
    return flowOf(row, [...shape.members], [...shape.connections])
  }

  /** Applies what the logs say changed since the last call to every kept flow. */
  private catchUp(): void {
    const members = this.changes.members.next()
    const connections = this.changes.connections.next()
    if (members === null || connections === null) return this.kept.clear()
    if (this.kept.size === 0) return
    const changed = new Map<string, { members: Set<string>; targets: Set<string> }>()
    const of = (flowId: string) => {
      let c = changed.get(flowId)
      if (!c) changed.set(flowId, (c = { members: new Set(), targets: new Set() }))
      return c
    }
    for (const m of members) if (this.kept.has(m.flow_id)) of(m.flow_id).members.add(m.node_id)
    for (const c of connections) if (this.kept.has(c.flow_id)) of(c.flow_id).targets.add(c.node_id)
    for (const [flowId, c] of changed) this.patch(flowId, c.members, c.targets)
  }

  private patch(flowId: string, changedMembers: Set<string>, targets: Set<string>): void {
    const shape = this.kept.peek(flowId)!
    this.stats.patches++
    const { indexOf } = shape
    let members = shape.members
    let reorder = false
    if (changedMembers.size > 0) {
      const fresh = new Map([...changedMembers].map((id) => [id, this.store.member(flowId, id)]))
      const kept: FlowMember[] = []
      for (const m of members) {
        const now = fresh.get(m.id)
        if (now === undefined) kept.push(m)
        else if (now !== null && now.index === m.index) {
          kept.push(now)
          fresh.delete(m.id)
        } else {
          // Left the flow, or (never in practice: indexes are stable) took another index.
          indexOf.delete(m.id)
          reorder = true
        }
      }
      const added = [...fresh.values()].filter((m): m is FlowMember => m !== null)
      for (const m of added) indexOf.set(m.id, m.index)
      members = added.length > 0 ? [...kept, ...added].sort((a, b) => a.index - b.index) : kept
    }
    let connections = shape.connections
    if (targets.size > 0 || reorder) {
      const into = [...targets].flatMap((target) => this.store.connectionsInto(flowId, target))
      connections = sortConnections([...connections.filter((c) => !targets.has(c.to)), ...into], indexOf)
    }
    this.kept.set(flowId, { members, indexOf, connections })
  }
}

function indexes(members: readonly FlowMember[]): Map<string, number> {
  return new Map(members.map((m) => [m.id, m.index]))
}
