import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Where the user is: one row. Its existence also marks that the first-run demo world was
 * offered, so deleting every building never brings the demo back.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE user_location (
      ID          INTEGER PRIMARY KEY CHECK (ID = 1),
      BUILDING_ID TEXT REFERENCES building (BUILDINGID) ON DELETE SET NULL,
      UPDATED_AT  TEXT NOT NULL
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-user-location', legacy: 11, up: migrate }
