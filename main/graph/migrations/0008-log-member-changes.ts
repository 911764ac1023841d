import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * member_changes: every node that joins or leaves a flow, moves on its canvas or is pinned
 * appends its flow and id (triggers, so a write from any connection is seen). With
 * connection_changes (0024, which now also logs a branch being named) it lets the graph keep
 * the flows it announces and bring them up to date, rather than read a flow of thousands of
 * nodes whole after every edit (graph/flowShapes.ts).
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_changes (
      seq     INTEGER PRIMARY KEY AUTOINCREMENT,
      flow_id TEXT NOT NULL,
      node_id TEXT NOT NULL
    ) STRICT;
    CREATE TRIGGER IF NOT EXISTS flow_nodes_log_insert AFTER INSERT ON flow_nodes BEGIN
      INSERT INTO member_changes (flow_id, node_id) VALUES (new.flow_id, new.node_id);
    END;
    CREATE TRIGGER IF NOT EXISTS flow_nodes_log_delete AFTER DELETE ON flow_nodes BEGIN
      INSERT INTO member_changes (flow_id, node_id) VALUES (old.flow_id, old.node_id);
    END;
    CREATE TRIGGER IF NOT EXISTS flow_nodes_log_update AFTER UPDATE ON flow_nodes BEGIN
      INSERT INTO member_changes (flow_id, node_id) VALUES (new.flow_id, new.node_id);
      INSERT INTO member_changes (flow_id, node_id) SELECT old.flow_id, old.node_id
        WHERE old.flow_id <> new.flow_id OR old.node_id <> new.node_id;
    END;
    CREATE TRIGGER IF NOT EXISTS connections_log_label AFTER UPDATE OF label ON connections BEGIN
      INSERT INTO connection_changes (flow_id, target_id) VALUES (new.flow_id, new.target_id);
    END;
  `)
}

export const step: DomainStep = { name: 'log-member-changes', legacy: 25, up: migrate }
