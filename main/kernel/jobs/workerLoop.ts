import type { JobRow } from './jobQueue'
import type { JobOutcome, JobRunner } from './jobRunner'
import type { FromWorker } from './protocol'

export interface WorkerLoopOptions {
  /** The queues this worker serves, by database path; read again on every round (a wake may add one). */
  runners: () => Iterable<[string, JobRunner<unknown>]>
  /** Aborted when the main thread asks the worker to stop. */
  signal: AbortSignal
  /** How long to sleep when nothing is due and nobody wakes the worker. */
  pollMs: number
  /** A job was claimed and is about to run (the main thread tracks what this worker holds). */
  claimed(db: string, job: JobRow): void
  finished(db: string, outcome: JobOutcome): void
  /** A database has nothing due right now. */
  idle?(db: string): void
  log(message: string): void
  /** Installs the function a wake message calls to end the sleep early. */
  onWake(wake: (() => void) | null): void
}

/**
 * The loop of every job worker thread: round-robin over its queues, one job at a time each;
 * leases of a worker that died are taken back as they run out; when nothing is due, sleep until
 * the next job is due, a poll, or a wake from the main thread. Returns once stopped.
 */
export async function runWorkerLoop(o: WorkerLoopOptions): Promise<void> {
  while (!o.signal.aborted) {
    let worked = false
    let nextDue = Infinity
    for (const [db, runner] of o.runners()) {
      try {
        if (runner.queue.reclaimExpired() > 0) worked = true
        const outcome = await runner.runOne(o.signal, (job) => o.claimed(db, job))
        if (outcome) {
          worked = true
          o.finished(db, outcome)
        } else {
          o.idle?.(db)
          const due = runner.queue.nextDue()
          if (due !== null) nextDue = Math.min(nextDue, due * 1000)
        }
      } catch (e) {
        if (o.signal.aborted) break
        o.log(`a job failed in ${db}: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
    if (worked || o.signal.aborted) continue
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(Math.max(0, nextDue - Date.now()), o.pollMs))
      o.onWake(() => {
        clearTimeout(timer)
        resolve()
      })
    })
    o.onWake(null)
  }
}

/** What a worker tells the main thread about a claim. */
export function claimedMessage(dbPath: string, job: JobRow): Extract<FromWorker, { type: 'job_claimed' }> {
  return { type: 'job_claimed', dbPath, job_id: job.id }
}

/** What a worker tells the main thread about a finished try. */
export function finishedMessage(dbPath: string, r: JobOutcome): Extract<FromWorker, { type: 'job_finished' }> {
  return {
    type: 'job_finished',
    dbPath,
    job_id: r.job.id,
    kind: r.job.kind,
    batch: r.job.batch,
    outcome: r.outcome,
    ...(r.error !== undefined ? { error: r.error } : {}),
  }
}
