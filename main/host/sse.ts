import type { ServerResponse } from 'node:http'

/** A Server-Sent Events stream on a response: named events with JSON data. */
export class SseStream {
  private ended = false
  /** An event has been written, and the headers with it. */
  private sent = false

  constructor(private readonly res: ServerResponse) {
    // Each event is a small write that should leave at once, not wait to be coalesced.
    res.socket?.setNoDelay(true)
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
    })
    // They leave at the next turn of the event loop (or with an earlier event), so that the
    // model's request, built in this one, goes out first: writing them here held it back.
    setImmediate(() => {
      if (!this.sent && !this.ended && !res.destroyed) res.flushHeaders()
    })
  }

  send(event: string, data: unknown): void {
    if (this.ended || this.res.destroyed) return
    this.sent = true
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  end(): void {
    if (this.ended) return
    this.ended = true
    this.res.end()
  }
}
