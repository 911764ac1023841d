import { describe, expect, it } from 'vitest'
import type { FlowView, Node } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'

// A window that opens a conversation while a reply streams into it (another window, or this one
// coming back from another conversation) reads the node from the host, then hears the pieces
// sent after. The database holds the reply as last saved; the host answers with what was sent.

const start = useLlmCore()

describe('a reply read while it streams', () => {
  it('comes with every piece sent so far, and the pieces after it make the whole reply, none twice', async () => {
    // Saved only at the end: what a read gets mid-reply can come from nowhere but the stream.
    const h = await start({ chat: { saveEveryMs: 3_600_000 } })
    const flow = await h.call<{ id: string }>('create_flow', { name: 'talk' })
    const words = ['The ', 'river ', 'runs ', 'north ', 'past ', 'the ', 'old ', 'mill.']
    h.fake.script({ provider: 'openai', reply: words.join(''), chunks: words, chunkDelayMs: 150, times: 1 })
    const sentPieces = (nodeId: string) =>
      h.events
        .filter((e) => e.event === 'node_stream' && (e.data as { node_id: string }).node_id === nodeId)
        .map((e) => (e.data as { delta: string }).delta)

    const done = h.next('chat_status', (d) => d.state === 'done')
    const { node_id: nodeId } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'Where?' })
    await h.next('node_stream', () => sentPieces(nodeId).join('').includes('north'))

    const heard = sentPieces(nodeId).length
    const [read] = await h.call<Node[]>('get_nodes', { ids: [nodeId] })
    const opened = await h.call<FlowView>('open_flow', { id: flow.id, view: { width: 800, height: 600 } })
    expect(read!.status).toBe('streaming')
    expect(read!.response).toBe(sentPieces(nodeId).slice(0, heard).join(''))
    expect(read!.response).toContain('north')
    expect(opened.nodes.find((n) => n.id === nodeId)!.response).toBe(read!.response)

    await done
    // What a window holds: the node as read, then each piece heard after the read.
    expect(read!.response + sentPieces(nodeId).slice(heard).join('')).toBe(words.join(''))
    const [whole] = await h.call<Node[]>('get_nodes', { ids: [nodeId] })
    expect(whole!.response).toBe(words.join(''))
  })
})
