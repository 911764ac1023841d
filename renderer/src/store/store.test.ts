import { describe, expect, it } from 'vitest'
import type { EventData, EventName } from '@shared/contract'
import type { Result } from '@shared/errors'
import type { Client, ConnectionState } from '../bridge'
import { createAppStore } from './index'

/** An in-memory client: answers get/update_settings and lets the test push events and link changes. */
function fakeClient() {
  const unset = { model: null, temperature: null, max_tokens: null }
  let settings: EventData<'settings_updated'> = {
    language: 'auto',
    theme: 'system',
    context_budget: 8000,
    chat: unset,
    summary: unset,
    user: { name: '', description: '' },
  }
  const listeners = new Map<string, Set<(d: unknown) => void>>()
  const stateListeners = new Set<(s: ConnectionState) => void>()
  let calls = 0
  const client: Client = {
    transport: 'websocket',
    invoke: (async (method: string, input: unknown): Promise<Result<unknown>> => {
      calls++
      if (method === 'update_settings') {
        if ((input as { theme?: string }).theme === 'neon')
          return { ok: false, error: { code: 'bad_input', message: 'theme: bad' } }
        settings = { ...settings, ...(input as object) }
      }
      if (method === 'app_info') return { ok: false, error: { code: 'unavailable', message: 'down' } }
      if (method === 'jobs_worker_status') return { ok: true, value: { workers: [] } }
      return { ok: true, value: settings }
    }) as Client['invoke'],
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(listener as (d: unknown) => void)
      return () => set.delete(listener as (d: unknown) => void)
    },
    state: () => 'connecting',
    onState: (l) => {
      stateListeners.add(l)
      return () => stateListeners.delete(l)
    },
    close: () => {},
  }
  return {
    client,
    calls: () => calls,
    push<E extends EventName>(event: E, data: EventData<E>) {
      for (const l of listeners.get(event) ?? []) l(data)
    },
    link(state: ConnectionState) {
      for (const l of stateListeners) l(state)
    },
  }
}

const settingsOf = (): EventData<'settings_updated'> => {
  const unset = { model: null, temperature: null, max_tokens: null }
  return {
    language: 'auto',
    theme: 'system',
    context_budget: 8000,
    chat: unset,
    summary: unset,
    user: { name: '', description: '' },
  }
}

describe('app store', () => {
  it('takes settings pushed by another window', async () => {
    const fake = fakeClient()
    const store = createAppStore(fake.client)
    fake.push('settings_updated', { ...settingsOf(), language: 'ja', theme: 'dark' })
    expect(store.getState().settings).toMatchObject({ language: 'ja', theme: 'dark', context_budget: 8000 })
  })

  it('keeps a failed save visible until the next success', async () => {
    const fake = fakeClient()
    const store = createAppStore(fake.client)
    await store.getState().updateSettings({ theme: 'neon' as never })
    expect(store.getState().settingsError).toBe('theme: bad')
    await store.getState().updateSettings({ theme: 'dark' })
    expect(store.getState()).toMatchObject({ settingsError: null, settings: { theme: 'dark' } })
  })

  it('shows running and failed jobs, and drops finished ones', () => {
    const store = createAppStore(fakeClient().client)
    const job = { job_id: 'j1', label: 'Summaries', state: 'running', done: 1, total: 4 } as const
    store.getState().applyJobProgress(job)
    store.getState().applyJobProgress({ ...job, job_id: 'j2', state: 'failed', error: 'rate limited' })
    expect(Object.keys(store.getState().jobs)).toEqual(['j1', 'j2'])
    store.getState().applyJobProgress({ ...job, state: 'done', done: 4 })
    expect(Object.keys(store.getState().jobs)).toEqual(['j2'])
  })

  it('tracks the link and reloads what the host owns after reconnecting', async () => {
    const fake = fakeClient()
    const store = createAppStore(fake.client)
    expect(store.getState().connection).toBe('connecting')
    fake.link('reconnecting')
    expect(store.getState().connection).toBe('reconnecting')
    const before = fake.calls()
    fake.link('connected')
    expect(store.getState().connection).toBe('connected')
    expect(fake.calls()).toBe(before + 7) // app_info, get_settings, list_personas, get_world, trash_list, jobs_worker_status, backup_status
  })
})
