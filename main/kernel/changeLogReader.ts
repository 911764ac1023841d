import type { Statement } from 'better-sqlite3'

/**
 * A log of changes that triggers write, one numbered row per change (`seq`, increasing), so a
 * cache can follow writes made by any connection — the CLI's, a worker's — by reading only the
 * rows past the last it saw. The graph's logs (graph/changeLog.ts) and memory's unit log
 * (memory/store/unitRows.ts) are read this way.
 */
export interface ChangeLogSource<C extends { seq: number }> {
  /** The rows past `seq`, oldest first. */
  since(seq: number): C[]
  /** The newest row's seq, 0 when the log is empty. */
  last(): number
  /** Drops the rows up to `seq`. */
  forget(seq: number): void
}

/**
 * A log kept in a table `(seq INTEGER PRIMARY KEY AUTOINCREMENT, …)`: its rows past a seq are
 * read as `columns` (a SELECT list of literals from the caller's code, never input) beside `seq`.
 */
export function tableLog<C extends { seq: number }>(
  sql: (text: string) => Statement,
  table: string,
  columns: string,
): ChangeLogSource<C> {
  return {
    since: (seq) => sql(`SELECT seq, ${columns} FROM ${table} WHERE seq > ? ORDER BY seq`).all(seq) as C[],
    last: () => (sql(`SELECT max(seq) FROM ${table}`).pluck().get() as number | null) ?? 0,
    forget: (seq) => void sql(`DELETE FROM ${table} WHERE seq <= ?`).run(seq),
  }
}

/** Rows of a log kept behind its newest; a reader further behind starts afresh. */
const LOG_KEPT = 10_000

/** One reader of a change log, from where it last read; it trims the log behind itself. */
export class LogReader<C extends { seq: number }> {
  private seen: number

  /**
   * `head`: the log's newest seq read more cheaply than `log.last()` (one statement for several
   * logs: memory/store/logHeads.ts); when it says the reader is at the head, next() reads nothing.
   */
  constructor(
    private readonly log: ChangeLogSource<C>,
    private readonly head?: () => number,
  ) {
    this.seen = log.last()
  }

  /**
   * Reads on from the log's newest row without reading what is before it: for a reader whose
   * cache is empty, which has nothing the skipped rows could make stale.
   */
  skip(): void {
    this.seen = this.log.last()
  }

  /** Whether the log has rows this reader has not read yet. */
  behind(): boolean {
    return this.log.last() !== this.seen
  }

  /**
   * What was logged since the last call, oldest first; null when the log was trimmed past what
   * this reader had seen (nothing kept from before can be trusted). `fresh`: the log itself is
   * read, not `head` (which may have been read a moment before).
   */
  next(fresh = false): C[] | null {
    if (!fresh && this.head?.() === this.seen) return []
    const changes = this.log.since(this.seen)
    if (changes.length === 0) return changes
    const trimmed = changes[0]!.seq !== this.seen + 1
    const before = this.seen
    this.seen = changes.at(-1)!.seq
    if (Math.floor(before / LOG_KEPT) !== Math.floor(this.seen / LOG_KEPT)) this.log.forget(this.seen - LOG_KEPT)
    return trimmed ? null : changes
  }
}
