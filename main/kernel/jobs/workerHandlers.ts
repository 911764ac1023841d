import type { WorkerName, WorkerStatus, jobsMethods } from '@shared/contract'
import type { HandlerModule } from '../router'

/** A supervised background worker as the status bar reaches it. */
export interface WorkerControl {
  workerStatus(): WorkerStatus
  restartWorker(): WorkerStatus
}

export function workerHandlers(workers: Record<WorkerName, WorkerControl>): HandlerModule<typeof jobsMethods> {
  return {
    jobs_worker_status: () => ({ workers: Object.values(workers).map((w) => w.workerStatus()) }),
    jobs_restart_worker: (i) => workers[i.worker].restartWorker(),
  }
}
