import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * node_sent_contexts: what each reply was generated from, as node_contexts (0005) kept it, but
 * compressed. A context holds the history twice (as counted parts and as the system message the
 * model read): ~85 KB of JSON a turn at the default 8,000-token budget, 400 MB over a
 * conversation of 5,000 turns. Compressed it takes about a tenth of that. Rows written before
 * stay in node_contexts and are read from there.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS node_sent_contexts (
      node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
      context BLOB NOT NULL,
      sent_at TEXT NOT NULL
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'pack-sent-contexts', legacy: 27, up: migrate }
