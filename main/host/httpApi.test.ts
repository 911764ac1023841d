import { request } from 'node:http'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { Flow, FlowSummary, Node } from '@shared/contract'
import { apiCall, sseCall, ssePost } from '../../tests/support/apiClient'
import { UI_TOKEN, useApiHost } from '../../tests/support/apiHost'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'
import { MAX_WAIT_MS } from '../kernel/afterFirstText'
import type { Router } from '../kernel/router'
import type { RateLimits } from './rateLimit'

const start = useLlmCore()
const startApiHost = useApiHost()

/** A real core (fake LLM over HTTP) behind the real host, with a persona and one API token. */
async function setup(rateLimits: RateLimits = { burst: 1000, perSecond: 1000 }) {
  const h = await start()
  const host = await startApiHost(h, { rateLimits })
  const persona = await h.call<{ id: string }>('create_persona', { name: 'Mika' })
  const { token, id } = await h.call<{ token: string; id: string }>('api_token_create', { name: 'camera script' })
  const auth = { authorization: `Bearer ${token}` }
  return { h, port: host.port, persona: persona.id, token, tokenId: id, auth }
}

async function externalFlow(h: LlmHarness): Promise<Flow> {
  const flows = await h.call<FlowSummary[]>('list_flows', {})
  const external = flows.find((f) => f.name === 'External')!
  return h.call<Flow>('get_flow', { id: external.id })
}

