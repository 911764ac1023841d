import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Roleplay (issue #40): lorebooks (SillyTavern's World Info) as objects of their own, each entry a
 * JSON document (its fields are SillyTavern's, and what Loomverse does not act on is kept for
 * export); what each book is attached to (a persona, a conversation, a story, or everything);
 * which entries fired at each node (sticky and cooldown read a branch's own past); and the
 * Author's Note of a conversation or, as its default, of a persona.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE lorebooks (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      settings TEXT NOT NULL,
      extra TEXT NOT NULL DEFAULT '{}',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT;

    CREATE TABLE lorebook_entries (
      book_id TEXT NOT NULL REFERENCES lorebooks(id) ON DELETE CASCADE,
      uid INTEGER NOT NULL,
      entry TEXT NOT NULL,
      PRIMARY KEY (book_id, uid)
    ) STRICT;

    CREATE TABLE lorebook_links (
      book_id TEXT NOT NULL REFERENCES lorebooks(id) ON DELETE CASCADE,
      target_kind TEXT NOT NULL CHECK (target_kind IN ('global', 'persona', 'flow', 'story')),
      target_id TEXT NOT NULL,
      PRIMARY KEY (book_id, target_kind, target_id)
    ) STRICT;
    CREATE INDEX lorebook_links_by_target ON lorebook_links(target_kind, target_id);

    CREATE TABLE lore_fired (
      node_id TEXT PRIMARY KEY,
      fired TEXT NOT NULL
    ) STRICT;

    CREATE TABLE authors_notes (
      target_kind TEXT NOT NULL CHECK (target_kind IN ('persona', 'flow')),
      target_id TEXT NOT NULL,
      text TEXT NOT NULL,
      depth INTEGER NOT NULL,
      every INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
      PRIMARY KEY (target_kind, target_id)
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-lorebooks', legacy: 33, up: migrate }
