import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'

/**
 * model_vector_changes: every write or delete of a `vec_units_model` row appends the unit id,
 * so the main thread's in-memory index of the model's vectors (modelIndex.ts) catches up with
 * what the memory worker embedded by reading only the rows past the last it saw — as
 * `vec_changes` does for the local vectors.
 */
export function migrate(db: Database): void {
  db.exec(`
    create table model_vector_changes (
      seq     integer primary key autoincrement,
      unit_id integer not null
    );
  `)
}

export const step: MigrationStep = { name: 'model-vector-log', up: migrate }
