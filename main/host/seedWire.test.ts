import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { useTempHome } from '../../tests/support/tempHome'
import { ask, collectEvents, openWs } from '../../tests/support/wsProbe'
import { serve, type Serving } from './serve'

// A client written to the VizPrompt seed (001 §12) talks to the same host the UI uses.

const home = useTempHome()
let serving: Serving | null = null
const sockets: WebSocket[] = []

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.close()
  await serving?.stop()
  serving = null
})

async function connect(path = '/ws'): Promise<WebSocket> {
  serving ??= await serve({ home: join(home(), 'data'), port: 0, staticDir: null })
  const ws = await openWs(`ws://localhost:${serving.host.port}${path}?token=${serving.token}`)
  if ('refused' in ws) throw new Error(`refused with ${ws.refused}`)
  sockets.push(ws)
  return ws
}

/** Sends each message without an id and resolves with the replies, in the order they came. */
function sendAll(ws: WebSocket, messages: unknown[]): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve) => {
    const replies: Array<Record<string, unknown>> = []
    const onMessage = (raw: WebSocket.RawData) => {
      const reply = JSON.parse(raw.toString()) as Record<string, unknown>
      if ('event' in reply) return
      replies.push(reply)
      if (replies.length === messages.length) {
        ws.off('message', onMessage)
        resolve(replies)
      }
    }
    ws.on('message', onMessage)
    for (const m of messages) ws.send(JSON.stringify(m))
  })
}

describe('VizPrompt seed wire form', () => {
  it("runs the seed's own JavaScript client (§12.3): creates a node in main and hears flow_updated", async () => {
    serving = await serve({ home: join(home(), 'data'), port: 0, staticDir: null })
    const url = `ws://localhost:${serving.host.port}?token=${serving.token}`
    // The example as the seed writes it, with the token added to the URL and the sends made
    // once the socket is open (a WebSocket refuses them before that, in browsers too).
    const seen = await new Promise<{ created: string; updated: { flow: { name: string } } }>((resolve, reject) => {
      const socket = new WebSocket(url)
      sockets.push(socket)
      let created = ''
      socket.onerror = () => reject(new Error('the host refused the seed client'))
      socket.onopen = () => {
        socket.send(JSON.stringify({ action: 'create_node', data: { prompt: '質問内容', response: '回答内容' } }))
        socket.send(JSON.stringify({ action: 'subscribe', data: { event: 'flow_updated', flow_id: 'main' } }))
      }
      socket.onmessage = (event) => {
        const response = JSON.parse(String(event.data)) as Record<string, unknown>
        if (response.status === 'success' && typeof response.node_id === 'string') {
          created = response.node_id
        } else if (response.status === 'success' && created) {
          // Subscribed: the next change to main is heard.
          socket.send(JSON.stringify({ action: 'create_node', data: { prompt: '次', response: '' } }))
        } else if (response.event === 'flow_updated') {
          resolve({ created, updated: response.data as { flow: { name: string } } })
        } else if (response.status === 'error') reject(new Error(JSON.stringify(response.error)))
      }
    })
    expect(seen.created).toMatch(/^[0-9a-f-]{36}$/)
    expect(seen.updated.flow.name).toBe('main')
    const node = serving.core.graph.getNode(seen.created)
    expect(node).toMatchObject({ prompt: '質問内容', response: '回答内容' })
    expect(serving.core.graph.flowsOfNode(seen.created)).toEqual([serving.core.graph.findFlow('main')!.id])
  })

  it('answers requests without an id without one, in the order they were sent', async () => {
    const ws = await connect()
    const replies = await sendAll(ws, [
      { action: 'create_flow', data: { name: 'first' } },
      { action: 'get_flow', data: { id: 'no-such-flow' } },
      { action: 'list_flows', data: {} },
      'not json',
    ])
    expect(replies.map((r) => ('id' in r ? r.id : 'none'))).toEqual(['none', 'none', 'none', null])
    expect(replies.map((r) => r.status)).toEqual(['success', 'error', 'success', 'error'])
    expect(replies[0]!.data).toMatchObject({ name: 'first' })
    expect(replies[1]!.error).toMatchObject({ code: 'not_found', message: expect.stringContaining('no-such-flow') })
    expect(replies[2]!.data).toEqual([expect.objectContaining({ name: 'first' })])
    // With an id the reply carries it, as before.
    expect(await ask(ws, { id: 7, action: 'list_flows', data: {} })).toMatchObject({ id: 7, status: 'success' })
  })

  it('names flows by name where the seed does, and refuses an ambiguous or missing one clearly', async () => {
    const ws = await connect()
    const [made] = await sendAll(ws, [{ action: 'create_node', data: { prompt: 'p', response: 'r' } }])
    const main = (await sendAll(ws, [{ action: 'get_flow', data: { id: 'main' } }]))[0]!
    expect(main).toMatchObject({ status: 'success', data: { name: 'main' } })
    expect((main.data as { nodes: Array<{ id: string }> }).nodes.map((n) => n.id)).toEqual([made!.node_id])
    const byName = (await sendAll(ws, [{ action: 'get_flow', data: { name: 'main' } }]))[0]!
    expect(byName.data).toEqual(main.data)

    await sendAll(ws, [
      { action: 'create_flow', data: { name: 'twin' } },
      { action: 'create_flow', data: { name: 'twin' } },
    ])
    const [twin, both, none] = await sendAll(ws, [
      { action: 'get_flow', data: { name: 'twin' } },
      { action: 'get_flow', data: { id: 'main', name: 'main' } },
      { action: 'get_flow', data: {} },
    ])
    expect(twin!.error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('2 flows are named "twin"'),
    })
    expect(both!.error).toMatchObject({ code: 'bad_input', message: expect.stringContaining('give id or name') })
    expect(none!.error).toMatchObject({ code: 'bad_input' })
  })

  it('subscribe {event, flow_id} hears that flow only; {events} still hears all', async () => {
    const ws = await connect('/')
    const events = collectEvents(ws)
    const [other] = await sendAll(ws, [{ action: 'create_flow', data: { name: 'other' } }])
    const otherId = (other!.data as { id: string }).id
    const [subscribed] = await sendAll(ws, [{ action: 'subscribe', data: { event: 'node_created', flow_id: 'main' } }])
    expect(subscribed).toMatchObject({ status: 'success', data: { events: ['node_created'] } })
    await sendAll(ws, [
      { action: 'create_node', data: { flow_id: otherId, prompt: 'elsewhere', response: '' } },
      { action: 'create_node', data: { prompt: 'in main', response: '' } },
    ])
    await sendAll(ws, [{ action: 'subscribe', data: { events: ['flow_updated'] } }])
    await sendAll(ws, [{ action: 'create_node', data: { flow_id: otherId, prompt: 'again', response: '' } }])
    await expect.poll(() => events.filter((e) => e.event === 'flow_updated').length).toBeGreaterThan(0)
    const created = events
      .filter((e) => e.event === 'node_created')
      .map((e) => (e.data as { node: { prompt: string } }).node.prompt)
    expect(created).toEqual(['in main'])
    const [bad] = await sendAll(ws, [{ action: 'subscribe', data: { event: 'no_such_event' } }])
    expect(bad!.error).toMatchObject({ code: 'bad_input', message: 'subscribe: unknown event no_such_event' })
  })
})
