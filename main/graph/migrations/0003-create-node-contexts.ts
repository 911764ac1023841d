import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Exactly what a reply was generated from (the context parts and their tokens), so the
 * context inspector can show what was sent, not a rebuild that may have drifted since.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE node_contexts (
      node_id      TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
      context_json TEXT NOT NULL CHECK (json_valid(context_json)),
      sent_at      TEXT NOT NULL
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-node-contexts', legacy: 5, up: migrate }
