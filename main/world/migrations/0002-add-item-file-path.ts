import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { addColumnOnce } from '../../db/columns'

/** The seed's `ALTER TABLE item ADD COLUMN FILE_PATH TEXT`: pictures and documents point at their file; objects keep NULL. */
export function migrate(db: Database): void {
  addColumnOnce(db, 'item', 'FILE_PATH', 'TEXT')
}

export const step: DomainStep = { name: 'add-item-file-path', legacy: 9, up: migrate }
