import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/** The tools a reply called and what they answered, kept with the node that triggered them. */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE node_tool_call (
      NODE_ID    TEXT NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
      SEQ        INTEGER NOT NULL,
      NAME       TEXT NOT NULL,
      ARGUMENTS  TEXT NOT NULL,
      RESULT     TEXT NOT NULL,
      IS_ERROR   INTEGER NOT NULL DEFAULT 0,
      CREATED_AT TEXT NOT NULL,
      PRIMARY KEY (NODE_ID, SEQ)
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-node-tool-calls', legacy: 14, up: migrate }
