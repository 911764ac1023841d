import type { Statement } from 'better-sqlite3'
import type { Flow, Node } from '@shared/contract'
import type { Db } from '../db/open'
import { statements } from '../db/statements'
import { writeInSlices } from '../kernel/slicedWrites'
import { isoNow } from '../kernel/time'
import type { GraphStore, RootAlternative } from './graphStore'

/** A flow's member as an export file has it: index, position and pin. */
export type ImportedMember = Flow['nodes'][number]

/**
 * A flow as an export file has it: with, where the file says so, which first node is another
 * version of which (root_alternatives; an older export has none).
 */
export type ImportedFlow = Flow & { alternatives?: readonly RootAlternative[] }

/**
 * What a bulk import writes of new flows: their rows at once (`begin`, which answers their ids),
 * then `total` steps of a row or so each, in slices, then `finish` at once.
 */
export interface SlicedImport {
  begin: () => readonly string[]
  total: number
  step: (index: number) => void
  finish?: () => void
}

/**
 * The graph's bulk import writer, which VizPrompt's and ChatGPT's imports write through (other
 * domains never write the graph's tables themselves). GraphStore's inserts start a node or flow
 * fresh (times from the clock, no stats or summary); an import must put back exactly what the
 * files hold.
 *
 * An import touches every row of a big flow, so each statement is compiled once and run for
 * every row: compiling is the expensive part of a small statement.
 */
export class ImportWriter {
  /** The store's database: an import's rows and the store's own writes share its transactions. */
  private readonly db: Db
  private readonly statement: (sql: string) => Statement

  constructor(private readonly store: GraphStore) {
    this.db = store.db
    this.statement = statements(store.db)
  }

  /**
   * Writes new flows in slices of about 10 ms (kernel/slicedWrites.ts), each its own
   * transaction, handing the event loop back between them: one transaction of 40,000 nodes kept
   * every window and the API waiting for seconds. Until `finish` commits, the flows are marked as
   * importing (not listed; removed at start-up if the app stopped mid-way), and a failure removes
   * what was written of them.
   */
  async writeInSlices(
    write: SlicedImport,
    options: { sliceMs?: number; onSlice?: (written: number) => void } = {},
  ): Promise<void> {
    const flowIds = this.atOnce(() => {
      const ids = write.begin()
      const now = isoNow()
      for (const id of ids) this.store.beginFlowImport(id, now)
      return ids
    })
    try {
      await writeInSlices(this.db, write.total, write.step, options)
      this.atOnce(() => {
        for (const id of flowIds) this.store.endFlowImport(id)
        write.finish?.()
      })
    } catch (e) {
      for (const id of flowIds) this.dropUnfinished(id)
      throw e
    }
  }

  /** Writes in one transaction: what the user sees goes from before to after, never through a half-written state. */
  atOnce<T>(write: () => T): T {
    return this.db.transaction(write).immediate()
  }

  /** Removes a flow an import could not finish, with the nodes no other flow holds. */
  dropUnfinished(flowId: string): void {
    if (!this.db.open) return
    this.atOnce(() => this.store.deleteFlowWithOrphans(flowId))
  }

  /** The stored node's timestamp, or undefined when there is no such node. */
  nodeTimestamp(id: string): string | undefined {
    const row = this.statement('SELECT timestamp FROM nodes WHERE id = ?').get(id) as { timestamp: string } | undefined
    return row?.timestamp
  }

  /** The stored flow's `updated`, or undefined when there is no such flow. */
  flowUpdated(id: string): string | undefined {
    const row = this.statement('SELECT updated FROM flows WHERE id = ?').get(id) as { updated: string } | undefined
    return row?.updated
  }

