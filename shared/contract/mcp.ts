import { z } from 'zod'
import { ImageInput } from './chat'
import type { EventSpecs, MethodSpecs } from './spec'

// Tools from MCP servers (issue #39): the servers listed in `<home>/mcp.json`, in the
// `mcpServers` format Claude Desktop, Cursor and LM Studio use, and the calls personas make.

/** A server's name as the file keys it; it also prefixes its tools (`name__tool`), so no `__`. */
export const McpServerName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'use letters, digits, - and _ only')
  .refine((s) => !s.includes('__'), 'must not hold "__" (it separates the server from the tool)')

const StringMap = z.record(z.string(), z.string())

/** One entry of `mcpServers`: a command run over stdio, or a Streamable HTTP address. */
export const McpStdioConfig = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: StringMap.optional(),
    cwd: z.string().optional(),
    disabled: z.boolean().optional(),
  })
  .loose()
export const McpHttpConfig = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    headers: StringMap.optional(),
    disabled: z.boolean().optional(),
  })
  .loose()
export const McpServerConfig = z.union([McpStdioConfig, McpHttpConfig])
export type McpHttpConfig = z.infer<typeof McpHttpConfig>
export type McpServerConfig = z.infer<typeof McpServerConfig>

export const McpServerStatus = z.enum(['idle', 'starting', 'connected', 'failed', 'disabled', 'unconfirmed'])
export type McpServerStatus = z.infer<typeof McpServerStatus>

export const McpToolInfo = z.object({ name: z.string(), description: z.string() })

export const McpServerInfo = z.object({
  name: z.string(),
  /**
   * `idle`: not started yet (servers start when first needed). `unconfirmed`: a new or changed
   * command waits for the user's confirmation before it runs (mcp_confirm_command).
   */
  status: McpServerStatus,
  /** Why it failed, in the server's or the system's words. */
  error: z.string().optional(),
  tools: z.array(McpToolInfo),
  config: McpServerConfig,
})
export type McpServerInfo = z.infer<typeof McpServerInfo>

export const McpServerList = z.object({
  servers: z.array(McpServerInfo),
  /** The file could not be read: its problem (with the line); it is kept as it is until fixed. */
  file_error: z.string().optional(),
  /**
   * Where the values of env and headers are kept (mcp.json holds `${secret:…}` in their place):
   * true, sealed by the OS keychain; false, a plain owner-only file (browser mode, no keychain).
   */
  secrets_encrypted: z.boolean(),
})
export type McpServerList = z.infer<typeof McpServerList>

/** What a tool answered, as it is kept on the node: text, pictures, links to resources, structured content. */
export const McpContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mime: z.string(), data_base64: z.string() }),
  z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string().optional() }),
  z.object({ type: z.literal('structured'), json: z.string() }),
])
export type McpContent = z.infer<typeof McpContent>

export const McpCallState = z.enum(['waiting', 'denied', 'running', 'done', 'failed'])

export const McpToolCall = z.object({
  id: z.string(),
  node_id: z.string(),
  server: z.string(),
  tool: z.string(),
  /** The arguments as the model wrote them (JSON text). */
  arguments: z.string(),
  state: McpCallState,
  content: z.array(McpContent),
  /** Why it was denied or failed, or that the result was cut to the size limit. */
  note: z.string().nullable(),
  created: z.string(),
})
export type McpToolCall = z.infer<typeof McpToolCall>

/** A tool a persona may call without asking (the user answered "Always allow for this persona"). */
export const McpGrant = z.object({ persona_id: z.string(), server: z.string(), tool: z.string(), created: z.string() })
export type McpGrant = z.infer<typeof McpGrant>

/** A resource a server offers (attached to a message like a file). */
export const McpResourceInfo = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  description: z.string().optional(),
  mime: z.string().optional(),
})
export type McpResourceInfo = z.infer<typeof McpResourceInfo>

/** A prompt a server offers (a command in the palette), with the arguments it asks for. */
export const McpPromptInfo = z.object({
  server: z.string(),
  name: z.string(),
  description: z.string().optional(),
  arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean() })),
})
export type McpPromptInfo = z.infer<typeof McpPromptInfo>

export const McpResourceRead = z.object({
  text: z.string(),
  note: z.string().nullable(),
  /** Pictures among its parts, sent as a picture dropped on the window is. */
  images: z.array(z.object({ uri: z.string(), mime: ImageInput.shape.mime, data_base64: z.string() })),
  /** Its other binary parts, named with their type and size: a model cannot read them as text. */
  files: z.array(z.object({ uri: z.string(), mime: z.string(), bytes: z.number().int().nonnegative() })),
})
export type McpResourceRead = z.infer<typeof McpResourceRead>

const Name = z.object({ name: z.string().min(1).max(64) }).strict()

