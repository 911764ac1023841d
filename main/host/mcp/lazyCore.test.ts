import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Core } from '../../core'
import { LazyCore } from './lazyCore'

// The MCP server's core opens on a call and closes after a quiet spell, so a client that keeps
// `loomverse mcp` running for days never holds the data folder between calls.

function counting() {
  const opened: string[] = []
  const open = () => {
    opened.push('open')
    return { dispose: async () => void opened.push('close') } as unknown as Core
  }
  return { opened, open }
}

afterEach(() => vi.useRealTimers())

describe('LazyCore', () => {
  it('opens on the first call, shares it while calls come, and closes once idle', async () => {
    vi.useFakeTimers()
    const { opened, open } = counting()
    const cores = new LazyCore(open, 1000)
    expect(cores.isOpen).toBe(false)
    await cores.use(() => 1)
    await cores.use(() => 2)
    expect(opened).toEqual(['open'])
    await vi.advanceTimersByTimeAsync(999)
    expect(cores.isOpen).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(opened).toEqual(['open', 'close'])
    await cores.use(() => 3)
    expect(opened).toEqual(['open', 'close', 'open'])
    await cores.dispose()
  })

  it('stays open while a notification is being answered', async () => {
    vi.useFakeTimers()
    const { opened, open } = counting()
    const cores = new LazyCore(open, 1000)
    let replied!: () => void
    await cores.use(() => cores.holdUntil(new Promise<void>((r) => (replied = r))))
    await vi.advanceTimersByTimeAsync(5000)
    expect(opened).toEqual(['open'])
    replied()
    await vi.advanceTimersByTimeAsync(1000)
    expect(opened).toEqual(['open', 'close'])
  })
})
