import { z } from 'zod'
import type { EventSpecs, MethodSpecs } from './spec'

/** The background workers of the main process: `jobs` (summaries, world, story) and `memory`. */
export const WorkerName = z.enum(['jobs', 'memory'])
export type WorkerName = z.infer<typeof WorkerName>

/**
 * How a background worker fares, for the status bar. `restarted`: it died and a new one took
 * over (`reason` says why); it reads `ok` again once a quiet spell passes without a death.
 * `paused`: it died too often in a short while and is not restarted until the user asks.
 */
export const WorkerStatus = z.object({
  worker: WorkerName,
  state: z.enum(['ok', 'restarted', 'paused']),
  reason: z.string().nullable(),
  /** Restarts since the app started. */
  restarts: z.number().int().nonnegative(),
})
export type WorkerStatus = z.infer<typeof WorkerStatus>

export const jobsMethods = {
  /** Every worker's status: the status bar reads it when it connects, then follows `worker_status`. */
  jobs_worker_status: { input: z.object({}).strict(), output: z.object({ workers: z.array(WorkerStatus) }) },
  /** Starts a paused worker again (or one waiting out its back-off) now, with a fresh count of deaths. */
  jobs_restart_worker: { input: z.object({ worker: WorkerName }).strict(), output: WorkerStatus },
} as const satisfies MethodSpecs

export const jobsEvents = {
  worker_status: WorkerStatus,
} as const satisfies EventSpecs
