import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Whether a program's token may change things through the memory server at /api/mcp (notify).
 * Tokens made before stay read-only there: an agent was never told it could write.
 */
export function migrate(db: Database): void {
  db.exec('ALTER TABLE api_tokens ADD COLUMN mcp_writes INTEGER NOT NULL DEFAULT 0')
}

export const step: DomainStep = { name: 'add-api-token-mcp-writes', legacy: 38, up: migrate }
