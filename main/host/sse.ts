import type { ServerResponse } from 'node:http'

/** A Server-Sent Events stream on a response: named events with JSON data. */
export class SseStream {
  private ended = false

  constructor(private readonly res: ServerResponse) {
    // Each event is a small write that should leave at once, not wait to be coalesced.
    res.socket?.setNoDelay(true)
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
    })
    res.flushHeaders()
  }

  send(event: string, data: unknown): void {
    if (this.ended || this.res.destroyed) return
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  end(): void {
    if (this.ended) return
    this.ended = true
    this.res.end()
  }
}
