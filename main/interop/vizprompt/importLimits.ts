import { z } from 'zod'
import {
  FlowDescription,
  FlowName,
  ModelName,
  NODE_TAGS_MAX,
  Node,
  NodeTag,
  NodeText,
  SUMMARY_TAGS_MAX,
  SystemPrompt,
  TokenBudget,
} from '@shared/contract'

// What an import lets in is what the methods let in: the same maxima as create_node,
// update_flow and the rest, from the contract, so a file cannot carry what a window could
// not type. The sizes of its files, checked on disk before a byte is read, are among every
// importer's limits in the kernel.
export {
  MAX_CONFIG_FILE_BYTES,
  MAX_LISTING_FILE_BYTES,
  MAX_NESTING,
  MAX_NODE_FILE_BYTES,
} from '../../kernel/importLimits'

/** A node as stored: the contract's Node, held to the limits of the methods that make one. */
export const ImportedNode = Node.extend({
  prompt: NodeText,
  response: NodeText,
  error: NodeText.nullable(),
  metadata: Node.shape.metadata.extend({
    model: ModelName,
    summary: Node.shape.metadata.shape.summary.extend({ text: NodeText }),
    // The user's tags, then the summariser's.
    tags: z.array(NodeTag).max(NODE_TAGS_MAX + SUMMARY_TAGS_MAX),
  }),
})

/** A flow's own fields, as create_flow and update_flow take them. */
export const ImportedFlowFields = {
  name: FlowName,
  description: FlowDescription,
  system_prompt: SystemPrompt,
  token_budget: TokenBudget,
}
