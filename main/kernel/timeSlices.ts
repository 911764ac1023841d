/**
 * How long one slice of a long loop on the main thread may keep the event loop. 40,000 nodes
 * imported into a database of 80,000 here: slices of 20 ms left the loop's p99 stall at
 * 127 ms (ChatGPT) and 97 ms (VizPrompt), with commit and checkpoint on top of each slice;
 * 10 ms, 53 and 69 ms, for ~10% more time in all.
 */
export const SLICE_MS = 10

/**
 * Long work on the main thread cut into slices of time: `due()` says when the current slice has
 * used its time, `next()` hands the event loop back and starts the next. A window, the API and
 * a streaming reply then wait at most a slice, however large the import. Checked by time, not
 * by count: the same loop runs ten times slower on a busy machine.
 */
export class TimeSlices {
  private until: number

  constructor(private readonly ms = SLICE_MS) {
    this.until = performance.now() + ms
  }

  due(): boolean {
    return performance.now() >= this.until
  }

  async next(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    this.until = performance.now() + this.ms
  }
}
