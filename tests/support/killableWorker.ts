import { pathToFileURL } from 'node:url'
import type { WorkerEntry } from '../../main/kernel/jobs/workerThread'
import type { FromWorker } from '../../main/kernel/jobs/protocol'
import { sourceWorker } from './sourceWorker'

export interface KillSwitch {
  /** How many threads die in all, counted across restarts. */
  deaths: number
  /** The message of the real entry after which a thread dies… */
  dieOn: FromWorker['type']
  /** …the n-th such message of each thread (1: the first). */
  nth?: number
  /** `exit`: process.exit(1) at once (mid-job when the message comes from a job); `throw`: an uncaught error. */
  how?: 'exit' | 'throw'
  /** The uncaught error's message (`throw`). */
  message?: string
}

/**
 * A worker entry (tests/support/killableWorkerEntry.mjs) that runs the real job or memory worker
 * and kills its thread on cue; `deathsLeft()` reads how many deaths are still to come.
 */
export function killableWorker(
  kind: 'job' | 'memory',
  kill: KillSwitch,
): { entry: WorkerEntry; deathsLeft: () => number } {
  const real = sourceWorker(kind)
  const deathsLeft = new SharedArrayBuffer(4)
  const left = new Int32Array(deathsLeft)
  Atomics.store(left, 0, kill.deaths)
  const realEntry = real.path instanceof URL ? real.path.href : pathToFileURL(real.path).href
  return {
    entry: {
      path: new URL('./killableWorkerEntry.mjs', import.meta.url),
      data: {
        ...real.data,
        realEntry,
        killSwitch: {
          deathsLeft,
          dieOn: kill.dieOn,
          nth: kill.nth ?? 1,
          how: kill.how ?? 'exit',
          message: kill.message ?? 'killed by the test',
        },
      },
    },
    deathsLeft: () => Math.max(0, Atomics.load(left, 0)),
  }
}
