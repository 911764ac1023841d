import type { Db } from '../../db/open'

/** Rows a loader puts in between two looks at the clock (256 of the model index's: ~5 ms at most). */
export const ROWS_A_STEP = 256

/**
 * Runs a loader's steps to their end in slices of about `sliceMs`, with the event loop running
 * between them (windows, chat and the API go on while an index loads). Each slice reads in a
 * read transaction of its own: what is written between slices is in the index's change log,
 * which the loader's owner applies once it is done.
 */
export async function runInSlices(db: Db, steps: Generator<void, void>, sliceMs: number): Promise<void> {
  for (let done = false; !done;) {
    await new Promise((resolve) => setImmediate(resolve))
    const until = performance.now() + sliceMs
    done = db
      .transaction(() => {
        for (;;) {
          if (steps.next().done) return true
          if (performance.now() >= until) return false
        }
      })
      .deferred()
  }
}
