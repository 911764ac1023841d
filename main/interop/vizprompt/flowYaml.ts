import { z } from 'zod'
import { BranchName, type Connection, type FlowMember } from '@shared/contract'
import { adjacency, reachable, topologicalOrder } from '../../graph/dag'
import type { ImportedFlow, RootAlternative } from '../../graph/graphService'
import { ImportedFlowFields } from './importLimits'
import { isIsoTimestamp } from './timestamps'
import { VizpromptError } from './vizpromptError'
import { parseYaml, toYaml, type YamlFile, type YamlPath } from './yamlFile'

// One flow as one YAML file (seed §5.2). Connections name nodes by their index in the flow,
// as the seed does. Loomverse's own flow settings and canvas layout ride along as optional
// keys that a seed reader ignores: persona_id, system_prompt, token_budget, memory_private,
// and x, y, pinned, version_of on a node entry.

const Timestamp = z.string().refine(isIsoTimestamp, 'must be an ISO 8601 time with an offset')
const Index = z.number().int().positive()

const FlowFile = z.object({
  id: z.string().uuid(),
  name: ImportedFlowFields.name,
  created: Timestamp,
  updated: Timestamp,
  description: ImportedFlowFields.description.nullish(),
  persona_id: z.string().nullish(),
  system_prompt: ImportedFlowFields.system_prompt.nullish(),
  token_budget: ImportedFlowFields.token_budget.nullish(),
  /** The conversation remembers only itself (ours): kept private through an export and back. */
  memory_private: z.boolean().nullish(),
  nodes: z
    .array(
      z.object({
        index: Index,
        id: z.string().uuid(),
        x: z.number().finite().optional(),
        y: z.number().finite().optional(),
        pinned: z.boolean().optional(),
        /**
         * A first node that is another version of another (Regenerate, an edited first prompt:
         * ours): that node's id. An id, not an index: the original may have left the flow (deleted,
         * or kept in the story a route was forked from) and still names the conversation.
         */
        version_of: z.string().uuid().optional(),
      }),
    )
    .nullish(),
  /** `branch`: the name of the branch the connection starts (ours; the seed has none). */
  connections: z.array(z.object({ from: Index, to: Index, branch: BranchName.optional() })).nullish(),
})
type FlowFile = z.infer<typeof FlowFile>

export function flowYaml(flow: ImportedFlow): string {
  const indexOf = new Map(flow.nodes.map((m) => [m.id, m.index]))
  const versionOf = new Map((flow.alternatives ?? []).map((a) => [a.node_id, a.of_node_id]))
  const connections = flow.connections
    .map((c) => ({ from: indexOf.get(c.from)!, to: indexOf.get(c.to)!, ...(c.label ? { branch: c.label } : {}) }))
    .sort((a, b) => a.from - b.from || a.to - b.to)
  return toYaml({
    id: flow.id,
    name: flow.name,
    created: flow.created,
    updated: flow.updated,
    description: flow.description,
    // Defaults are left out so a seed-shaped file stays seed-shaped.
    ...(flow.persona_id !== null && { persona_id: flow.persona_id }),
    ...(flow.system_prompt !== '' && { system_prompt: flow.system_prompt }),
    ...(flow.token_budget !== null && { token_budget: flow.token_budget }),
    ...(flow.memory_private && { memory_private: true }),
    nodes: [...flow.nodes].sort((a, b) => a.index - b.index).map((m) => memberEntry(m, versionOf.get(m.id))),
    connections,
  })
}

function memberEntry(m: FlowMember, versionOf: string | undefined) {
  return {
    index: m.index,
    id: m.id,
    ...(m.position && { x: m.position.x, y: m.position.y }),
    ...(m.pinned && { pinned: true }),
    ...(versionOf !== undefined && { version_of: versionOf }),
  }
}

/**
 * Parses and checks one flow file: indexes and ids unique, every node among `nodeIds` (the
 * node files of the export), connections between its own nodes, no cycle.
 */
export function parseFlowYaml(text: string, file: string, nodeIds: ReadonlySet<string>): ImportedFlow {
  const yaml = parseYaml(text, file)
  const parsed = FlowFile.safeParse(yaml.value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol')
    throw new VizpromptError(file, yaml.lineOf(path), `${path.join('.') || '(file)'}: ${issue.message}`)
  }
  const f = parsed.data
  const nodes = members(f, nodeIds, yaml, file)
  return {
    id: f.id,
    name: f.name,
    description: f.description ?? '',
    created: f.created,
    updated: f.updated,
    persona_id: f.persona_id ?? null,
    system_prompt: f.system_prompt ?? '',
    token_budget: f.token_budget ?? null,
    // A seed-shaped file has none: an imported conversation starts shared, as a new one does.
    memory_private: f.memory_private ?? false,
    nodes,
    connections: connections(f, nodes, yaml, file),
    // An export older than version_of has none: its first nodes' versions start trees of their own, as they did.
    alternatives: alternatives(f, yaml, file),
  }
}

