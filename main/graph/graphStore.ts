import type { Change, ChangeLogName } from './changeLog'
import { tableLog, type ChangeLogSource } from '../kernel/changeLogReader'
import { FORMAT_PARTS, loadContextParts, storeContextParts, unpackContext } from './sentContexts'
import type {
  CastMember,
  Connection,
  ContextPreview,
  Flow,
  FlowMember,
  FlowNameSource,
  FlowSummary,
  Node,
  TurnOrder,
} from '@shared/contract'
import type { Statement } from 'better-sqlite3'
import type { Db } from '../db/open'
import { statements } from '../db/statements'

// Row access for the graph tables. No rules here: GraphService decides what is allowed.

interface NodeRow {
  id: string
  timestamp: string
  prompt: string
  response: string
  status: Node['status']
  model: string
  stats_json: string
  summary_text: string
  summary_updated: number
  summary_last_built: string | null
  error: string | null
  images_json?: string | null
  speaker_id?: string | null
}

export interface FlowRow {
  id: string
  name: string
  description: string
  persona_id: string | null
  system_prompt: string
  token_budget: number | null
  memory_private: number
  /** A group scene's cast, `[{persona_id, muted}]` (graph migration 0015-add-flow-cast); `[]` for none. */
  cast_json: string
  turn_order: TurnOrder
  created: string
  updated: string
  next_index: number
  pinned: number
  name_source: FlowNameSource
  /** When the user deleted it, restorable until purged; null for a live flow. */
  deleted: string | null
  /** Kept by triggers (graph migration 0013-flow-list-pin-name-trash). */
  node_count: number
  last_activity: string | null
}

/** The flows the conversation list shows: neither deleted ones waiting for Undo nor unfinished imports. */
const LISTED_FLOWS = `SELECT f.id, f.name, f.description, f.created, f.updated, f.persona_id, f.pinned, f.name_source,
         f.node_count, coalesce(f.last_activity, f.created) AS last_activity
    FROM flows f
   WHERE f.deleted IS NULL AND NOT EXISTS (SELECT 1 FROM flow_imports i WHERE i.flow_id = f.id)`

type ListedRow = Omit<FlowSummary, 'pinned'> & { pinned: number }

function listed(row: ListedRow): FlowSummary {
  return { ...row, pinned: row.pinned === 1 }
}

/** A first node that is another version of another (Regenerate, an edited first prompt) in a flow. */
export interface RootAlternative {
  node_id: string
  of_node_id: string
}

/** Everything needed to put a node back exactly as it was (undo of a delete). */
export interface NodeSnapshot {
  row: NodeRow
  tags: string[]
  memberships: Array<{ flow_id: string; idx: number; x: number | null; y: number | null; pinned: number }>
}

export class GraphStore {
  private readonly sql: (sql: string) => Statement

  constructor(readonly db: Db) {
    this.sql = statements(db)
  }

  // ---- flows

