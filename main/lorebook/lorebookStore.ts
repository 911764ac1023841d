import type { AuthorsNote, LoreAttachment, LoreBookSettings, LoreEntry, LoreTargetKind } from '@shared/contract'
import type { Statement } from 'better-sqlite3'
import type { Db } from '../db/open'
import { statements } from '../db/statements'
import type { FiredRecord } from './loreEngine'

export interface BookRow {
  id: string
  name: string
  description: string
  settings: LoreBookSettings
  extra: Record<string, unknown>
  created_at: string
  updated_at: string
}

interface RawBookRow extends Omit<BookRow, 'settings' | 'extra'> {
  settings: string
  extra: string
}

const toBook = (r: RawBookRow): BookRow => ({ ...r, settings: JSON.parse(r.settings), extra: JSON.parse(r.extra) })

/** The lorebook tables of loomverse.db (migration 33). */
export class LorebookStore {
  /** Compiled statements, reused (db/statements.ts). */
  private readonly sql: (sql: string) => Statement

  constructor(readonly db: Db) {
    this.sql = statements(db)
  }

  books(): BookRow[] {
    return (this.sql('SELECT * FROM lorebooks ORDER BY name COLLATE NOCASE, created_at').all() as RawBookRow[]).map(
      toBook,
    )
  }

  book(id: string): BookRow | null {
    const row = this.sql('SELECT * FROM lorebooks WHERE id = ?').get(id) as RawBookRow | undefined
    return row ? toBook(row) : null
  }

  putBook(b: BookRow): void {
    this.sql(
      `INSERT INTO lorebooks (id, name, description, settings, extra, created_at, updated_at)
         VALUES (@id, @name, @description, @settings, @extra, @created_at, @updated_at)
       ON CONFLICT (id) DO UPDATE SET name = @name, description = @description, settings = @settings,
         extra = @extra, updated_at = @updated_at`,
    ).run({ ...b, settings: JSON.stringify(b.settings), extra: JSON.stringify(b.extra) })
  }

  touch(id: string, now: string): void {
    this.sql('UPDATE lorebooks SET updated_at = ? WHERE id = ?').run(now, id)
  }

  deleteBook(id: string): void {
    this.sql('DELETE FROM lorebooks WHERE id = ?').run(id)
  }

  entries(bookId: string): LoreEntry[] {
    const rows = this.sql('SELECT uid, entry FROM lorebook_entries WHERE book_id = ? ORDER BY uid').all(bookId) as {
      uid: number
      entry: string
    }[]
    return rows.map((r) => ({ ...JSON.parse(r.entry), uid: r.uid }))
  }

  entryCounts(): Map<string, number> {
    const rows = this.sql('SELECT book_id, COUNT(*) AS n FROM lorebook_entries GROUP BY book_id').all() as {
      book_id: string
      n: number
    }[]
    return new Map(rows.map((r) => [r.book_id, r.n]))
  }

  putEntry(bookId: string, entry: LoreEntry): void {
    const { uid, ...rest } = entry
    this.sql(
      `INSERT INTO lorebook_entries (book_id, uid, entry) VALUES (?, ?, ?)
       ON CONFLICT (book_id, uid) DO UPDATE SET entry = excluded.entry`,
    ).run(bookId, uid, JSON.stringify(rest))
  }

  deleteEntry(bookId: string, uid: number): boolean {
    return this.sql('DELETE FROM lorebook_entries WHERE book_id = ? AND uid = ?').run(bookId, uid).changes > 0
  }

  attachments(bookId: string): LoreAttachment[] {
    const rows = this.sql(
      'SELECT target_kind AS kind, target_id FROM lorebook_links WHERE book_id = ? ORDER BY target_kind, target_id',
    ).all(bookId) as LoreAttachment[]
    return rows
  }

  attach(bookId: string, kind: LoreTargetKind, targetId: string): void {
    this.sql('INSERT OR IGNORE INTO lorebook_links (book_id, target_kind, target_id) VALUES (?, ?, ?)').run(
      bookId,
      kind,
      targetId,
    )
  }

  detach(bookId: string, kind: LoreTargetKind, targetId: string): void {
    this.sql('DELETE FROM lorebook_links WHERE book_id = ? AND target_kind = ? AND target_id = ?').run(
      bookId,
      kind,
      targetId,
    )
  }

  /**
   * Books attached to any of these targets, once each: by target in the order given, then as
   * linked. One statement for all of them (a turn asks before its model's request leaves).
   */
  booksAttached(targets: readonly { kind: LoreTargetKind; id: string }[]): string[] {
    if (targets.length === 0) return []
    const anyOf = targets.map(() => '(target_kind = ? AND target_id = ?)').join(' OR ')
    const rows = this.sql(`SELECT book_id, target_kind, target_id FROM lorebook_links WHERE ${anyOf} ORDER BY rowid`)
      .raw(true)
      .all(...targets.flatMap((t) => [t.kind, t.id])) as Array<[string, string, string]>
    const place = (kind: string, id: string) => targets.findIndex((t) => t.kind === kind && t.id === id)
    rows.sort((a, b) => place(a[1], a[2]) - place(b[1], b[2]))
    return [...new Set(rows.map(([book]) => book))]
  }

  recordFired(nodeId: string, fired: readonly FiredRecord[]): void {
    // Nothing fired reads as no row: a turn without lore (most turns) writes nothing before its
    // model request leaves. A write there took the write lock, and waited for whoever held it.
    if (fired.length === 0) {
      if (this.sql('SELECT 1 FROM lore_fired WHERE node_id = ?').get(nodeId))
        this.sql('DELETE FROM lore_fired WHERE node_id = ?').run(nodeId)
      return
    }
    this.sql('INSERT OR REPLACE INTO lore_fired (node_id, fired) VALUES (?, ?)').run(nodeId, JSON.stringify(fired))
  }

  fired(nodeId: string): FiredRecord[] {
    const text = this.sql('SELECT fired FROM lore_fired WHERE node_id = ?').pluck().get(nodeId) as string | undefined
    return text ? JSON.parse(text) : []
  }

  /**
   * A target's note, else (`fallback`) a persona's, with where it came from; null when neither
   * has one. One statement for both (a turn asks before its model's request leaves).
   */
  noteOrPersonas(
    kind: 'persona' | 'flow',
    targetId: string,
    fallback: string | null,
  ): { own: boolean; note: AuthorsNote } | null {
    const rows = this.sql(
      `SELECT target_kind AS kind, target_id AS id, text, depth, every, role FROM authors_notes
       WHERE (target_kind = ? AND target_id = ?) OR (target_kind = 'persona' AND target_id = ?)`,
    ).all(kind, targetId, fallback) as Array<AuthorsNote & { kind: string; id: string }>
    const own = rows.find((r) => r.kind === kind && r.id === targetId)
    const row = own ?? rows[0]
    if (!row) return null
    const { kind: _kind, id: _id, ...note } = row
    return { own: row === own, note }
  }

  putNote(kind: 'persona' | 'flow', targetId: string, note: AuthorsNote): void {
    this.sql(
      `INSERT INTO authors_notes (target_kind, target_id, text, depth, every, role) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (target_kind, target_id) DO UPDATE SET text = excluded.text, depth = excluded.depth,
         every = excluded.every, role = excluded.role`,
    ).run(kind, targetId, note.text, note.depth, note.every, note.role)
  }

  deleteNote(kind: 'persona' | 'flow', targetId: string): void {
    this.sql('DELETE FROM authors_notes WHERE target_kind = ? AND target_id = ?').run(kind, targetId)
  }
}
