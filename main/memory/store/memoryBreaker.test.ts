import { describe, expect, it } from 'vitest'
import { useMemoryRunner } from '../../../tests/support/memoryRunner'
import { everyMemoryJobReply } from '../../../tests/support/memoryJobReply'
import { UnitKind, UnitState } from './enums'
import { BREAKER_FAILURES, memoryControl, postponeJob, setDailyBudget, setPaused, usageOn } from './memoryBreaker'
import type { MemoryJobRunner } from '../jobs/runner'
import type { MemoryStore } from './store'

// The persona's memory spends only what it may: the breaker, the pause switch and the budget,
// against the fake server over real HTTP and a real SQLite file.

const setup = useMemoryRunner({ queue: { maxTries: 5 } })

const MODEL = 'openai:gpt-4o-mini'
const now = () => Math.floor(Date.now() / 1000)
function extractions(store: MemoryStore, runner: MemoryJobRunner, n: number): number[] {
  return Array.from({ length: n }, (_, i) => {
    const id = store.createUnit({ kind: UnitKind.EPISODE, source: 'chat', payload: { user_text: `exchange ${i}` } })
    return runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
  })
}
const status = (store: MemoryStore, ids: number[]) =>
  ids.map((id) => store.db.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(id))

describe('memory breaker', () => {
  it('pauses memory jobs after repeated failures of the model, and resumes them when retried', async () => {
    const { store, fake, runner } = await setup()
    fake.script({ provider: 'openai', status: 400 })
    const jobs = extractions(store, runner, 5)
    const outcomes = (await runner.runDue()).map((o) => o.outcome)
    // Three refused calls trip the breaker; the other two jobs wait without calling anything.
    expect(outcomes).toEqual(['dead', 'dead', 'dead', 'paused', 'paused'])
    expect(fake.requests).toHaveLength(BREAKER_FAILURES)
    expect(memoryControl(store.db)).toMatchObject({
      paused_by: 'breaker',
      paused_model: MODEL,
      paused_reason: expect.stringMatching(/refused the request/) as string,
      failures: 3,
    })
    expect(status(store, jobs)).toEqual([3, 3, 3, 0, 0])
    expect(store.db.prepare('SELECT tries FROM jobs WHERE id = ?').pluck().get(jobs[3])).toBe(0)
    expect(await runner.runDue()).toEqual([]) // waiting, not due

    // The provider is fixed; "retry" resumes: the waiting jobs run, and the failed ones once retried.
    fake.reset()
    fake.script({ provider: 'openai', reply: everyMemoryJobReply() })
    expect(setPaused(store.db, false, now())).toBe(2)
    for (const id of jobs.slice(0, 3)) runner.queue.retry(id)
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['done', 'done', 'done', 'done', 'done'])
    expect(memoryControl(store.db)).toMatchObject({ paused_by: null, failures: 0 })
    expect(fake.requests).toHaveLength(5)
  })

  it('a job the pause stopped just as the user resumed is due at once, not left for the next pause to end', async () => {
    const { store, runner } = await setup()
    setPaused(store.db, true, now())
    const [job] = extractions(store, runner, 1)
    const row = () =>
      store.db.prepare('SELECT status, run_after, last_error FROM jobs WHERE id = ?').get(job) as {
        status: number
        run_after: number
        last_error: string | null
      }
    // The worker stopped the job while memory was paused; the resume came before it wrote so.
    setPaused(store.db, false, now())
    postponeJob(store.db, job!, now())
    expect(row()).toMatchObject({ status: 0, last_error: null })
    expect(row().run_after).toBeLessThanOrEqual(now())
    // Still paused when it writes: postponed until a resume brings it back.
    setPaused(store.db, true, now())
    postponeJob(store.db, job!, now())
    expect(row().last_error).toBe('memory paused: memory paused by the user')
    expect(row().run_after).toBeGreaterThan(now() + 86_400)
    expect(setPaused(store.db, false, now())).toBe(1)
  })

  it('counts failures in a row only: a success in between starts again, and a rate limit does not count', async () => {
    const { store, fake, runner } = await setup()
    fake.script({ provider: 'openai', status: 400, times: 2 })
    fake.script({ provider: 'openai', reply: everyMemoryJobReply(), times: 1 })
    fake.script({ provider: 'openai', status: 400, times: 2 })
    fake.script({ provider: 'openai', status: 429, retryAfterMs: 0 })
    extractions(store, runner, 6)
    for (let i = 0; i < 6; i++) await runner.runOne(new AbortController().signal)
    expect(memoryControl(store.db)).toMatchObject({ paused_by: null, failures: 2 })
  })

  it('the pause switch stops jobs from calling the model until resumed', async () => {
    const { store, fake, runner } = await setup()
    fake.script({ provider: 'openai', reply: everyMemoryJobReply() })
    setPaused(store.db, true, now())
    const jobs = extractions(store, runner, 2)
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['paused', 'paused'])
    expect(fake.requests).toHaveLength(0)
    expect(store.db.prepare('SELECT last_error FROM jobs WHERE id = ?').pluck().get(jobs[0])).toBe(
      'memory paused: memory paused by the user',
    )
    setPaused(store.db, false, now())
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['done', 'done'])
    expect(fake.requests).toHaveLength(2)
    expect(store.db.prepare(`SELECT count(*) FROM units WHERE state = ${UnitState.VALIDATED}`).pluck().get()).toBe(2)
  })

  it('counts calls and tokens per day, and stops jobs once the daily token budget is spent', async () => {
    const { store, fake, runner } = await setup()
    fake.script({ provider: 'openai', reply: everyMemoryJobReply() })
    extractions(store, runner, 1)
    await runner.runDue()
    const one = usageOn(store.db, now())
    expect(one.calls).toBe(1)
    expect(one.tokens).toBeGreaterThan(50)
    // A budget a little over one call: the second call goes through, the third waits for tomorrow.
    setDailyBudget(store.db, Math.ceil(one.tokens * 1.5), now())
    const jobs = extractions(store, runner, 2)
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['done', 'paused'])
    expect(fake.requests).toHaveLength(2)
    const waiting = store.db.prepare('SELECT run_after FROM jobs WHERE id = ?').pluck().get(jobs[1]) as number
    const midnight = new Date()
    midnight.setHours(24, 0, 0, 0)
    expect(waiting).toBe(midnight.getTime() / 1000)
    // Raising the budget lets it run today.
    setDailyBudget(store.db, null, now())
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['done'])
    expect(usageOn(store.db, now()).calls).toBe(3)
  })
})
