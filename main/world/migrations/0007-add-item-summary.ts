import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { addColumnOnce } from '../../db/columns'

/**
 * The automatic summary of a picture or document gets its own column, so it never replaces the
 * description the user typed (before this step the summary was written over it; those words
 * cannot be brought back, and such items keep the summary as their description).
 */
export function migrate(db: Database): void {
  addColumnOnce(db, 'item', 'SUMMARY', 'TEXT')
}

export const step: DomainStep = { name: 'add-item-summary', legacy: 19, up: migrate }
