import WebSocket from 'ws'
import type { ErrorValue } from '@shared/errors'

export type WireReply = { ok: true; value: unknown } | { ok: false; error: ErrorValue }

/**
 * A script's WebSocket connection to the host: many requests in flight, each matched to its
 * reply by id, every wait bounded. When the connection drops, every request still waiting
 * fails with `ConnectionLost` — which is how a crash of the host shows to the caller.
 */
export class WireClient {
  private nextId = 1
  private readonly pending = new Map<number, { resolve: (r: WireReply) => void; reject: (e: Error) => void }>()
  private readonly listeners = new Set<(event: string, data: unknown) => void>()
  private closedWith: Error | null = null
  private rawWaiter: ((reply: WireReply) => void) | null = null

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as {
        id?: number
        event?: string
        status?: string
        data?: unknown
        error?: ErrorValue
      }
      if (msg.event) {
        for (const l of [...this.listeners]) l(msg.event, msg.data)
        return
      }
      const reply: WireReply =
        msg.status === 'success' ? { ok: true, value: msg.data } : { ok: false, error: msg.error! }
      const waiter = this.pending.get(msg.id as number)
      if (!waiter) return this.rawWaiter?.(reply)
      this.pending.delete(msg.id as number)
      waiter.resolve(reply)
    })
    ws.on('close', () => this.fail(new ConnectionLost('the host closed the connection')))
    ws.on('error', (e) => this.fail(new ConnectionLost(`connection error: ${e.message}`)))
  }

  static open(url: string, timeoutMs = 15_000): Promise<WireClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 })
      const timer = setTimeout(() => {
        ws.terminate()
        reject(new Error(`WebSocket did not open in ${timeoutMs} ms`))
      }, timeoutMs)
      ws.once('open', () => {
        clearTimeout(timer)
        resolve(new WireClient(ws))
      })
      ws.once('error', (e) => {
        clearTimeout(timer)
        reject(e)
      })
    })
  }

  /** Sends one request; resolves with its reply, rejects if none comes within the timeout or the connection drops. */
  call(action: string, data: unknown, timeoutMs = 30_000): Promise<WireReply> {
    if (this.closedWith) return Promise.reject(this.closedWith)
    const id = this.nextId++
    return new Promise<WireReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new Error(`no reply to ${action} within ${timeoutMs} ms`))
      }, timeoutMs)
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer)
          resolve(r)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      })
      this.ws.send(JSON.stringify({ id, action, data }))
    })
  }

  /**
   * Sends a text frame as it is (a broken envelope, say) and resolves with the next reply no
   * `call` is waiting for. Use it only while no other request is in flight.
   */
  raw(text: string, timeoutMs = 30_000): Promise<WireReply> {
    if (this.closedWith) return Promise.reject(this.closedWith)
    return new Promise<WireReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.rawWaiter = null
        reject(new Error(`no reply to a raw message within ${timeoutMs} ms`))
      }, timeoutMs)
      this.rawWaiter = (reply) => {
        clearTimeout(timer)
        this.rawWaiter = null
        resolve(reply)
      }
      this.ws.send(text)
    })
  }

  /** Like `call`, but a refusal is an exception naming the method and the error. */
  async value<T>(action: string, data: unknown, timeoutMs?: number): Promise<T> {
    const r = await this.call(action, data, timeoutMs)
    if (!r.ok) throw new Error(`${action}: ${r.error.code}: ${r.error.message}`)
    return r.value as T
  }

  async subscribe(events: string[]): Promise<void> {
    await this.value('subscribe', { events })
  }

  /** Calls `listener` with every event heard (subscribe to them first) until the function it answers is called. */
  onEvent(listener: (event: string, data: unknown) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Resolves with the first event of this name whose data passes `test`; subscribe to it first. */
  next<T>(event: string, test: (data: T) => boolean, timeoutMs: number, what = event): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener)
        reject(new Error(`waited ${timeoutMs} ms for ${what}`))
      }, timeoutMs)
      const listener = (name: string, data: unknown) => {
        if (name !== event || !test(data as T)) return
        clearTimeout(timer)
        this.listeners.delete(listener)
        resolve(data as T)
      }
      this.listeners.add(listener)
    })
  }

  close(): void {
    this.ws.close()
  }

  private fail(error: Error): void {
    this.closedWith ??= error
    for (const [id, waiter] of this.pending) {
      this.pending.delete(id)
      waiter.reject(error)
    }
  }
}

export class ConnectionLost extends Error {
  override name = 'ConnectionLost'
}
