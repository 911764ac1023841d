import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'

/**
 * units_words: the units' text again, indexed by word with FTS5's Porter stemmer, for BM25
 * ranking in the MemoryPack (retrieval.ts). The trigram index (units_fts) finds substrings and
 * Japanese; it cannot rank English by word ("painted" and "painting" share no useful trigram
 * weight, and common trigrams drown rare words). Contentless: the text is already stored once,
 * in units_fts; contentless_delete lets a unit's row be replaced by rowid.
 */
export function migrate(db: Database): void {
  db.exec(`
    create virtual table units_words using fts5(
      text, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
    );
    insert into units_words (rowid, text) select rowid, text from units_fts;
  `)
}

export const step: MigrationStep = { name: 'word-index', up: migrate }
