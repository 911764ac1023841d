import { describe, expect, it } from 'vitest'
import type { MessageBoxOptions } from 'electron'
import { nativeCommandConfirmer } from './mcpCommandDialog'

const request = {
  server: 'files',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', 'My Notes'],
  cwd: '/data',
  envNames: ['GITHUB_TOKEN'],
}

describe('the native dialog confirming an MCP command', () => {
  it('shows the command line, folder and variable names; Run only when chosen, never by default', async () => {
    const shown: MessageBoxOptions[] = []
    const answers = [0, 1]
    const confirmer = nativeCommandConfirmer((options) => {
      shown.push(options)
      return Promise.resolve({ response: answers.shift()! })
    })
    expect(confirmer.asksOnStart).toBe(true)
    expect(await confirmer.confirm(request)).toBe(true)
    expect(await confirmer.confirm(request)).toBe(false)
    expect(shown[0]!.detail).toContain('npx -y @modelcontextprotocol/server-filesystem "My Notes"')
    expect(shown[0]!.detail).toContain('In the folder: /data')
    expect(shown[0]!.detail).toContain('GITHUB_TOKEN')
    expect(shown[0]!.buttons![shown[0]!.defaultId!]).toBe("Don't run")
    expect(shown[0]!.cancelId).toBe(shown[0]!.defaultId)
  })

  it('asks once while a dialog for the same command is open', async () => {
    let answer: (r: { response: number }) => void = () => {}
    let shown = 0
    const confirmer = nativeCommandConfirmer(() => {
      shown++
      return new Promise((r) => (answer = r))
    })
    const both = Promise.all([confirmer.confirm(request), confirmer.confirm(request)])
    answer({ response: 0 })
    expect(await both).toEqual([true, true])
    expect(shown).toBe(1)
  })
})
