import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * "Remembers only itself": a persona marked private (`ai.MEMORY_PRIVATE`) treats every one of
 * its conversations as graph's `flows.memory_private` marks one (answered only from its own
 * branch, lending its memories to no other). 0 keeps the default: a persona remembers across
 * its conversations. Step 31 of the releases before each domain had its own migrations made
 * both columns in one step; each owner now makes its own (graph/migrations/0014-add-memory-private.ts).
 */
export function migrate(db: Database): void {
  db.exec(`
    ALTER TABLE ai ADD COLUMN MEMORY_PRIVATE INTEGER NOT NULL DEFAULT 0 CHECK (MEMORY_PRIVATE IN (0, 1));
  `)
}

export const step: DomainStep = { name: 'add-memory-private', legacy: 31, up: migrate }
