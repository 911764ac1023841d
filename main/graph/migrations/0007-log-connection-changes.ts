import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * connection_changes: every connection added, removed or moved appends its flow and target
 * (triggers, so a write from any connection — the CLI, the job worker — is seen). The graph's
 * cache of what is above a node (graph/ancestry.ts) reads only the rows past the last it saw
 * and forgets the paths that ran through a changed target; a new turn's edge touches none.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS connection_changes (
      seq       INTEGER PRIMARY KEY AUTOINCREMENT,
      flow_id   TEXT NOT NULL,
      target_id TEXT NOT NULL
    ) STRICT;
    CREATE TRIGGER IF NOT EXISTS connections_log_insert AFTER INSERT ON connections BEGIN
      INSERT INTO connection_changes (flow_id, target_id) VALUES (new.flow_id, new.target_id);
    END;
    CREATE TRIGGER IF NOT EXISTS connections_log_delete AFTER DELETE ON connections BEGIN
      INSERT INTO connection_changes (flow_id, target_id) VALUES (old.flow_id, old.target_id);
    END;
    CREATE TRIGGER IF NOT EXISTS connections_log_update AFTER UPDATE OF flow_id, source_id, target_id ON connections BEGIN
      INSERT INTO connection_changes (flow_id, target_id) VALUES (old.flow_id, old.target_id), (new.flow_id, new.target_id);
    END;
  `)
}

export const step: DomainStep = { name: 'log-connection-changes', legacy: 24, up: migrate }
