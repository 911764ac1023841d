import type { JobProgress } from '@shared/contract'

// What the jobs slice holds and offers (its implementation: jobsSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export interface JobsSlice {
  /** Jobs still running or recently failed, by id. Finished ones drop out. */
  jobs: Record<string, JobProgress>
  applyJobProgress(progress: JobProgress): void
}
