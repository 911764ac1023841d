import { z } from 'zod'
import { ImageInput } from './chat'

// Bodies of the local HTTP API's own endpoints (seed 004). Endpoints that map onto a contract
// method (memory admin) take that method's input instead.

export const ApiChatRequest = z
  .object({
    persona_id: z.string().min(1).max(200),
    text: z.string().min(1).max(2_000_000),
    images: z.array(ImageInput).max(8).optional(),
    /** Absent: the persona's "External" flow, made on first use. */
    flow_id: z.string().uuid().optional(),
    /** Absent: after the flow's newest node (a new root in an empty flow). */
    parent_id: z.string().uuid().optional(),
  })
  .strict()
export type ApiChatRequest = z.infer<typeof ApiChatRequest>

/** The flow other programs' chats land in, one per persona. */
export const EXTERNAL_FLOW_NAME = 'External'
