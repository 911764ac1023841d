import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { addColumnOnce } from '../../db/columns'

/** The pictures sent with a node's prompt, as picture item ids (JSON), so the card can show them. */
export function migrate(db: Database): void {
  addColumnOnce(db, 'nodes', 'images_json', 'TEXT')
}

export const step: DomainStep = { name: 'add-node-images', legacy: 21, up: migrate }
