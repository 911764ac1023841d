import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { addColumnOnce } from '../../db/columns'

/** A branch's name on the connection that starts it (seed §9.2 `connect_nodes(…, branch_name)`); null: unnamed. */
export function migrate(db: Database): void {
  addColumnOnce(db, 'connections', 'label', 'TEXT')
}

export const step: DomainStep = { name: 'add-connection-label', legacy: 18, up: migrate }
