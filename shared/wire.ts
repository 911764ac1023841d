import { z } from 'zod'
import type { ErrorValue } from './errors'

/**
 * The WebSocket message shapes, after the VizPrompt seed §12.4:
 * request `{id?, action, data}` → response `{id?, status, data, error}`; events `{event, data}`.
 * `id` is ours: it pairs a response with its request when several are in flight. A request
 * without one (the seed's own form) is answered without one, in the order it was sent.
 */
export const WireRequest = z.object({
  id: z.union([z.string().max(64), z.number().int()]).optional(),
  action: z.string().min(1).max(128),
  data: z.unknown().optional(),
})
export type WireRequest = z.infer<typeof WireRequest>

type WireId = { id?: string | number | null }
export type WireResponse =
  /** `node_id`: beside the node `create_node` made, where seed §12.2's clients read it. */
  | (WireId & { status: 'success'; data: unknown; node_id?: string })
  | (WireId & { status: 'error'; data: null; error: ErrorValue })

export interface WireEvent {
  event: string
  data: unknown
}

/**
 * Transport-level actions answered by the host itself, not by the router: `{events: [names]}`,
 * or the seed's `{event, flow_id?}`, which hears one event for one flow (by id or name) only.
 */
export const SubscribeData = z.union([
  z.object({ events: z.array(z.string()).min(1) }).strict(),
  z.object({ event: z.string().min(1), flow_id: z.string().min(1).max(200).optional() }).strict(),
])
