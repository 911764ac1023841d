import type { McpContent, McpToolCall } from '@shared/contract'
import type { Db } from '../db/open'
import { statements } from '../db/statements'

type CallRow = Omit<McpToolCall, 'content'> & { content: string; flow_id: string }

/** The mcp domain's tables (migrations 0032, 0036): servers per persona and conversation, grants, calls, confirmed commands. */
export class McpStore {
  private readonly sql: ReturnType<typeof statements>

  constructor(db: Db) {
    this.sql = statements(db)
  }

  /** The servers chosen for the persona (flowId undefined) or the conversation; null: not chosen. */
  access(personaId: string, flowId?: string): string[] | null {
    const row = this.sql('SELECT servers FROM mcp_access WHERE persona_id = ? AND flow_id = ?').get(
      personaId,
      flowId ?? '',
    ) as { servers: string | null } | undefined
    return row?.servers ? (JSON.parse(row.servers) as string[]) : null
  }

  setAccess(personaId: string, flowId: string | undefined, servers: string[] | null): void {
    if (servers === null)
      this.sql('DELETE FROM mcp_access WHERE persona_id = ? AND flow_id = ?').run(personaId, flowId ?? '')
    else
      this.sql(
        `INSERT INTO mcp_access (persona_id, flow_id, servers) VALUES (?, ?, ?)
         ON CONFLICT (persona_id, flow_id) DO UPDATE SET servers = excluded.servers`,
      ).run(personaId, flowId ?? '', JSON.stringify(servers))
  }

  isGranted(personaId: string, server: string, tool: string): boolean {
    return (
      this.sql('SELECT 1 FROM mcp_grants WHERE persona_id = ? AND server = ? AND tool = ?').get(
        personaId,
        server,
        tool,
      ) !== undefined
    )
  }

  grant(personaId: string, server: string, tool: string): void {
    this.sql('INSERT OR IGNORE INTO mcp_grants (persona_id, server, tool, created) VALUES (?, ?, ?, ?)').run(
      personaId,
      server,
      tool,
      new Date().toISOString(),
    )
  }

  /** Every tool always allowed, for every persona: what Settings → Tools lists to revoke. */
  allGrants(): Array<{ persona_id: string; server: string; tool: string; created: string }> {
    return this.sql(
      'SELECT persona_id, server, tool, created FROM mcp_grants ORDER BY persona_id, server, tool',
    ).all() as Array<{
      persona_id: string
      server: string
      tool: string
      created: string
    }>
  }

  /** The tool asks first again for this persona; whether it was always allowed. */
  revoke(personaId: string, server: string, tool: string): boolean {
    return (
      this.sql('DELETE FROM mcp_grants WHERE persona_id = ? AND server = ? AND tool = ?').run(personaId, server, tool)
        .changes > 0
    )
  }

  /** `server__tool` names of every tool always allowed for the persona. */
  grants(personaId: string): string[] {
    const rows = this.sql('SELECT server, tool FROM mcp_grants WHERE persona_id = ? ORDER BY server, tool').all(
      personaId,
    ) as Array<{ server: string; tool: string }>
    return rows.map((r) => `${r.server}__${r.tool}`)
  }

  /** Whether the user confirmed a stdio command with this fingerprint (migration 0036). */
  isConfirmed(fingerprint: string): boolean {
    return this.sql('SELECT 1 FROM mcp_commands WHERE fingerprint = ?').get(fingerprint) !== undefined
  }

  confirm(fingerprint: string, server: string, command: string): void {
    this.sql('INSERT OR IGNORE INTO mcp_commands (fingerprint, server, command, created) VALUES (?, ?, ?, ?)').run(
      fingerprint,
      server,
      command,
      new Date().toISOString(),
    )
  }

  saveCall(call: McpToolCall, flowId: string): void {
    this.sql(
      `INSERT INTO mcp_calls (id, node_id, flow_id, server, tool, arguments, state, content, note, created)
       VALUES (@id, @node_id, @flow_id, @server, @tool, @arguments, @state, @content, @note, @created)
       ON CONFLICT (id) DO UPDATE SET state = excluded.state, content = excluded.content, note = excluded.note`,
    ).run({ ...call, flow_id: flowId, content: JSON.stringify(call.content) })
  }

  /** Calls a stopped process left waiting or running end as failed, saying so; how many there were. */
  endInterrupted(): number {
    return this.sql(
      `UPDATE mcp_calls SET state = 'failed', note = 'the app stopped before the call ended'
       WHERE state IN ('waiting', 'running')`,
    ).run().changes
  }

  callsOfFlow(flowId: string): McpToolCall[] {
    const rows = this.sql(
      `SELECT id, node_id, server, tool, arguments, state, content, note, created
       FROM mcp_calls WHERE flow_id = ? ORDER BY created, rowid`,
    ).all(flowId) as CallRow[]
    return rows.map(({ flow_id: _, ...r }) => ({ ...r, content: JSON.parse(r.content) as McpContent[] }))
  }
}
