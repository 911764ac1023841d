import { describe, expect, it } from 'vitest'
import type { WorkerStatus } from '@shared/contract'
import { SupervisedWorker, type RestartPolicy } from './workerSupervisor'

/** A worker that exits with code 3 as soon as it starts; `live` one that waits to be told to stop. */
const dying = { path: new URL('data:text/javascript,process.exit(3)') }
const live = {
  path: new URL(
    `data:text/javascript,${encodeURIComponent(
      "import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => parentPort.close())",
    )}`,
  ),
}

function supervised(entry: () => { path: URL }, policy: Partial<RestartPolicy>) {
  const statuses: WorkerStatus[] = []
  const logs: string[] = []
  const deaths: string[] = []
  let launches = 0
  let paused: () => void = () => {}
  const pausedNow = new Promise<void>((resolve) => (paused = resolve))
  let died: () => void = () => {}
  const firstDeath = new Promise<void>((resolve) => (died = resolve))
  const worker = new SupervisedWorker<{ type: 'stop' }, unknown>({
    name: 'jobs',
    launch: () => (launches++, { entry: entry(), data: {} }),
    onMessage: () => {},
    onDeath: (reason) => (deaths.push(reason), died()),
    onStatus: (s) => (statuses.push(s), s.state === 'paused' && paused()),
    policy,
    log: (m) => logs.push(m),
  })
  return { worker, statuses, logs, deaths, launches: () => launches, pausedNow, firstDeath }
}

describe('a supervised worker', () => {
  it('restarts a dead worker after a doubling back-off, capped, then pauses with the reason', async () => {
    const s = supervised(() => dying, { firstDelayMs: 1, maxDelayMs: 3, maxDeaths: 4, windowMs: 60_000 })
    expect(s.worker.start()).toBe(true)
    await s.pausedNow
    expect(s.logs.filter((l) => l.includes('restarting')).map((l) => /in (\d+) ms/.exec(l)![1])).toEqual([
      '1',
      '2',
      '3',
    ])
    expect(s.deaths).toEqual(Array(4).fill('the worker exited with code 3'))
    expect(s.statuses.map((x) => x.state)).toEqual(['restarted', 'restarted', 'restarted', 'paused'])
    expect(s.worker.status).toEqual({
      worker: 'jobs',
      state: 'paused',
      reason: 'the worker exited with code 3',
      restarts: 3,
    })
    // Paused, nothing starts it but the user's retry.
    expect(s.worker.start()).toBe(false)
    expect(s.launches()).toBe(4)
  })

  it('starts a paused worker again when asked, with its deaths forgotten', async () => {
    let entry = dying
    const s = supervised(() => entry, { firstDelayMs: 1, maxDeaths: 2, windowMs: 60_000 })
    s.worker.start()
    await s.pausedNow
    entry = live
    expect(s.worker.restart()).toMatchObject({ state: 'ok', reason: null })
    expect(s.worker.running).toBe(true)
    await s.worker.stop({ type: 'stop' })
    expect(s.worker.stopped).toBe(true)
  })

  it('never restarts after a stop asked for, even one that comes while it waits out its back-off', async () => {
    const s = supervised(() => dying, { firstDelayMs: 60_000 })
    s.worker.start()
    await s.firstDeath
    await s.worker.stop({ type: 'stop' })
    // The back-off's timer is gone, not merely a minute away.
    expect(s.worker.restarting).toBe(false)
    expect(s.worker.start()).toBe(false)
    expect(s.worker.restart().state).toBe('ok')
    expect(s.launches()).toBe(1)
  })
})
