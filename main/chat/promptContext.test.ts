import { describe, expect, it } from 'vitest'
import type { ContextPreview, Flow, Node, Persona } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore()

const BUDGET = 1200

describe('the one context a prompt gets, memory included', () => {
  it('keeps a turn with a large memory inside the flow’s budget, and sends exactly what the inspector previewed', async () => {
    const h = await start()
    const persona = await h.call<Persona>('create_persona', { name: 'Mika' })
    const flow = await h.call<Flow>('create_flow', { name: 'kites', persona_id: persona.id })
    await h.call('update_flow', { id: flow.id, token_budget: BUDGET })
    // Far more remembered than memory's share (a quarter of the budget) can hold.
    for (let i = 0; i < 60; i++) {
      await h.call('memory_add_unit', {
        persona_id: persona.id,
        kind: 'fact',
        text: `Mika flew the red kite number ${i} at the windy beach with her brother, who kept the string tight.`,
      })
    }
    // A parent long enough to fill the whole budget by itself.
    const parent = await h.call<Node>('create_node', {
      flow_id: flow.id,
      prompt: 'Tell me about the kites. '.repeat(200),
      response: 'The kites were red and flew high above the beach. '.repeat(200),
    })
    const prompt = 'Which kite did Mika fly at the beach?'

    const preview = await h.call<ContextPreview>('build_context', { flow_id: flow.id, parent_ids: [parent.id], prompt })
    const memory = preview.parts.find((p) => p.kind === 'memory')
    expect(memory?.text).toContain('red kite')
    expect(preview.total_tokens).toBeLessThanOrEqual(BUDGET)

    const { node_id } = await h.call<{ node_id: string }>('chat_send', {
      flow_id: flow.id,
      parent_id: parent.id,
      prompt,
    })
    await h.next('chat_status', (s) => s.node_id === node_id && s.state === 'done')
    const sent = await h.call<{ context: ContextPreview }>('get_sent_context', { node_id })
    expect(sent.context.total_tokens).toBeLessThanOrEqual(BUDGET)
    expect(sent.context.parts).toEqual(preview.parts)
    expect(sent.context.messages).toEqual(preview.messages)
    // What reached the provider is that context: the memory rides in the system message.
    // (The memory's helpers and jobs ask the model too; the turn is the request with the conversation in it.)
    const request = h.fake.requests
      .map((r) => r.body as { messages?: Array<{ role: string; content: string }> })
      .find((b) => b.messages?.some((m) => m.role === 'assistant') && b.messages.at(-1)?.content === prompt)!
    expect(request.messages![0]!.content).toContain(memory!.text)
  })
})
