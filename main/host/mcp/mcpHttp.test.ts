import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { apiCall, type ApiAnswer } from '../../../tests/support/apiClient'
import { UI_TOKEN, useApiHost } from '../../../tests/support/apiHost'
import { useLlmCore, type LlmHarness } from '../../../tests/support/llmCore'
import { SECRET_CARD, expectMikasMemory, resultText as text, seedMemory } from '../../../tests/support/mcpMemorySeed'
import { mcpCallLog } from './callLog'
import { memoryOverHttp } from './mcpHttp'

// The memory server as `serve` offers it at /api/mcp: the real loopback host (the HTTP API's
// Host, Origin, token and rate checks) over a real core, driven by the SDK's own Streamable
// HTTP client the way an agent configured with a URL would.

const start = useLlmCore({ memoryWorker: null })
const startApiHost = useApiHost()
const clients: Client[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close()
})

/** The host as serve runs it: the memory server at /api/mcp; an API token for the agent. */
async function serving(h: LlmHarness, allowWrites = false) {
  const host = await startApiHost(h, {
    mcp: memoryOverHttp({ core: h.core, allowWrites, logCall: mcpCallLog(h.core.paths.home, () => {}) }),
  })
  const { token } = await h.call<{ token: string }>('api_token_create', { name: 'Cursor' })
  return { port: host.port, token }
}

async function connect(port: number, headers: Record<string, string>, query = ''): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/api/mcp${query}`), {
    requestInit: { headers },
  })
  const client = new Client({ name: 'loomverse-test', version: '1' })
  await client.connect(transport)
  clients.push(client)
  return client
}

/** An MCP initialize as a client's first POST, with exactly these headers. */
function initialize(port: number, headers: Record<string, string>) {
  return apiCall(port, {
    path: '/api/mcp',
    headers: { accept: 'application/json, text/event-stream', ...headers },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    },
  })
}

const message = (a: ApiAnswer) => (a.json() as { error: { message: string } }).error.message

describe('memory server over Streamable HTTP (serve, /api/mcp)', () => {
  it("searches a persona's memory with the conversation it came from and reads a conversation; never a SECRET unit; every call logged", async () => {
    const h = await start()
    const seeded = await seedMemory(h)
    const { port, token } = await serving(h)
    const client = await connect(port, { Authorization: `Bearer ${token}` }, '?persona=Mika')
    await expectMikasMemory(client, seeded)
    expect(text(await client.callTool({ name: 'memory_pack', arguments: { query: 'Pepper?' } }))).not.toContain(
      SECRET_CARD,
    )

    const resources = await client.listResources()
    expect(resources.resources.map((r) => r.name)).toEqual(['Pets']) // Ren's conversation is not Mika's
    const md = await client.readResource({ uri: resources.resources[0]!.uri })
    expect((md.contents[0] as { text: string }).text).toBe('# Pets\n\n> I adopted a cat named Pepper.\n\nPepper!\n')

    const log = readFileSync(join(h.core.paths.home, 'logs', 'mcp-server.log'), 'utf8')
    expect(log).toMatch(/"Cursor": memory_search ok/)
    expect(log).toMatch(/"Cursor": read loomverse:\/\/conversation\/\S+ ok/)
  }, 60_000)

  it('refuses a missing, wrong or window token (401), a foreign Origin or Host (403), and an unknown ?persona=, before any tool runs', async () => {
    const h = await start()
    await seedMemory(h)
    const { port, token } = await serving(h)

    const missing = await initialize(port, {})
    expect(missing.status).toBe(401)
    expect(message(missing)).toContain('missing API token')
    expect((await initialize(port, { authorization: 'Bearer lvk_nope' })).status).toBe(401)
    expect(message(await initialize(port, { authorization: `Bearer ${UI_TOKEN}` }))).toContain("window's launch token")
    const bearer = { authorization: `Bearer ${token}` }
    const origin = await initialize(port, { ...bearer, origin: 'https://evil.example' })
    expect(origin.status).toBe(403)
    expect(message(origin)).toBe('Origin "https://evil.example" is not allowed')
    const host = await initialize(port, { ...bearer, host: `attacker.example:${port}` })
    expect(host.status).toBe(403)
    expect(message(host)).toBe(`Host "attacker.example:${port}" is not allowed`)
    const persona = await apiCall(port, { path: '/api/mcp?persona=Nobody', headers: bearer, body: {} })
    expect(persona.status).toBe(404)
    expect(message(persona)).toMatch(/no persona "Nobody".*Mika.*Ren/)

    // The SDK's client sees the refusal too, and says so, instead of hanging.
    await expect(connect(port, { Authorization: 'Bearer lvk_nope' })).rejects.toThrow(/401|unknown or revoked/i)
    expect((await initialize(port, bearer)).status).toBe(200)
  }, 60_000)

  it('refuses notify unless the token or serve grants writes (mcp_writes, --mcp-allow-writes); granted, the persona gets the notification', async () => {
    const h = await start()
    const { mika } = await seedMemory(h)
    const readOnly = await serving(h)
    const reader = await connect(readOnly.port, { Authorization: `Bearer ${readOnly.token}` }, '?persona=Mika')
    expect((await reader.listTools()).tools.map((t) => t.name)).not.toContain('notify')
    const refused = await reader
      .callTool({ name: 'notify', arguments: { text: 'The vet says Pepper is healthy.' } })
      .then(
        (r) => (r.isError ? text(r) : 'accepted'),
        (e: Error) => e.message,
      )
    expect(refused).toMatch(/notify.*not found/i)
    expect(
      (await h.call<{ units: unknown[] }>('memory_list_units', { persona_id: mika.id, query: 'healthy' })).units,
    ).toEqual([])

    // A token made to notify (Connected programs) may, on the same read-only host.
    const made = await h.call<{ token: string }>('api_token_create', { name: 'Claude Desktop', mcp_writes: true })
    const granted = await connect(readOnly.port, { Authorization: `Bearer ${made.token}` }, '?persona=Mika')
    expect((await granted.listTools()).tools.map((t) => t.name)).toContain('notify')

    const writable = await serving(h, true)
    const writer = await connect(writable.port, { Authorization: `Bearer ${writable.token}` }, '?persona=Mika')
    const notified = await writer.callTool({
      name: 'notify',
      arguments: { text: 'The vet says Pepper is healthy.', source: 'calendar' },
    })
    const { unit_id } = JSON.parse(text(notified)) as { unit_id: number }
    const stored = await h.call<{ unit: { source: string; text: string } }>('memory_get_unit', {
      persona_id: mika.id,
      unit_id,
    })
    expect(stored.unit).toMatchObject({ source: 'notification', text: expect.stringContaining('Pepper is healthy') })
  }, 60_000)
})