describe('HTTP API: /api/chat', () => {
  it('streams the reply as SSE, lands it in the persona’s External flow and memory, and continues there next time', async () => {
    const { h, port, persona, token } = await setup()
    h.fake.script({ chunks: ['Hel', 'lo ', 'there'] })
    const first = await sseCall(port, '/api/chat', token, { persona_id: persona, text: 'hi from the camera' })
    expect(first.status).toBe(200)
    const deltas = first.events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text)
    expect(deltas.join('')).toBe('Hello there')
    const done = first.events.at(-1)!
    expect(done.event).toBe('done')
    const {
      node_id: nodeId,
      unit_id: unitId,
      stats,
    } = done.data as { node_id: string; unit_id: number; stats: unknown }
    expect(stats).toMatchObject({ assistant: { count: expect.any(Number) } })
    expect(await h.call<Node>('get_node', { id: nodeId })).toMatchObject({
      prompt: 'hi from the camera',
      response: 'Hello there',
      status: 'complete',
    })
    const flow = await externalFlow(h)
    expect(flow).toMatchObject({ persona_id: persona, nodes: [{ id: nodeId }] })
    const unit = await h.call<{ unit: { source: string } }>('memory_get_unit', { persona_id: persona, unit_id: unitId })
    expect(JSON.stringify(unit)).toContain('hi from the camera')

    const second = await sseCall(port, '/api/chat', token, { persona_id: persona, text: 'and again' })
    const secondId = (second.events.at(-1)!.data as { node_id: string }).node_id
    expect((await externalFlow(h)).connections).toEqual([{ from: nodeId, to: secondId }])
  })

  it('stops the model when the client vanishes mid-stream and keeps what arrived, marked incomplete', async () => {
    const { h, port, persona, token } = await setup()
    h.fake.script({ chunks: ['first part ', 'never sent'], chunkDelayMs: 60_000 })
    const r = await sseCall(port, '/api/chat', token, { persona_id: persona, text: 'long one' }, (e) =>
      e.event === 'delta' ? 'hang-up' : undefined,
    )
    expect(r.hungUp).toBe(true)
    const flow = await expect
      .poll(async () => (await externalFlow(h)).nodes.length, { timeout: 15_000 })
      .toBe(1)
      .then(() => externalFlow(h))
    const nodeId = flow.nodes[0]!.id
    await expect
      .poll(async () => (await h.call<Node>('get_node', { id: nodeId })).status, { timeout: 15_000 })
      .toBe('incomplete')
    expect((await h.call<Node>('get_node', { id: nodeId })).response).toBe('first part ')
  })

  it('opens the stream at once, while the model has said nothing yet, with the node already stored', async () => {
    const { h, port, persona, token } = await setup()
    h.fake.script({ chunks: ['late'], delayMs: 60_000 })
    let leave = () => {}
    const head = await new Promise<{ status?: number; type?: string }>((resolve, reject) => {
      const req = request(ssePost(port, '/api/chat', token), (res) => {
        leave = () => req.destroy()
        resolve({ status: res.statusCode, type: res.headers['content-type'] })
      })
      req.on('error', reject)
      req.end(JSON.stringify({ persona_id: persona, text: 'are you there?' }))
    })
    try {
      expect(head).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8' })
      // The node is written after the model's request leaves, but before the stream is answered:
      // what the client was told has begun is in the database, marked as streaming.
      const tail = await h.call<{ parent_id: string | null }>('chat_target', { persona_id: persona })
      const node = await h.call<{ prompt: string; status: string }>('get_node', { id: tail.parent_id })
      expect(node).toMatchObject({ prompt: 'are you there?', status: 'streaming' })
    } finally {
      leave()
    }
  }, 20_000)

  it('sends the first text of a model that answers at once only once, while windows still hear of the node before it', async () => {
    const { h, port, persona, token } = await setup()
    // Windows learn of a new node from its write (node_created), then read its text: its first
    // node_stream must never come before, though the program is sent that text ahead of the write.
    const heard: string[] = []
    const stop = h.core.bus.listen((event, data) => {
      const d = data as { node_id?: string; node?: { id: string } }
      if (event === 'node_stream') heard.push(`text ${d.node_id}`)
      if (event === 'node_created') heard.push(`node ${d.node!.id}`)
    })
    try {
      for (const chunks of [['Hel', 'lo'], ['one chunk']]) {
        h.fake.script({ chunks, times: 1 })
        const r = await sseCall(port, '/api/chat', token, { persona_id: persona, text: chunks.join('') })
        const deltas = r.events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text)
        expect(deltas).toEqual(chunks)
        const { node_id: nodeId } = r.events.at(-1)!.data as { node_id: string }
        expect(heard.filter((line) => line.endsWith(nodeId))).toEqual([
          `node ${nodeId}`,
          ...chunks.map(() => `text ${nodeId}`),
        ])
        expect(await h.call<Node>('get_node', { id: nodeId })).toMatchObject({ response: chunks.join('') })
      }
    } finally {
      stop()
    }
  })

  it('keeps listening for the model while another program holds the database, and writes the node once it may', async () => {
    const { h, port, persona, token } = await setup()
    // The first call makes the persona's External flow: a write of its own, before any request.
    h.fake.script({ chunks: ['warm'], times: 1 })
    await sseCall(port, '/api/chat', token, { persona_id: persona, text: 'first' })
    await h.call('api_token_list', {}) // its call count written now, not in the window below
    let answer = () => {}
    h.fake.script({ chunks: ['Still ', 'here'], until: new Promise<void>((resolve) => (answer = resolve)) })
    const other = new Database(h.core.paths.db)
    try {
      other.prepare('BEGIN IMMEDIATE').run() // another process (the CLI, a backup) writing
      const asked = h.fake.requests.length
      const reply = sseCall(port, '/api/chat', token, { persona_id: persona, text: 'are you there?' })
      await expect.poll(() => h.fake.requests.length, { timeout: 15_000 }).toBe(asked + 1)
      // A timer due later than the node's write runs after it (Node runs timers in due order):
      // the write has been tried by now, and found the lock held.
      await new Promise((resolve) => setTimeout(resolve, MAX_WAIT_MS + 1))
      // The thread was not held waiting for the lock: it answers a call meanwhile.
      expect(await h.call<Array<{ id: string }>>('list_flows', {})).toHaveLength(1)
      other.prepare('COMMIT').run()
      answer()
      const r = await reply
      const deltas = r.events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text)
      expect(deltas.join('')).toBe('Still here')
      const { node_id: nodeId } = r.events.at(-1)!.data as { node_id: string }
      expect(await h.call<Node>('get_node', { id: nodeId })).toMatchObject({
        prompt: 'are you there?',
        response: 'Still here',
        status: 'complete',
      })
    } finally {
      if (other.inTransaction) other.prepare('ROLLBACK').run()
      other.close()
    }
  }, 30_000)

  it('answers an unknown persona with 404 naming the personas there are, before any node is made', async () => {
    const { h, port, auth } = await setup()
    const r = await apiCall(port, { path: '/api/chat', headers: auth, body: { persona_id: 'nobody', text: 'x' } })
    expect(r.status).toBe(404)
    expect(r.json()).toMatchObject({ error: { code: 'not_found', message: expect.stringContaining('Mika (') } })
    expect(await h.call<FlowSummary[]>('list_flows', {})).toEqual([])
  })
})

