/**
 * What every job of the main database gets; a domain adds what its jobs need (the LLM registry,
 * its own store). No database: a job reaches another domain's tables only through its service.
 */
export interface JobContext {
  env: NodeJS.ProcessEnv
  signal: AbortSignal
  /** Tells the main thread which graph nodes changed, for live updates. */
  nodesChanged(ids: string[]): void
}

/** A job handler. It must be idempotent: a job can run again after a crash or a retry. */
export type JobHandler<Ctx = JobContext> = (payload: unknown, ctx: Ctx) => Promise<void>

/** A failure that retrying cannot fix (bad payload, missing row): dead-letter at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError'
}

/**
 * The one retry rule of every job runtime: a permanent job error, or any error that says it
 * is not retryable (an LLM refusal such as a bad key), is dead-lettered at once; anything
 * else (a timeout, a rate limit, a crash) is tried again with backoff.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof PermanentJobError) return false
  const flag = (error as { retryable?: unknown } | null)?.retryable
  return flag !== false
}
