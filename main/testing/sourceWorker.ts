import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { WorkerEntry } from '../jobs/jobService'

/** The job worker straight from its TypeScript source, for tests: a small bootstrap runs it through tsx. */
export function sourceWorker(): WorkerEntry {
  return {
    path: new URL('./tsWorkerBootstrap.mjs', import.meta.url),
    data: {
      tsEntry: fileURLToPath(new URL('../jobs/jobWorker.ts', import.meta.url)),
      tsconfig: resolve(import.meta.dirname, '../../tsconfig.node.json'),
    },
  }
}
