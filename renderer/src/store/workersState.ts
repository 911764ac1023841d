import type { WorkerName, WorkerStatus } from '@shared/contract'

// What the workers slice holds and offers (its implementation: workersSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export interface WorkersSlice {
  /** Background workers that are not simply fine: restarted after a death, or paused. */
  workers: Partial<Record<WorkerName, WorkerStatus>>
  applyWorkerStatus(status: WorkerStatus): void
  loadWorkerStatus(): Promise<void>
  /** The status bar's retry of a paused worker. */
  restartWorker(worker: WorkerName): Promise<void>
}
