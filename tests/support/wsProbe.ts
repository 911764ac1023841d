import { request } from 'node:http'
import WebSocket from 'ws'

export interface HttpAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw HTTP GET with exactly the headers given (fetch would not let us forge Host). */
export function httpGet(port: number, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** Opens a WebSocket; resolves with it once open, or with the HTTP status the host refused it with. */
export function openWs(url: string, headers: Record<string, string> = {}): Promise<WebSocket | { refused: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => resolve({ refused: res.statusCode ?? 0 }))
    ws.once('error', reject)
  })
}

/** Sends one request and waits for the response with the same id. */
export function ask(ws: WebSocket, message: unknown): Promise<Record<string, unknown>> {
  const id = (message as { id?: unknown }).id
  return new Promise((resolve) => {
    const onMessage = (raw: WebSocket.RawData) => {
      const reply = JSON.parse(raw.toString()) as Record<string, unknown>
      // A request without an id is answered without one (or with null when it could not be read).
      if ('event' in reply || (reply.id ?? null) !== (id ?? null)) return
      ws.off('message', onMessage)
      resolve(reply)
    }
    ws.on('message', onMessage)
    ws.send(typeof message === 'string' ? message : JSON.stringify(message))
  })
}

/** Collects event messages as they arrive. */
export function collectEvents(ws: WebSocket): Array<{ event: string; data: unknown }> {
  const seen: Array<{ event: string; data: unknown }> = []
  ws.on('message', (raw) => {
    const msg = JSON.parse(raw.toString()) as { event?: string; data: unknown }
    if (msg.event) seen.push({ event: msg.event, data: msg.data })
  })
  return seen
}
