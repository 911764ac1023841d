import { describe, expect, it } from 'vitest'
import type { EventData, EventName, Flow, Node } from '@shared/contract'
import { killableWorker } from '../../../tests/support/killableWorker'
import { useLlmCore, type LlmHarness } from '../../../tests/support/llmCore'

// The job worker dies under the app (an EMFILE under 1,100 half-open connections, issue 37):
// the supervisor restarts it, the job it held goes back at once, and the status bar is told.
// Back-off delays are shortened; every wait is on an event, with a deadline.

const start = useLlmCore()
/** Retries at once: a job the dead worker held is due again as soon as it is put back. */
const quickQueue = { backoffSeconds: 0 }
const quickRestarts = { firstDelayMs: 5, maxDelayMs: 20 }

/** The first event matching `test`, or a failure naming what never came. */
function within<E extends EventName>(h: LlmHarness, event: E, test: (d: EventData<E>) => boolean, what: string) {
  return Promise.race([
    h.next(event, test),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within 20 s`)), 20_000).unref()),
  ])
}

/** A conversation of `count` nodes, each with a stale summary. */
async function conversation(h: LlmHarness, count: number): Promise<{ flow: Flow; made: Node[] }> {
  const flow = await h.call<Flow>('create_flow', { name: 'restart' })
  const made: Node[] = []
  for (let i = 0; i < count; i++)
    made.push(await h.call<Node>('create_node', { flow_id: flow.id, prompt: `q${i}`, response: `a${i}` }))
  return { flow, made }
}

describe('the job worker under its supervisor', () => {
  it('comes back after dying mid-job: the job it held and the queued ones finish, and the status says why', async () => {
    // The first thread dies right after writing the first summary, before marking its job done.
    const worker = killableWorker('job', { deaths: 1, dieOn: 'nodes_changed', how: 'exit' })
    const h = await start({ jobWorker: worker.entry, jobQueue: quickQueue, workerRestarts: quickRestarts })
    const { flow, made } = await conversation(h, 3)
    h.fake.script({ provider: 'openai', reply: '要約: 生き延びた\nタグ: a, b, c' })

    const restarted = within(h, 'worker_status', (s) => s.worker === 'jobs' && s.state === 'restarted', 'restart')
    const finished = within(h, 'job_progress', (p) => p.state === 'done', 'finished batch')
    await h.call('build_summaries', { flow_id: flow.id })
    expect(await restarted).toMatchObject({ reason: expect.stringMatching(/exited with code 1/), restarts: 1 })
    expect(await finished).toMatchObject({ done: 3, total: 3 })

    expect(worker.deathsLeft()).toBe(0)
    for (const n of made)
      expect((await h.call<Node>('get_node', { id: n.id })).metadata.summary.text).toBe('生き延びた')
    // The held job was put back by the one retry rule (a crash is a failed try), not after its 300 s lease.
    const tries = h.core.db.prepare('SELECT tries FROM jobs ORDER BY id').pluck().all()
    expect(tries).toEqual([2, 1, 1])
  })

  it('pauses after deaths in a row with the last error, and starts again when asked', async () => {
    // Every thread dies as it starts, three times; then the worker runs as usual.
    const worker = killableWorker('job', {
      deaths: 3,
      dieOn: 'started',
      how: 'throw',
      message: 'EMFILE: too many open files',
    })
    const h = await start({
      jobWorker: worker.entry,
      jobQueue: quickQueue,
      workerRestarts: { ...quickRestarts, maxDeaths: 3, windowMs: 60_000 },
    })
    const paused = await within(h, 'worker_status', (s) => s.state === 'paused', 'pause')
    expect(paused).toEqual({ worker: 'jobs', state: 'paused', reason: 'EMFILE: too many open files', restarts: 2 })
    expect(await h.call('jobs_worker_status', {})).toMatchObject({ workers: expect.arrayContaining([paused]) })

    // Paused, it claims nothing: the batch waits.
    const { flow } = await conversation(h, 2)
    h.fake.script({ provider: 'openai', reply: '要約: また動いた\nタグ: a, b, c' })
    await h.call('build_summaries', { flow_id: flow.id })
    expect(h.core.db.prepare('SELECT count(*) FROM jobs WHERE status = 0').pluck().get()).toBe(2)
    await expect(h.core.jobs.whenIdle()).rejects.toThrow('background work is paused: EMFILE: too many open files')

    const finished = within(h, 'job_progress', (p) => p.state === 'done', 'finished batch')
    expect(await h.call('jobs_restart_worker', { worker: 'jobs' })).toMatchObject({
      worker: 'jobs',
      state: 'ok',
      reason: null,
    })
    expect(await finished).toMatchObject({ done: 2, total: 2 })
  })

  it('never restarts a worker stopped or terminated on purpose', async () => {
    const h = await start({
      jobWorker: killableWorker('job', { deaths: 0, dieOn: 'started' }).entry,
      workerRestarts: quickRestarts,
    })
    await h.core.jobs.terminate()
    // No restart waits out its back-off either (an event would only come after it).
    expect(h.core.jobs['worker'].restarting).toBe(false)
    expect(h.core.jobs.workerStatus()).toMatchObject({ state: 'ok', restarts: 0 })
    expect(h.events.filter((e) => e.event === 'worker_status')).toEqual([])
  })
})
