import type { JobHandler } from '../jobs/handlers'

/** The world's background jobs (item summaries), run by the job worker. */
export const worldJobHandlers: Record<string, JobHandler> = {}
