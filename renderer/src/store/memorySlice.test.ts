import i18next from 'i18next'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { MemoryJob, MemoryUnit, MemoryUnitState } from '@shared/contract'
import { fakeClient } from '../../../tests/renderer/support/fakeClient'
import { en } from '../i18n/en'
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

function job(id: number, status: MemoryJob['status']): MemoryJob {
  return {
    id,
    kind: 'reflect',
    status,
    tries: status === 'failed' ? 1 : 0,
    last_error: status === 'failed' ? 'HTTP 400' : null,
    unit_id: 1,
    scope: null,
    run_after: 1000,
    created_at: 1000,
    updated_at: 1000,
  }
}

/**
 * A client holding one persona's units and jobs; answers memory_list_units like the host (one
 * state at a time), and memory_retry_jobs by queueing the failed jobs again.
 */
function memoryClient(units: MemoryUnit[], jobs: MemoryJob[] = []) {
  return fakeClient((method, input) => {
    switch (method) {
      case 'memory_list_units': {
        const found = units
          .filter((u) => !input.state || u.state === input.state)
          .sort((a, b) => b.occurred_at! - a.occurred_at! || b.id - a.id)
        const offset = (input.offset as number) ?? 0
        const limit = (input.limit as number) ?? 100
        return { ok: true, value: { units: found.slice(offset, offset + limit), total: found.length } }
      }
      case 'memory_status': {
        const count = (status: MemoryJob['status']) => jobs.filter((j) => j.status === status).length
        const queued = count('queued')
        const counts = {
          queued,
          due: queued,
          running: count('running'),
          done: count('done'),
          failed: count('failed'),
        }
        return { ok: true, value: { units: units.length, jobs: counts, vectors: { model: null, waiting: 0 } } }
      }
      case 'memory_list_jobs':
        return {
          ok: true,
          value: { jobs: jobs.filter((j) => !input.status || j.status === input.status).map((j) => ({ ...j })) },
        }
      case 'memory_retry_jobs': {
        const ids = input.job_ids as number[] | undefined
        const again = jobs.filter((j) => j.status === 'failed' && (!ids || ids.includes(j.id)))
        for (const j of again) j.status = 'queued'
        return { ok: true, value: { retried: again.length } }
      }
      case 'memory_list_entities':
        return { ok: true, value: { entities: [], edges: [] } }
      case 'memory_packs_for_node':
        return { ok: true, value: [] }
      default:
        return undefined
    }
  })
}

describe('memory slice', () => {
  beforeAll(async () => {
    // The retry toast is written by the store, in the UI language.
    await i18next.init({ resources: { en: { translation: en } }, lng: 'en' })
  })

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

  it('opens the jobs view on the failed jobs when any failed, else on all', async () => {
    const jobs = [job(1, 'done'), job(2, 'failed'), job(3, 'queued')]
    const { client } = memoryClient([], jobs)
    const store = createAppStore(client)
    store.setState({ memoryPersonaId: 'p1' })
    await store.getState().showMemoryJobs()
    expect(store.getState().memoryView).toBe('jobs')
    expect(store.getState().memoryJobFilter).toBe('failed')
    expect(store.getState().memoryJobs?.map((j) => j.id)).toEqual([2])

    jobs[1]!.status = 'done'
    store.getState().setMemoryView('units')
    store.getState().setMemoryView('jobs')
    await vi.waitFor(() => expect(store.getState().memoryJobFilter).toBe('all'))
    expect(store.getState().memoryJobs?.map((j) => j.id)).toEqual([1, 2, 3])

    await store.getState().loadMemoryJobs('queued')
    expect(store.getState().memoryJobs?.map((j) => j.id)).toEqual([3])
  })

  it('retries failed jobs, says how many, and reloads the list and status', async () => {
    const jobs = [job(1, 'failed'), job(2, 'failed'), job(3, 'failed')]
    const { client, calls } = memoryClient([], jobs)
    const store = createAppStore(client)
    store.setState({ memoryPersonaId: 'p1' })
    await store.getState().showMemoryJobs('failed')

    await store.getState().retryMemoryJobs([2])
    expect(calls.find((c) => c.method === 'memory_retry_jobs')?.input).toEqual({ persona_id: 'p1', job_ids: [2] })
    expect(store.getState().toasts.at(-1)?.message).toBe('1 job queued again')
    expect(store.getState().memoryJobs?.map((j) => j.id)).toEqual([1, 3])
    expect(store.getState().memoryStatus?.jobs.failed).toBe(2)

    // Retrying every failed job leaves the failed list empty: the view shows all jobs instead.
    await store.getState().retryMemoryJobs()
    expect(calls.filter((c) => c.method === 'memory_retry_jobs').at(-1)?.input).toEqual({ persona_id: 'p1' })
    expect(store.getState().toasts.at(-1)?.message).toBe('2 jobs queued again')
    expect(store.getState().memoryJobFilter).toBe('all')
    expect(store.getState().memoryJobs?.map((j) => j.status)).toEqual(['queued', 'queued', 'queued'])
    expect(store.getState().memoryStatus?.jobs.failed).toBe(0)
  })

  it("reloads the jobs when the shown persona's memory changes and the jobs view is open", async () => {
    vi.useFakeTimers()
    try {
      const jobs = [job(1, 'running')]
      const { client, emit } = memoryClient([], jobs)
      const store = createAppStore(client)
      store.setState({ memoryPersonaId: 'p1', panel: 'memory' })
      await store.getState().showMemoryJobs('all')
      jobs[0]!.status = 'done'
      emit('memory_changed', { persona_id: 'p2', unit_ids: [] })
      await vi.advanceTimersByTimeAsync(500)
      expect(store.getState().memoryJobs?.[0]?.status).toBe('running')
      emit('memory_changed', { persona_id: 'p1', unit_ids: [] })
      await vi.advanceTimersByTimeAsync(500)
      expect(store.getState().memoryJobs?.[0]?.status).toBe('done')
    } finally {
      vi.useRealTimers()
    }
  })
  it('keeps a persona picked while the first conversation loads, and drops it when another conversation opens', () => {
    const { client } = memoryClient([])
    const store = createAppStore(client)
    store.setState({ panel: 'memory' })
    store.getState().setMemoryPersona('p2')
    // After a reload the last conversation arrives once the user may already have chosen.
    store.setState({ flowId: 'f1' })
    expect(store.getState().memoryPersonaId).toBe('p2')
    store.setState({ flowId: 'f2' })
    expect(store.getState().memoryPersonaId).toBeNull()
  })
})
