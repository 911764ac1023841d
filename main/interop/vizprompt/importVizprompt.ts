import type { Node } from '@shared/contract'
import { resolveCollisions, type Collision } from './collisions'
import type { VizpromptDeps } from './deps'
import { ImportRows } from './importRows'
import { NODES_DIR, inExport } from './layout'
import { readExport, type FlowFile, type NodeFile } from './readExport'
import { compareTimestamps } from './timestamps'

export interface SkippedItem {
  kind: 'node' | 'flow'
  id: string
  /** Relative to the export folder. */
  file: string
  reason: string
}

export interface ImportSummary {
  /** Flows written: new ones and ones the export had a newer version of. */
  flows: number
  /** Nodes written: new ones and ones the export had a newer version of. */
  nodes: number
  /** Nodes deleted because a replaced flow no longer holds them and no other flow does. */
  removed: string[]
  collisions: Collision[]
  skipped: SkippedItem[]
}

interface Applied {
  flows: string[]
  inserted: string[]
  /** The nodes that replaced stored ones, as written. */
  updated: Node[]
  removed: string[]
  skipped: SkippedItem[]
}

/**
 * Reads a VizPrompt folder into the graph. Everything is read and checked first; then one
 * transaction writes it all, or — on any error — nothing. Where the database already has a
 * node or flow, the newer version wins (node `timestamp`, flow `updated`); the older one
 * is reported as skipped.
 */
export async function importVizprompt(deps: VizpromptDeps, dir: string): Promise<ImportSummary> {
  const contents = await readExport(dir)
  const { chosen, collisions } = resolveCollisions(contents.nodes)
  const { db } = deps
  // IMMEDIATE: what is compared against is what gets overwritten, even with another writer on the file.
  const applied = db.transaction(() => apply(new ImportRows(db), chosen, contents.flows)).immediate()
  announce(deps, applied)
  return {
    flows: applied.flows.length,
    nodes: applied.inserted.length + applied.updated.length,
    removed: applied.removed,
    collisions,
    skipped: applied.skipped,
  }
}

function apply(rows: ImportRows, nodes: readonly NodeFile[], flows: readonly FlowFile[]): Applied {
  const skipped: SkippedItem[] = []
  const newerFlows = flows.filter(({ flow, file }) => {
    const current = rows.flowUpdated(flow.id)
    if (current === undefined || compareTimestamps(flow.updated, current) > 0) return true
    skipped.push({ kind: 'flow', id: flow.id, file, reason: `the database has it updated ${current}` })
    return false
  })
  // A node in no flow that is written would be invisible: only nodes of written flows are new.
  const wanted = new Set(newerFlows.flatMap(({ flow }) => flow.nodes.map((m) => m.id)))
  const inserted: string[] = []
  const updated: Node[] = []
  for (const { node, relpath } of nodes) {
    const current = rows.nodeTimestamp(node.id)
    if (current !== undefined && compareTimestamps(node.timestamp, current) <= 0) {
      const file = inExport(NODES_DIR, relpath)
      skipped.push({ kind: 'node', id: node.id, file, reason: `the database has it from ${current}` })
    } else if (current === undefined && !wanted.has(node.id)) {
      const file = inExport(NODES_DIR, relpath)
      skipped.push({ kind: 'node', id: node.id, file, reason: 'no imported flow holds it' })
    } else {
      rows.writeNode(node, current !== undefined)
      if (current === undefined) inserted.push(node.id)
      else updated.push(node)
    }
  }
  const removed: string[] = []
  for (const { flow } of newerFlows) {
    if (rows.flowUpdated(flow.id) === undefined) rows.insertFlow(flow)
    else for (const id of rows.replaceFlow(flow)) removed.push(id)
  }
  return { flows: newerFlows.map(({ flow }) => flow.id), inserted, updated, removed, skipped }
}

/**
 * Tells open windows, after the commit, what changed under them: each stored node that was
 * replaced, and each flow written (which brings its new nodes along). The nodes are sent as
 * written rather than read back: the rows hold exactly that, tags given twice kept once.
 */
function announce({ graph, bus }: VizpromptDeps, applied: Applied): void {
  if (!bus) return
  const removed = new Set(applied.removed)
  for (const node of applied.updated) {
    // Replaced, then dropped with the old version of its flow.
    if (removed.has(node.id)) continue
    const tags = [...new Set(node.metadata.tags)]
    bus.emit('node_updated', { node: { ...node, metadata: { ...node.metadata, tags } } })
  }
  for (const id of applied.flows) graph.announceFlow(id)
}
