import { z } from 'zod'
import type { ErrorValue } from './errors'

/**
 * The WebSocket message shapes, after the VizPrompt seed §12.4:
 * request `{id, action, data}` → response `{id, status, data, error}`; events `{event, data}`.
 * `id` is ours: it pairs a response with its request when several are in flight.
 */
export const WireRequest = z.object({
  id: z.union([z.string().max(64), z.number().int()]),
  action: z.string().min(1).max(128),
  data: z.unknown().optional(),
})
export type WireRequest = z.infer<typeof WireRequest>

export type WireResponse =
  | { id: string | number | null; status: 'success'; data: unknown }
  | { id: string | number | null; status: 'error'; data: null; error: ErrorValue }

export interface WireEvent {
  event: string
  data: unknown
}

/** Transport-level actions answered by the host itself, not by the router. */
export const SubscribeData = z.object({ events: z.array(z.string()).min(1) }).strict()
