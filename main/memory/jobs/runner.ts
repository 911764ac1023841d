import { JobQueue, type QueueOptions } from '../../kernel/jobs/jobQueue'
import { JobRunner } from '../../kernel/jobs/jobRunner'
import type { LlmRegistry } from '../../llm/providers'
import type { MemoryJobContext, MemoryJobHandler } from './jobContext'
import { MemoryPaused, postponeJob } from '../store/memoryBreaker'
import { memoryJobHandlers } from './memoryJobs'
import type { MemoryStore } from '../store/store'

export type { JobOutcome } from '../../kernel/jobs/jobRunner'

/** One persona database's jobs, on the kernel's job runner: each gets the store and the models. */
export class MemoryJobRunner extends JobRunner<MemoryJobContext> {
  constructor(
    readonly store: MemoryStore,
    llm: LlmRegistry,
    options: QueueOptions = {},
    handlers: Record<string, MemoryJobHandler> = memoryJobHandlers,
  ) {
    const queue = new JobQueue(store.db, options)
    super(
      queue,
      handlers,
      (_, signal) => ({
        store,
        llm,
        signal,
        now: () => Math.floor(Date.now() / 1000),
        enqueue: (kind, payload, o) => queue.enqueue(kind, payload, o),
      }),
      // Memory paused for this persona (the breaker, the user's switch, the day's budget): the job waits untouched.
      (job, e) => {
        if (!(e instanceof MemoryPaused)) return null
        postponeJob(store.db, job.id, Math.floor(Date.now() / 1000))
        return 'paused'
      },
    )
  }

  pending(): number {
    return this.store.db.prepare('SELECT count(*) FROM jobs WHERE status IN (0, 1)').pluck().get() as number
  }
}
