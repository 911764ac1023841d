import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Story mode (NovelADV seed). The scenario's Markdown files are the source of truth on disk;
 * these tables keep what files cannot: which flow and persona play a story and where play
 * stands, the story so far per node (a summary belongs to the node where it was made, so a
 * branch has its own), named saves, and every version of a character sheet.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE stories (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      flow_id TEXT NOT NULL,
      persona_id TEXT NOT NULL,
      -- 1: the game master was made for this story (a fork gets its own); 0: the user's persona.
      own_persona INTEGER NOT NULL DEFAULT 1,
      language TEXT NOT NULL CHECK (language IN ('ja', 'en')),
      template TEXT NOT NULL,
      current_node_id TEXT,
      redo_node_id TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX stories_by_flow ON stories(flow_id);

    CREATE TABLE story_summaries (
      id INTEGER PRIMARY KEY,
      story_id TEXT NOT NULL REFERENCES stories(id) ON DELETE CASCADE,
      node_id TEXT NOT NULL,
      covered_node_id TEXT NOT NULL,
      turns INTEGER NOT NULL,
      path_turns INTEGER NOT NULL,
      text TEXT NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX story_summaries_by_node ON story_summaries(story_id, node_id);

    CREATE TABLE story_saves (
      id INTEGER PRIMARY KEY,
      story_id TEXT NOT NULL REFERENCES stories(id) ON DELETE CASCADE,
      node_id TEXT NOT NULL,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX story_saves_by_story ON story_saves(story_id);

    CREATE TABLE story_sheet_versions (
      id INTEGER PRIMARY KEY,
      story_id TEXT NOT NULL REFERENCES stories(id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      reason TEXT NOT NULL CHECK (reason IN ('summary', 'user', 'revert', 'generated')),
      status TEXT NOT NULL CHECK (status IN ('unreviewed', 'accepted', 'reverted', 'refused')),
      before TEXT,
      after TEXT NOT NULL,
      note TEXT NOT NULL DEFAULT '',
      node_id TEXT,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX story_sheet_versions_by_path ON story_sheet_versions(story_id, path);
  `)
}

export const step: DomainStep = { name: 'create-stories', legacy: 20, up: migrate }
