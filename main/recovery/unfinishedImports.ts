import type { Db } from '../db/open'

/**
 * Flows an import was still writing when the app stopped (listed in flow_imports until their
 * last slice commits): removed, with the nodes no other flow holds, so a half-imported
 * conversation never shows. The user imports the file again; nothing of theirs was in it yet.
 * Returns how many flows there were.
 */
export function removeUnfinishedImports(db: Db): number {
  return db
    .transaction(() => {
      const flows = db.prepare('SELECT flow_id FROM flow_imports').pluck().all() as string[]
      const inAFlow = db.prepare('SELECT 1 FROM flow_nodes WHERE node_id = ? LIMIT 1')
      const deleteNode = db.prepare('DELETE FROM nodes WHERE id = ?')
      for (const flowId of flows) {
        const members = db.prepare('SELECT node_id FROM flow_nodes WHERE flow_id = ?').pluck().all(flowId) as string[]
        db.prepare('DELETE FROM flows WHERE id = ?').run(flowId)
        for (const nodeId of members) if (inAFlow.get(nodeId) === undefined) deleteNode.run(nodeId)
      }
      return flows.length
    })
    .immediate()
}
