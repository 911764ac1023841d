import { describe, expect, it } from 'vitest'
import { killWorkerUnderLoad, workerKillSize } from './workerKill'

// The bounded run of `worker_kill` (npm run test:reliability runs it at full size).
describe('a job worker killed under load', () => {
  it('leaves no job stuck: every kill is restarted, a pause retried, every job finished', async () => {
    const size = workerKillSize('bounded')
    const r = await killWorkerUnderLoad(size)
    expect(r).toMatchObject({ jobs_total: size.jobs, jobs_stuck: 0, kills: size.kills, details: [] })
    expect(r.jobs_done + r.jobs_failed).toBe(size.jobs)
    // Six deaths in a row: five pause it (the shipped policy), the retry brings it back for the sixth.
    expect(r).toMatchObject({ pauses: 1, restarts: 5 })
  }, 120_000)
})
