import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Personas, as SAIVerse's `ai` table: who they are (persona text), what they promised
 * (contract text) and which model plays each role. A role left NULL falls back to its
 * environment variable, then to the app default (see main/llm/models.ts).
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE ai (
      AIID              TEXT PRIMARY KEY,
      AINAME            TEXT NOT NULL,
      PERSONA_TEXT      TEXT NOT NULL DEFAULT '',
      CONTRACT_TEXT     TEXT NOT NULL DEFAULT '',
      CHAT_MODEL        TEXT,
      LIGHTWEIGHT_MODEL TEXT,
      TEMPERATURE       REAL,
      MAX_TOKENS        INTEGER,
      CREATED_AT        TEXT NOT NULL,
      UPDATED_AT        TEXT NOT NULL
    ) STRICT;
  `)
}

export const step: DomainStep = { name: 'create-ai', legacy: 6, up: migrate }
