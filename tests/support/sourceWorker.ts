import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { WorkerEntry } from '../../main/kernel/jobs/jobService'

/** A worker straight from its TypeScript source, for tests: a small bootstrap runs it through tsx. */
export function sourceWorker(kind: 'job' | 'memory' = 'job'): WorkerEntry {
  return {
    path: new URL('./tsWorkerBootstrap.mjs', import.meta.url),
    data: {
      tsEntry: fileURLToPath(new URL(`../../main/workers/${kind}Worker.ts`, import.meta.url)),
      tsconfig: resolve(import.meta.dirname, '../../tsconfig.node.json'),
    },
  }
}