describe('HTTP API: refusals happen before any handler runs', () => {
  it('refuses foreign Origin, a rebinding Host, and missing, wrong, revoked or UI tokens', async () => {
    const { h, port, persona, auth, tokenId } = await setup()
    const body = { persona_id: persona, text: 'x' }
    const cases: Array<[Record<string, string>, number, RegExp]> = [
      [{ ...auth, origin: 'http://evil.example' }, 403, /Origin "http:\/\/evil.example" is not allowed/],
      [{ ...auth, host: 'evil.example:80' }, 403, /Host "evil.example:80" is not allowed/],
      [{}, 401, /missing API token/],
      [{ authorization: 'Bearer lvk_not-a-real-token' }, 401, /unknown or revoked API token/],
      [{ authorization: `Bearer ${UI_TOKEN}` }, 401, /launch token, not an API token/],
      [{ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 401, /missing API token/],
    ]
    for (const [headers, status, message] of cases) {
      const r = await apiCall(port, { path: '/api/chat', headers, body })
      const { error } = r.json() as { error: { message: string } }
      expect([r.status, error.message], JSON.stringify(headers)).toEqual([status, expect.stringMatching(message)])
    }
    await h.call('api_token_revoke', { id: tokenId })
    const revoked = await apiCall(port, { path: '/api/chat', headers: auth, body })
    expect(revoked.status).toBe(401)
    expect(await h.call<FlowSummary[]>('list_flows', {})).toEqual([])
    expect(h.fake.requests).toEqual([])
  })

  it('refuses an oversized body (413), malformed JSON and a bad field (400 naming it), and an unknown verb or path', async () => {
    const { h, port, auth } = await setup()
    const huge = await apiCall(port, { path: '/api/chat', headers: auth, raw: Buffer.alloc(21 * 1024 * 1024, 0x61) })
    expect(huge.status).toBe(413)
    const malformed = await apiCall(port, { path: '/api/chat', headers: auth, raw: '{"persona_id": ' })
    expect([malformed.status, malformed.json()]).toEqual([
      400,
      { error: { code: 'bad_request', message: 'the body is not valid JSON' } },
    ])
    const field = await apiCall(port, { path: '/api/chat', headers: auth, body: { persona_id: 'p', text: 5 } })
    expect(field.status).toBe(400)
    expect(field.json()).toMatchObject({
      error: { code: 'bad_input', message: expect.stringMatching(/^chat: text: /) },
    })
    const extra = await apiCall(port, {
      path: '/api/chat',
      headers: auth,
      body: { persona_id: 'p', text: 'x', path: '/etc' },
    })
    expect(extra.json()).toMatchObject({ error: { code: 'bad_input', message: expect.stringContaining('path') } })
    expect((await apiCall(port, { method: 'GET', path: '/api/chat', headers: auth })).headers.allow).toBe('POST')
    expect((await apiCall(port, { path: '/api/nothing', headers: auth })).status).toBe(404)
    expect(h.fake.requests).toEqual([])
  })

  it('answers 413 to a body declared over the limit without reading it, and closes the connection', async () => {
    const { h, port, auth } = await setup()
    // 1 GB announced, 64 KB sent: the answer must come without the rest, and the server hang up.
    const answer = await new Promise<{ status: number; connection: string | undefined; closed: boolean }>(
      (resolve, reject) => {
        const req = request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/chat',
          headers: {
            ...auth,
            host: `127.0.0.1:${port}`,
            'content-type': 'application/json',
            'content-length': 2 ** 30,
          },
        })
        req.on('error', () => {}) // the server hangs up while we could still be writing
        req.on('response', (res) => {
          res.resume()
          res.on('end', () => {
            const socket = res.socket
            const report = () => resolve({ status: res.statusCode!, connection: res.headers.connection, closed: true })
            if (socket.destroyed) report()
            else socket.once('close', report)
          })
        })
        req.on('timeout', () => reject(new Error('no answer')))
        req.write(Buffer.alloc(64 * 1024, 0x61))
      },
    )
    expect(answer).toEqual({ status: 413, connection: 'close', closed: true })
    expect(h.fake.requests).toEqual([])
  })

  it('takes the Bearer scheme in any case, as RFC 7235 says', async () => {
    const { port, token } = await setup()
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const r = await apiCall(port, {
        method: 'GET',
        path: '/api/openapi.json',
        headers: { authorization: `${scheme} ${token}` },
      })
      expect(r.status).toBe(200)
    }
  })

  it('chains concurrent calls that continue the same conversation, instead of making each a root', async () => {
    const h = await start()
    const calls = 10
    // Each message's node is held back until either a second one is waiting beside it (two calls
    // read the same tail: what went wrong) or every call has reached the host: the calls overlap
    // for certain, whatever the machine's speed.
    let arrived = 0
    let held = 0
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const router: Router = {
      async call(method, input, ctx) {
        if (method === 'chat_send') {
          if (++held >= 2) release()
          await released
        }
        return h.core.router.call(method, input, ctx)
      },
    }
    const host = await startApiHost(
      h,
      {
        useToken: (t) => {
          if (++arrived === calls) release()
          return h.core.apiTokens.use(t)
        },
      },
      router,
    )
    const persona = await h.call<{ id: string }>('create_persona', { name: 'Mika' })
    const { token } = await h.call<{ token: string }>('api_token_create', { name: 'camera script' })
    h.fake.script({ chunks: ['ok'], times: calls })
    const done = await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        sseCall(host.port, '/api/chat', token, { persona_id: persona.id, text: `message ${i}` }),
      ),
    )
    expect(done.map((d) => d.events.at(-1)!.event)).toEqual(Array(calls).fill('done'))
    const flow = await externalFlow(h)
    expect(flow.nodes).toHaveLength(calls)
    // One root, and every other message the child of the one before it.
    const children = new Set(flow.connections.map((c) => c.to))
    expect(flow.nodes.filter((m) => !children.has(m.id))).toHaveLength(1)
    expect(flow.connections).toHaveLength(calls - 1)
    expect(new Set(flow.connections.map((c) => c.from)).size).toBe(calls - 1)
  })

  it('holds the rate limit through a burst of 1,000 requests, with Retry-After, and keeps serving', async () => {
    // One request back every 1,000 s: on a loaded machine the burst takes seconds, and a refill
    // of one a second let a 22nd request through.
    const { h, port, auth } = await setup({ burst: 20, perSecond: 0.001 })
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () =>
        apiCall(port, { path: '/api/memory/status?persona_id=nobody', headers: auth }),
      ),
    )
    const limited = answers.filter((a) => a.status === 429)
    expect(answers.length - limited.length).toBe(20)
    expect(limited.length).toBe(980)
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    // Still up: the window's side answers, and the token list shows the calls counted.
    expect((await h.call<Array<{ calls: number }>>('api_token_list', {}))[0]!.calls).toBe(1000)
  })
})

