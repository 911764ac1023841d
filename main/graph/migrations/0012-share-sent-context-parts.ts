import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { FORMAT_PARTS, storeContextParts, unpackContext } from '../sentContexts'

/**
 * Sent contexts kept against their parts (graph/sentContexts.ts): each distinct part once in
 * sent_context_parts, keyed by its hash; a node's row holds its parts' ids and a compressed
 * skeleton (`format` 2). After 1,000 companion turns node_sent_contexts was 91% of the database:
 * every turn stored again the persona text, the memory pack and hundreds of ancestors' lines the
 * turn before had stored. Rows written before are rewritten here. A deleted or replaced context
 * marks sent_context_parts_sweep, and start-up removes the parts nothing refers to.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE sent_context_parts (
      id INTEGER PRIMARY KEY,
      hash BLOB NOT NULL UNIQUE,
      body BLOB NOT NULL,
      packed INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE TABLE sent_context_parts_sweep (due INTEGER PRIMARY KEY CHECK (due = 1)) STRICT;
    ALTER TABLE node_sent_contexts ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE node_sent_contexts ADD COLUMN part_ids BLOB;
    CREATE TRIGGER node_sent_contexts_swept_after_delete AFTER DELETE ON node_sent_contexts
      WHEN OLD.part_ids IS NOT NULL
      BEGIN INSERT OR IGNORE INTO sent_context_parts_sweep (due) VALUES (1); END;
    CREATE TRIGGER node_sent_contexts_swept_after_update AFTER UPDATE OF part_ids ON node_sent_contexts
      WHEN OLD.part_ids IS NOT NULL
      BEGIN INSERT OR IGNORE INTO sent_context_parts_sweep (due) VALUES (1); END;
  `)
  const rows = db.prepare('SELECT node_id, context FROM node_sent_contexts WHERE format = 1').iterate() as Iterable<{
    node_id: string
    context: Buffer
  }>
  const update = db.prepare('UPDATE node_sent_contexts SET context = ?, part_ids = ?, format = ? WHERE node_id = ?')
  // Collected first: a statement may not write the table it is still reading.
  const all = [...rows]
  for (const row of all) {
    const stored = storeContextParts(db, unpackContext(row.context))
    update.run(stored.context, stored.part_ids, FORMAT_PARTS, row.node_id)
  }
}

export const step: DomainStep = { name: 'share-sent-context-parts', legacy: 29, up: migrate }
