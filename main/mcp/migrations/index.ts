import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createMcpTables } from './0001-create-mcp-tables'
import { migrate as createMcpCommands } from './0002-create-mcp-commands'

/** MCP servers: access, grants, calls and commands. Append a step; never edit a shipped one. */
export const mcpSchema: DomainSchema = {
  domain: 'mcp',
  needs: [],
  migrations: [
    { version: 1, name: 'create-mcp-tables', up: createMcpTables, legacy: 32 },
    { version: 2, name: 'create-mcp-commands', up: createMcpCommands, legacy: 36 },
  ],
}
