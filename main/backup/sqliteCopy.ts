import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { openExisting, type Db } from '../db/open'

/** Pages per step at first: a step holds the event loop for about a millisecond. */
const FIRST_STEP_PAGES = 256
/** A restarted copy takes this many times more pages per step, so it outruns the writers. */
const STEP_GROWTH = 4
/** After this many restarts the rest goes in one step: a copy always ends. */
const RESTARTS_BEFORE_ONE_STEP = 4
/** better-sqlite3's largest step ("all remaining pages"). */
const ALL_PAGES = 0x7fffffff

/**
 * Copies a live database with SQLite's online backup, a few hundred pages per turn of the
 * event loop. Commits through `source` itself are carried into the copy as they happen; a
 * commit through another connection (a worker, the CLI) restarts it, so each restart takes
 * bigger steps and the fourth finishes in one. The copy is a snapshot taken at its last step:
 * every write committed before the copy began is in it.
 */
export async function copyDatabase(source: Db, dest: string, stopped: () => string | null): Promise<void> {
  await mkdir(dirname(dest), { recursive: true })
  let step = FIRST_STEP_PAGES
  // Times another connection's commit sent the copy back to its start.
  let restarts = 0
  let remaining = Infinity
  await source.backup(dest, {
    progress: ({ remainingPages }) => {
      const reason = stopped()
      if (reason) throw new Error(reason)
      if (remainingPages > remaining) {
        restarts++
        step = restarts >= RESTARTS_BEFORE_ONE_STEP ? ALL_PAGES : step * STEP_GROWTH
      }
      remaining = remainingPages
      return step
    },
  })
}

/**
 * Makes a fresh copy a single self-contained file (rollback journal, not WAL), so opening it
 * read-only later writes no -wal or -shm beside it; answers its schema version.
 */
export function settleCopy(file: string): number {
  const db = openExisting(file, { readonly: false })
  try {
    db.pragma('journal_mode = DELETE')
    return db.pragma('user_version', { simple: true }) as number
  } finally {
    db.close()
  }
}
