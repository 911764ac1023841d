import type { WebSocket } from 'ws'
import type { EventBus } from '../kernel/events'

/** Where other programs hear what their notifications and meta requests became (seed 004). */
export const EVENTS_STREAM_PATH = '/api/events/stream'

/** One message on the stream, in the seed's shape. */
export interface StreamMessage {
  unit_id: number
  type: 'notification' | 'meta_request' | 'memory_changed'
  persona_id: string
  data: Record<string, unknown>
}

/**
 * Publishes, on a WebSocket a program opened with its API token: replies to notifications and
 * meta requests, and each memory unit that changed. The stream only speaks; what a program
 * sends on it is ignored.
 */
export function streamEvents(ws: WebSocket, bus: EventBus, log: (message: string) => void): void {
  const send = (m: StreamMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m))
  }
  const stop = bus.listen((event, data) => {
    if (event === 'external_reply') {
      const d = data as {
        unit_id: number
        persona_id: string
        type: StreamMessage['type']
        data: Record<string, unknown>
      }
      send({ unit_id: d.unit_id, type: d.type, persona_id: d.persona_id, data: d.data })
    } else if (event === 'memory_changed') {
      const d = data as { persona_id: string; unit_ids: number[] }
      for (const id of d.unit_ids) send({ unit_id: id, type: 'memory_changed', persona_id: d.persona_id, data: {} })
    }
  })
  ws.on('close', stop)
  ws.on('error', (e: Error & { code?: string }) => log(`[host] closed an event stream: ${e.code ?? e.message}`))
}
