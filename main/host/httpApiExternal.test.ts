import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Flow, FlowSummary } from '@shared/contract'
import { apiCall } from '../../tests/support/apiClient'
import { useLlmCore } from '../../tests/support/llmCore'
import type { StreamMessage } from './eventStream'
import { startHost, type Host } from './wsHost'

// Seed 004's /api/notification and /api/meta_request sequences, heard on /api/events/stream.

const start = useLlmCore()
const hosts: Host[] = []
const sockets: WebSocket[] = []
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.close()
  for (const h of hosts.splice(0)) await h.close()
})

async function setup() {
  const h = await start()
  const host = await startHost({
    router: h.core.router,
    bus: h.core.bus,
    token: 'ui-launch-token-0123456789abcdef',
    port: 0,
    staticDir: null,
    api: { useToken: (t) => h.core.apiTokens.use(t), version: 'test' },
  })
  hosts.push(host)
  const persona = await h.call<{ id: string }>('create_persona', { name: 'Mika' })
  const { token } = await h.call<{ token: string }>('api_token_create', { name: 'bridge' })
  return { h, port: host.port, persona: persona.id, token, auth: { authorization: `Bearer ${token}` } }
}

/** Opens the event stream with the token and collects what it publishes. */
async function listen(port: number, token: string): Promise<StreamMessage[]> {
  const heard: StreamMessage[] = []
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events/stream`, {
    headers: { authorization: `Bearer ${token}` },
  })
  sockets.push(ws)
  ws.on('message', (raw) => heard.push(JSON.parse(raw.toString()) as StreamMessage))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return heard
}

describe('HTTP API: notifications and meta requests (seed 004)', () => {
  it('answers a notification with its unit at once, then the persona’s reply on the stream, in memory and in the External flow', async () => {
    const { h, port, persona, token, auth } = await setup()
    const heard = await listen(port, token)
    h.fake.script({ promptIncludes: 'calendar', reply: 'You have the dentist at three!', delayMs: 2000 })
    const r = await apiCall(port, {
      path: '/api/notification',
      headers: auth,
      body: { source_system: 'calendar', text: 'Dentist 15:00' },
    })
    expect(r.status).toBe(200)
    const { unit_id: unitId } = r.json() as { unit_id: number }
    // The placeholder is there before the reply: the system's text, no reply yet.
    const placeholder = await h.call<{ payload: Record<string, unknown> }>('memory_get_unit', {
      persona_id: persona,
      unit_id: unitId,
    })
    expect(placeholder.payload).toMatchObject({ user_text: 'Dentist 15:00', reply_text: null })

    await expect.poll(() => heard.find((m) => m.type === 'notification'), { timeout: 15_000 }).toBeTruthy()
    expect(heard.find((m) => m.type === 'notification')).toEqual({
      unit_id: unitId,
      type: 'notification',
      persona_id: persona,
      data: { system_text: 'Dentist 15:00', message: 'You have the dentist at three!' },
    })
    const unit = await h.call<{ unit: { source: string }; payload: Record<string, unknown> }>('memory_get_unit', {
      persona_id: persona,
      unit_id: unitId,
    })
    expect(unit.payload).toMatchObject({ user_text: 'Dentist 15:00', reply_text: 'You have the dentist at three!' })
    expect(JSON.stringify(unit)).toContain('notification')
    const flows = await h.call<FlowSummary[]>('list_flows', {})
    const external = await h.call<Flow & { nodes: Array<{ id: string }> }>('get_flow', {
      id: flows.find((f) => f.name === 'External')!.id,
    })
    const node = await h.call<{ prompt: string; response: string }>('get_node', { id: external.nodes[0]!.id })
    expect(node).toMatchObject({ prompt: '[calendar] Dentist 15:00', response: 'You have the dentist at three!' })
    // The model was told where it came from, with the persona's own voice (found by its text: the
    // memory worker's jobs for the new episode may reach the model right after it).
    const asked = h.fake.requests.map((r) => JSON.stringify(r.body)).filter((b) => b.includes('Dentist 15:00'))
    expect(asked.some((b) => b.includes('You are Mika.'))).toBe(true)
  })

  it('stores a meta request as [redacted] and queues only its embedding', async () => {
    const { h, port, persona, token, auth } = await setup()
    const heard = await listen(port, token)
    h.fake.script({ promptIncludes: 'Summarise', reply: 'Three meetings tomorrow.' })
    const r = await apiCall(port, {
      path: '/api/meta_request',
      headers: auth,
      body: { memory_id: persona, instruction: 'Summarise for the user', payload_text: 'secret agenda text' },
    })
    const { unit_id: unitId } = r.json() as { unit_id: number }
    await expect
      .poll(() => heard.find((m) => m.type === 'meta_request'), { timeout: 15_000 })
      .toMatchObject({
        unit_id: unitId,
        data: { message: 'Three meetings tomorrow.' },
      })
    const unit = await h.call<{ payload: Record<string, unknown> }>('memory_get_unit', {
      persona_id: persona,
      unit_id: unitId,
    })
    expect(unit.payload).toMatchObject({ user_text: '[redacted]', reply_text: 'Three meetings tomorrow.' })
    expect(JSON.stringify(unit)).not.toContain('secret agenda text')
    const jobs = await h.call<{ jobs: Array<{ kind: string }> }>('memory_list_jobs', { persona_id: persona })
    expect(jobs.jobs.filter((j) => j.kind !== 'embed')).toEqual([])
  })

  it('refuses a notification naming no persona when there are several, and the stream without an API token', async () => {
    const { h, port, auth } = await setup()
    await h.call('create_persona', { name: 'Ren' })
    const r = await apiCall(port, { path: '/api/notification', headers: auth, body: { source_system: 'x', text: 'y' } })
    expect([r.status, r.json()]).toEqual([
      400,
      { error: { code: 'bad_input', message: expect.stringMatching(/^persona_id: say which persona.*Mika.*Ren/) } },
    ])
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events/stream`, {
        headers: { authorization: 'Bearer ui-launch-token-0123456789abcdef' },
      })
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.once('open', () => resolve(101))
    })
    expect(refused).toBe(401)
  })
})
