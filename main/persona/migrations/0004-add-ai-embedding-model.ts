import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { addColumnOnce } from '../../db/columns'

/** The persona's embedding model for its memory's vectors (null: the built-in local embedder only). */
export function migrate(db: Database): void {
  addColumnOnce(db, 'ai', 'EMBEDDING_MODEL', 'TEXT')
}

export const step: DomainStep = { name: 'add-ai-embedding-model', legacy: 15, up: migrate }
