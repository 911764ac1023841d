import { isEventName, type EventName } from '@shared/contract'
import { SubscribeData, WireRequest, type WireResponse } from '@shared/wire'
import type { Router } from '../kernel/router'

/** The flows an event is about, by id and by name; null when it names none (job progress…). */
export type EventFlows = (event: EventName, data: unknown) => { ids: string[]; names: string[] } | null

/**
 * One WebSocket connection's protocol: requests to the router, the host's own subscribe and
 * unsubscribe, and which events this connection hears. Replies to requests without an `id`
 * (the VizPrompt seed's clients) leave in the order the requests came; replies with one leave
 * as soon as they are ready.
 */
export class WireSession {
  /** Event → the flows it is heard for (ids or names); null: every flow. */
  private readonly subscriptions = new Map<EventName, Set<string> | null>()
  private ordered: Promise<void> = Promise.resolve()

  constructor(
    private readonly router: Router,
    private readonly eventFlows: EventFlows,
    private readonly reply: (response: WireResponse) => void,
  ) {}

  receive(text: string | null): void {
    const json = parseJson(text)
    const answer =
      json === unreadable ? Promise.resolve(fail(null, 'bad_request', 'message is not valid JSON')) : this.answer(json)
    if (json !== unreadable && idOf(json) !== null) {
      void answer.then(this.reply)
      return
    }
    this.ordered = this.ordered.then(() => answer).then(this.reply)
  }

  hears(event: EventName, data: unknown): boolean {
    if (!this.subscriptions.has(event)) return false
    const wanted = this.subscriptions.get(event)
    if (!wanted) return true
    const flows = this.eventFlows(event, data)
    return flows !== null && [...flows.ids, ...flows.names].some((f) => wanted.has(f))
  }

  private async answer(json: unknown): Promise<WireResponse> {
    const request = WireRequest.safeParse(json)
    if (!request.success) return fail(idOf(json), 'bad_request', 'expected {id?, action, data}')
    const { id, action, data } = request.data
    if (action === 'subscribe' || action === 'unsubscribe') return this.subscribe(action, id, data)

    const result = await this.router.call(action, data, { transport: 'ws' })
    if (!result.ok) return { ...withId(id), status: 'error', data: null, error: result.error }
    const made = action === 'create_node' ? (result.value as { id: string }).id : undefined
    return { ...withId(id), status: 'success', data: result.value, ...(made ? { node_id: made } : {}) }
  }

  private subscribe(action: 'subscribe' | 'unsubscribe', id: WireRequest['id'], data: unknown): WireResponse {
    const parsed = SubscribeData.safeParse(data)
    if (!parsed.success)
      return fail(id, 'bad_input', `${action}: data must be {events: [names]} or {event: name, flow_id?: id or name}`)
    const names = 'events' in parsed.data ? parsed.data.events : [parsed.data.event]
    const unknown = names.filter((e) => !isEventName(e))
    if (unknown.length > 0) return fail(id, 'bad_input', `${action}: unknown event ${unknown.join(', ')}`)
    const flow = 'flow_id' in parsed.data ? parsed.data.flow_id : undefined
    for (const e of names as EventName[]) {
      if (action === 'subscribe') this.add(e, flow)
      else this.remove(e, flow)
    }
    return { ...withId(id), status: 'success', data: { events: [...this.subscriptions.keys()] } }
  }

  private add(event: EventName, flow: string | undefined): void {
    const current = this.subscriptions.get(event)
    if (flow === undefined || current === null) {
      // Every flow already, or from now on.
      this.subscriptions.set(event, flow === undefined ? null : current!)
      return
    }
    this.subscriptions.set(event, new Set([...(current ?? []), flow]))
  }

  private remove(event: EventName, flow: string | undefined): void {
    const current = this.subscriptions.get(event)
    if (flow === undefined || !current) {
      this.subscriptions.delete(event)
      return
    }
    current.delete(flow)
    if (current.size === 0) this.subscriptions.delete(event)
  }
}

const unreadable = Symbol('unreadable')

/** A binary message or text that is not JSON is unreadable; `undefined` then fails as a request. */
function parseJson(text: string | null): unknown {
  if (text === null) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return unreadable
  }
}

function withId(id: WireRequest['id']): { id?: string | number } {
  return id === undefined ? {} : { id }
}

function fail(
  id: string | number | null | undefined,
  code: 'bad_request' | 'bad_input',
  message: string,
): WireResponse {
  return { ...(id === undefined ? {} : { id }), status: 'error', data: null, error: { code, message } }
}

function idOf(json: unknown): string | number | null {
  if (json && typeof json === 'object' && 'id' in json) {
    const id = (json as { id: unknown }).id
    if (typeof id === 'string' || typeof id === 'number') return id
  }
  return null
}
