import type { Flow, Node } from '@shared/contract'
import { MAX_FILES_PER_FOLDER, type Slot } from './layout'
import { byCodeUnits } from './order'
import { newest, oldest } from './timestamps'
import { toTsv } from './tsv'
import { toYaml } from './yamlFile'

// The derived files of an export (seed §5.1, §5.3–5.6). They are rebuilt from the nodes and
// flows on every export, so every date in them comes from the data, never from the clock:
// exporting the same graph twice gives the same bytes.

export const NODE_MAP_HEADER = ['relpath', 'uuid', 'timestamp'] as const
export const FLOW_MAP_HEADER = ['flow_id', 'folder', 'filename'] as const

export function nodeMapTsv(entries: ReadonlyArray<{ slot: Slot; node: Node }>): string {
  return toTsv(
    NODE_MAP_HEADER,
    entries.map(({ slot, node }) => [slot.relpath, node.id, node.timestamp]),
  )
}

export function flowMapTsv(entries: ReadonlyArray<{ slot: Slot; flow: Flow }>): string {
  return toTsv(
    FLOW_MAP_HEADER,
    entries.map(({ slot, flow }) => [flow.id, slot.folder, slot.filename]),
  )
}

/** Tag → ids of the nodes carrying it; tags in code-unit order, ids in node order. */
export function tagsYaml(nodes: readonly Node[], updated: string | null): string {
  const byTag = new Map<string, string[]>()
  for (const node of nodes) {
    for (const tag of node.metadata.tags) {
      const ids = byTag.get(tag)
      if (ids) ids.push(node.id)
      else byTag.set(tag, [node.id])
    }
  }
  // A Map keeps this order when written; an object would move number-like tags to the front.
  const tags = new Map([...byTag].sort(([a], [b]) => byCodeUnits(a, b)))
  return toYaml({ ...stamp('updated', updated), tags })
}

/** The seed's search index: per node its time, keywords (Loomverse's tags) and summary. */
export function indexYaml(nodes: readonly Node[], updated: string | null): string {
  const entries = new Map(
    nodes.map((n) => [
      n.id,
      { timestamp: n.timestamp, keywords: n.metadata.tags.join(','), summary: n.metadata.summary.text },
    ]),
  )
  return toYaml({ ...stamp('updated', updated), nodes: entries })
}

/**
 * Seed §5.6. API keys are never written: providers are named by the environment variable
 * that holds their key. Loomverse has no provider settings of its own yet, so the default
 * model is the one the newest node used.
 */
export function configYaml(nodes: readonly Node[], flows: readonly Flow[]): string {
  // Nodes come oldest first.
  const model = [...nodes].reverse().find((n) => n.metadata.model !== '')?.metadata.model
  return toYaml({
    version: '1.0',
    ...stamp('created', oldest(flows.map((f) => f.created))),
    ...stamp('updated', exportedUpdated(nodes, flows)),
    settings: {
      max_files_per_folder: MAX_FILES_PER_FOLDER,
      default_llm_provider: 'openai',
      ...(model !== undefined && { default_model: model }),
      summary_token_limit: 50,
    },
    providers: {
      openai: { api_key_env: 'OPENAI_API_KEY' },
      gemini: { api_key_env: 'GEMINI_API_KEY' },
      ollama: { host: 'http://localhost:11434' },
    },
  })
}

/** When the exported data last changed: the newest flow edit, node or summary build. */
export function exportedUpdated(nodes: readonly Node[], flows: readonly Flow[]): string | null {
  return newest([...flows.map((f) => f.updated), ...nodes.flatMap((n) => [n.timestamp, n.metadata.summary.last_built])])
}

function stamp(key: string, value: string | null): Record<string, string> {
  return value === null ? {} : { [key]: value }
}
