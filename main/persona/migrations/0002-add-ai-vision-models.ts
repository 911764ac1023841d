import type { Database } from 'better-sqlite3'
import { addColumnOnce } from '../../db/columns'

/** SAIVerse's step: vision models per persona (pictures are summarised with the lightweight one). */
export function migrate(db: Database): void {
  addColumnOnce(db, 'ai', 'LIGHTWEIGHT_VISION_MODEL', 'TEXT')
  addColumnOnce(db, 'ai', 'VISION_MODEL', 'TEXT')
}
