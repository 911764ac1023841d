import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * node_changes: every node written — added, deleted, or its prompt, reply or summary changed —
 * appends its id (triggers, so the job worker's summaries and the CLI's edits are seen). The
 * graph keeps each ancestor's line of history between turns (graph/ancestorLines.ts) and
 * forgets only the lines of the nodes logged here, rather than read a few hundred ancestors
 * again for every prompt.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS node_changes (
      seq     INTEGER PRIMARY KEY AUTOINCREMENT,
      node_id TEXT NOT NULL
    ) STRICT;
    CREATE TRIGGER IF NOT EXISTS nodes_log_insert AFTER INSERT ON nodes BEGIN
      INSERT INTO node_changes (node_id) VALUES (new.id);
    END;
    CREATE TRIGGER IF NOT EXISTS nodes_log_delete AFTER DELETE ON nodes BEGIN
      INSERT INTO node_changes (node_id) VALUES (old.id);
    END;
    CREATE TRIGGER IF NOT EXISTS nodes_log_update AFTER UPDATE OF id, prompt, response, summary_text ON nodes BEGIN
      INSERT INTO node_changes (node_id) VALUES (old.id), (new.id);
    END;
  `)
}

export const step: DomainStep = { name: 'log-node-changes', legacy: 26, up: migrate }
