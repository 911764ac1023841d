import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * flow_imports: flows an import is still writing. A large import commits in slices so the app
 * keeps answering; until its last slice a flow is listed here, left out of the flow list, and
 * removed at start-up if the app stopped before it was finished (graph/unfinishedImports.ts).
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS flow_imports (
      flow_id TEXT PRIMARY KEY REFERENCES flows(id) ON DELETE CASCADE,
      started TEXT NOT NULL
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-flow-imports', legacy: 28, up: migrate }