export const mcpMethods = {
  /** Every server in mcp.json with its status and tools; `start` starts the enabled ones first. */
  mcp_list_servers: {
    input: z.object({ start: z.boolean().optional() }).strict(),
    output: McpServerList,
  },
  /** Adds a server, or replaces one (`previous_name` renames it); the file is written atomically. */
  mcp_save_server: {
    input: z
      .object({ name: McpServerName, config: McpServerConfig, previous_name: z.string().max(64).optional() })
      .strict(),
    output: McpServerList,
  },
  mcp_remove_server: { input: Name, output: McpServerList },
  mcp_set_enabled: { input: Name.extend({ enabled: z.boolean() }).strict(), output: McpServerList },
  /** Starts (or restarts) the server now and lists its tools; a failure is in its status. */
  mcp_test_server: { input: Name, output: McpServerInfo },
  /**
   * The user asks to run the server's command: the desktop app asks again in a native dialog of
   * its own (a page cannot answer it); browser mode takes this call as the confirmation, unless
   * the host refuses commands (--no-mcp-commands). Then the server starts.
   */
  mcp_confirm_command: { input: Name, output: McpServerInfo },
  /** The server's recent log: what it wrote to stderr and what the app did with it. */
  mcp_server_log: { input: Name, output: z.object({ lines: z.array(z.string()) }) },
  /** Adds the servers of another app's mcp.json (its text); names already here are skipped. */
  mcp_import: {
    input: z.object({ text: z.string().min(1).max(1_000_000) }).strict(),
    output: z.object({ added: z.array(z.string()), skipped: z.array(z.string()), list: McpServerList }),
  },
  /** The user's answer to a tool call waiting for approval. */
  mcp_answer_call: {
    input: z.object({ call_id: z.string().min(1), answer: z.enum(['once', 'always', 'deny']) }).strict(),
    output: z.object({ ok: z.boolean() }),
  },
  /** Which servers a persona's tools come from (null: every enabled server); a conversation may override it. */
  mcp_get_access: {
    input: z.object({ persona_id: z.string().min(1), flow_id: z.string().min(1).optional() }).strict(),
    output: z.object({
      persona_servers: z.array(z.string()).nullable(),
      flow_servers: z.array(z.string()).nullable(),
      always_allowed: z.array(z.string()),
    }),
  },
  mcp_set_access: {
    input: z
      .object({
        persona_id: z.string().min(1),
        flow_id: z.string().min(1).optional(),
        servers: z.array(McpServerName).max(100).nullable(),
      })
      .strict(),
    output: z.object({ ok: z.boolean() }),
  },
  /**
   * The MCP tools the next reply in a conversation is offered, with the tokens their schemas
   * take in the request (servers not started yet are named, their tools not known until then).
   */
  mcp_offered_tools: {
    input: z.object({ flow_id: z.string().min(1) }).strict(),
    output: z.object({
      tools: z.array(z.object({ name: z.string(), tokens: z.number().int() })),
      tokens: z.number().int(),
      not_started: z.array(z.string()),
    }),
  },
  /** Every tool a persona always allows (answered "Always allow"), for every persona. */
  mcp_list_grants: {
    input: z.object({}).strict(),
    output: z.array(McpGrant),
  },
  /** The tool asks first again, for that persona. */
  mcp_revoke_grant: {
    /** persona_id '' stands for conversations without a persona. */
    input: z.object({ persona_id: z.string(), server: z.string().min(1), tool: z.string().min(1) }).strict(),
    output: z.object({ revoked: z.boolean() }),
  },
  /** The resources of the connected servers; `start` starts the enabled ones first. */
  mcp_list_resources: {
    input: z.object({ start: z.boolean().optional() }).strict(),
    output: z.array(McpResourceInfo),
  },
  /**
   * A resource's parts, to attach to the next message like a file: its text (cut to 256,000
   * characters, with a note), its pictures, its other binary parts named. Refused when a part is
   * over 20 MiB.
   */
  mcp_read_resource: {
    input: z.object({ server: z.string().min(1).max(64), uri: z.string().min(1).max(4096) }).strict(),
    output: McpResourceRead,
  },
  /** The prompts of the connected servers; `start` starts the enabled ones first. */
  mcp_list_prompts: {
    input: z.object({ start: z.boolean().optional() }).strict(),
    output: z.array(McpPromptInfo),
  },
  /** A prompt with its arguments filled in, as text for the composer. */
  mcp_get_prompt: {
    input: z
      .object({
        server: z.string().min(1).max(64),
        name: z.string().min(1).max(256),
        arguments: z.record(z.string(), z.string().max(100_000)),
      })
      .strict(),
    output: z.object({ text: z.string() }),
  },
  /** The MCP tool calls kept on a conversation's nodes. */
  mcp_tool_calls: {
    input: z.object({ flow_id: z.string().min(1) }).strict(),
    output: z.array(McpToolCall),
  },
} as const satisfies MethodSpecs

export const mcpEvents = {
  mcp_servers_changed: McpServerList,
  /** A call was asked for, approved, denied, or answered: the node shows it as it stands. */
  mcp_call_updated: McpToolCall,
} as const satisfies EventSpecs
