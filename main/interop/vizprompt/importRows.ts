import type { Flow, Node } from '@shared/contract'
import type { GraphStore } from '../../graph/graphStore'

// The rows an import writes. GraphStore's inserts start a node or flow fresh (times from the
// clock, no stats or summary); an import must put back exactly what the files hold.

/** A node as its file has it: a new row, or every column of the existing one replaced. */
export function writeNode(store: GraphStore, node: Node): void {
  const { model, stats, summary, tags } = node.metadata
  store.db
    .prepare(
      `INSERT INTO nodes (id, timestamp, prompt, response, status, model, stats_json, summary_text, summary_updated, summary_last_built)
       VALUES (@id, @timestamp, @prompt, @response, @status, @model, @stats_json, @summary_text, @summary_updated, @summary_last_built)
       ON CONFLICT (id) DO UPDATE SET
         timestamp = excluded.timestamp, prompt = excluded.prompt, response = excluded.response,
         status = excluded.status, model = excluded.model, stats_json = excluded.stats_json,
         summary_text = excluded.summary_text, summary_updated = excluded.summary_updated,
         summary_last_built = excluded.summary_last_built`,
    )
    .run({
      id: node.id,
      timestamp: node.timestamp,
      prompt: node.prompt,
      response: node.response,
      status: node.status,
      model,
      stats_json: JSON.stringify(stats),
      summary_text: summary.text,
      summary_updated: summary.updated ? 1 : 0,
      summary_last_built: summary.last_built,
    })
  store.setTags(node.id, tags)
}

/** A new flow as its file has it, keeping its id, times, indexes, positions and pins. Its nodes must exist. */
export function insertFlow(store: GraphStore, flow: Flow): void {
  store.db
    .prepare(
      `INSERT INTO flows (id, name, description, persona_id, system_prompt, token_budget, created, updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      flow.id,
      flow.name,
      flow.description,
      flow.persona_id,
      flow.system_prompt,
      flow.token_budget,
      flow.created,
      flow.updated,
    )
  for (const m of flow.nodes) {
    store.addMember(flow.id, m.id, m.position, m.index)
    if (m.pinned) store.setPinned(flow.id, m.id, true)
  }
  for (const c of flow.connections) store.addEdge(flow.id, c.from, c.to)
}

/**
 * Puts the file's version of a flow in place of the database's. Nodes the old version held
 * that are now in no flow at all are deleted, as deleting a flow does; their ids are returned.
 */
export function replaceFlow(store: GraphStore, flow: Flow): string[] {
  const before = store.members(flow.id).map((m) => m.id)
  store.deleteFlow(flow.id)
  insertFlow(store, flow)
  const orphans = before.filter((id) => store.flowsOf(id).length === 0)
  for (const id of orphans) store.deleteNode(id)
  return orphans
}
