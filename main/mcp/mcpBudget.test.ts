import { describe, expect, it } from 'vitest'
import type { ContextPreview } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'
import { withServer, userConfirms } from '../../tests/support/mcp/mcpTurns'

// The tools' schemas go to the model beside the messages: the context keeps room for them, so
// a conversation near its budget drops older history once a server's tools are offered.

const setup = useLlmCore({
  memoryWorker: null,
  mcpCommands: userConfirms,
  mcpTimeouts: { startMs: 20_000, callMs: 4_000, backoffMs: 50 },
})

describe('MCP tools in the context budget', () => {
  it('a conversation near the budget drops older turns when tools are on, and prompt + tools fit', async () => {
    const { h, flowId, personaId } = await withServer(setup, 'everything')
    let parent: string | undefined
    for (let i = 1; i <= 30; i++) {
      const node = await h.call<{ id: string }>('create_node', {
        flow_id: flowId,
        prompt: `question ${i}: ${'words about the weather '.repeat(25)}`,
        response: `answer ${i}: ${'more words about the sea '.repeat(25)}`,
        ...(parent ? { parent_ids: [parent] } : {}),
      })
      parent = node.id
    }
    await h.call('mcp_list_servers', { start: true })
    const offered = await h.call<{ tokens: number }>('mcp_offered_tools', { flow_id: flowId })
    expect(offered.tokens).toBeGreaterThan(500)
    const preview = () =>
      h.call<ContextPreview>('build_context', { flow_id: flowId, parent_ids: [parent!], prompt: 'and now?' })

    // Without the server's tools, the whole conversation fits with a little room to spare.
    await h.call('mcp_set_access', { persona_id: personaId, servers: [] })
    const without = await preview()
    expect(without.dropped_node_ids).toEqual([])
    const budget = without.total_tokens + (without.tool_tokens ?? 0) + 100
    await h.call('update_flow', { id: flowId, token_budget: budget })
    expect((await preview()).dropped_node_ids).toEqual([])

    await h.call('mcp_set_access', { persona_id: personaId, servers: null })
    const withTools = await preview()
    expect(withTools.tool_tokens).toBeGreaterThan(offered.tokens)
    expect(withTools.dropped_node_ids.length).toBeGreaterThan(0)
    expect(withTools.dropped_node_ids.length).toBeLessThan(30)
    expect(withTools.total_tokens + withTools.tool_tokens!).toBeLessThanOrEqual(budget)

    // What is sent is what the preview showed: the oldest question stays out of the request.
    h.fake.script({ provider: 'openai', times: 1, reply: 'ok' })
    const done = h.next('chat_status', (d) => ['done', 'failed', 'stopped'].includes(d.state))
    await h.call('chat_send', { flow_id: flowId, parent_id: parent, prompt: 'and now?' })
    expect((await done).state).toBe('done')
    const body = h.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as {
      messages: Array<{ content: string }>
      tools: Array<{ function: { name: string } }>
    }
    expect(body.tools.map((t) => t.function.name)).toContain('everything__echo')
    const sent = JSON.stringify(body.messages)
    expect(sent).not.toContain('question 1:')
    expect(sent).toContain('question 30:')
  }, 60_000)
})
