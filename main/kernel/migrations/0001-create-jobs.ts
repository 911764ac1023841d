import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Background jobs of loomverse.db (summaries of graph nodes, later item summaries). The
 * columns of seed 002's jobs table, plus what a safe worker needs: a claim lease (a crashed
 * worker's job is reclaimed), a batch for progress, and a key that keeps one live job per task.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE jobs (
      id           INTEGER PRIMARY KEY,
      kind         TEXT NOT NULL,
      payload_json TEXT NOT NULL CHECK (json_valid(payload_json)),
      status       INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
      run_after    INTEGER NOT NULL,
      tries        INTEGER NOT NULL DEFAULT 0,
      last_error   TEXT,
      created_at   INTEGER NOT NULL,
      updated_at   INTEGER NOT NULL,
      lease_until  INTEGER,
      batch        TEXT,
      dedupe_key   TEXT
    ) STRICT;
    CREATE INDEX idx_jobs_status_run_after ON jobs(status, run_after);
    CREATE INDEX idx_jobs_batch ON jobs(batch);
    CREATE UNIQUE INDEX jobs_one_live_per_key ON jobs(dedupe_key) WHERE status IN (0, 1) AND dedupe_key IS NOT NULL;
  `)
}

export const step: DomainStep = { name: 'create-jobs', legacy: 3, up: migrate }
