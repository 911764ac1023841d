import { describe, expect, it } from 'vitest'
import type { McpServerList, McpToolCall, Node } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'
import {
  calls,
  modelCalls,
  send,
  testServers,
  userConfirms,
  toolMessages,
  waiting,
  withServer,
} from '../../tests/support/mcp/mcpTurns'
import { McpStore } from './mcpStore'

// A reply whose model (the fake LLM, over real HTTP) calls a tool of a real MCP server: the
// user approves, denies or always allows it, and each outcome is kept on the node and read
// by the model. The unruly server crashes, floods its log, answers 50 MB or never answers.

const servers = testServers
const setup = useLlmCore({
  memoryWorker: null,
  mcpCommands: userConfirms,
  mcpTimeouts: { startMs: 20_000, callMs: 4_000, backoffMs: 50 },
})

const start = (server: keyof typeof servers, callMs?: number) =>
  withServer(setup, server, callMs ? { mcpTimeouts: { startMs: 20_000, callMs, backoffMs: 50 } } : {})

describe('MCP tools in chat', () => {
  it('asks first; allowed once, the result is kept on the node and read by the model', async () => {
    const { h, flowId } = await start('everything')
    modelCalls(h, 'everything__echo', { message: 'hello tools' }, 'It said hello.')
    const asked = waiting(h)
    const { nodeId, done } = await send(h, flowId, 'echo something')
    const call = await asked
    expect(call).toMatchObject({ server: 'everything', tool: 'echo', node_id: nodeId })
    expect(JSON.parse(call.arguments)).toEqual({ message: 'hello tools' })
    await h.call('mcp_answer_call', { call_id: call.id, answer: 'once' })
    expect((await done).state).toBe('done')
    expect(await h.call<Node>('get_node', { id: nodeId })).toMatchObject({ response: 'It said hello.' })
    const [kept] = await calls(h, flowId)
    expect(kept).toMatchObject({ state: 'done', content: [{ type: 'text', text: 'Echo: hello tools' }] })
    expect(toolMessages(h)).toEqual(['Echo: hello tools'])
    const offered = (
      h.fake.requests.find((r) => r.path === '/v1/chat/completions')!.body as {
        tools: Array<{ function: { name: string } }>
      }
    ).tools.map((t) => t.function.name)
    expect(offered).toContain('everything__get-sum')
  }, 60_000)

  it('a denied call goes back to the model as an error; "always" stops asking for that tool and persona', async () => {
    const { h, flowId, personaId } = await start('everything')
    modelCalls(h, 'everything__get-sum', { a: 2, b: 3 }, 'You said no.')
    let asked = waiting(h)
    let turn = await send(h, flowId, 'add 2 and 3')
    await h.call('mcp_answer_call', { call_id: (await asked).id, answer: 'deny' })
    await turn.done
    expect(toolMessages(h)).toEqual(['error: the user denied this tool call'])
    expect((await calls(h, flowId))[0]).toMatchObject({ state: 'denied', content: [] })

    modelCalls(h, 'everything__get-sum', { a: 2, b: 3 }, 'Five.')
    asked = waiting(h)
    turn = await send(h, flowId, 'please add them')
    await h.call('mcp_answer_call', { call_id: (await asked).id, answer: 'always' })
    await turn.done
    expect(toolMessages(h)[0]).toContain('5')

    modelCalls(h, 'everything__get-sum', { a: 1, b: 1 }, 'Two.')
    const unasked: McpToolCall[] = []
    const stop = h.core.bus.listen((e, d) => void (e === 'mcp_call_updated' && unasked.push(d as McpToolCall)))
    turn = await send(h, flowId, 'and 1 and 1')
    await turn.done
    stop()
    expect(unasked.map((c) => c.state)).toEqual(['running', 'done'])
    expect(await h.call('mcp_get_access', { persona_id: personaId })).toMatchObject({
      always_allowed: ['everything__get-sum'],
    })
  }, 60_000)

  it('Stop while a call waits for approval ends the reply and marks the call', async () => {
    const { h, flowId } = await start('everything')
    modelCalls(h, 'everything__echo', { message: 'x' })
    const asked = waiting(h)
    const { nodeId, done } = await send(h, flowId, 'echo')
    await asked
    await h.call('chat_stop', { node_id: nodeId })
    expect((await done).state).toBe('stopped')
    expect((await calls(h, flowId))[0]).toMatchObject({ state: 'denied', note: 'stopped before it was answered' })
  }, 60_000)

  it('a server that hangs, crashes or floods its log: the reply completes, each outcome is on the node', async () => {
    const { h, flowId } = await start('unruly')
    await h.call('mcp_list_servers', { start: true })
    const outcomes: Array<[string, Record<string, unknown>]> = [
      ['hang', {}],
      ['crash', {}],
      ['flood', { lines: 20_000 }],
    ]
    for (const [tool, args] of outcomes) {
      modelCalls(h, `unruly__${tool}`, args, `after ${tool}`)
      const asked = waiting(h)
      const turn = await send(h, flowId, `call ${tool}`)
      await h.call('mcp_answer_call', { call_id: (await asked).id, answer: 'once' })
      expect((await turn.done).state).toBe('done')
      expect(await h.call<Node>('get_node', { id: turn.nodeId })).toMatchObject({ response: `after ${tool}` })
      if (tool === 'crash') {
        // It comes back by itself after its back-off.
        await expect
          .poll(async () => (await h.call<McpServerList>('mcp_list_servers', {})).servers[0]!.status, {
            timeout: 20_000,
          })
          .toBe('connected')
      }
    }
    const kept = await calls(h, flowId)
    expect(kept.map((c) => [c.tool, c.state])).toEqual([
      ['hang', 'failed'],
      ['crash', 'failed'],
      ['flood', 'done'],
    ])
    expect(kept[0]!.note).toMatch(/timed out/i)
    expect(kept[1]!.note).toMatch(/closed/i)
    const log = await h.call<{ lines: string[] }>('mcp_server_log', { name: 'unruly' })
    expect(log.lines.length).toBeLessThanOrEqual(500)
  }, 120_000)

  it('a result of 8 MB or 50 MB is cut, not refused: the node and the model get its first part with a note', async () => {
    const { h, flowId } = await start('unruly', 60_000)
    for (const megabytes of [8, 50]) {
      modelCalls(h, 'unruly__huge', { megabytes }, `after ${megabytes}`)
      const asked = waiting(h)
      const turn = await send(h, flowId, `call huge ${megabytes}`)
      await h.call('mcp_answer_call', { call_id: (await asked).id, answer: 'once' })
      expect((await turn.done).state).toBe('done')
      expect(await h.call<Node>('get_node', { id: turn.nodeId })).toMatchObject({ response: `after ${megabytes}` })
      const modelRead = toolMessages(h)[0]!
      expect(modelRead.length).toBeLessThan(40_000)
      expect(modelRead).toMatch(/^y{32000}\n\[cut: the result was/)
      if (megabytes === 50) expect(modelRead).toMatch(/cut at 1,048,576 bytes/)
    }
    const kept = await calls(h, flowId)
    expect(kept.map((c) => c.state)).toEqual(['done', 'done'])
    expect(kept[0]!.note).toMatch(/8,388,608 characters; kept the first 256,000/)
    expect(kept[1]!.note).toMatch(/the server's answer was 52,428,\d{3} bytes; cut at 1,048,576 bytes/)
    for (const call of kept) {
      expect(call.content).toEqual([{ type: 'text', text: 'y'.repeat(256_000) }])
    }
    // The server was not dropped for it: the next call goes to the same connection.
    expect((await h.call<McpServerList>('mcp_list_servers', {})).servers[0]!.status).toBe('connected')
  }, 120_000)

  it('offers the servers the persona may use, unless the conversation chose otherwise', async () => {
    const { h, flowId, personaId } = await start('everything')
    const offered = async (prompt: string) => {
      h.fake.script({ provider: 'openai', times: 1, reply: 'ok' })
      const turn = await send(h, flowId, prompt)
      await turn.done
      const body = h.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as {
        tools?: Array<{ function: { name: string } }>
      }
      return (body.tools ?? []).map((t) => t.function.name).filter((n) => n.includes('__'))
    }
    expect(await offered('every enabled server')).toContain('everything__echo')
    const inspected = await h.call<{ tools: Array<{ name: string; tokens: number }>; tokens: number }>(
      'mcp_offered_tools',
      { flow_id: flowId },
    )
    expect(inspected.tools.find((t) => t.name === 'everything__echo')?.tokens).toBeGreaterThan(10)
    expect(inspected.tokens).toBe(inspected.tools.reduce((n, t) => n + t.tokens, 0))
    await h.call('mcp_set_access', { persona_id: personaId, servers: [] })
    expect(await offered('none for the persona')).toEqual([])
    expect(await h.call('mcp_offered_tools', { flow_id: flowId })).toMatchObject({ tools: [], tokens: 0 })
    await h.call('mcp_set_access', { persona_id: personaId, flow_id: flowId, servers: ['everything'] })
    expect(await offered('this conversation overrides')).toContain('everything__echo')
    expect(await h.call('mcp_get_access', { persona_id: personaId, flow_id: flowId })).toMatchObject({
      persona_servers: [],
      flow_servers: ['everything'],
    })
  }, 60_000)

  it('a call nobody answers (no window open) is denied after the wait, and the reply goes on', async () => {
    const h0 = await setup({ mcpTimeouts: { startMs: 20_000, callMs: 4_000, approvalMs: 200 } })
    await h0.call('mcp_save_server', { name: 'everything', config: servers.everything })
    const flow = await h0.call<{ id: string }>('create_flow', { name: 'api' })
    modelCalls(h0, 'everything__echo', { message: 'x' }, 'Went on without it.')
    const turn = await send(h0, flow.id, 'echo')
    expect((await turn.done).state).toBe('done')
    expect(toolMessages(h0)).toEqual(['error: the user did not answer in time'])
    expect((await calls(h0, flow.id))[0]).toMatchObject({ state: 'denied', note: 'nobody answered in time' })
  }, 60_000)

  it('a call left waiting by a process that stopped is marked failed by start-up recovery', async () => {
    const { h, flowId } = await start('everything')
    modelCalls(h, 'everything__echo', { message: 'x' })
    const asked = waiting(h)
    await send(h, flowId, 'echo')
    await asked
    // A process that died with the call waiting: its row stays 'waiting' in the database.
    expect(new McpStore(h.core.db).endInterrupted()).toBe(1)
    expect((await calls(h, flowId))[0]).toMatchObject({
      state: 'failed',
      note: 'the app stopped before the call ended',
    })
    await h.call('chat_stop', { node_id: (await calls(h, flowId))[0]!.node_id })
  }, 60_000)
})
