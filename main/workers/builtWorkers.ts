import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { WorkerEntry } from '../kernel/jobs/workerThread'

export interface WorkerEntries {
  job: WorkerEntry | null
  memory: WorkerEntry | null
}

/**
 * The worker entries electron-vite builds beside the main bundle (`out/main/*Worker.js`).
 * Running from source there are none: jobs then wait in their queues, and tests inject the
 * TypeScript entries themselves.
 */
export function builtWorkers(dir: string): WorkerEntries {
  const entry = (name: string): WorkerEntry | null => {
    const file = join(dir, `${name}.js`)
    return existsSync(file) ? { path: file } : null
  }
  return { job: entry('jobWorker'), memory: entry('memoryWorker') }
}
