import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * The MCP stdio commands the user confirmed (the mcp domain's table): a new or changed command
 * runs only once its fingerprint (a hash of the command, its arguments, folder and environment
 * as they are run) is here. Written only by the main process after the user's confirmation.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE mcp_commands (
      fingerprint TEXT PRIMARY KEY,
      server TEXT NOT NULL,
      command TEXT NOT NULL,
      created TEXT NOT NULL
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-mcp-commands', legacy: 36, up: migrate }
