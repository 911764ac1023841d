import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * "Remembers only itself" (memory that spans a persona's conversations): a conversation marked
 * private (`flows.memory_private`) is answered only from its own branch and lends its memories
 * to no other conversation. 0 keeps the default. Step 31 of the releases before each domain
 * had its own migrations made this column and persona's `ai.MEMORY_PRIVATE` in one step; each
 * owner now makes its own (persona/migrations/0006-add-memory-private.ts).
 */
export function migrate(db: Database): void {
  db.exec(`
    ALTER TABLE flows ADD COLUMN memory_private INTEGER NOT NULL DEFAULT 0 CHECK (memory_private IN (0, 1));
  `)
}

export const step: DomainStep = { name: 'add-memory-private', legacy: 31, up: migrate }