function members(f: FlowFile, nodeIds: ReadonlySet<string>, yaml: YamlFile, file: string): FlowMember[] {
  const fail = (path: YamlPath, reason: string): never => {
    throw new VizpromptError(file, yaml.lineOf(path), reason)
  }
  const seenIndex = new Set<number>()
  const seenId = new Set<string>()
  const out = (f.nodes ?? []).map((n, i) => {
    if (seenIndex.has(n.index)) fail(['nodes', i, 'index'], `node index ${n.index} is used twice`)
    if (seenId.has(n.id)) fail(['nodes', i, 'id'], `node ${n.id} is listed twice`)
    if (!nodeIds.has(n.id)) fail(['nodes', i, 'id'], `node ${n.id} (index ${n.index}) has no file in nodes/`)
    seenIndex.add(n.index)
    seenId.add(n.id)
    const position = n.x !== undefined && n.y !== undefined ? { x: n.x, y: n.y } : null
    return { index: n.index, id: n.id, position, pinned: n.pinned ?? false }
  })
  return out.sort((a, b) => a.index - b.index)
}

function connections(f: FlowFile, nodes: FlowMember[], yaml: YamlFile, file: string): Connection[] {
  const idOf = new Map(nodes.map((m) => [m.index, m.id]))
  const out = new Map<string, Connection>()
  ;(f.connections ?? []).forEach((c, i) => {
    for (const end of ['from', 'to'] as const) {
      if (!idOf.has(c[end])) {
        throw new VizpromptError(
          file,
          yaml.lineOf(['connections', i, end]),
          `connection ${end} ${c[end]}: no node has index ${c[end]}`,
        )
      }
    }
    if (c.from === c.to)
      throw new VizpromptError(file, yaml.lineOf(['connections', i]), `node ${c.from} is connected to itself`)
    out.set(`${c.from}>${c.to}`, {
      from: idOf.get(c.from)!,
      to: idOf.get(c.to)!,
      ...(c.branch ? { label: c.branch } : {}),
    })
  })
  const edges = [...out.values()]
  const cycle = cycleMembers(nodes, edges)
  if (cycle.length > 0) {
    const shown = cycle.slice(0, 10).join(', ') + (cycle.length > 10 ? ', …' : '')
    throw new VizpromptError(file, yaml.lineOf(['connections']), `the connections form a cycle through nodes ${shown}`)
  }
  return edges
}

/**
 * The node entries' version_of. One naming itself, or versions of versions that come back
 * round, is refused: no conversation it could belong to. One naming a node the flow does not
 * hold is kept, as the app keeps it once the original is deleted: it still names the tree.
 */
function alternatives(f: FlowFile, yaml: YamlFile, file: string): RootAlternative[] {
  const entries = f.nodes ?? []
  const versionOf = new Map(entries.flatMap((n) => (n.version_of ? [[n.id, n.version_of] as const] : [])))
  const indexOf = new Map(entries.map((n) => [n.id, n.index]))
  // Each chain walked once (a hostile file may hold one 40,000 versions long): a walk stops at a
  // node an earlier walk cleared, and meeting its own path again is a round.
  const cleared = new Set<string>()
  for (const n of entries) {
    const path = new Set<string>()
    let at: string | undefined = n.id
    for (; at !== undefined && !cleared.has(at) && !path.has(at); at = versionOf.get(at)) path.add(at)
    if (at !== undefined && path.has(at)) {
      // Met again by its version_of, `at` is an entry of the flow: the line named is its own.
      const walked = [...path]
      const round = walked.slice(walked.indexOf(at))
      const reason =
        round.length === 1
          ? `node ${indexOf.get(at)} is given as another version of itself`
          : `version_of goes round through nodes ${round.map((id) => indexOf.get(id)).join(', ')}`
      const entry = entries.findIndex((e) => e.id === at)
      throw new VizpromptError(file, yaml.lineOf(['nodes', entry, 'version_of']), reason)
    }
    for (const id of path) cleared.add(id)
  }
  return [...versionOf].map(([node_id, of_node_id]) => ({ node_id, of_node_id }))
}

/** Indexes of the nodes that lie on a cycle, in index order; empty for a DAG. */
function cycleMembers(nodes: FlowMember[], edges: Connection[]): number[] {
  const ordered = topologicalOrder(new Set(nodes.map((m) => m.id)), edges, () => '')
  if (ordered.length === nodes.length) return []
  const placed = new Set(ordered)
  const { children } = adjacency(edges)
  return nodes.filter((m) => !placed.has(m.id) && reachable(children, m.id).has(m.id)).map((m) => m.index)
}
