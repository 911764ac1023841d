import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'

/**
 * Loomverse additions for the MemoryPack's latency:
 * - vec_changes: every write or delete of a `vec_units` row appends the unit id here, so the
 *   in-memory vector index (vectorIndex.ts) catches up with changes made by any connection
 *   (the memory worker's included) by reading only the rows past the last it saw;
 * - idx_units_pinned: pinned units by kind, so "pinned facts ride along" no longer scans every fact.
 */
export function migrate(db: Database): void {
  db.exec(`
    create table vec_changes (
      seq     integer primary key autoincrement,
      unit_id integer not null
    );
    create index idx_units_pinned on units(kind, id) where pin = 1;
  `)
}

export const step: MigrationStep = { name: 'vector-log', up: migrate }
