import type { Db } from '../db/open'
import { GraphStore } from './graphStore'

/**
 * Flows an import was still writing when the app stopped (listed in flow_imports until their
 * last slice commits): removed, with the nodes no other flow holds, so a half-imported
 * conversation never shows. The user imports the file again; nothing of theirs was in it yet.
 * Returns how many flows there were.
 */
export function removeUnfinishedImports(db: Db): number {
  const store = new GraphStore(db)
  return db
    .transaction(() => {
      const flows = store.unfinishedImports()
      for (const flowId of flows) store.deleteFlowWithOrphans(flowId)
      return flows.length
    })
    .immediate()
}
