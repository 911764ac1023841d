import type { BatchProgress } from './jobQueue'

export interface Tally {
  total: number
  done: number
  failed: number
  /** Whether any job of the batch has been tried yet. */
  started: boolean
}

/**
 * Each batch's counts, kept on the main thread and moved by one per finished job. Counting
 * the batch in the table after every job made a 10,000-job batch quadratic and froze the
 * host; the table is counted only when a batch is queued or first heard of.
 */
export class BatchTallies {
  private readonly tallies = new Map<string, Tally>()

  constructor(private readonly count: (batch: string) => BatchProgress) {}

  /** Jobs were just queued under `batch`: count it afresh (once per enqueue, not per job). */
  recount(batch: string): Tally {
    const p = this.count(batch)
    const tally = { total: p.total, done: p.done, failed: p.failed, started: p.running > 0 || p.done > 0 }
    this.tallies.set(batch, tally)
    return tally
  }

  /** One job of the batch finished with this outcome; returns the batch's counts after it. */
  // retry and paused put the job back in the queue: nothing counted yet.
  finished(batch: string, outcome: 'done' | 'retry' | 'dead' | 'paused'): Tally {
    const known = this.tallies.get(batch)
    // A batch queued by an earlier run: the table already holds this job's outcome.
    const tally = known ?? this.recount(batch)
    if (known) {
      if (outcome === 'done') tally.done++
      if (outcome === 'dead') tally.failed++
    }
    tally.started = true
    // A finished batch is forgotten; a job retried by hand later makes it counted afresh.
    if (tally.done + tally.failed >= tally.total) this.tallies.delete(batch)
    return tally
  }
}
