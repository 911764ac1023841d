import type { Database } from 'better-sqlite3'

/**
 * "Remembers only itself" (memory that spans a persona's conversations): a conversation marked
 * private (`flows.memory_private`) is answered only from its own branch and lends its memories
 * to no other conversation; a persona marked private (`ai.MEMORY_PRIVATE`) treats every one of
 * its conversations so. 0 keeps the default: a persona remembers across its conversations.
 */
export function migrate(db: Database): void {
  db.exec(`
    ALTER TABLE flows ADD COLUMN memory_private INTEGER NOT NULL DEFAULT 0 CHECK (memory_private IN (0, 1));
    ALTER TABLE ai ADD COLUMN MEMORY_PRIVATE INTEGER NOT NULL DEFAULT 0 CHECK (MEMORY_PRIVATE IN (0, 1));
  `)
}
