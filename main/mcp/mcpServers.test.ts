import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { McpServerList } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'
import { userConfirms } from '../../tests/support/mcp/mcpTurns'

// The servers of mcp.json as the app runs them: real MCP servers from npm (the reference
// "everything" and "filesystem" servers), child processes speaking MCP over stdio, and the
// everything server over Streamable HTTP.

const repoRoot = resolve(import.meta.dirname, '../..')
const everything = {
  command: process.execPath,
  args: [join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
}
const setup = useLlmCore({
  memoryWorker: null,
  mcpCommands: userConfirms,
  mcpTimeouts: { startMs: 20_000, callMs: 3_000, backoffMs: 50 },
})

const names = (l: McpServerList) => l.servers.map((s) => [s.name, s.status])

describe('MCP servers from mcp.json', () => {
  it('adds servers, starts them when asked, lists their tools; writes the mcpServers format other apps read', async () => {
    const h = await setup()
    const fsRoot = h.core.paths.home
    await h.call('mcp_save_server', { name: 'everything', config: everything })
    let list = await h.call<McpServerList>('mcp_save_server', {
      name: 'files',
      config: {
        command: process.execPath,
        args: [join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), fsRoot],
      },
    })
    expect(names(list)).toEqual([
      ['everything', 'idle'],
      ['files', 'idle'],
    ])
    list = await h.call<McpServerList>('mcp_list_servers', { start: true })
    expect(names(list)).toEqual([
      ['everything', 'connected'],
      ['files', 'connected'],
    ])
    expect(list.servers[0]!.tools.map((t) => t.name)).toContain('echo')
    expect(list.servers[1]!.tools.map((t) => t.name)).toContain('read_text_file')
    const file = JSON.parse(readFileSync(join(h.core.paths.home, 'mcp.json'), 'utf8'))
    expect(Object.keys(file.mcpServers)).toEqual(['everything', 'files'])

    list = await h.call<McpServerList>('mcp_set_enabled', { name: 'files', enabled: false })
    expect(names(list)).toEqual([
      ['everything', 'connected'],
      ['files', 'disabled'],
    ])
    const log = await h.call<{ lines: string[] }>('mcp_server_log', { name: 'everything' })
    expect(log.lines.join('\n')).toMatch(/connected: \d+ tools/)
  }, 60_000)

  it('reports a broken file with its line, keeps it as it is, and refuses to write over it', async () => {
    const h = await setup()
    const path = join(h.core.paths.home, 'mcp.json')
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "x" },\n    "b": { "args": [] }\n  }\n}\n'
    writeFileSync(path, broken)
    const list = await h.call<McpServerList>('mcp_list_servers', {})
    expect(list.file_error).toMatch(/^mcp\.json: line 4: server "b" needs "command"/)
    await expect(h.call('mcp_save_server', { name: 'c', config: everything })).rejects.toThrow(/fix mcp\.json first/)
    expect(readFileSync(path, 'utf8')).toBe(broken)

    writeFileSync(path, '{\n  "mcpServers": {\n    "a": { "command": "x" },\n  }\n}\n')
    expect((await h.call<McpServerList>('mcp_list_servers', {})).file_error).toMatch(/^mcp\.json: line 4: /)
  })

  it('imports another app’s file, skipping names it has; a server that cannot start says why', async () => {
    const h = await setup()
    await h.call('mcp_save_server', { name: 'everything', config: everything })
    const imported = await h.call<{ added: string[]; skipped: string[] }>('mcp_import', {
      text: JSON.stringify({
        mcpServers: { everything: everything, missing: { command: join(h.core.paths.home, 'no-such-program') } },
      }),
    })
    expect(imported).toMatchObject({ added: ['missing'], skipped: ['everything'] })
    const tested = await h.call<{ status: string; error?: string }>('mcp_test_server', { name: 'missing' })
    expect(tested.status).toBe('failed')
    expect(tested.error).toBeTruthy()
    await expect(h.call('mcp_import', { text: '{"mcpServers": [' })).rejects.toThrow(/the imported file: line 1/)
  }, 60_000)
})

describe('a Streamable HTTP server', () => {
  it('connects by its url and lists its tools', async () => {
    const h = await setup()
    const port = await freePort()
    const child = spawn(everything.command, [everything.args[0]!, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (b: Buffer) => b.toString().includes('listening') && resolve())
        child.once('exit', (code) => reject(new Error(`the server exited (${code})`)))
      })
      await h.call('mcp_save_server', { name: 'web', config: { url: `http://127.0.0.1:${port}/mcp` } })
      const tested = await h.call<{ status: string; tools: Array<{ name: string }> }>('mcp_test_server', {
        name: 'web',
      })
      expect(tested.status).toBe('connected')
      expect(tested.tools.map((t) => t.name)).toContain('echo')
    } finally {
      child.kill()
    }
  }, 60_000)
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}
