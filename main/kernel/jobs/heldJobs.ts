import type { JobQueue } from './jobQueue'
import type { FromWorker } from './protocol'
import { finishedMessage } from './workerLoop'

type Finished = Extract<FromWorker, { type: 'job_finished' }>

/**
 * The jobs a worker has claimed and not yet reported finished, by database, read from its
 * messages on the main thread: what it held if it dies. Node delivers a dead worker's last
 * messages before its exit, so a claim it made is known here; only a kill between the claim's
 * commit and its message escapes, and that job comes back when its lease runs out.
 */
export class HeldJobs {
  private readonly held = new Map<string, Set<number>>()

  note(message: FromWorker): void {
    if (message.type === 'job_claimed') {
      const ids = this.held.get(message.dbPath) ?? new Set()
      ids.add(message.job_id)
      this.held.set(message.dbPath, ids)
    } else if (message.type === 'job_finished') this.held.get(message.dbPath)?.delete(message.job_id)
  }

  /**
   * The worker died: fails what it held (see JobQueue.failAbandoned) in each database whose queue
   * `queueOf` gives, and returns the finished messages the worker never sent, for the owner to
   * take in like any other (progress, idle waiters).
   */
  release(reason: string, queueOf: (dbPath: string) => JobQueue | null): Finished[] {
    const finished: Finished[] = []
    for (const [dbPath, ids] of this.held) {
      const queue = queueOf(dbPath)
      if (!queue || ids.size === 0) continue
      for (const r of queue.failAbandoned([...ids], reason))
        finished.push(finishedMessage(dbPath, { ...r, error: reason }))
    }
    this.held.clear()
    return finished
  }
}
