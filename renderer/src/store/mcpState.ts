import type { McpPromptInfo, McpResourceRead, McpServerList, McpToolCall } from '@shared/contract'

// What the mcp slice holds and offers (its implementation: mcpSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

/** MCP tools: the servers of mcp.json and the calls kept on the open conversation's nodes. */
export interface McpSlice {
  mcpServers: McpServerList | null
  /** Calls on the open flow's nodes, by node id, oldest first. */
  mcpCalls: Record<string, McpToolCall[]>
  loadMcpServers(start?: boolean): Promise<void>
  loadMcpCalls(flowId: string): Promise<void>
  answerMcpCall(callId: string, answer: 'once' | 'always' | 'deny'): Promise<void>
  /** MCP resources going out with the next message, like attached files. */
  attachedResources: AttachedResource[]
  attachResource(resource: AttachedResource): void
  detachResource(uri: string): void
  /** The prompts of the connected servers, the palette's commands. */
  mcpPrompts: McpPromptInfo[]
  loadMcpPrompts(): Promise<void>
}

export interface AttachedResource {
  server: string
  uri: string
  name: string
  text: string
  /** Its binary parts that are not pictures (its pictures go as pictures): named, not sent. */
  files: McpResourceRead['files']
}
