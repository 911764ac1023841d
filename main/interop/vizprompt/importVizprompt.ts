import type { Node } from '@shared/contract'
import { resolveCollisions, type Collision } from './collisions'
import type { VizpromptDeps } from './deps'
import type { ImportWriter, ImportedFlow, ImportedMember } from '../../graph/graphService'
import { TimeSlices } from '../../kernel/timeSlices'
import { NODES_DIR, inExport } from './layout'
import { readExport, type FlowFile, type NodeFile } from './readExport'
import { byCodeUnits } from './order'
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

export interface ImportOptions {
  /** Rows written so far of `total`, after each slice. */
  onProgress?: (written: number, total: number) => void
  /** Tests make slices as small as they get. */
  sliceMs?: number
}

/**
 * Reads a VizPrompt folder into the graph. Everything is read and checked first, so a bad file
 * changes nothing. Where the database already has a node or flow, the newer version wins (node
 * `timestamp`, flow `updated`); the older one is reported as skipped.
 *
 * The rows are then written through the graph's import writer in slices of about 10 ms, each
 * its own transaction (kernel/slicedWrites.ts): one transaction of 40,000 nodes kept every
 * window and the API waiting for seconds. A new flow is marked as importing until its last row is in (not listed;
 * removed at start-up if the app stopped mid-way), and a new node goes in with its place in a
 * new flow, so nothing half-written ever shows. A flow that replaces a stored one is written in
 * one transaction with its new nodes, after the rest.
 */
export async function importVizprompt(
  deps: VizpromptDeps,
  dir: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const contents = await readExport(dir)
  const { chosen, collisions } = await resolveCollisions(contents.nodes)
  const rows = deps.graph.imports
  const plan = await planImport(rows, chosen, contents.flows)
  const applied = await writePlan(rows, plan, options)
  announce(deps, applied)
  return {
    flows: applied.flows.length,
    nodes: applied.inserted.length + applied.updated.length,
    removed: applied.removed,
    collisions,
    skipped: applied.skipped,
  }
}

interface Plan {
  newFlows: ImportedFlow[]
  replacedFlows: ImportedFlow[]
  /** Nodes to write, each with whether the database holds a version of it. */
  writes: Array<{ node: Node; stored: boolean }>
  skipped: SkippedItem[]
}

/**
 * What to write, read in slices of time: a read transaction around it all would hold the event
 * loop as long. A node stored newer meanwhile is checked again when it is written.
 */
async function planImport(rows: ImportWriter, nodes: readonly NodeFile[], flows: readonly FlowFile[]): Promise<Plan> {
  const slices = new TimeSlices()
  const skipped: SkippedItem[] = []
  const newFlows: ImportedFlow[] = []
  const replacedFlows: ImportedFlow[] = []
  for (const { flow, file } of flows) {
    const current = rows.flowUpdated(flow.id)
    if (current === undefined) newFlows.push(flow)
    else if (compareTimestamps(flow.updated, current) > 0) replacedFlows.push(flow)
    else skipped.push({ kind: 'flow', id: flow.id, file, reason: `the database has it updated ${current}` })
  }
  // A node in no flow that is written would be invisible: only nodes of written flows are new.
  const wanted = new Set([...newFlows, ...replacedFlows].flatMap((flow) => flow.nodes.map((m) => m.id)))
  const writes: Plan['writes'] = []
  for (const { node, relpath } of nodes) {
    if (slices.due()) await slices.next()
    const current = rows.nodeTimestamp(node.id)
    if (current !== undefined && compareTimestamps(node.timestamp, current) <= 0) {
      const file = inExport(NODES_DIR, relpath)
      skipped.push({ kind: 'node', id: node.id, file, reason: `the database has it from ${current}` })
    } else if (current === undefined && !wanted.has(node.id)) {
      const file = inExport(NODES_DIR, relpath)
      skipped.push({ kind: 'node', id: node.id, file, reason: 'no imported flow holds it' })
    } else writes.push({ node, stored: current !== undefined })
  }
  return { newFlows, replacedFlows, writes, skipped }
}

