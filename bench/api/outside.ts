// What runs outside the app in the benches (bench/support.ts startOutside): the fake LLM server and, for bench/api, the program calling
// /api/chat, in a process of their own, as on a user's machine (a model server, curl or an
// assistant). Sharing the app's event loop would charge the app for the client's and the
// server's work, and the client would read its first byte only once the app's turn of the loop
// was over; sharing its process (a worker thread) still shares its collector and its cores' queue.
import { request } from 'node:http'
import { ssePost } from '../../tests/support/apiClient'
import { startFakeLlm } from '../../tests/support/fakeLlm'

export type ToOutside =
  | { type: 'chat'; id: number; port: number; token: string; body: unknown }
  /** The model waits this long before its answer starts (0: at once). */
  | { type: 'first_token_ms'; ms: number }
  | { type: 'close' }
export type FromOutside =
  | { type: 'ready'; llmUrl: string }
  | { type: 'chat'; id: number; ms: number }
  | { type: 'chat'; id: number; error: string }

const send = (m: FromOutside) => process.send!(m)
const fake = await startFakeLlm({ keepRequests: false })
// A bench that ends without saying so (an error, Ctrl+C) must not leave this process behind.
process.on('disconnect', () => process.exit(0))
process.on('message', (m: ToOutside) => {
  if (m.type === 'close') {
    void fake.close().then(() => process.disconnect())
    return
  }
  if (m.type === 'first_token_ms') {
    fake.reset()
    if (m.ms > 0) fake.script({ delayMs: m.ms })
    return
  }
  firstDelta(m.port, m.token, m.body).then(
    (ms) => send({ type: 'chat', id: m.id, ms }),
    (e: Error) => send({ type: 'chat', id: m.id, error: e.message }),
  )
})
send({ type: 'ready', llmUrl: fake.url })

/** Milliseconds from sending POST /api/chat to its first `delta` event, reported when the stream ends. */
function firstDelta(port: number, token: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    let at: number | null = null
    const req = request(ssePost(port, '/api/chat', token), (res) => {
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        if (at === null && chunk.includes('event: delta')) at = performance.now() - t0
      })
      // Answered once the exchange is over: the next run must not overlap the tail of this one.
      res.on('end', () => (at !== null ? resolve(at) : reject(new Error(`no delta (status ${res.statusCode})`))))
    })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}
