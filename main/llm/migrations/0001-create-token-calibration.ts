import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * How each chat model counts tokens against our own count, learned from the usage its provider
 * reports: `ratio` is the provider's prompt tokens per token we counted, over recent replies.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS token_calibration (
      model TEXT PRIMARY KEY,
      ratio REAL NOT NULL,
      samples INTEGER NOT NULL,
      updated_at TEXT NOT NULL
    )
  `)
}

export const step: DomainStep = { name: 'create-token-calibration', legacy: 22, up: migrate }
