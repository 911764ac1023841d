import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * A flow's pinned nodes, read by every prompt's context, from an index of the pins alone: a
 * conversation of thousands of turns has a handful of pins, and the context must not scan the
 * flow's every member to find them.
 */
export function migrate(db: Database): void {
  db.exec('CREATE INDEX IF NOT EXISTS flow_nodes_pinned ON flow_nodes(flow_id, idx) WHERE pinned = 1')
}

export const step: DomainStep = { name: 'add-pinned-index', legacy: 23, up: migrate }