  insertFlow(flow: {
    id: string
    name: string
    description: string
    persona_id: string | null
    now: string
    name_source?: FlowNameSource
  }): void {
    this.sql(
      'INSERT INTO flows (id, name, description, persona_id, created, updated, name_source) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(flow.id, flow.name, flow.description, flow.persona_id, flow.now, flow.now, flow.name_source ?? 'user')
  }

  /** Marks a flow as being written by an import (left out of the list until it is finished). */
  beginFlowImport(flowId: string, now: string): void {
    this.sql('INSERT INTO flow_imports (flow_id, started) VALUES (?, ?)').run(flowId, now)
  }

  endFlowImport(flowId: string): void {
    this.sql('DELETE FROM flow_imports WHERE flow_id = ?').run(flowId)
  }

  /** Flows an import marked and never finished. */
  unfinishedImports(): string[] {
    return this.sql('SELECT flow_id FROM flow_imports').pluck().all() as string[]
  }

  flowRow(id: string): FlowRow | undefined {
    return this.sql('SELECT * FROM flows WHERE id = ?').get(id) as FlowRow | undefined
  }

  /**
   * Every live flow with what the conversation list shows, in one statement: pinned first, then
   * the newest activity. Neither deleted flows waiting for Undo nor unfinished imports are listed.
   */
  listFlows(): FlowSummary[] {
    const rows = this.sql(`${LISTED_FLOWS} ORDER BY f.pinned DESC, last_activity DESC, f.name`).all()
    return (rows as ListedRow[]).map(listed)
  }

  /** One flow's row in the conversation list; null when the list leaves it out (deleted, being imported, gone). */
  flowSummary(id: string): FlowSummary | null {
    const row = this.sql(`${LISTED_FLOWS} AND f.id = ?`).get(id) as ListedRow | undefined
    return row ? listed(row) : null
  }

  /** Names a placeholder-named flow (from its first prompt); a flow named otherwise is left as it is. */
  nameFromPrompt(id: string, name: string): boolean {
    return (
      this.sql(`UPDATE flows SET name = ?, name_source = 'prompt' WHERE id = ? AND name_source = 'placeholder'`).run(
        name,
        id,
      ).changes === 1
    )
  }

  /** Hides a flow from the list until it is restored or purged. */
  markDeleted(id: string, now: string): void {
    this.sql('UPDATE flows SET deleted = ? WHERE id = ?').run(now, id)
  }

  /** Brings a flow marked deleted back; false when there is no such flow waiting. */
  unmarkDeleted(id: string): boolean {
    return this.sql('UPDATE flows SET deleted = NULL WHERE id = ? AND deleted IS NOT NULL').run(id).changes === 1
  }

  /** Flows marked deleted, with when. */
  markedDeleted(): Array<{ id: string; deleted: string }> {
    return this.sql('SELECT id, deleted FROM flows WHERE deleted IS NOT NULL').all() as Array<{
      id: string
      deleted: string
    }>
  }

  updateFlow(
    id: string,
    fields: Partial<
      Pick<
        FlowRow,
        | 'name'
        | 'description'
        | 'system_prompt'
        | 'token_budget'
        | 'pinned'
        | 'name_source'
        | 'memory_private'
        | 'cast_json'
        | 'turn_order'
        | 'persona_id'
      >
    >,
    now: string,
  ): void {
    const sets = Object.keys(fields).map((k) => `${k} = @${k}`)
    // Column names come from the typed keys above, never from input strings.
    this.sql(`UPDATE flows SET ${[...sets, 'updated = @now'].join(', ')} WHERE id = @id`).run({ ...fields, id, now })
  }

  touchFlow(id: string, now: string): void {
    this.sql('UPDATE flows SET updated = ? WHERE id = ?').run(now, id)
  }

  deleteFlow(id: string): void {
    this.sql('DELETE FROM flows WHERE id = ?').run(id)
  }

  flow(id: string): Flow | null {
    const row = this.flowRow(id)
    if (!row) return null
    const nodes = this.members(id)
    return flowOf(row, nodes, this.connections(id, nodes))
  }

  members(flowId: string): FlowMember[] {
    // Rows as arrays: a flow of thousands of nodes is read whole to open it, and named rows cost
    // a third more.
    const rows = this.sql('SELECT node_id, idx, x, y, pinned FROM flow_nodes WHERE flow_id = ? ORDER BY idx')
      .raw(true)
      .all(flowId) as Array<[string, number, number | null, number | null, number]>
    return rows.map(([id, index, x, y, pinned]) => toMember(id, index, x, y, pinned))
  }

  /**
   * Ordered by the nodes' stable indexes, not by insertion: undo re-inserts the edges it
   * puts back, and the flow must then read exactly as it did before. The order is made here
   * from the members' indexes rather than by joining each edge to both its ends in SQL, which
   * cost 14 ms on a 5,000-node flow.
   */
  connections(flowId: string, members: readonly FlowMember[] = this.members(flowId)): Connection[] {
    const rows = this.sql('SELECT source_id, target_id, label FROM connections WHERE flow_id = ?')
      .raw(true)
      .all(flowId) as Array<[string, string, string | null]>
    // A label only where a branch was named, so unnamed connections read as they always have.
    const connections = rows.map(([from, to, label]) => (label === null ? { from, to } : { from, to, label }))
    return sortConnections(connections, new Map(members.map((m) => [m.id, m.index])))
  }

  /** The oldest flow of this name bound to this persona, if any: one indexed lookup. */
  personaFlowId(name: string, personaId: string): string | null {
    return (
      (this.sql(
        'SELECT id FROM flows WHERE name = ? AND persona_id = ? AND deleted IS NULL ORDER BY created, id LIMIT 1',
      )
        .pluck()
        .get(name, personaId) as string | undefined) ?? null
    )
  }

  /** The member added last (the highest index) of a flow, or null for an empty flow. */
  lastMember(flowId: string): string | null {
    return (
      (this.sql('SELECT node_id FROM flow_nodes WHERE flow_id = ? ORDER BY idx DESC LIMIT 1').pluck().get(flowId) as
        string | undefined) ?? null
    )
  }

  /**
   * A node's parents in a flow, in the order of their indexes: one indexed lookup, not the whole
   * flow. The plan is fixed (CROSS JOIN keeps the join order, INDEXED BY the index): left to
   * itself the planner walked every member or every connection of the flow, 0.3–2.7 ms on a
   * 5,000-node flow instead of microseconds.
   */
  parentIds(flowId: string, nodeId: string): string[] {
    return this.sql(
      `SELECT c.source_id FROM connections c INDEXED BY connections_by_target CROSS JOIN flow_nodes s ON s.flow_id = c.flow_id AND s.node_id = c.source_id
         WHERE c.flow_id = ? AND c.target_id = ? ORDER BY s.idx`,
    )
      .pluck()
      .all(flowId, nodeId) as string[]
  }

  /**
   * Every connection into the given nodes and into their ancestors in a flow: the part of the
   * graph above them, which a prompt's context and a node's path are made of. Read upwards
   * through the target index, so its cost follows the path's length, not the flow's size.
   */
  edgesAbove(flowId: string, nodeIds: readonly string[]): Connection[] {
    return this.sql(
      `WITH RECURSIVE above(id) AS (
         SELECT value FROM json_each(?)
         UNION
         SELECT c.source_id FROM above CROSS JOIN connections c INDEXED BY connections_by_target
           ON c.flow_id = ? AND c.target_id = above.id
       )
       SELECT c.source_id AS "from", c.target_id AS "to" FROM above CROSS JOIN connections c INDEXED BY connections_by_target
         ON c.flow_id = ? AND c.target_id = above.id`,
    ).all(JSON.stringify(nodeIds), flowId, flowId) as Connection[]
  }

  /** One of the graph's change logs, as its reader reads it (changeLog.ts). */
  changeLog(log: ChangeLogName): ChangeLogSource<Change> {
    // The table is one of three literals, never input; a node's text is the same in every flow.
    const flow = log === 'node_changes' ? "''" : 'flow_id'
    const node = log === 'connection_changes' ? 'target_id' : 'node_id'
    return tableLog(this.sql, log, `${flow} AS flow_id, ${node} AS node_id`)
  }

  /** One member of a flow as `members` reads it, or null when the node is not in the flow. */
  member(flowId: string, nodeId: string): FlowMember | null {
    const row = this.sql('SELECT idx, x, y, pinned FROM flow_nodes WHERE flow_id = ? AND node_id = ?')
      .raw(true)
      .get(flowId, nodeId) as [number, number | null, number | null, number] | undefined
    return row ? toMember(nodeId, ...row) : null
  }

  /** The connections into one node of a flow, as `connections` reads them (unordered). */
  connectionsInto(flowId: string, targetId: string): Connection[] {
    const rows = this.sql('SELECT source_id, label FROM connections WHERE flow_id = ? AND target_id = ?')
      .raw(true)
      .all(flowId, targetId) as Array<[string, string | null]>
    return rows.map(([from, label]) => (label === null ? { from, to: targetId } : { from, to: targetId, label }))
  }

  /** The creation times of nodes, by id. */
  timestampsOf(ids: readonly string[]): Map<string, string> {
    const rows = this.sql('SELECT id, timestamp FROM nodes WHERE id IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(ids),
    ) as Array<{ id: string; timestamp: string }>
    return new Map(rows.map((r) => [r.id, r.timestamp]))
  }

  /** The flow's pinned nodes in the order of their indexes, from the index of pins. */
  pinnedIds(flowId: string): string[] {
    return this.sql(
      'SELECT node_id FROM flow_nodes INDEXED BY flow_nodes_pinned WHERE flow_id = ? AND pinned = 1 ORDER BY idx',
    )
      .pluck()
      .all(flowId) as string[]
  }

  /** A node's children in a flow, in the order of their indexes. */
  childIds(flowId: string, nodeId: string): string[] {
    return this.sql(
      `SELECT c.target_id FROM connections c CROSS JOIN flow_nodes t ON t.flow_id = c.flow_id AND t.node_id = c.target_id
         WHERE c.flow_id = ? AND c.source_id = ? ORDER BY t.idx`,
    )
      .pluck()
      .all(flowId, nodeId) as string[]
  }

  // ---- nodes

  hasNode(id: string): boolean {
    return this.sql('SELECT 1 FROM nodes WHERE id = ?').get(id) !== undefined
  }

  insertNode(node: {
    id: string
    timestamp: string
    prompt: string
    response: string
    model: string
    status?: Node['status']
  }): void {
    this.sql('INSERT INTO nodes (id, timestamp, prompt, response, model, status) VALUES (?, ?, ?, ?, ?, ?)').run(
      node.id,
      node.timestamp,
      node.prompt,
      node.response,
      node.model,
      node.status ?? 'complete',
    )
  }

  node(id: string): Node | null {
    const row = this.sql('SELECT * FROM nodes WHERE id = ?').get(id) as NodeRow | undefined
    return row ? toNode(row, this.tags(id)) : null
  }

  /** The picture items sent with a node's prompt. */
  setImages(nodeId: string, images: NonNullable<Node['metadata']['images']>): void {
    this.sql('UPDATE nodes SET images_json = ? WHERE id = ?').run(
      images.length > 0 ? JSON.stringify(images) : null,
      nodeId,
    )
  }

  /** These nodes with their tags, in no particular order: two queries however many. */
  nodesByIds(ids: readonly string[]): Node[] {
    if (ids.length === 0) return []
    const list = JSON.stringify(ids)
    const rows = this.sql('SELECT * FROM nodes WHERE id IN (SELECT value FROM json_each(?))').all(list) as NodeRow[]
    const tagRows = this.sql(
      'SELECT node_id, tag FROM node_tags WHERE node_id IN (SELECT value FROM json_each(?)) ORDER BY node_id, position',
    ).all(list) as TagRow[]
    return withTags(rows, tagRows)
  }

  /** Every node of a flow with its tags, in index order: three queries whatever the size. */
  flowNodes(flowId: string): Node[] {
    const rows = this.sql(
      'SELECT n.* FROM nodes n JOIN flow_nodes m ON m.node_id = n.id WHERE m.flow_id = ? ORDER BY m.idx',
    ).all(flowId) as NodeRow[]
    const tagRows = this.sql(
      'SELECT t.node_id, t.tag FROM node_tags t JOIN flow_nodes m ON m.node_id = t.node_id WHERE m.flow_id = ? ORDER BY t.node_id, t.position',
    ).all(flowId) as TagRow[]
    return withTags(rows, tagRows)
  }

  tags(nodeId: string): string[] {
    return (
      this.sql('SELECT tag FROM node_tags WHERE node_id = ? ORDER BY position').all(nodeId) as Array<{
        tag: string
      }>
    ).map((r) => r.tag)
  }

  setTags(nodeId: string, tags: readonly string[]): void {
    this.sql('DELETE FROM node_tags WHERE node_id = ?').run(nodeId)
    const insert = this.sql('INSERT OR IGNORE INTO node_tags (node_id, tag, position) VALUES (?, ?, ?)')
    tags.forEach((tag, i) => insert.run(nodeId, tag, i))
  }

  updateNodeText(id: string, fields: { prompt?: string; response?: string }): void {
    if (fields.prompt !== undefined) this.sql('UPDATE nodes SET prompt = ? WHERE id = ?').run(fields.prompt, id)
    if (fields.response !== undefined) this.sql('UPDATE nodes SET response = ? WHERE id = ?').run(fields.response, id)
  }

  /** Nodes whose summary needs building: stale, with something to summarise, not mid-reply. */
  staleNodeIds(flowId?: string): string[] {
    const sql = flowId
      ? `SELECT n.id FROM nodes n JOIN flow_nodes m ON m.node_id = n.id AND m.flow_id = ?
         WHERE n.summary_updated = 1 AND n.status <> 'streaming' ORDER BY m.idx`
      : "SELECT id FROM nodes WHERE summary_updated = 1 AND status <> 'streaming' ORDER BY timestamp"
    return (this.sql(sql).all(...(flowId ? [flowId] : [])) as Array<{ id: string }>).map((r) => r.id)
  }

  /** Sets where a reply stands; `response` is the whole text so far, not a delta. */
  setReply(
    id: string,
    reply: {
      response?: string
      status: Node['status']
      error?: string | null
      model?: string
      stats?: Node['metadata']['stats']
      /** The persona who speaks the reply; absent keeps the one it has. */
      speaker_id?: string
    },
  ): void {
    this.sql(
      `UPDATE nodes SET status = @status, response = coalesce(@response, response), error = @error,
                model = coalesce(@model, model), stats_json = coalesce(@stats, stats_json),
                speaker_id = coalesce(@speaker, speaker_id) WHERE id = @id`,
    ).run({
      id,
      speaker: reply.speaker_id ?? null,
      status: reply.status,
      response: reply.response ?? null,
      error: reply.error ?? null,
      model: reply.model ?? null,
      stats: reply.stats ? JSON.stringify(reply.stats) : null,
    })
  }

  /**
   * Kept against its parts (sentContexts.ts): each distinct part once, a turn's row a list of
   * ids and a small compressed skeleton. Nothing when its node is gone (deleted while it streamed).
   */
  saveSentContext(nodeId: string, context: ContextPreview, sentAt: string): void {
    if (!this.sql('SELECT 1 FROM nodes WHERE id = ?').get(nodeId)) return
    const stored = storeContextParts(this.db, context)
    const row = { id: nodeId, context: stored.context, sentAt, format: FORMAT_PARTS, partIds: stored.part_ids }
    // An update, else an insert, never an upsert: an upsert's conflict clause overrides the
    // sweep trigger's OR IGNORE, so a node answered a third time (a program's request tried
    // again) failed on the sweep's single row.
    const updated = this.sql(
      `UPDATE node_sent_contexts SET context = @context, sent_at = @sentAt, format = @format, part_ids = @partIds
         WHERE node_id = @id`,
    ).run(row).changes
    if (updated === 0)
      this.sql(
        `INSERT INTO node_sent_contexts (node_id, context, sent_at, format, part_ids)
           VALUES (@id, @context, @sentAt, @format, @partIds)`,
      ).run(row)
  }

  sentContext(nodeId: string): { context: ContextPreview; sent_at: string } | null {
    const row = this.sql('SELECT context, sent_at, format, part_ids FROM node_sent_contexts WHERE node_id = ?').get(
      nodeId,
    ) as { context: Buffer; sent_at: string; format: number; part_ids: Buffer | null } | undefined
    if (row) {
      const context =
        row.format === FORMAT_PARTS && row.part_ids
          ? loadContextParts(this.db, row.context, row.part_ids)
          : unpackContext(row.context)
      return { context, sent_at: row.sent_at }
    }
    // Sent before contexts were compressed (graph migration 0010-pack-sent-contexts).
    const old = this.sql('SELECT context_json, sent_at FROM node_contexts WHERE node_id = ?').get(nodeId) as
      { context_json: string; sent_at: string } | undefined
    return old ? { context: JSON.parse(old.context_json) as ContextPreview, sent_at: old.sent_at } : null
  }

  markStale(ids: readonly string[]): void {
    const mark = this.sql('UPDATE nodes SET summary_updated = 1 WHERE id = ?')
    for (const id of ids) mark.run(id)
  }

  /** Deletes a flow and the nodes no other flow holds (an import that did not finish); call in a transaction. */
  deleteFlowWithOrphans(flowId: string): void {
    const members = this.memberIds(flowId)
    this.deleteFlow(flowId)
    for (const nodeId of members) if (this.flowsOf(nodeId).length === 0) this.deleteNode(nodeId)
  }

  /** The ids of a flow's nodes, in no particular order. */
  memberIds(flowId: string): string[] {
    return this.sql('SELECT node_id FROM flow_nodes WHERE flow_id = ?').pluck().all(flowId) as string[]
  }

  flowsOf(nodeId: string): string[] {
    return (
      this.sql('SELECT flow_id FROM flow_nodes WHERE node_id = ? ORDER BY flow_id').all(nodeId) as Array<{
        flow_id: string
      }>
    ).map((r) => r.flow_id)
  }

  privateFlowIds(): string[] {
    return this.sql('SELECT id FROM flows WHERE memory_private = 1').pluck().all() as string[]
  }

  /**
   * The flows holding each of the nodes, and whether each remembers only itself (one indexed
   * read). A conversation in the trash holds nothing here: deleted is forgotten at once, not
   * when the Undo's time runs out, and comes back with the Undo.
   */
  flowsOfEach(nodeIds: readonly string[]): Array<{ node_id: string; flow_id: string; memory_private: number }> {
    return this.sql(
      `SELECT m.node_id, m.flow_id, f.memory_private FROM flow_nodes m INDEXED BY flow_nodes_by_node
         CROSS JOIN flows f ON f.id = m.flow_id
         WHERE m.node_id IN (SELECT value FROM json_each(?)) AND f.deleted IS NULL`,
    ).all(JSON.stringify(nodeIds)) as Array<{ node_id: string; flow_id: string; memory_private: number }>
  }

  // ---- membership and edges

  addMember(flowId: string, nodeId: string, position: { x: number; y: number } | null, idx?: number): number {
    const index =
      idx ?? (this.sql('SELECT next_index FROM flows WHERE id = ?').get(flowId) as { next_index: number }).next_index
    this.sql('INSERT INTO flow_nodes (flow_id, node_id, idx, x, y) VALUES (?, ?, ?, ?, ?)').run(
      flowId,
      nodeId,
      index,
      position?.x ?? null,
      position?.y ?? null,
    )
    this.sql('UPDATE flows SET next_index = max(next_index, ?) WHERE id = ?').run(index + 1, flowId)
    return index
  }

  /** Unbinds every flow (deleted ones too) from a persona that is going away. */
  unbindPersona(personaId: string): void {
    this.sql('UPDATE flows SET persona_id = NULL WHERE persona_id = ?').run(personaId)
  }

  /** The node a parentless node is another version of in the flow (root_alternatives), or null. */
  alternativeOf(flowId: string, nodeId: string): string | null {
    return (
      (this.sql('SELECT of_node_id FROM root_alternatives WHERE flow_id = ? AND node_id = ?')
        .pluck()
        .get(flowId, nodeId) as string | undefined) ?? null
    )
  }

  /**
   * The original a node is another version of, through versions of versions, as the flows that
   * first said so have it; null for none. A node shared into another flow takes it along
   * (GraphService.addToFlow): its tree there is the one it has where it came from, even where
   * the versions between are not shared.
   */
  originalOf(nodeId: string): string | null {
    const statement = this.sql('SELECT of_node_id FROM root_alternatives WHERE node_id = ? ORDER BY rowid LIMIT 1')
    const of = (id: string) => statement.pluck().get(id) as string | undefined
    let original: string | null = null
    // Versions that come back round (shared between flows that disagree) end where they meet again.
    const seen = new Set([nodeId])
    for (let next = of(nodeId); next !== undefined && !seen.has(next); next = of(next)) {
      seen.add(next)
      original = next
    }
    return original
  }

  /** Every row of the flow's root_alternatives, in the order of the nodes' indexes (an export's). */
  alternatives(flowId: string): RootAlternative[] {
    return this.sql(
      `SELECT r.node_id, r.of_node_id FROM root_alternatives r
       JOIN flow_nodes m ON m.flow_id = r.flow_id AND m.node_id = r.node_id
       WHERE r.flow_id = ? ORDER BY m.idx`,
    ).all(flowId) as RootAlternative[]
  }

  setAlternative(flowId: string, nodeId: string, ofNodeId: string): void {
    this.sql('INSERT OR REPLACE INTO root_alternatives (flow_id, node_id, of_node_id) VALUES (?, ?, ?)').run(
      flowId,
      nodeId,
      ofNodeId,
    )
  }

  /** The node is no other first node's version in the flow (any more). */
  clearAlternative(flowId: string, nodeId: string): void {
    this.sql('DELETE FROM root_alternatives WHERE flow_id = ? AND node_id = ?').run(flowId, nodeId)
  }

  isMember(flowId: string, nodeId: string): boolean {
    return this.sql('SELECT 1 FROM flow_nodes WHERE flow_id = ? AND node_id = ?').get(flowId, nodeId) !== undefined
  }

  position(flowId: string, nodeId: string): { x: number; y: number } | null {
    const row = this.sql('SELECT x, y FROM flow_nodes WHERE flow_id = ? AND node_id = ?').get(flowId, nodeId) as
      { x: number | null; y: number | null } | undefined
    return row && row.x !== null && row.y !== null ? { x: row.x, y: row.y } : null
  }

  /** null clears the position: the canvas lays the node out automatically again. */
  setPosition(flowId: string, nodeId: string, position: { x: number; y: number } | null): void {
    this.sql('UPDATE flow_nodes SET x = ?, y = ? WHERE flow_id = ? AND node_id = ?').run(
      position?.x ?? null,
      position?.y ?? null,
      flowId,
      nodeId,
    )
  }

  isPinned(flowId: string, nodeId: string): boolean {
    return (
      this.sql('SELECT 1 FROM flow_nodes WHERE flow_id = ? AND node_id = ? AND pinned = 1').get(flowId, nodeId) !==
      undefined
    )
  }

  setPinned(flowId: string, nodeId: string, pinned: boolean): void {
    this.sql('UPDATE flow_nodes SET pinned = ? WHERE flow_id = ? AND node_id = ?').run(pinned ? 1 : 0, flowId, nodeId)
  }

  removeMember(flowId: string, nodeId: string): void {
    this.sql('DELETE FROM flow_nodes WHERE flow_id = ? AND node_id = ?').run(flowId, nodeId)
  }

  hasEdge(flowId: string, from: string, to: string): boolean {
    return (
      this.sql('SELECT 1 FROM connections WHERE flow_id = ? AND source_id = ? AND target_id = ?').get(
        flowId,
        from,
        to,
      ) !== undefined
    )
  }

  addEdge(flowId: string, from: string, to: string, label: string | null = null): void {
    this.sql('INSERT OR IGNORE INTO connections (flow_id, source_id, target_id, label) VALUES (?, ?, ?, ?)').run(
      flowId,
      from,
      to,
      label,
    )
  }

  edgeLabel(flowId: string, from: string, to: string): string | null {
    const row = this.sql('SELECT label FROM connections WHERE flow_id = ? AND source_id = ? AND target_id = ?').get(
      flowId,
      from,
      to,
    ) as { label: string | null } | undefined
    return row?.label ?? null
  }

  setEdgeLabel(flowId: string, from: string, to: string, label: string | null): void {
    this.sql('UPDATE connections SET label = ? WHERE flow_id = ? AND source_id = ? AND target_id = ?').run(
      label,
      flowId,
      from,
      to,
    )
  }

  removeEdge(flowId: string, from: string, to: string): void {
    this.sql('DELETE FROM connections WHERE flow_id = ? AND source_id = ? AND target_id = ?').run(flowId, from, to)
  }

  /** A summary the model made: the node is no longer stale. */
  setSummary(nodeId: string, summary: string, builtAt: string): void {
    this.sql('UPDATE nodes SET summary_text = ?, summary_updated = 0, summary_last_built = ? WHERE id = ?').run(
      summary,
      builtAt,
      nodeId,
    )
  }

  /** The personas of the flows a node is in. */
  personasOfNode(nodeId: string): string[] {
    return this.sql(
      'SELECT DISTINCT f.persona_id FROM flow_nodes m JOIN flows f ON f.id = m.flow_id WHERE m.node_id = ? AND f.persona_id IS NOT NULL',
    )
      .pluck()
      .all(nodeId) as string[]
  }

  /** Every reply still marked streaming becomes incomplete and stale; answers how many there were. */
  finishInterruptedReplies(): number {
    return this.sql(
      "UPDATE nodes SET status = 'incomplete', error = NULL, summary_updated = 1 WHERE status = 'streaming'",
    ).run().changes
  }

  deleteNode(id: string): void {
    this.sql('DELETE FROM nodes WHERE id = ?').run(id)
  }

  // ---- snapshots for undo

  snapshot(nodeId: string): NodeSnapshot {
    const row = { ...(this.sql('SELECT * FROM nodes WHERE id = ?').get(nodeId) as NodeRow) }
    // A reply streaming when its node is taken away is cut there (chat stops it): brought back
    // by undo it is incomplete with the text saved so far, never a stream nothing will finish.
    if (row.status === 'streaming') Object.assign(row, { status: 'incomplete', error: null, summary_updated: 1 })
    const memberships = this.sql('SELECT flow_id, idx, x, y, pinned FROM flow_nodes WHERE node_id = ?').all(
      nodeId,
    ) as NodeSnapshot['memberships']
    return { row, tags: this.tags(nodeId), memberships }
  }

  /** Puts a node back: its row if it was deleted, and its membership in `flowId` with the same index. */
  restore(snapshot: NodeSnapshot, flowId: string): void {
    if (!this.hasNode(snapshot.row.id)) {
      const r = snapshot.row
      this.sql(
        `INSERT INTO nodes (id, timestamp, prompt, response, status, model, stats_json, summary_text, summary_updated, summary_last_built, error, speaker_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        r.id,
        r.timestamp,
        r.prompt,
        r.response,
        r.status,
        r.model,
        r.stats_json,
        r.summary_text,
        r.summary_updated,
        r.summary_last_built,
        r.error,
        r.speaker_id ?? null,
      )
      this.setTags(r.id, snapshot.tags)
    }
    const m = snapshot.memberships.find((x) => x.flow_id === flowId)
    if (m && !this.isMember(flowId, snapshot.row.id)) {
      this.sql('INSERT INTO flow_nodes (flow_id, node_id, idx, x, y, pinned) VALUES (?, ?, ?, ?, ?, ?)').run(
        flowId,
        snapshot.row.id,
        m.idx,
        m.x,
        m.y,
        m.pinned,
      )
    }
  }
}

interface TagRow {
  node_id: string
  tag: string
}

/** Node rows as nodes, each with its tags (the tag rows in order, grouped by node). */
function withTags(rows: readonly NodeRow[], tagRows: readonly TagRow[]): Node[] {
  const tags = new Map<string, string[]>()
  for (const t of tagRows) {
    const list = tags.get(t.node_id)
    if (list) list.push(t.tag)
    else tags.set(t.node_id, [t.tag])
  }
  return rows.map((r) => toNode(r, tags.get(r.id) ?? []))
}

function toNode(row: NodeRow, tags: string[]): Node {
  return {
    id: row.id,
    timestamp: row.timestamp,
    prompt: row.prompt,
    response: row.response,
    status: row.status,
    error: row.error ?? null,
    metadata: {
      model: row.model,
      stats: JSON.parse(row.stats_json) as Node['metadata']['stats'],
      summary: { text: row.summary_text, updated: row.summary_updated === 1, last_built: row.summary_last_built },
      tags,
      ...(row.images_json ? { images: JSON.parse(row.images_json) as NonNullable<Node['metadata']['images']> } : {}),
      ...(row.speaker_id ? { speaker_id: row.speaker_id } : {}),
    },
  }
}

/** A flow from its row, its members and its connections. */
export function flowOf(row: FlowRow, nodes: FlowMember[], connections: Connection[]): Flow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created: row.created,
    updated: row.updated,
    persona_id: row.persona_id,
    system_prompt: row.system_prompt,
    token_budget: row.token_budget,
    memory_private: row.memory_private === 1,
    ...castOf(row),
    nodes,
    connections,
  }
}

/** A group scene's cast and turn order, as a flow carries them: absent for a conversation without a cast. */
export function castOf(row: Pick<FlowRow, 'cast_json' | 'turn_order'>): Pick<Flow, 'cast' | 'turn_order'> {
  const cast = JSON.parse(row.cast_json || '[]') as CastMember[]
  return cast.length > 0 ? { cast, turn_order: row.turn_order } : {}
}

export function toMember(id: string, index: number, x: number | null, y: number | null, pinned: number): FlowMember {
  return { index, id, position: x === null || y === null ? null : { x, y }, pinned: pinned === 1 }
}

/** Connections in a flow's order: by their source's index, then their target's (unknown ends last). */
export function sortConnections(connections: Connection[], indexOf: ReadonlyMap<string, number>): Connection[] {
  const at = (id: string) => indexOf.get(id) ?? Number.MAX_SAFE_INTEGER
  // Each end's index looked up once, not at every comparison of the sort (10 → 3 ms at 5,000).
  return connections
    .map((c) => ({ c, from: at(c.from), to: at(c.to) }))
    .sort((a, b) => a.from - b.from || a.to - b.to)
    .map(({ c }) => c)
}
