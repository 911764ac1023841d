import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Tools from MCP servers (the mcp domain's tables):
 * - mcp_access: which servers' tools a persona may use (flow_id '' for the persona itself, a
 *   flow's id for a conversation's override); servers NULL means every enabled server;
 * - mcp_grants: tools the user always allows a persona to call without asking;
 * - mcp_calls: each call a reply made, its state and its result, kept on the node.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE mcp_access (
      persona_id TEXT NOT NULL,
      flow_id TEXT NOT NULL DEFAULT '',
      servers TEXT,
      PRIMARY KEY (persona_id, flow_id)
    ) STRICT;
    CREATE TABLE mcp_grants (
      persona_id TEXT NOT NULL,
      server TEXT NOT NULL,
      tool TEXT NOT NULL,
      created TEXT NOT NULL,
      PRIMARY KEY (persona_id, server, tool)
    ) STRICT;
    CREATE TABLE mcp_calls (
      id TEXT PRIMARY KEY,
      node_id TEXT NOT NULL,
      flow_id TEXT NOT NULL,
      server TEXT NOT NULL,
      tool TEXT NOT NULL,
      arguments TEXT NOT NULL,
      state TEXT NOT NULL,
      content TEXT NOT NULL,
      note TEXT,
      created TEXT NOT NULL
    ) STRICT;
    CREATE INDEX mcp_calls_by_flow ON mcp_calls (flow_id, created);
  `)
}

export const step: DomainStep = { name: 'create-mcp-tables', legacy: 32, up: migrate }
