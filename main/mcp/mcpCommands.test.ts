import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { McpServerInfo, McpServerList } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'
import { testServers } from '../../tests/support/mcp/mcpTurns'
import { refuseCommands, type CommandConfirmer, type CommandRequest } from './mcpCommands'

// Any window can write a stdio server into mcp.json; its command runs only once the user
// confirmed it as it stands: in browser mode from the app (Run), in the desktop app in a native
// dialog (injected here), never under --no-mcp-commands. A changed command asks again.

const setup = useLlmCore({ memoryWorker: null, mcpTimeouts: { startMs: 20_000, callMs: 3_000, backoffMs: 50 } })

/** A "server" that only leaves a mark that it ran. */
const marking = (marker: string) => ({
  command: process.execPath,
  args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
})

const statusOf = async (h: Awaited<ReturnType<typeof setup>>, name: string) =>
  (await h.call<McpServerList>('mcp_list_servers', { start: true })).servers.find((s) => s.name === name)!

/** A native dialog's stand-in: answers as told and remembers what it was shown. */
function dialog(answers: boolean[]): CommandConfirmer & { asked: CommandRequest[] } {
  const asked: CommandRequest[] = []
  return {
    asked,
    asksOnStart: true,
    confirm: (request) => {
      asked.push(request)
      return Promise.resolve(answers.shift() ?? false)
    },
  }
}

describe('MCP stdio commands need the user to confirm them', () => {
  it('browser mode: a new command waits for Run in the app, and a changed one waits again', async () => {
    const h = await setup()
    const marker = join(h.core.paths.home, 'ran.txt')
    await h.call('mcp_save_server', { name: 'sneaky', config: marking(marker) })
    await h.call('mcp_save_server', { name: 'everything', config: testServers.everything })
    const waiting = await statusOf(h, 'sneaky')
    expect(waiting).toMatchObject({ status: 'unconfirmed', error: expect.stringMatching(/once you confirm it/) })
    expect((await statusOf(h, 'everything')).status).toBe('unconfirmed')
    expect(existsSync(marker)).toBe(false)

    const confirmed = await h.call<McpServerInfo>('mcp_confirm_command', { name: 'everything' })
    expect(confirmed.status).toBe('connected')
    expect(confirmed.tools.map((t) => t.name)).toContain('echo')

    // The same command later (a restart of the app) runs without asking; a changed one waits.
    await h.call('mcp_test_server', { name: 'everything' })
    expect((await statusOf(h, 'everything')).status).toBe('connected')
    const changed = { ...testServers.everything, env: { EXTRA: 'x' } }
    await h.call('mcp_save_server', { name: 'everything', config: changed })
    expect((await statusOf(h, 'everything')).status).toBe('unconfirmed')
    expect(existsSync(marker)).toBe(false)
  }, 60_000)

  it('desktop app: a native dialog asks once before the command runs; declined, it does not run', async () => {
    const native = dialog([false, true])
    const h = await setup({ mcpCommands: native })
    const marker = join(h.core.paths.home, 'ran.txt')
    await h.call('mcp_save_server', { name: 'tool', config: { ...marking(marker), env: { TOKEN: 'sk-hidden-1234' } } })
    expect((await statusOf(h, 'tool')).status).toBe('unconfirmed')
    expect(native.asked).toEqual([
      {
        server: 'tool',
        command: process.execPath,
        args: marking(marker).args,
        cwd: h.core.paths.home,
        envNames: ['TOKEN'],
      },
    ])
    expect(JSON.stringify(native.asked)).not.toContain('sk-hidden')
    expect(existsSync(marker)).toBe(false)
    // Declined: not asked again by every reply, only when the user asks to run it.
    await statusOf(h, 'tool')
    expect(native.asked).toHaveLength(1)
    await h.call('mcp_confirm_command', { name: 'tool' })
    expect(native.asked).toHaveLength(2)
    await expect.poll(() => existsSync(marker)).toBe(true)
  }, 60_000)

  it('--no-mcp-commands: no command runs, whatever a window asks', async () => {
    const h = await setup({ mcpCommands: refuseCommands })
    const marker = join(h.core.paths.home, 'ran.txt')
    await h.call('mcp_save_server', { name: 'sneaky', config: marking(marker) })
    const info = await h.call<McpServerInfo>('mcp_confirm_command', { name: 'sneaky' })
    expect(info).toMatchObject({ status: 'unconfirmed', error: expect.stringMatching(/--no-mcp-commands/) })
    expect(existsSync(marker)).toBe(false)
  }, 30_000)
})
