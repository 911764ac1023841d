import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { addColumnOnce } from '../../db/columns'

/** Where each persona is. NULL: it has not moved yet and keeps the user company. */
export function migrate(db: Database): void {
  addColumnOnce(db, 'ai', 'CURRENT_BUILDING_ID', 'TEXT')
}

export const step: DomainStep = { name: 'add-ai-current-building', legacy: 10, up: migrate }
