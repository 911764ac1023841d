import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { addColumnOnce } from '../../db/columns'

/** SAIVerse's step: vision models per persona (pictures are summarised with the lightweight one). */
export function migrate(db: Database): void {
  addColumnOnce(db, 'ai', 'LIGHTWEIGHT_VISION_MODEL', 'TEXT')
  addColumnOnce(db, 'ai', 'VISION_MODEL', 'TEXT')
}

export const step: DomainStep = { name: 'add-ai-vision-models', legacy: 7, up: migrate }