describe('HTTP API: memory admin and the OpenAPI document', () => {
  it('lists, reads and pins memory units through the memory methods', async () => {
    const { port, persona, token, auth } = await setup()
    const chat = await sseCall(port, '/api/chat', token, { persona_id: persona, text: 'my cat is called Pepper' })
    const unitId = (chat.events.at(-1)!.data as { unit_id: number }).unit_id
    const list = await apiCall(port, { path: `/api/memory/units?persona_id=${persona}&limit=10`, headers: auth })
    expect(list.status).toBe(200)
    expect(JSON.stringify(list.json())).toContain('Pepper')
    const pinned = await apiCall(port, {
      path: `/api/memory/units/${unitId}/pin`,
      headers: auth,
      body: { persona_id: persona, pin: true },
    })
    expect([pinned.status, pinned.json()]).toEqual([200, expect.objectContaining({ id: unitId, pin: true })])
    const bad = await apiCall(port, {
      path: `/api/memory/units/${unitId}/pin`,
      headers: auth,
      body: { persona_id: persona },
    })
    expect(bad.json()).toMatchObject({ error: { code: 'bad_input', message: expect.stringContaining('pin') } })
  })

  it('describes itself as OpenAPI 3.1, made from the contract', async () => {
    const { port, auth } = await setup()
    const doc = (await apiCall(port, { path: '/api/openapi.json', headers: auth })).json() as {
      openapi: string
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>
      >
    }
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/chat', '/api/memory/units/{id}/pin']))
    expect(doc.paths['/api/chat']!.post!.requestBody!.content['application/json']!.schema.required).toEqual(
      expect.arrayContaining(['persona_id', 'text']),
    )
    expect(
      doc.paths['/api/memory/units/{id}/pin']!.post!.requestBody!.content['application/json']!.schema.required,
    ).toEqual(expect.arrayContaining(['persona_id', 'pin']))
  })
})
