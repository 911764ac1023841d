import type { mcpMethods } from '@shared/contract'
import type { Db } from '../db/open'
import type { EventBus } from '../kernel/events'
import type { HandlerModule } from '../kernel/router'
import type { ChatService } from '../chat/chatService'
import type { GraphService } from '../graph/graphService'
import { tokenCount } from '../kernel/tokens'
import { plainSecretFile, type SecretFile } from '../kernel/secretFile'
import { mcpFilePath, mcpSecretsPath } from './mcpFile'
import { McpCatalog } from './mcpCatalog'
import { confirmInApp, type CommandConfirmer } from './mcpCommands'
import { McpSecrets } from './mcpSecrets'
import { McpServers } from './mcpServers'
import { McpStore } from './mcpStore'
import { McpToolProvider } from './mcpToolProvider'

export interface McpDeps {
  db: Db
  bus: EventBus
  home: string
  chat: ChatService
  graph: GraphService
  /** No other live process uses the home: calls left waiting or running were a stopped process's. */
  recover: boolean
  /** Where env and headers values are kept; by default a plain owner-only file in the home (no keychain). */
  secretFile?: SecretFile
  /** What `${env:NAME}` in mcp.json reads; process.env by default. */
  env?: NodeJS.ProcessEnv
  /** Who confirms a new or changed stdio command; by default the user's click in the app (browser mode). */
  commands?: CommandConfirmer
  /** Tests shorten the waits. */
  timeouts?: { startMs?: number; callMs?: number; offerWaitMs?: number; backoffMs?: number; approvalMs?: number }
}

export interface Mcp {
  handlers: HandlerModule<typeof mcpMethods>
  servers: McpServers
  dispose(): Promise<void>
}

/** The MCP client: the servers of mcp.json, their tools offered in chat, their calls kept on nodes. */
export function createMcp(deps: McpDeps): Mcp {
  const store = new McpStore(deps.db)
  const servers = new McpServers({
    file: mcpFilePath(deps.home),
    cwd: deps.home,
    bus: deps.bus,
    secrets: new McpSecrets(deps.secretFile ?? plainSecretFile(mcpSecretsPath(deps.home)), deps.env),
    commands: deps.commands ?? confirmInApp,
    confirmedCommands: store,
    startTimeoutMs: deps.timeouts?.startMs,
    backoffMs: deps.timeouts?.backoffMs,
  })
  if (deps.recover) store.endInterrupted()
  const tools = new McpToolProvider({
    servers,
    store,
    bus: deps.bus,
    callTimeoutMs: deps.timeouts?.callMs,
    offerWaitMs: deps.timeouts?.offerWaitMs,
    approvalWaitMs: deps.timeouts?.approvalMs,
  })
  const removeTools = deps.chat.registerTools(tools)
  const catalog = new McpCatalog(servers)
  const handlers: HandlerModule<typeof mcpMethods> = {
    mcp_list_servers: (i) => (i.start ? servers.listStarted() : servers.list()),
    mcp_save_server: (i) => servers.save(i.name, i.config, i.previous_name),
    mcp_remove_server: (i) => servers.remove(i.name),
    mcp_set_enabled: (i) => servers.setEnabled(i.name, i.enabled),
    mcp_test_server: (i) => servers.test(i.name),
    mcp_confirm_command: (i) => servers.confirmCommand(i.name),
    mcp_server_log: (i) => ({ lines: servers.logOf(i.name) }),
    mcp_import: (i) => servers.importText(i.text),
    mcp_answer_call: (i) => ({ ok: tools.answer(i.call_id, i.answer) }),
    mcp_get_access: (i) => ({
      persona_servers: store.access(i.persona_id),
      flow_servers: i.flow_id ? store.access(i.persona_id, i.flow_id) : null,
      always_allowed: store.grants(i.persona_id),
    }),
    mcp_set_access: (i) => {
      store.setAccess(i.persona_id, i.flow_id, i.servers)
      return { ok: true }
    },
    mcp_tool_calls: (i) => store.callsOfFlow(i.flow_id),
    mcp_list_resources: (i) => catalog.resources(i.start === true),
    mcp_read_resource: (i) => catalog.read(i.server, i.uri),
    mcp_list_prompts: (i) => catalog.prompts(i.start === true),
    mcp_get_prompt: (i) => catalog.prompt(i.server, i.name, i.arguments),
    mcp_list_grants: () => store.allGrants(),
    mcp_revoke_grant: (i) => ({ revoked: store.revoke(i.persona_id, i.server, i.tool) }),
    mcp_offered_tools: (i) => {
      const { specs, notStarted } = tools.offeredNow({ flowId: i.flow_id, personaId: deps.graph.personaOf(i.flow_id) })
      // Counted as the chat counts what it sends: the tools' JSON (chatService's sentTokens).
      const counted = specs.map((s) => ({ name: s.name, tokens: tokenCount(JSON.stringify(s)) }))
      return { tools: counted, tokens: counted.reduce((n, t) => n + t.tokens, 0), not_started: notStarted }
    },
  }
  return {
    handlers,
    servers,
    async dispose() {
      removeTools()
      await servers.dispose()
    },
  }
}
