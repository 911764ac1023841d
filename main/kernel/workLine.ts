/**
 * Async work run a few at a time, some after a delay, all stoppable at once. It holds no state
 * that matters: what it runs is stored before it is added (memory/requests/externalRequests.ts), so stopping
 * only cuts work short, and the next start finds it again.
 */
export class WorkLine {
  private readonly running = new Set<Promise<void>>()
  private readonly waiting: Array<() => Promise<void>> = []
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private readonly stopping = new AbortController()

  constructor(
    private readonly atOnce: number,
    private readonly onError: (message: string) => void,
  ) {}

  /** Aborted by `stop`: hand it to what the work waits on. */
  get signal(): AbortSignal {
    return this.stopping.signal
  }

  get stopped(): boolean {
    return this.stopping.signal.aborted
  }

  /** Runs `work` when a place is free, after `delayMs` if given. */
  add(work: () => Promise<void>, delayMs = 0): void {
    if (this.stopped) return
    if (delayMs <= 0) {
      this.waiting.push(work)
      this.pump()
      return
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      this.add(work)
    }, delayMs)
    this.timers.add(timer)
  }

  /** Cuts the work under way (through `signal`), drops what waits, and resolves once the cut work has ended. */
  async stop(): Promise<void> {
    this.stopping.abort()
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    this.waiting.length = 0
    while (this.running.size > 0) await Promise.all([...this.running])
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.atOnce && this.waiting.length > 0) {
      const work = this.waiting.shift()!()
        .catch((e: unknown) => this.onError(e instanceof Error ? e.message : String(e)))
        .finally(() => {
          this.running.delete(work)
          this.pump()
        })
      this.running.add(work)
    }
  }
}
