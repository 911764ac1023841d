import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appSchema } from '../../appSchema'
import { openDatabase } from '../../db/open'
import { useTempHome } from '../../../tests/support/tempHome'
import { JobQueue, JobStatus } from './jobQueue'

const home = useTempHome()

/** Two connections to one real WAL file, as the main thread and the worker have. */
function twoConnections(now: { t: number }) {
  const file = join(home(), 'loomverse.db')
  const a = openDatabase(file, { domains: appSchema, label: 'loomverse.db' }).db
  const b = openDatabase(file, { domains: appSchema, label: 'loomverse.db' }).db
  const options = { maxTries: 3, backoffSeconds: 10, leaseSeconds: 60, now: () => now.t }
  return { a: new JobQueue(a, options), b: new JobQueue(b, options), close: () => (a.close(), b.close()) }
}

describe('job queue', () => {
  it('hands each due job to exactly one claimer, in order', () => {
    const now = { t: 1000 }
    const { a, b, close } = twoConnections(now)
    const first = a.enqueue('k', { n: 1 })
    const second = a.enqueue('k', { n: 2 })
    a.enqueue('k', { n: 3 }, { delaySeconds: 30 })
    expect(b.claim()?.id).toBe(first)
    expect(a.claim()?.id).toBe(second)
    expect(b.claim()).toBeNull() // the third is not due yet
    now.t += 30
    expect(a.claim()?.payload_json).toBe('{"n":3}')
    close()
  })

  it('retries a failure after an exponential backoff, then dead-letters it; a person can retry it', () => {
    const now = { t: 1000 }
    const { a, close } = twoConnections(now)
    const id = a.enqueue('k', {})
    a.claim()
    expect(a.fail(id, 'rate limited')).toBe('retry')
    expect(a.claim()).toBeNull()
    now.t += 10
    a.claim()
    expect(a.fail(id, 'rate limited')).toBe('retry')
    now.t += 19
    expect(a.claim()).toBeNull() // second wait is 20 s
    now.t += 1
    a.claim()
    expect(a.fail(id, 'still failing')).toBe('dead')
    expect(a.get(id)).toMatchObject({ status: JobStatus.failed, tries: 3, last_error: 'still failing' })
    now.t += 3600
    expect(a.claim()).toBeNull()
    expect(a.retry(id)).toBe(true)
    expect(a.claim()?.id).toBe(id)
    close()
  })

  it('dead-letters at once a failure that retrying cannot fix', () => {
    const now = { t: 1000 }
    const { a, close } = twoConnections(now)
    const id = a.enqueue('k', {})
    a.claim()
    expect(a.fail(id, 'invalid API key', { retryable: false })).toBe('dead')
    close()
  })

  it('takes back a job whose worker died holding it, once the lease runs out', () => {
    const now = { t: 1000 }
    const { a, b, close } = twoConnections(now)
    const id = a.enqueue('k', {})
    expect(a.claim()?.id).toBe(id) // …and the worker dies here
    expect(b.reclaimExpired()).toBe(0) // lease still held
    now.t += 61
    expect(b.reclaimExpired()).toBe(1)
    expect(b.claim()).toMatchObject({ id, tries: 2 })
    close()
  })

  it('fails at once the jobs a dead worker held, by the retry rule, leaving those it finished', () => {
    const now = { t: 1000 }
    const { a, b, close } = twoConnections(now)
    const held = a.enqueue('k', {})
    const finished = a.enqueue('k', {})
    expect([b.claim()?.id, b.claim()?.id]).toEqual([held, finished])
    b.complete(finished)
    // The worker dies holding `held`: no wait for the 60 s lease; a crash is a failed try.
    const died = 'the job worker died: EMFILE'
    expect(a.failAbandoned([held, finished], died)).toMatchObject([{ job: { id: held }, outcome: 'retry' }])
    expect(a.get(held)).toMatchObject({ status: JobStatus.queued, last_error: died })
    expect(a.get(finished)?.status).toBe(JobStatus.done)
    // A job that kills every worker that runs it is dead-lettered after its last try, not run forever.
    now.t += 10
    expect(b.claim()).toMatchObject({ id: held, tries: 2 })
    expect(a.failAbandoned([held], died)[0]?.outcome).toBe('retry')
    now.t += 20
    expect(b.claim()).toMatchObject({ id: held, tries: 3 })
    expect(a.failAbandoned([held], died)[0]?.outcome).toBe('dead')
    expect(a.get(held)?.status).toBe(JobStatus.failed)
    close()
  })

  it('keeps one live job per dedupe key, and allows a new one once it finished', () => {
    const now = { t: 1000 }
    const { a, close } = twoConnections(now)
    const first = a.enqueue('summarize', { node: 'x' }, { dedupeKey: 'summarize:x', batch: 'b1' })
    expect(a.enqueue('summarize', { node: 'x' }, { dedupeKey: 'summarize:x', batch: 'b2' })).toBe(first)
    a.claim()
    a.complete(first)
    expect(a.enqueue('summarize', { node: 'x' }, { dedupeKey: 'summarize:x' })).not.toBe(first)
    expect(a.batchProgress('b1')).toEqual({ total: 1, done: 1, failed: 0, running: 0 })
    close()
  })
})

describe('pruneDone', () => {
  it('forgets finished jobs past the age, keeping recent, queued and failed ones', () => {
    let now = 1_000_000
    const { db } = openDatabase(join(home(), 'loomverse.db'), { domains: appSchema, label: 'loomverse.db' })
    const queue = new JobQueue(db, { now: () => now, maxTries: 1 })
    const old = queue.enqueue('a', {})
    const failed = queue.enqueue('b', {})
    queue.claim()
    queue.complete(old)
    queue.claim()
    queue.fail(failed, 'boom')
    now += 8 * 86_400
    const recent = queue.enqueue('c', {})
    queue.claim()
    queue.complete(recent)
    const waiting = queue.enqueue('d', {})
    expect(queue.pruneDone(7 * 86_400)).toBe(1)
    expect(queue.get(old)).toBeNull()
    expect([failed, recent, waiting].map((id) => queue.get(id)?.status)).toEqual([3, 2, 0])
    db.close()
  })
})
