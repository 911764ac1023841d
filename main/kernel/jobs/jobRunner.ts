import { PermanentJobError, isRetryable, type JobHandler } from './handlers'
import type { JobQueue, JobRow } from './jobQueue'

export interface JobOutcome {
  job: JobRow
  /** `paused`: the job may not run now (its domain held it back); it waits, its try not counted. */
  outcome: 'done' | 'retry' | 'dead' | 'paused'
  error?: string
}

/**
 * A domain's own way with some failures before the retry rule sees them: e.g. memory paused
 * for a persona puts the job back untouched. Returns null to leave the failure to the rule.
 */
export type FailureIntercept = (job: JobRow, error: unknown) => 'paused' | null

/** Finished jobs older than a week go now and then, so counting a queue stays cheap over months. */
const DONE_KEPT_SECONDS = 7 * 86_400

/**
 * One queue's jobs, the same way for every domain: claim (a lease in one IMMEDIATE
 * transaction), run the kind's handler, then complete — or fail by the one retry rule
 * (`isRetryable`: back off and try again, or dead-letter at once).
 */
export class JobRunner<Ctx> {
  constructor(
    readonly queue: JobQueue,
    private readonly handlers: Record<string, JobHandler<Ctx>>,
    /** What a job gets besides its payload (its database, the models, the abort signal). */
    private readonly context: (job: JobRow, signal: AbortSignal) => Ctx,
    private readonly intercept?: FailureIntercept,
  ) {}

  /**
   * Runs the next due job; null when none is due. Throws only when stopping (the lease brings the job back).
   * `claimed` hears of the job between its claim and its run.
   */
  async runOne(signal: AbortSignal, claimed?: (job: JobRow) => void): Promise<JobOutcome | null> {
    const job = this.queue.claim()
    if (!job) return null
    claimed?.(job)
    const handler = this.handlers[job.kind]
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind "${job.kind}"`)
      await handler(JSON.parse(job.payload_json), this.context(job, signal))
      this.queue.complete(job.id)
      if (job.id % 500 === 0) this.queue.pruneDone(DONE_KEPT_SECONDS)
      return { job, outcome: 'done' }
    } catch (e) {
      if (signal.aborted) throw e
      const message = e instanceof Error ? e.message : String(e)
      const held = this.intercept?.(job, e)
      if (held) return { job, outcome: held, error: message }
      return { job, outcome: this.queue.fail(job.id, message, { retryable: isRetryable(e) }), error: message }
    }
  }

  /** Runs due jobs until none is left (tests, one-shot commands). */
  async runDue(signal: AbortSignal = new AbortController().signal): Promise<JobOutcome[]> {
    const done: JobOutcome[] = []
    for (let r = await this.runOne(signal); r; r = await this.runOne(signal)) done.push(r)
    return done
  }
}
