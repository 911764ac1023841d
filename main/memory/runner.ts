import { PermanentJobError } from '../jobs/handlers'
import { JobQueue, type JobRow, type QueueOptions } from '../jobs/jobQueue'
import { LlmError } from '../llm/llmError'
import type { LlmRegistry } from '../llm/providers'
import type { MemoryJobHandler } from './jobContext'
import { MemoryPaused, postponeJob } from './memoryBreaker'
import { memoryJobHandlers } from './memoryJobs'
import type { MemoryStore } from './store'

export interface JobOutcome {
  job: JobRow
  /** `paused`: the persona's memory may not call its model now; the job waits, untouched. */
  outcome: 'done' | 'retry' | 'dead' | 'paused'
  error?: string
}

const DONE_KEPT_SECONDS = 7 * 86_400

/** One persona database's jobs: claims (BEGIN IMMEDIATE + lease), runs, completes or backs off. */
export class MemoryJobRunner {
  readonly queue: JobQueue

  constructor(
    readonly store: MemoryStore,
    private readonly llm: LlmRegistry,
    options: QueueOptions = {},
    private readonly handlers: Record<string, MemoryJobHandler> = memoryJobHandlers,
  ) {
    this.queue = new JobQueue(store.db, options)
  }

  /** Runs the next due job; null when none is due. */
  async runOne(signal: AbortSignal): Promise<JobOutcome | null> {
    const job = this.queue.claim()
    if (!job) return null
    const handler = this.handlers[job.kind]
    try {
      if (!handler) throw new PermanentJobError(`no handler for memory job kind "${job.kind}"`)
      await handler(JSON.parse(job.payload_json), {
        store: this.store,
        llm: this.llm,
        signal,
        now: () => Math.floor(Date.now() / 1000),
        enqueue: (kind, payload, o) => this.queue.enqueue(kind, payload, o),
      })
      this.queue.complete(job.id)
      // Now and then, finished jobs of more than a week ago go (the counts stay cheap).
      if (job.id % 500 === 0) this.queue.pruneDone(DONE_KEPT_SECONDS)
      return { job, outcome: 'done' }
    } catch (e) {
      if (signal.aborted) throw e // stopping: the lease brings the job back next start
      if (e instanceof MemoryPaused) {
        postponeJob(this.store.db, job.id, e, Math.floor(Date.now() / 1000))
        return { job, outcome: 'paused', error: e.message }
      }
      const message = e instanceof Error ? e.message : String(e)
      const retryable = !(e instanceof PermanentJobError) && !(e instanceof LlmError && !e.retryable)
      return { job, outcome: this.queue.fail(job.id, message, { retryable }), error: message }
    }
  }

  /** Runs due jobs until none is left (tests, one-shot commands). */
  async runDue(signal: AbortSignal = new AbortController().signal): Promise<JobOutcome[]> {
    const done: JobOutcome[] = []
    for (let r = await this.runOne(signal); r; r = await this.runOne(signal)) done.push(r)
    return done
  }

  pending(): number {
    return this.store.db.prepare('SELECT count(*) FROM jobs WHERE status IN (0, 1)').pluck().get() as number
  }
}
