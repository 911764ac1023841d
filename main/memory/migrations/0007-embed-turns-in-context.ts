import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'
import { SENTENCE_MODEL } from '@shared/contract'

/**
 * Episodes are now embedded after the turn before them (embedJob.embeddingText). A memory on
 * the built-in sentence model has every episode embedded again, in the background: the model
 * is local and free. A provider's model is not asked again for old turns (that would cost the
 * user money); its new turns are embedded the new way.
 */
export function migrate(db: Database): void {
  db.prepare(
    `INSERT INTO model_vector_dirty (unit_id)
     SELECT id FROM units WHERE kind = 1 AND EXISTS (SELECT 1 FROM model_vector_meta WHERE id = 1 AND model = ?)
     ON CONFLICT (unit_id) DO UPDATE SET gen = gen + 1`,
  ).run(SENTENCE_MODEL)
}

export const step: MigrationStep = { name: 'embed-turns-in-context', up: migrate }
