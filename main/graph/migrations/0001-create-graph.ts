import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'

/**
 * The conversation graph (VizPrompt seed §4–5). A node can belong to several flows
 * (`flow_nodes`), each flow numbering its nodes with a stable index and keeping its own
 * canvas positions, pins and connections.
 */
export function migrate(db: Database): void {
  db.exec(`
    CREATE TABLE flows (
      id            TEXT PRIMARY KEY,
      name          TEXT NOT NULL,
      description   TEXT NOT NULL DEFAULT '',
      persona_id    TEXT,
      system_prompt TEXT NOT NULL DEFAULT '',
      token_budget  INTEGER,
      created       TEXT NOT NULL,
      updated       TEXT NOT NULL,
      next_index    INTEGER NOT NULL DEFAULT 1
    ) STRICT;

    CREATE TABLE nodes (
      id                 TEXT PRIMARY KEY,
      timestamp          TEXT NOT NULL,
      prompt             TEXT NOT NULL,
      response           TEXT NOT NULL DEFAULT '',
      status             TEXT NOT NULL DEFAULT 'complete'
                         CHECK (status IN ('complete', 'streaming', 'incomplete', 'error')),
      model              TEXT NOT NULL DEFAULT '',
      stats_json         TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(stats_json)),
      summary_text       TEXT NOT NULL DEFAULT '',
      summary_updated    INTEGER NOT NULL DEFAULT 1,
      summary_last_built TEXT
    ) STRICT;

    CREATE TABLE node_tags (
      node_id  TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
      tag      TEXT NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (node_id, tag)
    ) STRICT;
    CREATE INDEX node_tags_by_tag ON node_tags(tag);

    CREATE TABLE flow_nodes (
      flow_id TEXT NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
      node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
      idx     INTEGER NOT NULL,
      x       REAL,
      y       REAL,
      pinned  INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (flow_id, node_id),
      UNIQUE (flow_id, idx)
    ) STRICT;
    CREATE INDEX flow_nodes_by_node ON flow_nodes(node_id);

    CREATE TABLE connections (
      flow_id   TEXT NOT NULL,
      source_id TEXT NOT NULL,
      target_id TEXT NOT NULL,
      PRIMARY KEY (flow_id, source_id, target_id),
      FOREIGN KEY (flow_id, source_id) REFERENCES flow_nodes(flow_id, node_id) ON DELETE CASCADE,
      FOREIGN KEY (flow_id, target_id) REFERENCES flow_nodes(flow_id, node_id) ON DELETE CASCADE,
      CHECK (source_id <> target_id)
    ) STRICT;
    CREATE INDEX connections_by_target ON connections(flow_id, target_id);

    -- Keyword search. trigram matches inside words, so Japanese (no spaces) works; queries
    -- shorter than three characters fall back to LIKE in code.
    CREATE VIRTUAL TABLE nodes_fts USING fts5(
      prompt, response, summary_text, content = 'nodes', content_rowid = 'rowid', tokenize = 'trigram'
    );
    CREATE TRIGGER nodes_fts_insert AFTER INSERT ON nodes BEGIN
      INSERT INTO nodes_fts (rowid, prompt, response, summary_text) VALUES (new.rowid, new.prompt, new.response, new.summary_text);
    END;
    CREATE TRIGGER nodes_fts_delete AFTER DELETE ON nodes BEGIN
      INSERT INTO nodes_fts (nodes_fts, rowid, prompt, response, summary_text) VALUES ('delete', old.rowid, old.prompt, old.response, old.summary_text);
    END;
    CREATE TRIGGER nodes_fts_update AFTER UPDATE OF prompt, response, summary_text ON nodes BEGIN
      INSERT INTO nodes_fts (nodes_fts, rowid, prompt, response, summary_text) VALUES ('delete', old.rowid, old.prompt, old.response, old.summary_text);
      INSERT INTO nodes_fts (rowid, prompt, response, summary_text) VALUES (new.rowid, new.prompt, new.response, new.summary_text);
    END;
  `)
}

export const step: DomainStep = { name: 'create-graph', legacy: 2, up: migrate }
