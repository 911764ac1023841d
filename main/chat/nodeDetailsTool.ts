import type { GraphService } from '../graph/graphService'
import type { ToolSpec } from '../llm/types'

/** Seed §7.3: the model may ask for "[node id] details"; with tool support it calls this instead. */
export const nodeDetailsTool: ToolSpec = {
  name: 'get_node_details',
  description:
    'Returns the full prompt and reply of an earlier conversation node. Use it when a summary in the context is not enough; pass the node id shown in square brackets.',
  parameters: {
    type: 'object',
    properties: { node_id: { type: 'string', description: 'The id shown in [brackets] in the context.' } },
    required: ['node_id'],
    additionalProperties: false,
  },
}

/** Answers a `get_node_details` call, for nodes of the flow being chatted in only. */
export function nodeDetails(graph: GraphService, flowId: string, argumentsJson: string): string {
  let nodeId: unknown
  try {
    nodeId = (JSON.parse(argumentsJson) as { node_id?: unknown }).node_id
  } catch {
    return 'error: arguments must be JSON like {"node_id": "…"}'
  }
  if (typeof nodeId !== 'string') return 'error: node_id is required'
  const id = nodeId.replace(/^\[|\]$/g, '').trim()
  if (!graph.isMember(flowId, id)) return `error: no node ${id} in this conversation`
  const node = graph.getNode(id)
  return `[${id}] ${node.timestamp}\nPrompt:\n${node.prompt}\n\nReply:\n${node.response}`
}
