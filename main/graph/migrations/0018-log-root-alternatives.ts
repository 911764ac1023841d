import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * A first node's being another version of one (root_alternatives) decides its tree as a parent
 * would (graph/treeRoots.ts), so its rows are logged as connections into that node: the roots
 * kept of a node that joins a flow already another version (an import, a node shared from a
 * flow where it is one) are read again, whoever wrote the row.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TRIGGER root_alternatives_log_insert AFTER INSERT ON root_alternatives BEGIN
      INSERT INTO connection_changes (flow_id, target_id) VALUES (new.flow_id, new.node_id);
    END;
    CREATE TRIGGER root_alternatives_log_delete AFTER DELETE ON root_alternatives BEGIN
      INSERT INTO connection_changes (flow_id, target_id) VALUES (old.flow_id, old.node_id);
    END;
    CREATE TRIGGER root_alternatives_log_update AFTER UPDATE ON root_alternatives BEGIN
      INSERT INTO connection_changes (flow_id, target_id) VALUES (old.flow_id, old.node_id), (new.flow_id, new.node_id);
    END;
  `)
}

export const step: DomainStep = { name: 'log-root-alternatives', up: migrate }