/** One row's worth of work: a slice runs these until its time is up. */
type Step = () => void

async function writePlan(rows: ImportWriter, plan: Plan, options: ImportOptions) {
  const inserted: string[] = []
  const updated: Node[] = []
  const removed: string[] = []
  // Where each node goes in the new flows: a new node is written together with its places.
  const placesInNewFlows = new Map<string, Array<{ flowId: string; member: ImportedMember }>>()
  for (const flow of plan.newFlows)
    for (const member of flow.nodes)
      placesInNewFlows.set(member.id, [...(placesInNewFlows.get(member.id) ?? []), { flowId: flow.id, member }])
  const placed = new Set<string>()
  const forReplaced = plan.writes.filter((w) => !w.stored && !placesInNewFlows.has(w.node.id))

  const steps: Step[] = []
  // In the order of the keys most indexes hold (node ids, then connections' sources; for the
  // ASCII of ids, code-unit order is SQLite's): a slice then adds to a few neighbouring pages of
  // those. In the files' order, once a flow had some thousands of nodes, every row landed on a
  // page of its own in each of ~6 indexes; a slice's commit wrote 8.4 pages a row at 50,000 nodes
  // (4.7 at 10,000), and import time per node grew with the flow. In this order 5.8 (3.5), and
  // the commits of 50,000 nodes take a third less.
  for (const { node, stored } of [...plan.writes].sort((a, b) => byCodeUnits(a.node.id, b.node.id))) {
    if (!stored && !placesInNewFlows.has(node.id)) continue // written with the flow it replaces, below
    steps.push(() => {
      // Checked again: another writer may have stored a newer version since the plan was made.
      const current = rows.nodeTimestamp(node.id)
      if (stored && current !== undefined && compareTimestamps(node.timestamp, current) <= 0) return
      rows.writeNode(node, current !== undefined)
      if (current === undefined) inserted.push(node.id)
      else updated.push(node)
      for (const { flowId, member } of placesInNewFlows.get(node.id) ?? []) {
        rows.addMembers(flowId, [member])
        placed.add(`${flowId}\n${node.id}`)
      }
    })
  }
  for (const flow of plan.newFlows) {
    // Members that were not written above: nodes the database already had.
    for (const member of flow.nodes)
      steps.push(() => {
        if (!placed.has(`${flow.id}\n${member.id}`)) rows.addMembers(flow.id, [member])
      })
    for (const connection of [...flow.connections].sort(
      (a, b) => byCodeUnits(a.from, b.from) || byCodeUnits(a.to, b.to),
    ))
      steps.push(() => rows.addConnections(flow.id, [connection]))
  }

  await rows.writeInSlices(
    {
      begin: () => {
        for (const flow of plan.newFlows) rows.insertFlowRow(flow)
        return plan.newFlows.map((flow) => flow.id)
      },
      total: steps.length,
      step: (i) => steps[i]!(),
      finish: () => {
        for (const flow of plan.newFlows) rows.finishFlow(flow)
        // A replaced flow and the nodes only it brings, at once: the flow the user sees goes from
        // the old version to the new one, never through a half-written one.
        for (const { node } of forReplaced) {
          rows.writeNode(node, false)
          inserted.push(node.id)
        }
        for (const flow of plan.replacedFlows) removed.push(...rows.replaceFlow(flow))
      },
    },
    { sliceMs: options.sliceMs, onSlice: (written) => options.onProgress?.(written, steps.length) },
  )
  const flows = [...plan.newFlows, ...plan.replacedFlows].map((f) => f.id)
  return { flows, inserted, updated, removed, skipped: plan.skipped }
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
  // An import is whole-flow by nature: a window showing one of its flows reads it again.
  for (const id of applied.flows) graph.announceFlow(id, true)
}
