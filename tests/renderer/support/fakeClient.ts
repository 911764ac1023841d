import type { Result } from '@shared/errors'
import type { Client } from '../../../renderer/src/bridge'

export interface FakeClient {
  client: Client
  /** Every call the store made, in order. */
  calls: Array<{ method: string; input: Record<string, unknown> }>
  /** Pushes an event as the main process would. */
  emit(event: string, data: unknown): void
}

/**
 * A bridge for store tests: `answer` plays the main process for the methods a test cares about
 * (anything else is not_found); calls are recorded and events can be pushed.
 */
export function fakeClient(
  answer: (
    method: string,
    input: Record<string, unknown>,
  ) => Result<unknown> | undefined | Promise<Result<unknown> | undefined>,
): FakeClient {
  const calls: FakeClient['calls'] = []
  const listeners = new Map<string, Set<(d: unknown) => void>>()
  const client: Client = {
    transport: 'websocket',
    invoke: (async (method: string, input: Record<string, unknown>): Promise<Result<unknown>> => {
      calls.push({ method, input })
      return (await answer(method, input)) ?? { ok: false, error: { code: 'not_found', message: method } }
    }) as Client['invoke'],
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(listener as (d: unknown) => void)
      return () => set.delete(listener as (d: unknown) => void)
    },
    state: () => 'connected',
    onState: () => () => {},
    close: () => {},
  }
  return { client, calls, emit: (event, data) => listeners.get(event)?.forEach((l) => l(data)) }
}

/** A localStorage kept in memory, for store tests run in Node (the store keeps the last flow, panel sizes…). */
export function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const kept = new Map<string, string>()
  return {
    getItem: (k: string) => kept.get(k) ?? null,
    setItem: (k: string, v: string) => void kept.set(k, v),
    removeItem: (k: string) => void kept.delete(k),
  }
}
