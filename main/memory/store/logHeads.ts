import type { Statement } from 'better-sqlite3'
import type { Db } from '../../db/open'

/** The change logs a memory's kept indexes follow (migrations 2, 6 and 9). */
export type MemoryLog = 'unit_changes' | 'vec_changes' | 'model_vector_changes'

/**
 * The newest seq of each of a memory's change logs, read in one statement for every reader:
 * a reader whose last seq is its log's newest has nothing to read. A pack asked each log on
 * its own, several times (the kept rows at each read, the word index at each ranking, the
 * vectors in a read transaction): ~10 statements a pack that found nothing, at a few hundred
 * units a fifth of its time. Trimming a log leaves its newest seq as it was (LogReader).
 *
 * `during(fn)` reads the heads once for all of fn (a pack): a write another connection commits
 * meanwhile is read by the next pack, as if this one had started a moment earlier.
 */
export class LogHeads {
  private readonly read: Statement<unknown[]>
  private held: Record<MemoryLog, number> | null = null

  constructor(private readonly db: Db) {
    // Each max() from its table's key: SQLite answers a lone max() without a scan.
    this.read = db.prepare(
      `SELECT (SELECT max(seq) FROM unit_changes) AS unit_changes, (SELECT max(seq) FROM vec_changes) AS vec_changes,
       (SELECT max(seq) FROM model_vector_changes) AS model_vector_changes`,
    )
  }

  /** The log's newest seq (0 when it is empty). */
  head(log: MemoryLog): number {
    return (this.held ?? this.now())[log]
  }

  /** Runs `fn` with the heads read once, at its start (not inside a transaction: its writes may roll back). */
  during<T>(fn: () => T): T {
    if (this.held || this.db.inTransaction) return fn()
    this.held = this.now()
    try {
      return fn()
    } finally {
      this.held = null
    }
  }

  private now(): Record<MemoryLog, number> {
    const r = this.read.get() as Record<MemoryLog, number | null>
    return {
      unit_changes: r.unit_changes ?? 0,
      vec_changes: r.vec_changes ?? 0,
      model_vector_changes: r.model_vector_changes ?? 0,
    }
  }
}

const heads = new WeakMap<Db, LogHeads>()

/** The log heads of one memory database. */
export function logHeadsOf(db: Db): LogHeads {
  let h = heads.get(db)
  if (!h) heads.set(db, (h = new LogHeads(db)))
  return h
}
