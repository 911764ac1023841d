import type { Db } from '../db/open'
import type { LlmRegistry } from '../llm/providers'

export interface JobContext {
  db: Db
  llm: LlmRegistry
  env: NodeJS.ProcessEnv
  signal: AbortSignal
  /** Tells the main thread which graph nodes changed, for live updates. */
  nodesChanged(ids: string[]): void
}

/** A job handler. It must be idempotent: a job can run again after a crash or a retry. */
export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<void>

/** A failure that retrying cannot fix (bad payload, missing row): dead-letter at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError'
}
