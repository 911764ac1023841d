import type { McpServerConfig, McpToolCall } from '@shared/contract'
import type { CommandConfirmer } from '../../../main/mcp/mcpCommands'
import type { LlmHarness, useLlmCore } from '../llmCore'
import { testServers } from './testServers'

export { testServers }

// A reply whose model (the fake LLM, over real HTTP) calls a tool of a real MCP server: the
// servers the tests start, and the steps of a turn they take.

/** A user who confirms every server's command when it is first run (the desktop app's dialog, answered Run). */
export const userConfirms: CommandConfirmer = { asksOnStart: true, confirm: () => Promise.resolve(true) }

/** The model calls `tool` with `args`, then (after the tool's answer) says `then`. */
export function modelCalls(h: LlmHarness, tool: string, args: Record<string, unknown>, then = 'Done.'): void {
  h.fake.script({ provider: 'openai', times: 1, reply: { toolCalls: [{ name: tool, arguments: args }] } })
  h.fake.script({ provider: 'openai', times: 1, reply: then })
}

export async function send(h: LlmHarness, flowId: string, prompt: string) {
  const done = h.next('chat_status', (d) => ['done', 'failed', 'stopped'].includes(d.state))
  const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flowId, prompt })
  return { nodeId: node_id, done }
}

export const waiting = (h: LlmHarness) => h.next('mcp_call_updated', (c) => c.state === 'waiting')

export async function calls(h: LlmHarness, flowId: string): Promise<McpToolCall[]> {
  return h.call<McpToolCall[]>('mcp_tool_calls', { flow_id: flowId })
}

/** The tool results the model read in the last request. */
export function toolMessages(h: LlmHarness): string[] {
  const chats = h.fake.requests.filter((r) => r.path === '/v1/chat/completions')
  const last = (chats.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages
  return last.filter((m) => m.role === 'tool').map((m) => m.content)
}

/** A tool call asked for, answered `answer`, and the reply it was part of ended. */
export async function approvedTurn(
  h: LlmHarness,
  flowId: string,
  tool: string,
  args: Record<string, unknown>,
  answer: 'once' | 'always' | 'deny' = 'once',
) {
  modelCalls(h, tool, args)
  const asked = waiting(h)
  const turn = await send(h, flowId, `call ${tool}`)
  await h.call('mcp_answer_call', { call_id: (await asked).id, answer })
  return { nodeId: turn.nodeId, status: await turn.done }
}

/** A core with one of the test servers saved, a persona, and a conversation of that persona. */
export async function withServer(
  setup: ReturnType<typeof useLlmCore>,
  server: keyof typeof testServers,
  options: Parameters<ReturnType<typeof useLlmCore>>[0] = {},
  config: McpServerConfig = testServers[server],
): Promise<{ h: LlmHarness; flowId: string; personaId: string }> {
  const h = await setup(options)
  await h.call('mcp_save_server', { name: server, config })
  const persona = await h.call<{ id: string }>('create_persona', { name: 'Mika' })
  const flow = await h.call<{ id: string }>('create_flow', { name: 'tools', persona_id: persona.id })
  return { h, flowId: flow.id, personaId: persona.id }
}
