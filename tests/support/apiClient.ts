import { request, type RequestOptions } from 'node:http'

export interface ApiAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  json: () => unknown
}

export interface ApiCall {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: unknown
  /** Sent as it is (malformed JSON, a huge body). */
  raw?: string | Buffer
}

/** One HTTP request to the host with exactly the headers given (fetch would not let a test forge Host). */
export function apiCall(port: number, call: ApiCall): Promise<ApiAnswer> {
  const payload = call.raw ?? (call.body === undefined ? undefined : JSON.stringify(call.body))
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: call.path,
        method: call.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers: {
          host: `127.0.0.1:${port}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) as unknown }),
        )
      },
    )
    // The host may answer (413) and close before a huge body is all sent.
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e),
    )
    if (payload !== undefined) req.write(payload)
    req.end()
  })
}

/** A POST with a JSON body and an API token, as a program calling an SSE endpoint sends it. */
export function ssePost(port: number, path: string, token: string): RequestOptions {
  return {
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  }
}

export interface SseEvent {
  event: string
  data: unknown
}

/**
 * POSTs to an SSE endpoint and collects its events. `onEvent` may return 'hang-up' to vanish
 * mid-stream as a client whose process died would.
 */
export function sseCall(
  port: number,
  path: string,
  token: string,
  body: unknown,
  onEvent?: (e: SseEvent) => 'hang-up' | void,
): Promise<{ status: number; events: SseEvent[]; hungUp: boolean }> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = []
    const req = request(ssePost(port, path, token), (res) => {
      let buffer = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buffer += chunk
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
          const data = /^data: (.*)$/m.exec(block)?.[1]
          const parsed = { event, data: data === undefined ? null : (JSON.parse(data) as unknown) }
          events.push(parsed)
          if (onEvent?.(parsed) === 'hang-up') {
            req.destroy()
            resolve({ status: res.statusCode ?? 0, events, hungUp: true })
            return
          }
        }
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, events, hungUp: false }))
      res.on('error', () => undefined)
    })
    req.on('error', (e) => (events.length > 0 ? undefined : reject(e)))
    req.end(JSON.stringify(body))
  })
}
