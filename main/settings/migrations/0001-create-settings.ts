import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/** App-wide preferences as JSON values by key. Secrets never live here (see DESIGN: Secrets). */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE settings (
      key        TEXT PRIMARY KEY,
      value_json TEXT NOT NULL CHECK (json_valid(value_json)),
      updated_at INTEGER NOT NULL
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-settings', legacy: 1, up: migrate }
