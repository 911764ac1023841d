import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createMcpTables } from './0001-create-mcp-tables'
import { step as createMcpCommands } from './0002-create-mcp-commands'

/** MCP servers: access, grants, calls and commands. Append a step; never edit a shipped one. */
export const mcpSchema: DomainSchema = {
  domain: 'mcp',
  needs: [],
  migrations: numbered([createMcpTables, createMcpCommands]),
}
