import { describe, expect, it } from 'vitest'
import type { MemoryUnit, MemoryUnitState } from '@shared/contract'
import type { Result } from '@shared/errors'
import type { Client } from '../bridge'
import { createAppStore } from './index'
import { MEMORY_PAGE } from './memorySlice'

function unit(id: number, state: MemoryUnitState, at: number): MemoryUnit {
  return {
    id,
    kind: 'episode',
    state,
    sensitivity: 'normal',
    pin: false,
    global: false,
    source: 'chat',
    confidence: 0.5,
    salience: 0.5,
    topic_tags: [],
    emotion_label: null,
    emotion_intensity: null,
    occurred_at: at,
    created_at: at,
    updated_at: at,
    version: 1,
    origin_node_id: null,
    origin_flow_id: null,
    external_ref: null,
    text: `unit ${id}`,
  }
}

/** A client holding one persona's units; answers memory_list_units like the host (one state at a time). */
function memoryClient(units: MemoryUnit[]) {
  const calls: Array<{ method: string; input: Record<string, unknown> }> = []
  const listeners = new Map<string, Set<(d: unknown) => void>>()
  const client: Client = {
    transport: 'websocket',
    invoke: (async (method: string, input: Record<string, unknown>): Promise<Result<unknown>> => {
      calls.push({ method, input })
      switch (method) {
        case 'memory_list_units': {
          const found = units
            .filter((u) => !input.state || u.state === input.state)
            .sort((a, b) => b.occurred_at! - a.occurred_at! || b.id - a.id)
          const offset = (input.offset as number) ?? 0
          const limit = (input.limit as number) ?? 100
          return { ok: true, value: { units: found.slice(offset, offset + limit), total: found.length } }
        }
        case 'memory_status':
          return {
            ok: true,
            value: { units: units.length, jobs: { queued: 0, due: 0, running: 0, done: 0, failed: 0 } },
          }
        case 'memory_list_entities':
          return { ok: true, value: { entities: [], edges: [] } }
        case 'memory_packs_for_node':
          return { ok: true, value: [] }
        default:
          return { ok: false, error: { code: 'not_found', message: method } }
      }
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
  return { client, calls }
}

describe('memory slice', () => {
  it('pages through every unit but the archived, in the host order', async () => {
    const states: MemoryUnitState[] = ['raw', 'validated', 'archived', 'consolidated']
    const units = Array.from({ length: 30 }, (_, i) => unit(i + 1, states[i % 4]!, 1000 + i))
    const { client } = memoryClient(units)
    const store = createAppStore(client)
    store.setState({ memoryPersonaId: 'p1' })
    await store.getState().refreshMemory()
    const live = units.filter((u) => u.state !== 'archived').sort((a, b) => b.id - a.id)
    expect(store.getState().memoryUnits?.total).toBe(live.length)
    expect(store.getState().memoryUnits?.units.map((u) => u.id)).toEqual(live.slice(0, MEMORY_PAGE).map((u) => u.id))
    await store.getState().setMemoryFilter({ offset: MEMORY_PAGE })
    expect(store.getState().memoryUnits?.units.map((u) => u.id)).toEqual(live.slice(MEMORY_PAGE).map((u) => u.id))
    await store.getState().setMemoryFilter({ state: 'archived' })
    expect(store.getState().memoryFilter.offset).toBe(0)
    expect(store.getState().memoryUnits?.units.every((u) => u.state === 'archived')).toBe(true)
  })

  it('"Why remembered?" opens the panel on the node and loads its packs', async () => {
    const { client, calls } = memoryClient([])
    const store = createAppStore(client)
    store.setState({ memoryPersonaId: 'p1' })
    store.getState().showWhyRemembered('n1')
    // The conversation's persona is shown again; here there is none, so nothing loads.
    expect(store.getState()).toMatchObject({ panel: 'memory', memoryView: 'why', memoryWhyNodeId: 'n1' })
    expect(store.getState().memoryPersonaId).toBeNull()
    store.setState({ memoryPersonaId: 'p1' })
    await new Promise((r) => setTimeout(r, 0))
    await store.getState().refreshMemory()
    expect(calls.some((c) => c.method === 'memory_packs_for_node' && c.input.node_id === 'n1')).toBe(true)
    expect(store.getState().memoryPacks).toEqual({ nodeId: 'n1', packs: [] })
  })
})
