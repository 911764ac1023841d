import type { Database } from 'better-sqlite3'

/** Why a reply failed or stopped ("invalid API key for OpenAI"), shown next to the node. */
export function migrate(db: Database): void {
  db.exec('ALTER TABLE nodes ADD COLUMN error TEXT')
}
