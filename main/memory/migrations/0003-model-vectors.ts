import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'

/**
 * Vectors from the persona's embedding model, beside the local ones (modelVectors.ts):
 * - model_vector_meta: which model filled `vec_units_model` and its dimensions (the vec0 table
 *   itself is created on first use, since its width is the model's);
 * - model_vector_dirty: units whose text changed since their model vector was written. Every
 *   searchable unit starts dirty, so configuring a model later embeds the whole memory. `gen`
 *   counts changes, so a text edited while its vector was being made stays dirty.
 */
export function migrate(db: Database): void {
  db.exec(`
    create table model_vector_meta (
      id    integer primary key check (id = 1),
      model text not null,
      dims  integer not null
    );
    create table model_vector_dirty (
      unit_id integer primary key,
      gen     integer not null default 0
    );
    insert into model_vector_dirty (unit_id) select id from units where kind in (1, 2, 3);
  `)
}

export const step: MigrationStep = { name: 'model-vectors', up: migrate }
