import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FlowView, Node } from '@shared/contract'
import { fakeClient } from '../../../tests/renderer/support/fakeClient'
import { flowOf } from '../../../tests/renderer/support/flowOf'
import { createAppStore } from '.'

// A reply streams into a conversation the window is opening: its pieces are heard before the
// host's answer (which holds them, as sent so far) and are painted at the next frame.

const F = '00000000-0000-4000-8000-00000000000f'
const N1 = '00000000-0000-4000-8000-000000000001'

function view(response: string): FlowView {
  const node: Node = {
    id: N1,
    timestamp: '2026-01-01T00:00:00Z',
    prompt: 'Say hello',
    response,
    status: 'streaming',
    error: null,
    metadata: { model: 'm', stats: {}, summary: { text: '', updated: false, last_built: null }, tags: [] },
  }
  return {
    flow: { ...flowOf(F, [N1], []), name: 'Hello' },
    nodes: [node],
    version: 1,
    focus_id: N1,
    complete: true,
    total: 1,
  }
}

/** Past the next paint of streamed text (where there are no frames, a timer of 16 ms). */
const nextFrame = () => vi.advanceTimersByTime(20)

describe('a conversation opened while its reply streams', () => {
  afterEach(() => vi.useRealTimers())

  it('shows each piece once: those heard before the answer are in it already', async () => {
    vi.useFakeTimers()
    let answer: (v: FlowView) => void = () => {}
    const fake = fakeClient(async (method) => {
      if (method === 'open_flow') return { ok: true, value: await new Promise<FlowView>((r) => (answer = r)) }
      if (method === 'get_undo_state')
        return { ok: true, value: { can_undo: false, can_redo: false, undo_label: null, redo_label: null } }
      return undefined
    })
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => {} })
    const store = createAppStore(fake.client)
    const opened = store.getState().openFlow(F)
    fake.emit('node_stream', { node_id: N1, delta: 'Hello ' })
    answer(view('Hello '))
    await opened
    nextFrame()
    expect(store.getState().nodes[N1]?.response).toBe('Hello ')
    fake.emit('node_stream', { node_id: N1, delta: 'there.' })
    nextFrame()
    expect(store.getState().nodes[N1]?.response).toBe('Hello there.')
  })
})
