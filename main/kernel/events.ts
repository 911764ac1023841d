import { events, type EventData, type EventName } from '@shared/contract'

export type AnyEventListener = (event: EventName, data: unknown) => void

/**
 * The main process's one event bus. Services emit typed events; each transport listens
 * to all of them and forwards what its clients subscribed to.
 */
export class EventBus {
  private readonly listeners = new Set<AnyEventListener>()

  /**
   * @param check hold every event to its schema, like the router's output check: on in tests
   * and development, where a wrong shape is a bug to catch; off in use, where a flow of
   * thousands of nodes would be re-validated on every edit while the types already hold.
   */
  constructor(private readonly check = process.env.NODE_ENV === 'test' || process.env.LOOMVERSE_CHECK_OUTPUT === '1') {}

  emit<E extends EventName>(event: E, data: EventData<E>): void {
    const sent = this.check ? events[event].parse(data) : data
    for (const listener of this.listeners) listener(event, sent)
  }

  listen(listener: AnyEventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
