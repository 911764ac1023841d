import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * SAIVerse's world as it was before the item-type extension: buildings, items (objects
 * only, so no FILE_PATH yet — 0002-add-item-file-path adds it, as the seed's own migration does) and where
 * each item is. An item sits in a building or is held by a persona.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE building (
      BUILDINGID  TEXT PRIMARY KEY,
      NAME        TEXT NOT NULL,
      DESCRIPTION TEXT NOT NULL DEFAULT '',
      KIND        TEXT NOT NULL DEFAULT 'room' CHECK (KIND IN ('room', 'museum', 'library', 'other')),
      CREATED_AT  TEXT NOT NULL,
      UPDATED_AT  TEXT NOT NULL
    ) STRICT;

    CREATE TABLE item (
      ITEM_ID     TEXT PRIMARY KEY,
      TYPE        TEXT NOT NULL DEFAULT 'object',
      NAME        TEXT NOT NULL,
      DESCRIPTION TEXT NOT NULL DEFAULT '',
      STATE_JSON  TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(STATE_JSON)),
      CREATED_AT  TEXT NOT NULL,
      UPDATED_AT  TEXT NOT NULL
    ) STRICT;

    CREATE TABLE item_location (
      ITEM_ID    TEXT PRIMARY KEY REFERENCES item (ITEM_ID) ON DELETE CASCADE,
      OWNER_KIND TEXT NOT NULL CHECK (OWNER_KIND IN ('building', 'persona')),
      OWNER_ID   TEXT NOT NULL,
      UPDATED_AT TEXT NOT NULL
    ) STRICT;
    CREATE INDEX item_location_owner ON item_location (OWNER_KIND, OWNER_ID);
  `)
}

export const step: DomainStep = { name: 'create-world', legacy: 8, up: migrate }
