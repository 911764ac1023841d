import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/** Why a reply failed or stopped ("invalid API key for OpenAI"), shown next to the node. */
export function migrate(db: Database): void {
  db.exec('ALTER TABLE nodes ADD COLUMN error TEXT')
}

export const step: DomainStep = { name: 'add-node-error', legacy: 4, up: migrate }
