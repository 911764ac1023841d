import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, describe, expect, it } from 'vitest'
import { useLlmCore, type LlmHarness } from '../../../tests/support/llmCore'
import { SECRET_CARD, expectMikasMemory, resultText as text, seedMemory } from '../../../tests/support/mcpMemorySeed'

// `loomverse mcp` as Claude Desktop or Cursor runs it: a child process speaking MCP on its
// stdin/stdout, driven by the SDK's own client, while the app (the harness's core) has the
// same data folder open.

const repoRoot = resolve(import.meta.dirname, '../../..')
const setup = useLlmCore({ memoryWorker: null })
const clients: Client[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close()
})

async function connect(h: LlmHarness, args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--import',
      pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href,
      join(repoRoot, 'tests/support/serveFromSource.ts'),
      'mcp',
      '--home',
      h.core.paths.home,
      ...args,
    ],
    env: { ...(process.env as Record<string, string>), TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.node.json') },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString()))
  const client = new Client({ name: 'loomverse-test', version: '1' })
  clients.push(client)
  await client.connect(transport)
  return { client, stderr: () => stderr }
}

describe('loomverse mcp', () => {
  it('offers one persona read-only: search with the conversation it came from, pack, conversations, nodes; never a SECRET unit', async () => {
    const h = await setup()
    const seeded = await seedMemory(h)
    const { mika, first } = seeded
    const { client } = await connect(h, ['--persona', 'Mika'])
    await expectMikasMemory(client, seeded)

    const pack = await client.callTool({ name: 'memory_pack', arguments: { query: 'What is Pepper?', budget: 800 } })
    expect(text(pack)).toContain('tabby')
    expect(text(pack)).not.toContain(SECRET_CARD)

    const flows = JSON.parse(text(await client.callTool({ name: 'list_conversations', arguments: {} })))
    expect(flows.map((f: { name: string }) => f.name)).toEqual(['Pets']) // Ren's is not Mika's

    const node = JSON.parse(text(await client.callTool({ name: 'read_node', arguments: { node_id: first } })))
    expect(node).toMatchObject({ prompt: 'I adopted a cat named Pepper.', response: 'Pepper!' })

    const resources = await client.listResources()
    expect(resources.resources.map((r) => r.name)).toEqual(['Pets'])
    const md = await client.readResource({ uri: resources.resources[0]!.uri })
    expect((md.contents[0] as { text: string }).text).toBe('# Pets\n\n> I adopted a cat named Pepper.\n\nPepper!\n')

    const log = readFileSync(join(h.core.paths.home, 'logs', 'mcp-server.log'), 'utf8')
    expect(log).toMatch(/memory_search ok/)
    expect(log).toMatch(/read_node ok/)
    expect(mika.id).toBeTruthy()
  }, 60_000)

  it('says what was wrong: an unknown node, a missing persona among several; notify only with --allow-writes', async () => {
    const h = await setup()
    const { mika } = await seedMemory(h)
    const { client } = await connect(h, [])
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('notify')

    const unknown = await client.callTool({ name: 'read_node', arguments: { node_id: 'nope' } })
    expect(unknown.isError).toBe(true)
    expect(text(unknown)).toContain('no node "nope"')

    const which = await client.callTool({ name: 'memory_search', arguments: { query: 'Pepper' } })
    expect(which.isError).toBe(true)
    expect(text(which)).toMatch(/say which persona.*Mika.*Ren/)

    const { client: writer } = await connect(h, ['--allow-writes'])
    const notified = await writer.callTool({
      name: 'notify',
      arguments: { persona: 'Mika', text: 'The vet says Pepper is healthy.', source: 'calendar' },
    })
    const { unit_id } = JSON.parse(text(notified)) as { unit_id: number }
    const stored = await h.call<{ unit: { source: string; text: string } }>('memory_get_unit', {
      persona_id: mika.id,
      unit_id,
    })
    expect(stored.unit.source).toBe('notification')
    expect(stored.unit.text).toContain('Pepper is healthy')
  }, 60_000)
})
