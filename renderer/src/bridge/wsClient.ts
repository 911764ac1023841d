import type { EventName, Method } from '@shared/contract'
import type { Result } from '@shared/errors'
import type { WireEvent, WireResponse } from '@shared/wire'
import type { Client, ConnectionState } from './client'

export interface WsClientOptions {
  /** `ws://127.0.0.1:<port>/ws?token=…`; a function when it can change between attempts (a renewed token). */
  url: string | (() => string)
  /** The browser's WebSocket; tests under Node pass the `ws` package's. */
  WebSocketImpl?: typeof WebSocket
  /** How long a request may wait for its answer, including time spent reconnecting. */
  requestTimeoutMs?: number
  /**
   * Asked when the link is lost or a reconnect fails: false when the host is up but refuses
   * this tab's token. Absent: the token is never in doubt.
   */
  tokenRefused?: () => Promise<boolean>
}

/** Methods that wait on a provider or a big file: a picture takes a minute, not a few seconds. */
const slowMethods: Record<string, number> = { generate_image: 200_000, memory_import: 600_000 }

type Pending = { resolve: (r: Result<unknown>) => void; timer: ReturnType<typeof setTimeout> }

const RETRY_MIN_MS = 250
const RETRY_MAX_MS = 5000

/**
 * The bridge over the loopback WebSocket host. Requests made while the link is down wait
 * for it (up to their timeout); subscriptions are renewed after every reconnect, so a host
 * restart is a blip in the status bar, not a broken page.
 */
export function wsClient(options: WsClientOptions): Client {
  const Impl = options.WebSocketImpl ?? WebSocket
  const timeoutMs = options.requestTimeoutMs ?? 30_000
  const pending = new Map<string, Pending>()
  const outbox: string[] = []
  const listeners = new Map<EventName, Set<(data: unknown) => void>>()
  const stateListeners = new Set<(s: ConnectionState) => void>()
  let state: ConnectionState = 'connecting'
  let socket: WebSocket | null = null
  let seq = 0
  let retryMs = RETRY_MIN_MS
  let closed = false

  function setState(next: ConnectionState) {
    if (next === state) return
    state = next
    for (const l of stateListeners) l(state)
  }

  function connect() {
    const ws = new Impl(typeof options.url === 'string' ? options.url : options.url())
    socket = ws
    ws.onopen = () => {
      retryMs = RETRY_MIN_MS
      setState('connected')
      const names = [...listeners.keys()]
      if (names.length > 0) sendRaw(frame('subscribe', { events: names }))
      for (const text of outbox.splice(0)) ws.send(text)
    }
    ws.onmessage = (message: MessageEvent) => receive(String(message.data))
    ws.onclose = () => {
      socket = null
      if (closed) return
      // Still trying: a host that comes back with this token is joined again by itself.
      if (state !== 'expired') setState('reconnecting')
      setTimeout(connect, retryMs)
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS)
      void options.tokenRefused?.().then((refused) => {
        if (socket?.readyState !== Impl.OPEN && !closed) setState(refused ? 'expired' : 'reconnecting')
      })
    }
  }

  function receive(text: string) {
    const msg = JSON.parse(text) as WireResponse | WireEvent
    if ('event' in msg) {
      for (const l of listeners.get(msg.event as EventName) ?? []) l(msg.data)
      return
    }
    const waiting = msg.id === null || msg.id === undefined ? undefined : pending.get(String(msg.id))
    if (!waiting) return
    pending.delete(String(msg.id))
    clearTimeout(waiting.timer)
    waiting.resolve(msg.status === 'success' ? { ok: true, value: msg.data } : { ok: false, error: msg.error })
  }

  function frame(action: string, data: unknown): string {
    return JSON.stringify({ id: `c${++seq}`, action, data })
  }

  function sendRaw(text: string) {
    if (socket && socket.readyState === Impl.OPEN) socket.send(text)
    else outbox.push(text)
  }

  function request(action: string, data: unknown): Promise<Result<unknown>> {
    const id = `c${++seq}`
    const text = JSON.stringify({ id, action, data })
    const waitMs = Math.max(timeoutMs, slowMethods[action] ?? 0)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id)
        const i = outbox.indexOf(text)
        if (i >= 0) outbox.splice(i, 1)
        resolve({
          ok: false,
          error: { code: 'unavailable', message: `${action}: no answer from Loomverse within ${waitMs / 1000} s` },
        })
      }, waitMs)
      pending.set(id, { resolve, timer })
      sendRaw(text)
    })
  }

  connect()

  return {
    transport: 'websocket',
    invoke: (method: Method, input: unknown) => request(method, input) as never,
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) {
        set = new Set()
        listeners.set(event, set)
        sendRaw(frame('subscribe', { events: [event] }))
      }
      const l = listener as (data: unknown) => void
      set.add(l)
      return () => {
        set.delete(l)
        if (set.size === 0) {
          listeners.delete(event)
          sendRaw(frame('unsubscribe', { events: [event] }))
        }
      }
    },
    state: () => state,
    onState(listener) {
      stateListeners.add(listener)
      return () => stateListeners.delete(listener)
    },
    close() {
      closed = true
      socket?.close()
    },
  }
}
