import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Tokens other programs use for the HTTP API (Settings → Connected programs). Only a SHA-256
 * of each is kept: the token itself is shown once, when it is made.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS api_tokens (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      last_used_at TEXT,
      calls INTEGER NOT NULL DEFAULT 0,
      revoked_at TEXT
    )
  `)
}

export const step: DomainStep = { name: 'create-api-tokens', legacy: 17, up: migrate }
