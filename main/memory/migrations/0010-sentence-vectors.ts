import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'
import { migrate as embedEpisodesAgain } from './0007-embed-turns-in-context'

/**
 * The embedding model's vectors of each sentence of an episode (modelVectors.ts
 * writeModelVectors), beside the whole turn's: a question often matches one sentence of a long
 * turn that the turn's single vector blurs. A plain table, not sqlite-vec: only the in-memory
 * index (modelIndex.ts) searches them, and a unit's rows go with it in one indexed delete.
 * A memory on the built-in sentence model has its episodes embedded again in the background
 * (the model is local and free); a provider's model is never asked for sentences.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS model_sentences (
      unit_id INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      embedding BLOB NOT NULL,
      PRIMARY KEY (unit_id, seq)
    ) WITHOUT ROWID;
  `)
  // As step 7 did: a memory on the built-in sentence model has its episodes embedded again.
  embedEpisodesAgain(db)
}

export const step: MigrationStep = { name: 'sentence-vectors', up: migrate }