  /**
   * A node as its file has it: a new row, or — `stored` — every column of the existing one
   * replaced.
   */
  writeNode(node: Node, stored: boolean): void {
    const { model, stats, summary, tags } = node.metadata
    this.statement(
      `INSERT INTO nodes (id, timestamp, prompt, response, status, error, model, stats_json, summary_text, summary_updated, summary_last_built)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET
         timestamp = excluded.timestamp, prompt = excluded.prompt, response = excluded.response,
         status = excluded.status, error = excluded.error, model = excluded.model, stats_json = excluded.stats_json,
         summary_text = excluded.summary_text, summary_updated = excluded.summary_updated,
         summary_last_built = excluded.summary_last_built`,
    ).run(
      node.id,
      node.timestamp,
      node.prompt,
      node.response,
      node.status,
      node.error,
      model,
      JSON.stringify(stats),
      summary.text,
      summary.updated ? 1 : 0,
      summary.last_built,
    )
    // As GraphStore.setTags: a tag given twice is kept once, at its first position.
    if (stored) this.statement('DELETE FROM node_tags WHERE node_id = ?').run(node.id)
    if (tags.length === 0) return
    const insertTag = this.statement('INSERT OR IGNORE INTO node_tags (node_id, tag, position) VALUES (?, ?, ?)')
    tags.forEach((tag, i) => insertTag.run(node.id, tag, i))
  }

  /** A new flow as its file has it, keeping its id, times, indexes, positions and pins. Its nodes must exist. */
  insertFlow(flow: ImportedFlow): void {
    this.insertFlowRow(flow)
    this.addMembers(flow.id, flow.nodes)
    this.finishFlow(flow)
    this.addConnections(flow.id, flow.connections)
  }

  /** The flow's own row, without members: a sliced import adds those after. */
  insertFlowRow(flow: Flow): void {
    this.statement(
      `INSERT INTO flows (id, name, description, persona_id, system_prompt, token_budget, memory_private, created, updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      flow.id,
      flow.name,
      flow.description,
      flow.persona_id,
      flow.system_prompt,
      flow.token_budget,
      flow.memory_private ? 1 : 0,
      flow.created,
      flow.updated,
    )
  }

  /** Members as the file has them: index, position and pin. Their nodes must exist. */
  addMembers(flowId: string, members: Iterable<ImportedMember>): void {
    const member = this.statement(
      'INSERT INTO flow_nodes (flow_id, node_id, idx, x, y, pinned) VALUES (?, ?, ?, ?, ?, ?)',
    )
    for (const m of members)
      member.run(flowId, m.id, m.index, m.position?.x ?? null, m.position?.y ?? null, m.pinned ? 1 : 0)
  }

  /** Connections between members already added. */
  addConnections(flowId: string, connections: Iterable<Flow['connections'][number]>): void {
    const edge = this.statement(
      'INSERT OR IGNORE INTO connections (flow_id, source_id, target_id, label) VALUES (?, ?, ?, ?)',
    )
    for (const c of connections) edge.run(flowId, c.from, c.to, c.label ?? null)
  }

  /**
   * What needs every member in: a node added later gets the next index after every one the flow
   * has had, and a first node that is another version of one is so again (its row names its
   * place in the flow).
   */
  finishFlow(flow: ImportedFlow): void {
    const last = flow.nodes.reduce((max, m) => Math.max(max, m.index), 0)
    this.statement('UPDATE flows SET next_index = max(next_index, ?) WHERE id = ?').run(last + 1, flow.id)
    const alternative = this.statement('INSERT INTO root_alternatives (flow_id, node_id, of_node_id) VALUES (?, ?, ?)')
    for (const a of flow.alternatives ?? []) alternative.run(flow.id, a.node_id, a.of_node_id)
  }

  /**
   * Puts the file's version of a flow in place of the database's. Nodes the old version held
   * that are now in no flow at all are deleted, as deleting a flow does; their ids are returned.
   */
  replaceFlow(flow: ImportedFlow): string[] {
    const before = (
      this.statement('SELECT node_id FROM flow_nodes WHERE flow_id = ? ORDER BY idx').all(flow.id) as Array<{
        node_id: string
      }>
    ).map((r) => r.node_id)
    this.statement('DELETE FROM flows WHERE id = ?').run(flow.id)
    this.insertFlow(flow)
    const inAFlow = this.statement('SELECT 1 FROM flow_nodes WHERE node_id = ? LIMIT 1')
    const orphans = before.filter((id) => inAFlow.get(id) === undefined)
    const deleteNode = this.statement('DELETE FROM nodes WHERE id = ?')
    for (const id of orphans) deleteNode.run(id)
    return orphans
  }
}
