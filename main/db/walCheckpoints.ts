import type { Db } from './open'

/**
 * Pages a connection lets its WAL reach before checkpointing it itself when a worker's
 * connection keeps it short (`openDatabase`'s `walBound`): a bound for when the worker is stopped
 * or busy in a long job, far above the default 1,000 so that it almost never comes into play.
 */
export const WAL_BOUND_WHEN_CHECKPOINTED_ELSEWHERE = 16_000

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
  connections: () => Iterable<Db>,
  onError: (db: Db, error: unknown) => void,
  everyMs = CHECKPOINT_EVERY_MS,
): () => void {
  const timer = setInterval(() => {
    for (const db of connections()) {
      // A database closed meanwhile (a persona deleted, the worker stopping) has nothing left to move.
      if (!db.open) continue
      try {
        db.pragma('wal_checkpoint(PASSIVE)')
      } catch (e) {
        onError(db, e)
      }
    }
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
