// The floor under bench/api's /api/chat figure: a bare HTTP server on the app's thread that sends
// the client's text straight to the connector and streams the deltas back through the API's own
// SSE stream, with no token, context, MemoryPack or node. What it adds over the raw connector is
// what any API does on this machine (two more loopback hops and an HTTP server), before it does
// anything of its own.
import { createServer } from 'node:http'
import { SseStream } from '../../main/host/sse'
import type { Connector } from '../../main/llm/types'

export async function startPassThrough(connector: Connector, model: string) {
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      const { text } = JSON.parse(body) as { text: string }
      const sse = new SseStream(res)
      void (async () => {
        try {
          for await (const e of connector.chat({ model, messages: [{ role: 'user', content: text }] }))
            if (e.type === 'delta') sse.send('delta', { text: e.text })
        } catch {
          // Ended without a delta: the client reports "no delta", and the bench stops there.
        } finally {
          sse.end()
        }
      })()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
