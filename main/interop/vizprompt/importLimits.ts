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
// not type. Sizes are checked on disk before a byte is read.

const MiB = 1024 * 1024

/**
 * A node file: prompt and reply at the contract's maximum are 12 MB of UTF-8 at most
 * (3 bytes a character), with room for the summary, the error and the markup.
 */
export const MAX_NODE_FILE_BYTES = 32 * MiB
/** A flow, a map or an index: a line or a few per node, so room for some 100,000 nodes. */
export const MAX_LISTING_FILE_BYTES = 64 * MiB
export const MAX_CONFIG_FILE_BYTES = 1 * MiB

/**
 * Elements or collections nested deeper than this are refused before a parser that recurses
 * meets them (a stack overflow names no file or line). Loomverse writes four levels at most.
 */
export const MAX_NESTING = 32

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
