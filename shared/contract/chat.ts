import { z } from 'zod'
import { errorCodes } from '../errors'
import { ContextPreview, Position } from './graph'
import type { EventSpecs, MethodSpecs } from './spec'

const Id = z.string().uuid()

/** An image sent with a prompt (drag-and-drop or paste). PNG, JPEG, WebP or GIF, at most 20 MB. */
export const ImageInput = z.object({
  mime: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
  data_base64: z.string().max(28_000_000),
  /** The picture item it came from (a dropped picture is one): the node shows it afterwards. */
  item_id: z.string().uuid().optional(),
})

export const chatMethods = {
  /**
   * Creates the child node at once and answers with its id; the reply then streams in
   * through `node_stream` events and lands in the node with its model and stats.
   */
  chat_send: {
    input: z
      .object({
        flow_id: Id,
        parent_id: Id.optional(),
        /** Several parents (a sibling of a merge node, an edited prompt); joins `parent_id` if both are given. */
        parent_ids: z.array(Id).max(64).optional(),
        prompt: z.string().min(1).max(2_000_000),
        images: z.array(ImageInput).max(8).optional(),
        /** Who answers: in a group scene a member (else the scene's turn order chooses); elsewhere any persona. */
        persona_id: z.string().optional(),
        position: Position.optional(),
        /**
         * The node this message is another version of (an edited prompt): an edited first message
         * stays in its conversation's tree, so memory keeps the old version out as a road not taken.
         */
        version_of: Id.optional(),
      })
      .strict(),
    output: z.object({ node_id: Id }),
  },
  /**
   * A group scene goes on without a word from the user: a member answers below `parent_id` (a
   * node with no prompt, as a greeting is). `persona_id` picks the member; else the scene's turn
   * order chooses (a member the last reply names, or the next in turn). Refused outside a group.
   */
  chat_next_speaker: {
    input: z
      .object({ flow_id: Id, parent_id: Id, persona_id: z.string().optional(), position: Position.optional() })
      .strict(),
    output: z.object({ node_id: Id, persona_id: z.string() }),
  },
  /**
   * What the model would receive for a prompt sent as a child of `parent_ids` (none: a new root),
   * the flow's persona's memory included: built exactly as a sent turn is, within the flow's budget.
   */
  build_context: {
    input: z
      .object({
        flow_id: Id,
        parent_ids: z.array(Id).max(64).optional(),
        prompt: z.string().max(2_000_000),
        /** Who would answer (a group scene's next speaker); else the flow's persona. */
        persona_id: z.string().optional(),
      })
      .strict(),
    output: ContextPreview,
  },
  /** Stops a streaming reply; the text that arrived stays in the node, marked incomplete. */
  chat_stop: { input: z.object({ node_id: Id }).strict(), output: z.object({ stopped: z.boolean() }) },
  /**
   * Asks again: a sibling node with the same parents and prompt, streaming its own reply, spoken by
   * the same persona unless `persona_id` names another member of the scene.
   */
  chat_retry: {
    input: z
      .object({ node_id: Id, flow_id: Id.optional(), position: Position.optional(), persona_id: z.string().optional() })
      .strict(),
    output: z.object({ node_id: Id }),
  },
  /** The context a node's reply was generated from, as it was sent; null for nodes not made by chat. */
  get_sent_context: {
    input: z.object({ node_id: Id }).strict(),
    output: z.object({ context: ContextPreview, sent_at: z.string() }).nullable(),
  },
  /** Continues an incomplete reply in the same node. */
  chat_continue: {
    input: z.object({ node_id: Id, flow_id: Id.optional() }).strict(),
    output: z.object({ node_id: Id }),
  },
} as const satisfies MethodSpecs

export const ChatState = z.enum(['waiting', 'retrying', 'streaming', 'done', 'failed', 'stopped'])

export const chatEvents = {
  /** Where a reply stands, with a sentence for the user when it waits or fails ("rate limited, retrying in 4 s"). */
  chat_status: z.object({
    node_id: Id,
    state: ChatState,
    message: z.string().optional(),
    /** On `failed`: the contract's error code for what went wrong (`llm_timeout`…). */
    code: z.enum(errorCodes).optional(),
    /** On `done` for a persona's turn: the memory EPISODE the exchange became. */
    unit_id: z.number().int().optional(),
  }),
} as const satisfies EventSpecs
