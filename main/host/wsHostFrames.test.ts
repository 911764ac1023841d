import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { frameCorpus } from '../../tests/reliability/frameCorpus'
import { openRawWebSocket } from '../../tests/reliability/rawWsClient'
import { startServer, type Server } from '../../tests/support/serveProcess'
import { useTempHome } from '../../tests/support/tempHome'
import { ask, openWs } from '../../tests/support/wsProbe'
import { MAX_MESSAGE_BYTES } from './wsHost'

const home = useTempHome()
const TOKEN = 'frame-corpus-token-0123456789'

// One host process for the whole corpus: each bad frame must leave it serving the next client.
let host: Server
let bystander: WebSocket
let hostDied = false

beforeAll(async () => {
  host = await startServer({ home: join(home(), 'data'), token: TOKEN, fromSource: true })
  void host.exited.then(() => (hostDied = true))
  const ws = await openWs(`ws://127.0.0.1:${host.port}/ws?token=${TOKEN}`)
  if ('refused' in ws) throw new Error(`refused with ${ws.refused}`)
  bystander = ws
}, 90_000)

afterAll(async () => {
  bystander?.close()
  await host?.stop()
})

describe('loopback host: malformed WebSocket frames', () => {
  it.each(frameCorpus.map((f) => [f.name, f] as const))(
    '%s closes only that connection, with its close code, and the host keeps serving',
    async (_, bad) => {
      const raw = await openRawWebSocket(host.port, TOKEN)
      raw.socket.write(bad.bytes)
      const closed = await raw.closed
      expect(closed.code, bad.why).toBe(bad.closeCode)
      expect(closed.reason.length).toBeGreaterThan(0)

      expect(hostDied, `host died after ${bad.name}: ${host.stderr()}`).toBe(false)
      // A client that was already connected, and a new one, both still get answers.
      expect(await ask(bystander, { id: bad.name, action: 'app_info', data: {} })).toMatchObject({ status: 'success' })
      const fresh = await openWs(`ws://127.0.0.1:${host.port}/ws?token=${TOKEN}`)
      if ('refused' in fresh) throw new Error(`refused with ${fresh.refused}`)
      expect(await ask(fresh, { id: 1, action: 'get_settings' })).toMatchObject({ status: 'success' })
      fresh.close()
    },
  )

  it('tells a client that sent too much what the limit is', async () => {
    const raw = await openRawWebSocket(host.port, TOKEN)
    raw.socket.write(frameCorpus.find((f) => f.name === 'over-limit')!.bytes)
    expect(await raw.closed).toEqual({ code: 1009, reason: 'message too big: the limit is 64 MiB' })
    expect(MAX_MESSAGE_BYTES).toBe(64 * 1024 * 1024)
  })
})
