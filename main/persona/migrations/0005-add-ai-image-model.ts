import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { addColumnOnce } from '../../db/columns'

/** The persona's image model for `generate_image` (null: LOOMVERSE_IMAGE_MODEL, else none). */
export function migrate(db: Database): void {
  addColumnOnce(db, 'ai', 'IMAGE_MODEL', 'TEXT')
}

export const step: DomainStep = { name: 'add-ai-image-model', legacy: 16, up: migrate }
