import { describe, expect, it } from 'vitest'
import type { WorkerStatus } from '@shared/contract'
import { fakeClient } from '../../../tests/renderer/support/fakeClient'
import { createAppStore } from './index'

const paused: WorkerStatus = { worker: 'jobs', state: 'paused', reason: 'EMFILE: too many open files', restarts: 4 }

describe('background workers in the status bar', () => {
  it('reads a pause that happened before it connected, and follows restarts and recoveries', async () => {
    const fake = fakeClient((method) =>
      method === 'jobs_worker_status'
        ? { ok: true, value: { workers: [paused, { ...paused, worker: 'memory', state: 'ok', reason: null }] } }
        : undefined,
    )
    const store = createAppStore(fake.client)
    await expect.poll(() => store.getState().workers).toEqual({ jobs: paused })
    const restarted: WorkerStatus = { worker: 'memory', state: 'restarted', reason: 'out of memory', restarts: 1 }
    fake.emit('worker_status', restarted)
    expect(store.getState().workers).toEqual({ jobs: paused, memory: restarted })
    fake.emit('worker_status', { ...restarted, state: 'ok', reason: null })
    expect(store.getState().workers).toEqual({ jobs: paused })
  })

  it('retries a paused worker and clears the notice with the answer', async () => {
    const fake = fakeClient((method, input) =>
      method === 'jobs_restart_worker'
        ? { ok: true, value: { worker: input.worker, state: 'ok', reason: null, restarts: 4 } }
        : undefined,
    )
    const store = createAppStore(fake.client)
    store.getState().applyWorkerStatus(paused)
    await store.getState().restartWorker('jobs')
    expect(fake.calls.at(-1)).toEqual({ method: 'jobs_restart_worker', input: { worker: 'jobs' } })
    expect(store.getState().workers).toEqual({})
  })
})
