import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { WorkerEntry } from '../../main/kernel/jobs/workerThread'
import { builtWorkersVariable } from './builtTestWorkers'

/**
 * A worker entry for tests and benchmarks. Under vitest the global setup has bundled the entries
 * once per run; elsewhere (bench scripts run through tsx) a small bootstrap compiles the
 * TypeScript source inside the thread.
 */
export function sourceWorker(kind: 'job' | 'memory' = 'job'): WorkerEntry {
  const built = process.env[builtWorkersVariable]
  const bundled = built ? join(built, `${kind}Worker.mjs`) : null
  if (bundled && existsSync(bundled)) return { path: bundled }
  return {
    path: new URL('./tsWorkerBootstrap.mjs', import.meta.url),
    data: {
      tsEntry: fileURLToPath(new URL(`../../main/workers/${kind}Worker.ts`, import.meta.url)),
      tsconfig: resolve(import.meta.dirname, '../../tsconfig.node.json'),
    },
  }
}
