import type { Database } from 'better-sqlite3'
import { addColumnOnce } from '../../db/columns'

/** The persona's embedding model for its memory's vectors (null: the built-in local embedder only). */
export function migrate(db: Database): void {
  addColumnOnce(db, 'ai', 'EMBEDDING_MODEL', 'TEXT')
}
