import { mkdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { AppError } from '@shared/errors'
import { activePath } from '../graph/dag'
import type { GraphService } from '../graph/graphService'
import { writeFileAtomic } from '../kernel/atomicWrite'

/** Where an export goes and from which node by default (a story's own folder and where its play stands). */
export type ExportTarget = (flowId: string) => { dir: string; nodeId: string | null } | null

/**
 * A conversation's active path as Markdown a person reads (seed F-010): the title, then each
 * turn — the prompt as a quote, the reply as written — oldest first.
 */
export function pathMarkdown(graph: GraphService, flowId: string, nodeId: string): { markdown: string; turns: number } {
  const flow = graph.getFlow(flowId)
  if (!graph.isMember(flowId, nodeId)) throw new AppError('not_found', `node ${nodeId} is not in flow "${flow.name}"`)
  const path = activePath(flow.connections, nodeId, (id) => graph.getNode(id).timestamp)
  const turns = path.map((id) => {
    const n = graph.getNode(id)
    const prompt = n.prompt.trim() ? `> ${n.prompt.trim().replace(/\n/g, '\n> ')}` : ''
    return [prompt, n.response.trim()].filter(Boolean).join('\n\n')
  })
  const markdown = `# ${flow.name}\n\n${turns.filter(Boolean).join('\n\n---\n\n')}\n`
  return { markdown, turns: path.length }
}

export function exportMarkdown(
  deps: { graph: GraphService; home: string; exports: string; target: ExportTarget },
  input: { flow_id: string; node_id?: string },
): { file: string; markdown: string; turns: number } {
  const flow = deps.graph.getFlow(input.flow_id)
  const target = deps.target(flow.id)
  const nodeId = input.node_id ?? target?.nodeId ?? newestNode(deps.graph, flow.id)
  if (!nodeId)
    throw new AppError('conflict', `"${flow.name}" has no nodes to export`, {
      key: 'nothing_to_export',
      params: { name: flow.name },
    })
  const { markdown, turns } = pathMarkdown(deps.graph, flow.id, nodeId)
  const dir = target?.dir ?? deps.exports
  mkdirSync(dir, { recursive: true })
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
  const path = join(dir, `${fileSafe(flow.name)}-${stamp}.md`)
  writeFileAtomic(path, markdown)
  return { file: relative(deps.home, path).split(sep).join('/'), markdown, turns }
}

/** The conversation's newest node, where an export without a node starts; null when it has none. */
export function newestNode(graph: GraphService, flowId: string): string | null {
  const nodes = graph.loadFlow(flowId).nodes
  return (
    nodes.reduce<(typeof nodes)[number] | null>((a, n) => (!a || n.timestamp > a.timestamp ? n : a), null)?.id ?? null
  )
}

/** Characters no file system takes in a name, control characters included. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\\/:*?"<>|\0-\x1f]+/g

function fileSafe(name: string): string {
  return (
    name
      .replace(UNSAFE, '_')
      .replace(/^[. ]+|[. ]+$/g, '')
      .slice(0, 80) || 'conversation'
  )
}
