import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { WorkerStatus } from '@shared/contract'
import { EventBus } from '../../kernel/events'
import { JobQueue, JobStatus } from '../../kernel/jobs/jobQueue'
import { killableWorker } from '../../../tests/support/killableWorker'
import { useTempHome } from '../../../tests/support/tempHome'
import { openMemory } from '../store/db'
import { MemoryWorkerHost } from './workerHost'

const home = useTempHome()
const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0)) await close()
})

/** A deadline for a wait on an event, so a worker that never comes back fails the test by name. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within 20 s`)), 20_000).unref()),
  ])
}

describe('the memory worker under its supervisor', () => {
  it('comes back after dying holding a job, is woken again for the memory it served, and finishes its jobs', async () => {
    const file = join(home(), 'memory_p1.db')
    const store = openMemory(file)
    const queue = new JobQueue(store.db, { backoffSeconds: 0 })
    const ids = [1, 2, 3].map(() => queue.enqueue('reindex', {}))
    const bus = new EventBus()
    const restarted = new Promise<WorkerStatus>((resolve) =>
      bus.listen((event, data) => event === 'worker_status' && resolve(data as WorkerStatus)),
    )
    // The first thread dies as soon as it has claimed a job, before running it.
    const worker = killableWorker('memory', { deaths: 1, dieOn: 'job_claimed', how: 'exit' })
    const host = new MemoryWorkerHost({
      entry: worker.entry,
      providers: () => [],
      busy: () => (store.db.prepare('SELECT count(*) FROM jobs WHERE status IN (0, 1)').pluck().get() as number) > 0,
      init: { queue: { backoffSeconds: 0 }, pollMs: 50 },
      queue: (dbPath) => (dbPath === file ? queue : null),
      bus,
      restarts: { firstDelayMs: 5 },
      log: () => {},
    })
    closing.push(async () => {
      await host.stop()
      store.db.close()
    })

    host.wake(file)
    expect(await within(restarted, 'restart')).toMatchObject({ worker: 'memory', state: 'restarted', restarts: 1 })
    await within(host.whenIdle(file), 'idle memory')
    expect(worker.deathsLeft()).toBe(0)
    expect(ids.map((id) => queue.get(id)?.status)).toEqual(ids.map(() => JobStatus.done))
    // The claimed job was put back as a failed try when its worker died, then done by the next one.
    expect(ids.map((id) => queue.get(id)?.tries).sort()).toEqual([1, 1, 2])
  })
})
