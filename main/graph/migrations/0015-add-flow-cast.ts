import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * Group scenes (issue #40): a conversation may have a cast of several personas (`flows.cast_json`:
 * `[{persona_id, muted}]` in the order they take turns; a muted one speaks only when picked by
 * hand), a way of choosing who speaks next (`flows.turn_order`), and each reply names the persona
 * who spoke it (`nodes.speaker_id`; null for a reply made before, or without a persona: the flow's
 * own). The cast is a column of the flow, not a table: every read of a flow carries it, and a
 * table would cost each of them a second query.
 */
export function migrate(db: Database): void {
  db.exec(`
    ALTER TABLE flows ADD COLUMN cast_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(cast_json));
    ALTER TABLE flows ADD COLUMN turn_order TEXT NOT NULL DEFAULT 'addressed'
      CHECK (turn_order IN ('manual', 'round_robin', 'addressed'));
    ALTER TABLE nodes ADD COLUMN speaker_id TEXT;
  `)
}

export const step: DomainStep = { name: 'add-flow-cast', legacy: 35, up: migrate }
