import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Whether an item's summary is being made: the UI shows "summarising…" beside the
 * creator's description until the job lands. Items from before this step count as ready.
 * (Written out rather than with addColumnOnce, whose type check allows no DEFAULT literal.)
 */
export function migrate(db: Database): void {
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('item') as Array<{ name: string }>
  if (columns.some((c) => c.name.toUpperCase() === 'SUMMARY_STATUS')) return
  db.exec(`ALTER TABLE item ADD COLUMN SUMMARY_STATUS TEXT NOT NULL DEFAULT 'ready'
           CHECK (SUMMARY_STATUS IN ('none', 'pending', 'ready', 'failed'))`)
}

export const step: DomainStep = { name: 'add-item-summary-status', legacy: 12, up: migrate }
