import { statSync } from 'node:fs'
import type Database from 'better-sqlite3'

/**
 * Pages a connection lets its WAL reach before checkpointing it itself when a worker's
 * connection keeps it short (`openDatabase`'s `walBound`): a bound for when the worker is stopped
 * or busy in a long job, far above the default 1,000 so that it almost never comes into play.
 */
export const WAL_BOUND_WHEN_CHECKPOINTED_ELSEWHERE = 16_000

/**
 * Bytes the WAL file may keep once its pages are in the database. SQLite reuses the file from
 * its start but never shrinks it: after a burst of writes (an import, a long session) it stayed
 * at its largest (53 MB after 1,000 chat turns). A checkpoint that has moved every page truncates
 * a WAL larger than this; `journal_size_limit` (openDatabase) bounds it when a writer starts it
 * over.
 */
export const WAL_KEEP_BYTES = 4 * 1024 * 1024

/** How often a worker moves the WAL's new pages into the database file. */
export const CHECKPOINT_EVERY_MS = 1000

/**
 * Run on a worker thread: checkpoints these connections' databases every `everyMs`, so that
 * the main thread's own writes never do it. SQLite checkpoints on the commit that finds the
 * WAL past 1,000 pages: the write that happened to be there (a new node, a reply's first save)
 * then waited ~10 ms for the pages to be copied and the file synced. PASSIVE waits for no
 * reader or writer and costs nothing when there is nothing new. A checkpoint that fails (a disk
 * error) is reported and tried again next time; the writes themselves stay safe in the WAL.
 * Returns a function that stops it.
 */
export function checkpointEvery(
  connections: () => Iterable<Database.Database>,
  onError: (db: Database.Database, error: unknown) => void,
  everyMs = CHECKPOINT_EVERY_MS,
): () => void {
  const timer = setInterval(() => {
    for (const db of connections()) {
      // A database closed meanwhile (a persona deleted, the worker stopping) has nothing left to move.
      if (!db.open) continue
      try {
        const [moved] = db.pragma('wal_checkpoint(PASSIVE)') as Checkpointed[]
        if (moved && moved.busy === 0 && moved.log > 0 && moved.checkpointed === moved.log) truncateIfLarge(db)
      } catch (e) {
        onError(db, e)
      }
    }
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}

interface Checkpointed {
  busy: number
  /** Frames in the WAL. */
  log: number
  /** Of them, in the database file. */
  checkpointed: number
}

/**
 * Every page is in the database: a WAL file past WAL_KEEP_BYTES is cut to nothing, unless a
 * reader or writer is in the way at this moment. TRUNCATE waits for them with the busy handler
 * and holds the write lock meanwhile, so it is tried without waiting: the main thread's writes
 * never queue behind it, and an idle second later it succeeds.
 */
function truncateIfLarge(db: Database.Database): void {
  // No WAL file (an in-memory database, or none written yet): nothing to cut.
  const size = statSync(`${db.name}-wal`, { throwIfNoEntry: false })?.size ?? 0
  if (size <= WAL_KEEP_BYTES) return
  const timeout = db.pragma('busy_timeout', { simple: true }) as number
  db.pragma('busy_timeout = 0')
  try {
    db.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    db.pragma(`busy_timeout = ${timeout}`)
  }
}
