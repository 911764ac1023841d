import { events, type EventData, type EventName } from '@shared/contract'

export type AnyEventListener = (event: EventName, data: unknown) => void

/**
 * The main process's one event bus. Services emit typed events; each transport listens
 * to all of them and forwards what its clients subscribed to.
 */
export class EventBus {
  private readonly listeners = new Set<AnyEventListener>()

  emit<E extends EventName>(event: E, data: EventData<E>): void {
    // Events cross a process boundary: hold them to their schema like method outputs.
    const parsed = events[event].parse(data)
    for (const listener of this.listeners) listener(event, parsed)
  }

  listen(listener: AnyEventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
