/**
 * Collects streamed text and hands it on at most every `intervalMs`: a fast model produces
 * hundreds of tokens a second, and one event per token would flood every window. The first
 * piece goes out at once, so the reply starts appearing without waiting for a batch.
 */
export class DeltaBatcher {
  private pending = ''
  private timer: ReturnType<typeof setTimeout> | null = null
  private started = false

  constructor(
    private readonly intervalMs: number,
    private readonly emit: (text: string) => void,
  ) {}

  push(text: string): void {
    if (!this.started) {
      this.started = true
      this.emit(text)
      return
    }
    this.pending += text
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs)
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (!this.pending) return
    const text = this.pending
    this.pending = ''
    this.emit(text)
  }
}
