import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * A persona's picture (issue #40: cards both ways): the icon a character card brings, or one the
 * user chose, shown in the persona editor and written into the cards the persona exports. One
 * per persona, its type told by its bytes; it goes when the persona goes.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE persona_avatars (
      persona_id TEXT PRIMARY KEY REFERENCES ai(AIID) ON DELETE CASCADE,
      mime TEXT NOT NULL CHECK (mime IN ('image/png', 'image/jpeg', 'image/webp', 'image/gif')),
      data BLOB NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-persona-avatars', legacy: 34, up: migrate }
