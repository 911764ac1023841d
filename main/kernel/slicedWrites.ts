import type { Db } from '../db/open'
import { SLICE_MS } from './timeSlices'

/**
 * Runs `write(0)` … `write(total - 1)` in immediate transactions of about `sliceMs` each,
 * handing the event loop back after each (after the last too, so many small imports in a row
 * yield between them). One transaction for a large import kept every window and the API
 * waiting for seconds; the caller makes what a crash between slices leaves harmless.
 */
export async function writeInSlices(
  db: Db,
  total: number,
  write: (index: number) => void,
  options: { sliceMs?: number; onSlice?: (written: number) => void } = {},
): Promise<void> {
  const sliceMs = options.sliceMs ?? SLICE_MS
  // While a large import writes, this connection moves the WAL into the database itself, in
  // SQLite's default steps of 1,000 pages, instead of leaving it all to the worker's checkpoint
  // every second: with the WAL piling up between those, 1 commit in 30 took 50-100 ms (20,000
  // nodes into 40,000: commit p99 74 ms, the event loop's p99 stall 102 ms; with these steps
  // 25 ms and 82 ms). Set back after, so a turn's write never waits for a checkpoint.
  const running = importing.get(db) ?? { count: 0, bound: db.pragma('wal_autocheckpoint', { simple: true }) as number }
  if (running.count++ === 0) db.pragma(`wal_autocheckpoint = ${IMPORT_WAL_STEP_PAGES}`)
  importing.set(db, running)
  try {
    await writeSlices(db, total, write, sliceMs, options.onSlice)
  } finally {
    // The last of imports running side by side puts the connection's own bound back.
    if (--running.count === 0) {
      importing.delete(db)
      if (db.open) db.pragma(`wal_autocheckpoint = ${running.bound}`)
    }
  }
}

/** SQLite's own default for wal_autocheckpoint. */
const IMPORT_WAL_STEP_PAGES = 1000

/** Connections with sliced writes under way, and the checkpoint bound to put back after them. */
const importing = new WeakMap<Db, { count: number; bound: number }>()

async function writeSlices(
  db: Db,
  total: number,
  write: (index: number) => void,
  sliceMs: number,
  onSlice: ((written: number) => void) | undefined,
): Promise<void> {
  for (let next = 0; next < total;) {
    next = db
      .transaction(() => {
        const until = performance.now() + sliceMs
        let i = next
        do write(i++)
        while (
          // The clock is read every 8 rows: cheap beside a row, and a slice of a busy machine stays near its time.
          i < total &&
          ((i - next) % 8 !== 0 || performance.now() < until)
        )
        return i
      })
      .immediate()
    onSlice?.(next)
    await new Promise((resolve) => setImmediate(resolve))
  }
}
