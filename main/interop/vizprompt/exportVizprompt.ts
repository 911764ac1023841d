import type { Node } from '@shared/contract'
import type { ImportedFlow } from '../../graph/graphService'
import type { VizpromptDeps } from './deps'
import { flowYaml } from './flowYaml'
import {
  CONFIG_FILE,
  FLOWS_DIR,
  FLOW_MAP_FILE,
  INDEX_FILE,
  NODES_DIR,
  NODE_MAP_FILE,
  TAGS_FILE,
  inExport,
  slot,
} from './layout'
import { configYaml, exportedUpdated, flowMapTsv, indexYaml, nodeMapTsv, tagsYaml } from './metadataFiles'
import { nodeXml } from './nodeXml'
import { publishExport, type ExportFile } from './publishDir'
import { byCodeUnits } from './order'
import { sortByTimestamp } from './timestamps'

export interface ExportOptions {
  outDir: string
  /** The flows to export (with every node they hold); all flows when left out. */
  flowIds?: readonly string[]
}

export interface ExportResult {
  outDir: string
  flows: number
  nodes: number
}

/** The graph as a VizPrompt folder (seed §3–5), replacing a previous export in `outDir`. */
export async function exportVizprompt(deps: VizpromptDeps, options: ExportOptions): Promise<ExportResult> {
  const { flows, nodes } = snapshot(deps, options.flowIds)
  await publishExport(options.outDir, exportFiles(flows, nodes))
  return { outDir: options.outDir, flows: flows.length, nodes: nodes.length }
}

export interface GraphSnapshot {
  /**
   * Oldest first, so a new flow is added at the end and older files keep their names; each with
   * which first node is another version of which, so memory keeps a replaced answer out after an
   * import as it did before.
   */
  flows: ImportedFlow[]
  /** Every node of those flows once, oldest first for the same reason. */
  nodes: Node[]
}

/** One consistent read of the flows and their nodes, even while another process writes. */
export function snapshot(
  { graph, db }: Pick<VizpromptDeps, 'graph' | 'db'>,
  flowIds?: readonly string[],
): GraphSnapshot {
  return db
    .transaction(() => {
      const ids = flowIds ? [...new Set(flowIds)] : graph.listFlows().map((f) => f.id)
      const loaded = ids.map((id) => {
        return graph.loadFlow(id) // not_found for a flow that is not there
      })
      const nodes = new Map(loaded.flatMap((l) => l.nodes).map((n) => [n.id, n]))
      const byId = (a: { id: string }, b: { id: string }) => byCodeUnits(a.id, b.id)
      return {
        flows: sortByTimestamp(
          loaded.map((l) => ({ ...l.flow, alternatives: graph.rootAlternatives(l.flow.id) })),
          (f) => f.created,
          byId,
        ),
        nodes: sortByTimestamp([...nodes.values()], (n) => n.timestamp, byId),
      }
    })
    .immediate()
}

/** Every file of the export, by path. Pure: the same snapshot always gives the same bytes. */
export function renderExport(flows: readonly ImportedFlow[], nodes: readonly Node[]): ExportFile[] {
  return [...exportFiles(flows, nodes)]
}

/** renderExport's files one at a time, each rendered when it is asked for. */
function* exportFiles(flows: readonly ImportedFlow[], nodes: readonly Node[]): Generator<ExportFile> {
  const nodeSlots = nodes.map((node, n) => ({ node, slot: slot(n, 'xml') }))
  const flowSlots = flows.map((flow, n) => ({ flow, slot: slot(n, 'yaml') }))
  for (const { node, slot: s } of nodeSlots) yield { path: inExport(NODES_DIR, s.relpath), content: nodeXml(node) }
  for (const { flow, slot: s } of flowSlots) yield { path: inExport(FLOWS_DIR, s.relpath), content: flowYaml(flow) }
  const updated = exportedUpdated(nodes, flows)
  yield { path: NODE_MAP_FILE, content: nodeMapTsv(nodeSlots) }
  yield { path: FLOW_MAP_FILE, content: flowMapTsv(flowSlots) }
  yield { path: TAGS_FILE, content: tagsYaml(nodes, updated) }
  yield { path: INDEX_FILE, content: indexYaml(nodes, updated) }
  yield { path: CONFIG_FILE, content: configYaml(nodes, flows) }
}
