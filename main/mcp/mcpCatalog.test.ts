import { describe, expect, it } from 'vitest'
import type { McpPromptInfo, McpResourceInfo, McpResourceRead } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'
import { testServers, userConfirms } from '../../tests/support/mcp/mcpTurns'

// The reference everything server's resources (attached to a message like a file) and prompts
// (commands that fill the composer), as the app lists and reads them.

const setup = useLlmCore({ memoryWorker: null, mcpCommands: userConfirms, mcpTimeouts: { startMs: 20_000 } })

describe('MCP resources and prompts', () => {
  it('lists the resources of started servers and reads one as text', async () => {
    const h = await setup()
    await h.call('mcp_save_server', { name: 'everything', config: testServers.everything })
    // The palette never starts a server: nothing is listed before one is running.
    expect(await h.call('mcp_list_resources', {})).toEqual([])
    const resources = await h.call<McpResourceInfo[]>('mcp_list_resources', { start: true })
    const text = resources.find((r) => r.name === 'architecture.md')!
    expect(text).toMatchObject({ server: 'everything', mime: 'text/markdown' })
    const read = await h.call<McpResourceRead>('mcp_read_resource', {
      server: 'everything',
      uri: text.uri,
    })
    expect(read.text.length).toBeGreaterThan(10)
    expect(read.note).toBeNull()
  }, 60_000)

  it('reads binary resources as a file is attached: a picture as a picture, text sent as a blob as text, other bytes named with type and size; too big is refused, saying how big', async () => {
    const h = await setup()
    await h.call('mcp_save_server', { name: 'unruly', config: testServers.unruly })
    const uris = new Map(
      (await h.call<McpResourceInfo[]>('mcp_list_resources', { start: true })).map((r) => [r.name, r.uri]),
    )
    const read = (name: string) =>
      h.core.router.call('mcp_read_resource', { server: 'unruly', uri: uris.get(name)! }, { transport: 'internal' })

    expect(await read('dot.png')).toMatchObject({
      ok: true,
      value: {
        text: '',
        images: [{ uri: 'unruly://dot.png', mime: 'image/png', data_base64: expect.stringMatching(/^iVBORw0KGgo/) }],
        files: [],
      },
    })
    expect(await read('notes.txt')).toMatchObject({
      ok: true,
      value: { text: 'Notes: buy milk', images: [], files: [] },
    })
    expect(await read('report.pdf')).toMatchObject({
      ok: true,
      value: { text: '', images: [], files: [{ uri: 'unruly://report.pdf', mime: 'application/pdf', bytes: 3009 }] },
    })
    expect(await read('big.bin')).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: expect.stringMatching(
          /"unruly:\/\/big\.bin" is 16\.0 MiB as the server sent it, more than the 10\.0 MiB .*cannot be attached/,
        ),
      },
    })
    // The server is still there for the next read.
    expect(await read('notes.txt')).toMatchObject({ ok: true })
  }, 60_000)

  it('lists prompts with their arguments and fills one in', async () => {
    const h = await setup()
    await h.call('mcp_save_server', { name: 'everything', config: testServers.everything })
    const prompts = await h.call<McpPromptInfo[]>('mcp_list_prompts', { start: true })
    expect(prompts.find((p) => p.name === 'args-prompt')).toEqual({
      server: 'everything',
      name: 'args-prompt',
      description: expect.any(String),
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ],
    })
    const simple = await h.call<{ text: string }>('mcp_get_prompt', {
      server: 'everything',
      name: 'simple-prompt',
      arguments: {},
    })
    expect(simple.text.length).toBeGreaterThan(5)
    const filled = await h.call<{ text: string }>('mcp_get_prompt', {
      server: 'everything',
      name: 'args-prompt',
      arguments: { city: 'Kyoto' },
    })
    expect(filled.text).toContain('Kyoto')
  }, 60_000)
})
