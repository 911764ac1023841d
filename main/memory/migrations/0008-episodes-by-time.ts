import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'

/**
 * idx_units_time: units by kind, newest first, in the order the branch jobs read a branch's
 * latest episodes (jobPlanner.ts: ORDER BY coalesce(occurred_at, created_at) DESC, id DESC).
 * Without it every reply sorted all of the persona's episodes, three or four times.
 */
export function migrate(db: Database): void {
  db.exec('create index if not exists idx_units_time on units(kind, coalesce(occurred_at, created_at), id)')
}

export const step: MigrationStep = { name: 'episodes-by-time', up: migrate }
