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
  for (let next = 0; next < total;) {
    next = db
      .transaction(() => {
        const until = performance.now() + sliceMs
        let i = next
        do write(i++)
        while (
          // The clock is read every 8 rows: cheap beside a row, and a slice of a busy machine stays near its time.
          i < total &&
          ((i - next) % 64 !== 0 || performance.now() < until)
        )
        return i
      })
      .immediate()
    options.onSlice?.(next)
    await new Promise((resolve) => setImmediate(resolve))
  }
}
