import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Every text a document has had, so the user can see and revert what a persona wrote.
 * The file on disk is always the newest version; these rows are the history.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE document_version (
      ITEM_ID    TEXT NOT NULL REFERENCES item (ITEM_ID) ON DELETE CASCADE,
      VERSION    INTEGER NOT NULL CHECK (VERSION > 0),
      CONTENT    TEXT NOT NULL,
      AUTHOR     TEXT NOT NULL,
      ACTION     TEXT NOT NULL,
      CREATED_AT TEXT NOT NULL,
      PRIMARY KEY (ITEM_ID, VERSION)
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-document-versions', legacy: 13, up: migrate }
