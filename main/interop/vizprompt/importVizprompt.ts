import type { GraphStore } from '../../graph/graphStore'
import { resolveCollisions, type Collision } from './collisions'
import type { VizpromptDeps } from './deps'
import { insertFlow, replaceFlow, writeNode } from './importRows'
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
  updated: string[]
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
  const store = deps.graph.store
  // IMMEDIATE: what is compared against is what gets overwritten, even with another writer on the file.
  const applied = store.db.transaction(() => apply(store, chosen, contents.flows)).immediate()
  announce(deps, applied)
  return {
    flows: applied.flows.length,
    nodes: applied.inserted.length + applied.updated.length,
    removed: applied.removed,
    collisions,
    skipped: applied.skipped,
  }
}

function apply(store: GraphStore, nodes: readonly NodeFile[], flows: readonly FlowFile[]): Applied {
  const skipped: SkippedItem[] = []
  const newerFlows = flows.filter(({ flow, file }) => {
    const current = store.flowRow(flow.id)
    if (!current || compareTimestamps(flow.updated, current.updated) > 0) return true
    skipped.push({ kind: 'flow', id: flow.id, file, reason: `the database has it updated ${current.updated}` })
    return false
  })
  // A node in no flow that is written would be invisible: only nodes of written flows are new.
  const wanted = new Set(newerFlows.flatMap(({ flow }) => flow.nodes.map((m) => m.id)))
  const inserted: string[] = []
  const updated: string[] = []
  for (const { node, relpath } of nodes) {
    const file = inExport(NODES_DIR, relpath)
    const current = store.node(node.id)
    if (current && compareTimestamps(node.timestamp, current.timestamp) <= 0) {
      skipped.push({ kind: 'node', id: node.id, file, reason: `the database has it from ${current.timestamp}` })
    } else if (!current && !wanted.has(node.id)) {
      skipped.push({ kind: 'node', id: node.id, file, reason: 'no imported flow holds it' })
    } else {
      writeNode(store, node)
      ;(current ? updated : inserted).push(node.id)
    }
  }
  const removed: string[] = []
  for (const { flow } of newerFlows) {
    if (store.flowRow(flow.id)) removed.push(...replaceFlow(store, flow))
    else insertFlow(store, flow)
  }
  return { flows: newerFlows.map(({ flow }) => flow.id), inserted, updated, removed, skipped }
}

/** Tells open windows, after the commit, what changed under them. */
function announce({ graph, bus }: VizpromptDeps, applied: Applied): void {
  if (!bus) return
  for (const id of applied.updated) {
    const node = graph.store.node(id)
    if (node) bus.emit('node_updated', { node })
  }
  for (const id of applied.flows) bus.emit('flow_updated', { flow: graph.getFlow(id) })
}
