import type { Connection, FlowMember, FlowPatch } from '@shared/contract'
import { ChangeLogReader } from './changeLog'
import { flowOf, type GraphStore } from './graphStore'

/** Members changed at once past which a patch says "read it again" rather than list them (an import, a rebuild). */
const LISTED_MEMBERS_MAX = 2_000

/**
 * What each flow's announcement (`flow_changed`) carries: the members and connections that
 * changed since the last one, read from the change logs (changeLog.ts: writes from the CLI or
 * the job worker are seen too) — one row per changed member and the connections into each
 * changed target, never the flow whole, so a turn in a conversation of 20,000 costs what a
 * turn in one of 10 does.
 *
 * Versions: one counter for every flow, started from the clock so a restarted host never
 * continues a count a window already holds; each patch names the flow's previous version, and a
 * window at another one re-reads the flow once (load_flow answers the version it read at).
 */
export class FlowPatches {
  private readonly changes: Record<'members' | 'connections', ChangeLogReader>
  private readonly start = Date.now() * 1_000
  private counter = this.start
  private readonly versions = new Map<string, number>()

  constructor(private readonly store: GraphStore) {
    this.changes = {
      members: new ChangeLogReader(store, 'member_changes'),
      connections: new ChangeLogReader(store, 'connection_changes'),
    }
  }

  /** The flow's last announced version. */
  versionOf(flowId: string): number {
    return this.versions.get(flowId) ?? this.start
  }

  /**
   * A patch for every flow the logs say changed since the last call, and for every flow `due`
   * names (a rename changes no member); `true` in `due` announces the flow whole. Flows gone or
   * being imported are left out.
   */
  collect(due: ReadonlyMap<string, boolean>): FlowPatch[] {
    const members = this.changes.members.next()
    const connections = this.changes.connections.next()
    const changed = new Map<string, { members: Set<string>; targets: Set<string>; whole: boolean }>()
    const of = (flowId: string) => {
      let c = changed.get(flowId)
      if (!c) changed.set(flowId, (c = { members: new Set(), targets: new Set(), whole: false }))
      return c
    }
    for (const [flowId, whole] of due) of(flowId).whole ||= whole
    // A log trimmed past what was read: what changed is unknown, every listed flow is read again.
    if (members === null || connections === null) for (const f of this.store.listFlows()) of(f.id).whole = true
    for (const m of members ?? []) of(m.flow_id).members.add(m.node_id)
    for (const c of connections ?? []) of(c.flow_id).targets.add(c.node_id)
    const patches: FlowPatch[] = []
    for (const [flowId, c] of changed) {
      const patch = this.patch(flowId, c.members, c.targets, c.whole || c.members.size > LISTED_MEMBERS_MAX)
      if (patch) patches.push(patch)
    }
    return patches
  }

  private patch(flowId: string, memberIds: Set<string>, targets: Set<string>, whole: boolean): FlowPatch | null {
    const row = this.store.flowRow(flowId)
    if (!row) return null
    const summary = this.store.flowSummary(flowId)
    // Deleted (waiting for Undo) or still being imported: nobody shows it; its restore or the
    // import's end announces it whole.
    if (!summary) return null
    const version = ++this.counter
    const previous = this.versionOf(flowId)
    this.versions.set(flowId, version)
    const { nodes: _nodes, connections: _connections, ...fields } = flowOf(row, [], [])
    const members: FlowMember[] = []
    const removed: string[] = []
    const connections: Connection[] = []
    if (!whole) {
      for (const id of memberIds) {
        const m = this.store.member(flowId, id)
        if (m) members.push(m)
        else removed.push(id)
      }
      members.sort((a, b) => a.index - b.index)
      for (const target of targets) connections.push(...this.store.connectionsInto(flowId, target))
    }
    return {
      flow_id: flowId,
      version,
      previous,
      whole,
      flow: fields,
      summary,
      members,
      removed,
      targets: whole ? [] : [...targets],
      connections,
    }
  }
}
