import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Members by where they sit on the canvas: a window opening a flow of 50,000 cards reads the
 * ones around its newest turn first (graph/flowView.ts), a range of rows instead of all of them.
 */
export function migrate(db: Database): void {
  db.exec('CREATE INDEX IF NOT EXISTS flow_nodes_by_place ON flow_nodes(flow_id, y, x)')
}

export const step: DomainStep = { name: 'add-place-index', legacy: 37, up: migrate }
