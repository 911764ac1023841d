import type { Db } from '../../db/open'
import { statements } from '../../db/statements'
import type { Statement } from 'better-sqlite3'

/** Seed 002's job status values. */
export const JobStatus = { queued: 0, running: 1, done: 2, failed: 3 } as const

export interface JobRow {
  id: number
  kind: string
  payload_json: string
  status: number
  run_after: number
  tries: number
  last_error: string | null
  batch: string | null
}

export interface QueueOptions {
  /** After this many failed tries a job is dead-lettered: failed, visible, retryable by hand. */
  maxTries?: number
  /** Seconds before the first retry; doubles with each try. */
  backoffSeconds?: number
  /** Seconds a claim holds before another worker may take the job back. */
  leaseSeconds?: number
  now?: () => number
}

export interface BatchProgress {
  total: number
  done: number
  failed: number
  running: number
}

/**
 * The jobs table as a queue. Safe to use from the main thread and the worker at once: each
 * has its own connection, and a claim is one IMMEDIATE transaction, so two claimers never
 * take the same job. Times are UTC epoch seconds, as in seed 002.
 */
export class JobQueue {
  /** Compiled statements, reused (db/statements.ts). */
  private readonly sql: (sql: string) => Statement

  private readonly maxTries: number
  private readonly backoff: number
  private readonly lease: number
  private readonly now: () => number

  constructor(
    private readonly db: Db,
    options: QueueOptions = {},
  ) {
    this.sql = statements(db)
    this.maxTries = options.maxTries ?? 5
    this.backoff = options.backoffSeconds ?? 5
    this.lease = options.leaseSeconds ?? 300
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000))
  }

  /** Adds a job; with a dedupe key already queued or running, returns that job's id instead. */
  enqueue(
    kind: string,
    payload: unknown,
    options: { batch?: string; dedupeKey?: string; delaySeconds?: number } = {},
  ): number {
    const now = this.now()
    const row = this.sql(
      `INSERT INTO jobs (kind, payload_json, run_after, created_at, updated_at, batch, dedupe_key)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (dedupe_key) WHERE status IN (0, 1) AND dedupe_key IS NOT NULL DO NOTHING
         RETURNING id`,
    ).get(
      kind,
      JSON.stringify(payload),
      now + (options.delaySeconds ?? 0),
      now,
      now,
      options.batch ?? null,
      options.dedupeKey ?? null,
    ) as { id: number } | undefined
    if (row) return row.id
    return (
      this.sql('SELECT id FROM jobs WHERE dedupe_key = ? AND status IN (0, 1)').get(options.dedupeKey) as {
        id: number
      }
    ).id
  }

  /** Takes the next due job and leases it, or returns null when nothing is due. */
  claim(): JobRow | null {
    const now = this.now()
    return this.db
      .transaction(() => {
        const job = this.sql(
          'SELECT * FROM jobs WHERE status = 0 AND run_after <= ? ORDER BY run_after, id LIMIT 1',
        ).get(now) as JobRow | undefined
        if (!job) return null
        this.sql('UPDATE jobs SET status = 1, tries = tries + 1, lease_until = ?, updated_at = ? WHERE id = ?').run(
          now + this.lease,
          now,
          job.id,
        )
        return { ...job, status: JobStatus.running, tries: job.tries + 1 }
      })
      .immediate()
  }

  complete(id: number): void {
    this.sql('UPDATE jobs SET status = 2, lease_until = NULL, last_error = NULL, updated_at = ? WHERE id = ?').run(
      this.now(),
      id,
    )
  }

  /** Records a failure: back in the queue after a backoff, or dead-lettered after the last try. */
  fail(id: number, error: string, options: { retryable?: boolean } = {}): 'retry' | 'dead' {
    const now = this.now()
    const job = this.sql('SELECT tries FROM jobs WHERE id = ?').get(id) as { tries: number } | undefined
    if (!job) return 'dead'
    const dead = options.retryable === false || job.tries >= this.maxTries
    if (dead) {
      this.sql('UPDATE jobs SET status = 3, lease_until = NULL, last_error = ?, updated_at = ? WHERE id = ?').run(
        error,
        now,
        id,
      )
      return 'dead'
    }
    const wait = this.backoff * 2 ** (job.tries - 1)
    this.sql(
      'UPDATE jobs SET status = 0, lease_until = NULL, last_error = ?, run_after = ?, updated_at = ? WHERE id = ?',
    ).run(error, now + wait, now, id)
    return 'retry'
  }

  /** Puts back jobs whose worker died holding them (their lease ran out). */
  reclaimExpired(): number {
    const now = this.now()
    return this.sql(
      'UPDATE jobs SET status = 0, lease_until = NULL, run_after = ?, updated_at = ? WHERE status = 1 AND lease_until < ?',
    ).run(now, now, now).changes
  }

  /**
   * Jobs a worker claimed and then died holding, each failed at once by the one retry rule (a
   * crash is a failed try: back after its backoff, dead-lettered after the last), instead of
   * waiting out a lease. Counting the try keeps a job that kills its worker from doing so forever.
   * A job no longer running (the worker finished it before dying) is left as it is.
   */
  failAbandoned(ids: number[], error: string): Array<{ job: JobRow; outcome: 'retry' | 'dead' }> {
    return this.db
      .transaction(() =>
        ids.flatMap((id) => {
          const job = this.get(id)
          return job?.status === JobStatus.running ? [{ job, outcome: this.fail(id, error) }] : []
        }),
      )
      .immediate()
  }

  /**
   * Puts back every running job at once, whatever its lease: for start-up, when no other
   * live process uses this database, so every claim left was held by a process that crashed.
   */
  releaseRunning(): number {
    const now = this.now()
    return this.sql(
      'UPDATE jobs SET status = 0, lease_until = NULL, run_after = ?, updated_at = ? WHERE status = 1',
    ).run(now, now).changes
  }

  /** A dead-lettered job, given another go by the user. */
  retry(id: number): boolean {
    const now = this.now()
    return (
      this.sql('UPDATE jobs SET status = 0, tries = 0, run_after = ?, updated_at = ? WHERE id = ? AND status = 3').run(
        now,
        now,
        id,
      ).changes === 1
    )
  }

  /** Forgets finished jobs older than this: months of exchanges leave millions behind. Failed ones stay. */
  pruneDone(olderThanSeconds: number): number {
    return this.sql(`DELETE FROM jobs WHERE status = ${JobStatus.done} AND updated_at < ?`).run(
      this.now() - olderThanSeconds,
    ).changes
  }

  get(id: number): JobRow | null {
    return (this.sql('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined) ?? null
  }

  batchProgress(batch: string): BatchProgress {
    return this.sql(
      `SELECT count(*) AS total, count(*) FILTER (WHERE status = 2) AS done,
                count(*) FILTER (WHERE status = 3) AS failed, count(*) FILTER (WHERE status = 1) AS running
         FROM jobs WHERE batch = ?`,
    ).get(batch) as BatchProgress
  }

  /** When the next queued job falls due, for the worker's sleep. */
  nextDue(): number | null {
    const row = this.sql('SELECT min(run_after) AS at FROM jobs WHERE status = 0').get() as { at: number | null }
    return row.at
  }
}
