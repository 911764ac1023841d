import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * A conversation's first node answered again (Regenerate) or its prompt edited makes a second
 * first node: a node without parents, which by its connections alone starts a tree of its own, so
 * memory took the answer it replaced for another conversation (memory/pack/reach.ts). The row
 * says which node it is another version of, and its tree is that node's (treeRoots.ts). Gone with
 * the node's place in the flow.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE root_alternatives (
      flow_id    TEXT NOT NULL,
      node_id    TEXT NOT NULL,
      of_node_id TEXT NOT NULL,
      PRIMARY KEY (flow_id, node_id),
      FOREIGN KEY (flow_id, node_id) REFERENCES flow_nodes(flow_id, node_id) ON DELETE CASCADE
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'add-root-alternatives', up: migrate }
